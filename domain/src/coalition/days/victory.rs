//! Winning the round (seed 003 §1.7.2–1.7.3).
//!
//! §1.7.2: when all of one team's win conditions are destroyed, the other team must move an army
//! into one of its own win conditions and count 4 days there; an army that is defeated starts
//! again from 0; several armies may count at once and any one of them wins.
//!
//! Readings. Win conditions are the sites flagged `win_condition` plus every portal ("all
//! Phyrexian portals are considered win conditions", §2.5.1.3). The 4 days are days of §1.5, so a
//! Coalition army counts them only in a base of its colors (§2.3.1.2); only days counted after
//! the end game began are counted, as the rule asks the team to count them then. If both teams
//! lose their last win condition in the same turn no team can count, and no winner is named: the
//! Battle Judge rules (§1.3).
//!
//! §1.7.3: a side that has lost all its armies ranked Captain/Evincar or higher loses. Reading:
//! "loses" them — a side that never had one (a small round) has lost nothing and does not lose.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::count::DayCount;
use super::event::DaysEvent;
use super::place::site_team;
use crate::coalition::army::{Army, Team};
use crate::coalition::map::{Map, Site, SiteKind, Square};

/// Days an army must count in one of its win conditions to win (seed 003 §1.7.2).
pub const WIN_DAYS: u32 = 4;

/// How a round was won.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum VictoryReason {
    /// An army counted 4 days in its own win condition after the enemy's were destroyed (§1.7.2).
    WinConditionHeld {
        /// The army.
        army: String,
        /// The win condition's square.
        square: Square,
        /// Days it counted there.
        days: u32,
    },
    /// The losing side has no army ranked Captain/Evincar or higher left (§1.7.3).
    CommandersDestroyed {
        /// The side that lost them.
        loser: Team,
    },
}

/// A team won the round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Victory {
    /// The winning team.
    pub team: Team,
    /// How.
    pub reason: VictoryReason,
    /// The rule applied.
    pub rule: String,
}

/// Whether `site` is one of its team's win conditions (seed 003 §2.5.1.3).
pub fn is_win_condition(site: &Site) -> bool {
    site.win_condition || site.kind == SiteKind::Portal
}

/// The team that must now count 4 days to win, if all of the other team's win conditions are
/// destroyed (seed 003 §1.7.2). A team with no win condition on the map has none to lose.
pub fn end_game_team(map: &Map) -> Option<Team> {
    let all_fallen = |team: Team| {
        let wins: Vec<&Site> =
            map.sites.values().filter(|site| is_win_condition(site) && site_team(site.kind) == Some(team)).collect();
        !wins.is_empty() && wins.iter().all(|site| site.destroyed)
    };
    match (all_fallen(Team::Phyrexia), all_fallen(Team::Coalition)) {
        (true, false) => Some(Team::Coalition),
        (false, true) => Some(Team::Phyrexia),
        _ => None,
    }
}

/// Days one army has counted in a win condition since the end game began.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WinConditionCount {
    /// The win condition's square.
    pub square: Square,
    /// Days counted there since the end game began.
    pub days: u32,
}

/// The end game of §1.7.2: the team that must count, and each of its armies' counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EndGame {
    /// The team whose armies count towards winning.
    pub team: Team,
    /// Counts by army name.
    #[serde(default)]
    pub counts: BTreeMap<String, WinConditionCount>,
}

impl EndGame {
    /// The end game for `team`, with no days counted yet.
    pub fn begin(team: Team) -> Self {
        Self { team, counts: BTreeMap::new() }
    }

    /// Follow one army's turn: `count` is its healing count after the turn, `counted` whether the
    /// turn counted a day. A count that ended, or is not in a standing win condition of the
    /// team, is dropped, so a defeated army starts again from 0.
    pub fn count_army(&mut self, army: &Army, map: &Map, count: Option<&DayCount>, counted: bool) -> Option<DaysEvent> {
        if army.team != self.team {
            return None;
        }
        let team = self.team;
        let at_win_condition = count.filter(|count| {
            map.site_at(count.square)
                .is_some_and(|site| is_win_condition(site) && !site.destroyed && site_team(site.kind) == Some(team))
        });
        let Some(count) = at_win_condition else {
            self.counts.remove(&army.name);
            return None;
        };
        let before = self.counts.get(&army.name).filter(|held| held.square == count.square).map(|held| held.days);
        if before.is_none() {
            self.counts.remove(&army.name);
        }
        if !counted {
            return None;
        }
        let days = before.unwrap_or(0).saturating_add(1);
        self.counts.insert(army.name.clone(), WinConditionCount { square: count.square, days });
        Some(DaysEvent::WinConditionDayCounted { army: army.name.clone(), square: count.square, days })
    }

    /// The victory, once an army has counted 4 days (the first by name if several did at once).
    pub fn victory(&self) -> Option<Victory> {
        self.counts.iter().find(|(_, held)| held.days >= WIN_DAYS).map(|(army, held)| Victory {
            team: self.team,
            reason: VictoryReason::WinConditionHeld { army: army.clone(), square: held.square, days: held.days },
            rule: "seed 003 §1.7.2".to_string(),
        })
    }
}

/// The victory of §1.7.3, given every army still alive and the teams that have had an army ranked
/// Captain/Evincar or higher (`commanded`): a side that had one and has none left has lost.
/// `None` while no side has lost them, or if both have.
pub fn army_destruction_victory<'a>(
    living: impl IntoIterator<Item = &'a Army>,
    commanded: &std::collections::BTreeSet<Team>,
) -> Option<Victory> {
    let (mut phyrexia, mut coalition) = (false, false);
    for army in living.into_iter().filter(|army| army.rank.is_captain_or_above()) {
        match army.team {
            Team::Phyrexia => phyrexia = true,
            Team::Coalition => coalition = true,
            Team::Mercenary => {}
        }
    }
    let lost = |team: Team, has: bool| commanded.contains(&team) && !has;
    let (team, loser) = match (lost(Team::Phyrexia, phyrexia), lost(Team::Coalition, coalition)) {
        (false, true) => (Team::Phyrexia, Team::Coalition),
        (true, false) => (Team::Coalition, Team::Phyrexia),
        _ => return None,
    };
    Some(Victory { team, reason: VictoryReason::CommandersDestroyed { loser }, rule: "seed 003 §1.7.3".to_string() })
}
