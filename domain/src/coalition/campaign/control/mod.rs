//! Control (seed 003 ch. 5): the control list as events, the two players per side with authority
//! to change it, contingencies, active and inactive players, and the limitations on changes.
//!
//! - [`activity`]: who is an active player (§5.1);
//! - [`limits`]: the rank, namesake and last-army limitations (§5.3.1, §5.3.2, §5.3.4; §5.3.3 is
//!   obsolete and recorded as such, never enforced);
//! - [`decide`]: the commands — control change requests, authority, emergencies, contingencies,
//!   inactivity declarations, rank changes, namesake permissions (§5.2, §5.3).
//!
//! Readings: the control list is each army's `controllers`; an army placed without controllers
//! belongs to the player of its name (§5.2.1); an empty list means no controller (a demotion,
//! §5.3.1). A change takes effect at the timestamp of its request (§5.2.1). What counts for a
//! turn's orders is the list at the movement lock (§5.4.2): the lock keeps a copy.

pub mod activity;
pub mod decide;
pub mod limits;

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::coalition::{army::Team, rank::Rank};

/// The two players of a side with authority to request changes to the control list (§5.2.2.1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Authority {
    /// The players holding it.
    pub holders: Vec<String>,
    /// Authorized by the judge in an emergency (§5.2.2.2): it lapses after `until_turn`.
    #[serde(default)]
    pub emergency_until_turn: Option<u32>,
    /// The holders before the emergency, who hold it again once it lapses.
    #[serde(default)]
    pub before_emergency: Vec<String>,
}

/// A leader's or a player's declaration that a player is inactive (§5.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Inactivity {
    /// Who declared it (the player, or a leader).
    pub by: String,
    /// When.
    pub at: DateTime<Utc>,
    /// Why.
    pub reason: String,
}

/// A change the judge accepted although it breaks §5.3: the side must be legal again after
/// `until_turn` (§5.2.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct IllegalControl {
    /// The army.
    pub army: String,
    /// Its side.
    pub team: Team,
    /// The limitations it breaks.
    pub violations: Vec<Violation>,
    /// The last turn it may stay so.
    pub until_turn: u32,
}

/// A limitation a control change breaks (§5.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Violation {
    /// The stable code, `coalition.campaign.<…>`.
    pub code: String,
    /// Why, in words.
    pub message: String,
    /// The rule.
    pub rule: String,
}

/// Everything control keeps besides each army's controllers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ControlState {
    /// Authority per side (§5.2.2.1).
    #[serde(default)]
    pub authority: BTreeMap<Team, Authority>,
    /// Each player's contingency (§5.2.3).
    #[serde(default)]
    pub contingencies: BTreeMap<String, String>,
    /// When each player last posted (§5.1).
    #[serde(default)]
    pub last_posted: BTreeMap<String, DateTime<Utc>>,
    /// Players declared inactive (§5.1).
    #[serde(default)]
    pub inactive: BTreeMap<String, Inactivity>,
    /// Namesake armies whose player allowed the side to take them away, by army (§5.3.2).
    #[serde(default)]
    pub permissions: BTreeMap<String, String>,
    /// Players a new army must be found for (§5.3.4).
    #[serde(default)]
    pub owed: BTreeSet<String>,
    /// Changes the judge accepted against §5.3 (§5.2.2.2).
    #[serde(default)]
    pub illegal: Vec<IllegalControl>,
    /// The control list at the movement lock (§5.4.2), until the turn is adjudicated.
    #[serde(default)]
    pub at_lock: Option<BTreeMap<String, BTreeSet<String>>>,
}

/// The control list changed (event `coalition.ControlChanged`, seed 003 §5.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ControlChanged {
    /// The army.
    pub army: String,
    /// Its controllers from now on (empty: no controller, §5.3.1).
    pub controllers: Vec<String>,
    /// Who asked: a player with authority, or `rank change` / `judge`.
    pub requested_by: String,
    /// When the change took effect (the request's timestamp, §5.2.1).
    pub at: DateTime<Utc>,
    /// Why.
    pub reason: String,
    /// The rule.
    pub rule: String,
}

