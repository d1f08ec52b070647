//! What counting a turn's days decides: days counted, counts ended, healing, sites destroyed and
//! the end of the round. Events carry their outcomes (days, troops healed) so projections never
//! recompute the rules.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::count::CountEnd;
use super::heal::LineHealed;
use super::victory::Victory;
use crate::coalition::army::Team;
use crate::coalition::map::{SiteKind, Square};
use crate::EventType;

/// An event of the days rules (seed 003 §1.5, §1.7, §2.3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type")]
pub enum DaysEvent {
    /// An army counted a day in its portal, a base of its colors or a town (§1.5, §2.3.1).
    #[serde(rename = "coalition.DayCounted")]
    DayCounted {
        /// The army.
        army: String,
        /// Where.
        square: Square,
        /// The site there.
        site: SiteKind,
        /// Days counted there so far.
        days: u32,
    },
    /// Troops an army lost during its count, stamped with the day in progress (§2.3.1).
    #[serde(rename = "coalition.LossesRecorded")]
    LossesRecorded {
        /// The army.
        army: String,
        /// Where it counts.
        square: Square,
        /// The day in progress when they were lost.
        day: u32,
        /// Troops lost per line, in `Army::troops` order.
        losses: Vec<u32>,
    },
    /// An army's day count ended: it moved, was defeated, or can no longer count there.
    #[serde(rename = "coalition.DayCountReset")]
    DayCountReset {
        /// The army.
        army: String,
        /// Where it had been counting.
        square: Square,
        /// Days it had counted.
        days: u32,
        /// Why the count ended.
        reason: CountEnd,
    },
    /// An army healed lost troops (§2.3.1).
    #[serde(rename = "coalition.ArmyHealed")]
    ArmyHealed {
        /// The army.
        army: String,
        /// Where.
        square: Square,
        /// Days counted when it healed.
        days: u32,
        /// The lines raised.
        lines: Vec<LineHealed>,
    },
    /// An army counted a day in an enemy base or portal (§1.7.1).
    #[serde(rename = "coalition.SiegeDayCounted")]
    SiegeDayCounted {
        /// The besieging army.
        army: String,
        /// The site's square.
        square: Square,
        /// The site.
        site: SiteKind,
        /// Days counted there so far.
        days: u32,
    },
    /// A siege ended without destroying the site.
    #[serde(rename = "coalition.SiegeLifted")]
    SiegeLifted {
        /// The besieging army.
        army: String,
        /// The site's square.
        square: Square,
        /// Days it had counted.
        days: u32,
        /// Why it ended.
        reason: CountEnd,
    },
    /// An army held an enemy site a turn after counting 4 days there and destroyed it (§1.7.1).
    #[serde(rename = "coalition.SiteDestroyed")]
    SiteDestroyed {
        /// The site's square.
        square: Square,
        /// The site's name.
        site: String,
        /// What it was.
        kind: SiteKind,
        /// The army that destroyed it.
        by: String,
    },
    /// All of one team's win conditions are destroyed: `team` must now count 4 days in one of its
    /// own (§1.7.2).
    #[serde(rename = "coalition.EndGameBegan")]
    EndGameBegan {
        /// The team that must count.
        team: Team,
    },
    /// An army counted a day towards winning the game in one of its team's win conditions
    /// (§1.7.2).
    #[serde(rename = "coalition.WinConditionDayCounted")]
    WinConditionDayCounted {
        /// The army.
        army: String,
        /// The win condition's square.
        square: Square,
        /// Days counted there since the end game began.
        days: u32,
    },
    /// A team won the round.
    #[serde(rename = "coalition.RoundWon")]
    RoundWon {
        /// Who won, how, and by which rule.
        victory: Victory,
    },
}

impl EventType for DaysEvent {}
