//! The neutral mercenaries a round starts with (seed 003 §2.5.3, ch. 6).
//!
//! What is enforced: each mercenary army is legal as an army (sizes, types, legend, bans; ch. 6
//! sets no color limits and gives them no factions) and of its faction's rank; the round starts
//! with 3 Town Defenders (2/2–5/5 rank, §6.1), 4 Theme armies (3/3–6/6, §6.2) and 3 Raiders — two
//! 1/1–4/4 and one 2/2–5/5 (§6.3). Where they start (a town for each Town Defender, random squares
//! away from bases for the others) and what they do later (AI guidelines, healing, spawning,
//! disbanding) are the Mercenary Judge's calls and the turn's rules, not setup's.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::army::{validate_army, ArmyContext};
use super::round::rank_class_name;
use super::rule;
use crate::coalition::army::{Army, RankClass, Team};
use crate::RuleError;

/// The three mercenary factions (seed 003 ch. 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MercenaryFaction {
    /// Town Defender Faction: keeps one neutral town (§6.1).
    TownDefender,
    /// Theme Army Faction: defends its territory, one of them the oceans (§6.2).
    Theme,
    /// Raider Faction: loots weakened armies (§6.3).
    Raider,
}

impl MercenaryFaction {
    /// The rank classes its armies may have: Town Defenders 2/2–5/5 (§6.1), Theme armies 3/3–6/6
    /// (§6.2), Raiders 1/1–4/4 or 2/2–5/5 (§6.3).
    pub fn rank_classes(self) -> &'static [RankClass] {
        match self {
            Self::TownDefender => &[RankClass::CplLtCommander],
            Self::Theme => &[RankClass::PlaguelordCommander],
            Self::Raider => &[RankClass::CenturionLieutenant, RankClass::CplLtCommander],
        }
    }

    /// The armies of each rank class it starts a round with: 3 Town Defenders, 4 Theme armies, and
    /// two 1/1 and one 2/2 rank Raiders (§6.1–6.3).
    pub fn starting_armies(self) -> &'static [(RankClass, usize)] {
        match self {
            Self::TownDefender => &[(RankClass::CplLtCommander, 3)],
            Self::Theme => &[(RankClass::PlaguelordCommander, 4)],
            Self::Raider => &[(RankClass::CenturionLieutenant, 2), (RankClass::CplLtCommander, 1)],
        }
    }

    /// The faction's name as the seed writes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::TownDefender => "Town Defender",
            Self::Theme => "Theme",
            Self::Raider => "Raider",
        }
    }

    fn section(self) -> &'static str {
        match self {
            Self::TownDefender => "6.1",
            Self::Theme => "6.2",
            Self::Raider => "6.3",
        }
    }
}

/// A mercenary army and the faction it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MercenaryArmy {
    /// Its faction.
    pub faction: MercenaryFaction,
    /// The army; its team is `mercenary`.
    pub army: Army,
}

/// Check one mercenary army (ch. 6): on the mercenary team, of a rank its faction has, and legal
/// as an army ([`validate_army`]).
pub fn validate_mercenary_army(mercenary: &MercenaryArmy, context: &ArmyContext<'_>) -> Result<(), RuleError> {
    let army = &mercenary.army;
    let section = mercenary.faction.section();
    if army.team != Team::Mercenary {
        return Err(RuleError::new(
            "coalition.setup.mercenary_team",
            format!("{} is listed as a mercenary but belongs to a player team", army.name),
            rule(section),
        ));
    }
    if !mercenary.faction.rank_classes().contains(&army.rank) {
        return Err(RuleError::new(
            "coalition.setup.mercenary_rank",
            format!("{} cannot be a {} army in its mercenary faction", army.name, rank_class_name(army.rank)),
            rule(section),
        ));
    }
    validate_army(army, context)
}

/// Check the mercenaries a round starts with (seed 003 §2.5.3, ch. 6): each army as in
/// [`validate_mercenary_army`] (legends checked against the teams' `team_armies` and each other),
/// names unique among all armies, and each faction's starting armies exactly as
/// [`MercenaryFaction::starting_armies`] lists.
pub fn validate_mercenaries(mercenaries: &[MercenaryArmy], team_armies: &[Army]) -> Result<(), RuleError> {
    let mut all: Vec<Army> = team_armies.to_vec();
    all.extend(mercenaries.iter().map(|mercenary| mercenary.army.clone()));
    let mut names = BTreeSet::new();
    for army in &all {
        if !names.insert(army.name.trim().to_lowercase()) {
            return Err(RuleError::new(
                "coalition.setup.duplicate_army",
                format!("two armies are named {}", army.name),
                rule("2.5.3"),
            ));
        }
    }
    for mercenary in mercenaries {
        validate_mercenary_army(mercenary, &ArmyContext { other_armies: &all, ..ArmyContext::default() })?;
    }
    for faction in [MercenaryFaction::TownDefender, MercenaryFaction::Theme, MercenaryFaction::Raider] {
        for (class, wanted) in faction.starting_armies() {
            let found = mercenaries.iter().filter(|m| m.faction == faction && m.army.rank == *class).count();
            if found != *wanted {
                return Err(RuleError::new(
                    "coalition.setup.mercenary_count",
                    format!(
                        "{found} {} mercenaries of {} rank; a round starts with {wanted}",
                        faction.name(),
                        rank_class_name(*class)
                    ),
                    rule(faction.section()),
                ));
            }
        }
    }
    Ok(())
}
