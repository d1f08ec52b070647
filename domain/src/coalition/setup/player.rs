//! Players: their team, rank and, in the Coalition, their factions (seed 003 §1.1).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::colors::faction_name;
use super::round::rank_class_maximum;
use super::rule;
use crate::coalition::army::{RankClass, Team};
use crate::coalition::map::Faction;
use crate::coalition::rank::Rank;
use crate::RuleError;

/// A player of the campaign (seed 003 §1.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Sai Rei", "team": "coalition", "rank": "commander", "factions": ["black", "red"], "rank_faction": "black"}))]
pub struct Player {
    /// The screen name the player posts under (seed 003 §1.6).
    pub name: String,
    /// Phyrexia or the Coalition; mercenaries are the Mercenary Judge's, not a player's (ch. 6).
    pub team: Team,
    /// The rank on the team's ladder (§1.1.1, §1.1.2), Drudge or Cadet included.
    pub rank: Rank,
    /// Coalition factions claimed, up to 3 (§1.1.2); none for Phyrexians.
    #[serde(default)]
    pub factions: Vec<Faction>,
    /// The one claimed faction the player holds the rank in (§1.1.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank_faction: Option<Faction>,
}

impl Player {
    /// The player's rank within `faction` (seed 003 §1.1.2): the held rank in the rank faction,
    /// Lieutenant in the other claimed factions, `None` in factions not claimed. A leader who holds
    /// no rank in a faction is a Lieutenant in each faction claimed.
    pub fn rank_in(&self, faction: Faction) -> Option<Rank> {
        if !self.factions.contains(&faction) {
            None
        } else if self.rank_faction == Some(faction) {
            Some(self.rank)
        } else {
            Some(Rank::Lieutenant)
        }
    }

    /// The class of army the player's rank commands; `None` for Drudges and Cadets (§1.1).
    pub fn army_class(&self) -> Option<RankClass> {
        self.rank.class()
    }
}

/// The rank's name as the seed writes it ("Chief Praetor", "Lt. Commander").
pub fn rank_name(rank: Rank) -> &'static str {
    match rank {
        Rank::ChiefPraetor => "Chief Praetor",
        Rank::Praetor => "Praetor",
        Rank::Evincar => "Evincar",
        Rank::Plaguelord => "Plaguelord",
        Rank::Cpl => "CPL",
        Rank::Centurion => "Centurion",
        Rank::Drudge => "Drudge",
        Rank::General => "General",
        Rank::Admiral => "Admiral",
        Rank::Captain => "Captain",
        Rank::Commander => "Commander",
        Rank::LtCommander => "Lt. Commander",
        Rank::Lieutenant => "Lieutenant",
        Rank::Cadet => "Cadet",
    }
}

/// Check one player (seed 003 §1.1): a name; one of the two teams; a rank on that team's ladder;
/// Phyrexians claim no factions; Coalition players claim up to 3 distinct factions and hold their
/// rank in one of them. The three leaders stand above the factions ("except for the 3 leaders, the
/// Coalition is split into 7 factions"), so they may claim none, and name a rank faction only if
/// they choose; every other Coalition player belongs to at least one faction and holds the rank in
/// one.
pub fn validate_player(player: &Player) -> Result<(), RuleError> {
    let name = player.name.trim();
    let refuse = |code: &str, message: String, section: &str| Err(RuleError::new(code, message, rule(section)));
    if name.is_empty() {
        return refuse("coalition.setup.player_without_name", "a player needs a screen name".into(), "1.6");
    }
    if player.team == Team::Mercenary {
        return refuse(
            "coalition.setup.player_team",
            format!("{name} must join Phyrexia or the Coalition; mercenaries are run by the Mercenary Judge"),
            "1.1",
        );
    }
    if player.rank.team() != player.team {
        return refuse(
            "coalition.setup.rank_not_on_team",
            format!("{name} cannot hold {}, a rank of the other team", rank_name(player.rank)),
            if player.team == Team::Phyrexia { "1.1.1" } else { "1.1.2" },
        );
    }
    if player.team == Team::Phyrexia {
        if !player.factions.is_empty() || player.rank_faction.is_some() {
            return refuse(
                "coalition.setup.factions_outside_coalition",
                format!("{name} is Phyrexian; only Coalition players claim factions"),
                "1.1.2",
            );
        }
        return Ok(());
    }
    let distinct: BTreeSet<Faction> = player.factions.iter().copied().collect();
    if distinct.len() != player.factions.len() {
        return refuse("coalition.setup.duplicate_faction", format!("{name} claims a faction twice"), "1.1.2");
    }
    if distinct.len() > 3 {
        return refuse(
            "coalition.setup.too_many_factions",
            format!("{name} claims {} factions; a player may claim up to 3", distinct.len()),
            "1.1.2",
        );
    }
    match player.rank_faction {
        Some(faction) if !distinct.contains(&faction) => refuse(
            "coalition.setup.rank_faction_not_claimed",
            format!("{name} holds a rank in {}, a faction not claimed", faction_name(faction)),
            "1.1.2",
        ),
        None if !player.rank.is_leader() => refuse(
            "coalition.setup.rank_faction_missing",
            format!("{name} must claim a faction and hold the rank in one of those claimed"),
            "1.1.2",
        ),
        _ => Ok(()),
    }
}

/// Check a team roster (seed 003 §1.1, §2.5.2.1): every player valid, names unique (ignoring
/// case), no more players of a rank than the rank allows — 1 Chief Praetor/General, 2
/// Praetors/Admirals, 7 Evincars/Captains, 7 Plaguelords/Commanders, 14 CPLs/Lt Cmdrs per team —
/// and one Captain per faction (§1.1.2).
pub fn validate_players(players: &[Player]) -> Result<(), RuleError> {
    let mut names = BTreeSet::new();
    let mut per_rank: BTreeMap<(bool, RankClass), usize> = BTreeMap::new();
    let mut captains = BTreeSet::new();
    for player in players {
        validate_player(player)?;
        if !names.insert(player.name.trim().to_lowercase()) {
            return Err(RuleError::new(
                "coalition.setup.duplicate_player",
                format!("{} is listed twice", player.name.trim()),
                rule("1.6"),
            ));
        }
        if player.rank == Rank::Captain && !player.rank_faction.is_some_and(|faction| captains.insert(faction)) {
            return Err(RuleError::new(
                "coalition.setup.faction_has_captain",
                format!("{} would be a second Captain of their faction; each faction has one", player.name.trim()),
                rule("1.1.2"),
            ));
        }
        let Some(class) = player.army_class() else { continue };
        let count = per_rank.entry((player.team == Team::Coalition, class)).or_default();
        *count += 1;
        if let Some(maximum) = rank_class_maximum(class).filter(|maximum| *count > *maximum) {
            return Err(RuleError::new(
                "coalition.setup.rank_full",
                format!(
                    "{} would be player {count} ranked {}; at most {maximum} may hold it",
                    player.name.trim(),
                    rank_name(player.rank)
                ),
                rule("2.5.2.1"),
            ));
        }
    }
    Ok(())
}