/// A side's authority to request control changes was given (event
/// `coalition.ControlAuthorityGranted`, §5.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ControlAuthorityGranted {
    /// The side.
    pub team: Team,
    /// The two players who hold it now.
    pub holders: Vec<String>,
    /// Who gave it (a player, a judge, or `round set-up`).
    pub by: String,
    /// A judge's emergency authorization lasting until the end of this turn (§5.2.2.2).
    pub emergency_until_turn: Option<u32>,
    /// Why.
    pub reason: String,
}

/// A player's rank changed (event `coalition.PlayerRankChanged`; §1.1, §5.3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerRankChanged {
    /// The player.
    pub player: String,
    /// The old rank.
    pub from: Rank,
    /// The new rank.
    pub to: Rank,
    /// Who changed it.
    pub by: String,
}

/// A player's contingency was set or cleared (event `coalition.ContingencySet`, §5.2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ContingencySet {
    /// The player.
    pub player: String,
    /// The contingency, or none.
    pub contingency: Option<String>,
    /// Who set it.
    pub by: String,
}

/// A player was declared inactive, by themself or by a leader (event
/// `coalition.PlayerDeclaredInactive`, §5.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerDeclaredInactive {
    /// The player.
    pub player: String,
    /// Who declared it.
    pub by: String,
    /// When.
    pub at: DateTime<Utc>,
    /// Why.
    pub reason: String,
}

/// A player is active again: they said so, or posted (event `coalition.PlayerDeclaredActive`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlayerDeclaredActive {
    /// The player.
    pub player: String,
    /// When.
    pub at: DateTime<Utc>,
}

/// The battle judge rejected the leaders' declaration (event `coalition.InactivityRejected`, §5.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct InactivityRejected {
    /// The judge's call.
    pub call: super::judges::JudgeCall,
    /// The player.
    pub player: String,
    /// The declaration rejected.
    pub declaration: Inactivity,
    /// Why.
    pub reason: String,
}

/// A namesake player allowed the side to take their army away (event
/// `coalition.NamesakePermissionGiven`, §5.3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct NamesakePermissionGiven {
    /// The player.
    pub player: String,
    /// Their namesake army.
    pub army: String,
}

/// A new army must be found for a player (event `coalition.NewArmyOwed`, §5.3.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct NewArmyOwed {
    /// The player.
    pub player: String,
    /// Why.
    pub reason: String,
    /// The rule.
    pub rule: String,
}

/// The judge accepted a change that breaks §5.3 (event `coalition.IllegalControlAccepted`,
/// §5.2.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct IllegalControlAccepted {
    /// What was accepted and until when.
    pub accepted: IllegalControl,
    /// The judge's reason.
    pub reason: String,
}

/// A side did not return to a legal configuration in time: the illegal controllers are removed
/// (event `coalition.IllegalControlEnded`, §5.2.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct IllegalControlEnded {
    /// The army.
    pub army: String,
    /// Its controllers from now on.
    pub controllers: Vec<String>,
    /// The limitations it still broke.
    pub violations: Vec<Violation>,
}

impl ControlState {
    /// Rename a player everywhere control remembers them (seed 003 §1.6).
    pub fn rename_player(&mut self, from: &str, to: &str) {
        for authority in self.authority.values_mut() {
            for holder in authority.holders.iter_mut().chain(authority.before_emergency.iter_mut()) {
                if holder == from {
                    *holder = to.to_string();
                }
            }
        }
        let contingencies = std::mem::take(&mut self.contingencies);
        self.contingencies = contingencies
            .into_iter()
            .map(|(player, backup)| (rename(&player, from, to), rename(&backup, from, to)))
            .collect();
        rekey(&mut self.last_posted, from, to);
        rekey(&mut self.inactive, from, to);
        for player in self.permissions.values_mut() {
            *player = rename(player, from, to);
        }
        if self.owed.remove(from) {
            self.owed.insert(to.to_string());
        }
        for controllers in self.at_lock.iter_mut().flat_map(|list| list.values_mut()) {
            if controllers.remove(from) {
                controllers.insert(to.to_string());
            }
        }
    }
}

fn rename(name: &str, from: &str, to: &str) -> String {
    if name == from {
        to.to_string()
    } else {
        name.to_string()
    }
}

fn rekey<T>(map: &mut BTreeMap<String, T>, from: &str, to: &str) {
    if let Some(value) = map.remove(from) {
        map.insert(to.to_string(), value);
    }
}
