//! A round's army lists: one army per player, the number of armies of each rank, and every army's
//! troop list (seed 003 §2.5.2).

use std::collections::BTreeSet;

use super::army::{validate_army, ArmyContext};
use super::player::{validate_players, Player};
use super::rule;
use crate::coalition::army::{Army, RankClass, Team};
use crate::RuleError;

/// Every rank class, largest first.
pub const RANK_CLASSES: [RankClass; 6] = [
    RankClass::ChiefPraetorGeneral,
    RankClass::PraetorAdmiral,
    RankClass::EvincarCaptain,
    RankClass::PlaguelordCommander,
    RankClass::CplLtCommander,
    RankClass::CenturionLieutenant,
];

/// The most armies — and players — of a rank class on one side (seed 003 §2.5.2.1): 1, 2, 7, 7 and
/// 14 for the top five classes; `None` for Centurion/Lt, which has no limit.
pub fn rank_class_maximum(class: RankClass) -> Option<usize> {
    match class {
        RankClass::ChiefPraetorGeneral => Some(1),
        RankClass::PraetorAdmiral => Some(2),
        RankClass::EvincarCaptain | RankClass::PlaguelordCommander => Some(7),
        RankClass::CplLtCommander => Some(14),
        RankClass::CenturionLieutenant => None,
    }
}

/// The rank class as the seed names it ("Evincar/Captain").
pub fn rank_class_name(class: RankClass) -> &'static str {
    match class {
        RankClass::ChiefPraetorGeneral => "Chief Praetor/General",
        RankClass::PraetorAdmiral => "Praetor/Admiral",
        RankClass::EvincarCaptain => "Evincar/Captain",
        RankClass::PlaguelordCommander => "Plaguelord/Commander",
        RankClass::CplLtCommander => "CPL/Lt Cmdr",
        RankClass::CenturionLieutenant => "Centurion/Lt",
    }
}

/// Check how many armies of each rank the two sides start with (seed 003 §2.5.2.1): for every rank
/// class, no side above [`rank_class_maximum`]; each side at least as many as its players holding
/// that rank, "so that each player will at least be able to create themself an army"; and both
/// sides the same number. Mercenary armies are not counted (they join after, §2.5.3).
pub fn validate_army_counts(armies: &[Army], players: &[Player]) -> Result<(), RuleError> {
    for class in RANK_CLASSES {
        let name = rank_class_name(class);
        let armies_of = |team: Team| armies.iter().filter(|army| army.team == team && army.rank == class).count();
        let (phyrexia, coalition) = (armies_of(Team::Phyrexia), armies_of(Team::Coalition));
        if let Some(maximum) = rank_class_maximum(class).filter(|maximum| phyrexia.max(coalition) > *maximum) {
            return Err(RuleError::new(
                "coalition.setup.too_many_armies",
                format!("a side has {} {name} armies; at most {maximum} may be created", phyrexia.max(coalition)),
                rule("2.5.2.1"),
            ));
        }
        for (team, count, side) in
            [(Team::Phyrexia, phyrexia, "Phyrexia"), (Team::Coalition, coalition, "the Coalition")]
        {
            let holders =
                players.iter().filter(|player| player.team == team && player.army_class() == Some(class)).count();
            if count < holders {
                return Err(RuleError::new(
                    "coalition.setup.too_few_armies",
                    format!("{side} has {holders} players ranked {name} but only {count} such armies"),
                    rule("2.5.2.1"),
                ));
            }
        }
        if phyrexia != coalition {
            return Err(RuleError::new(
                "coalition.setup.uneven_armies",
                format!("Phyrexia has {phyrexia} {name} armies and the Coalition {coalition}; each side starts with the same number"),
                rule("2.5.2.1"),
            ));
        }
    }
    Ok(())
}

/// Check both teams' army lists for a new round (seed 003 §2.5.2): the players (see
/// [`validate_players`]); army names unique; every army legal ([`validate_army`], legends checked
/// against all the others); the counts of [`validate_army_counts`]; and each player army true to
/// its creator — a player of its team who can command armies (not a Drudge or Cadet, §1.1), of the
/// army's rank ("each player will at least be able to create themself an army", §2.5.2.1), whose
/// factions are the army's colors (§2.2.1.1), with one army named after each player (§2.5.2.2).
/// Mercenaries are checked apart, by [`validate_mercenaries`](super::validate_mercenaries).
pub fn validate_round_armies(armies: &[Army], players: &[Player]) -> Result<(), RuleError> {
    validate_players(players)?;
    let mut names = BTreeSet::new();
    let mut creators = BTreeSet::new();
    for army in armies {
        let refuse = |code: &str, message: String, section: &str| Err(RuleError::new(code, message, rule(section)));
        if army.team == Team::Mercenary {
            return refuse(
                "coalition.setup.mercenary_in_team_list",
                format!("{} is a mercenary: mercenaries are added after the teams' armies", army.name),
                "2.5.3",
            );
        }
        if !names.insert(army.name.trim().to_lowercase()) {
            return refuse("coalition.setup.duplicate_army", format!("two armies are named {}", army.name), "2.5.2.2");
        }
        validate_army(army, &ArmyContext { other_armies: armies, ..ArmyContext::default() })?;
        let Some(creator) = &army.creator else { continue };
        let key = creator.trim().to_lowercase();
        let Some(player) = players.iter().find(|player| player.name.trim().to_lowercase() == key) else {
            return refuse(
                "coalition.setup.unknown_creator",
                format!("{} is named after {creator}, who is not a player", army.name),
                "2.5.2.2",
            );
        };
        if player.team != army.team {
            return refuse(
                "coalition.setup.creator_on_other_team",
                format!("{} belongs to the other team from its creator {creator}", army.name),
                "2.5.2.2",
            );
        }
        if player.army_class() != Some(army.rank) {
            return refuse(
                "coalition.setup.army_rank_not_creator_rank",
                format!(
                    "{} is a {} army but {creator} cannot create one of that rank",
                    army.name,
                    rank_class_name(army.rank)
                ),
                "2.5.2.1",
            );
        }
        let army_colors: BTreeSet<_> = army.colors.iter().collect();
        if army.team == Team::Coalition && army_colors != player.factions.iter().collect() {
            return refuse(
                "coalition.setup.army_colors_not_creator_colors",
                format!("{}'s colors must be its creator {creator}'s factions at the start of the round", army.name),
                "2.2.1.1",
            );
        }
        if !creators.insert(key) {
            return refuse(
                "coalition.setup.creator_has_army",
                format!("{creator} already has an army named after them"),
                "2.5.2.2",
            );
        }
    }
    validate_army_counts(armies, players)
}
