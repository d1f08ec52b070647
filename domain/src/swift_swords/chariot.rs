//! Chariots (seed 004 "Chariots", "Chariot Movement") at the scale of zones.
//!
//! Light chariots carry two at most and move at pace 9; heavy ones carry four and move at 7
//! (9 with a four-horse team). Each person over one (light) or two (heavy) costs −1 to driving
//! rolls and pace, except that a four-horse light chariot keeps its pace. Paces are inches: a
//! drive moves pace ÷ the zone's inches zones (at least one), a dash (charging or running) one
//! more. Rough going is −2 to driving rolls, difficult −4; impassable going stops a chariot.
//! A dash may make one 45° turn, and a second with a driving roll at −2 (light) or −4 (heavy):
//! fail and the chariot runs straight on, fumble and it flips. The seed's −N are read as −N dice.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::zones::{Direction, Going};

/// Light or heavy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsChariotKind)]
pub enum ChariotKind {
    /// Room for 2, pace 9.
    Light,
    /// Room for 4 (human sized), pace 7.
    Heavy,
}

/// A chariot, its team and its crew.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsChariot)]
pub struct ChariotSpec {
    /// A unique id.
    pub id: String,
    /// Light or heavy.
    pub kind: ChariotKind,
    /// Horses in the team: 2 or 4.
    pub horses: u8,
    /// The figure that is the horse team ("counts as one target based on a single horse").
    pub team: String,
    /// The figure driving.
    pub driver: String,
    /// Everyone aboard, the driver included.
    pub crew: Vec<String>,
    /// Where it faces.
    #[serde(default)]
    pub facing: Direction,
}

impl ChariotSpec {
    /// The most it carries.
    pub fn room(&self) -> usize {
        match self.kind {
            ChariotKind::Light => 2,
            ChariotKind::Heavy => 4,
        }
    }

    /// People aboard beyond those it carries without penalty.
    pub fn overloaded(&self) -> u32 {
        let free = match self.kind {
            ChariotKind::Light => 1,
            ChariotKind::Heavy => 2,
        };
        u32::try_from(self.crew.len().saturating_sub(free)).unwrap_or(0)
    }

    /// Its pace in inches.
    pub fn pace(&self) -> u32 {
        let base = match (self.kind, self.horses >= 4) {
            (ChariotKind::Light, _) => 9,
            (ChariotKind::Heavy, false) => 7,
            (ChariotKind::Heavy, true) => 9,
        };
        let keeps_pace = self.kind == ChariotKind::Light && self.horses >= 4;
        if keeps_pace {
            base
        } else {
            base - self.overloaded().min(base)
        }
    }

    /// Zones a drive moves.
    pub fn zones(&self, zone_inches: u8, dash: bool) -> u32 {
        (self.pace() / u32::from(zone_inches.max(1))).max(1) + u32::from(dash)
    }

    /// Dice off a second turn's driving roll.
    pub fn second_turn_penalty(&self) -> u32 {
        match self.kind {
            ChariotKind::Light => 2,
            ChariotKind::Heavy => 4,
        }
    }

    /// Targets its team may attack at once: a four-horse team or a heavy chariot 2, else 1.
    pub fn team_targets(&self) -> usize {
        if self.horses >= 4 || self.kind == ChariotKind::Heavy {
            2
        } else {
            1
        }
    }
}

/// Dice the going takes off driving rolls, or `None` where a chariot cannot go.
pub fn going_penalty(going: Going) -> Option<u32> {
    match going {
        Going::Open => Some(0),
        Going::Rough => Some(2),
        Going::Difficult => Some(4),
        Going::Impassable => None,
    }
}

/// One step of a drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = SwiftSwordsDriveStep)]
pub enum DriveStep {
    /// Turn to a new facing.
    Turn {
        /// The new facing.
        to: Direction,
    },
    /// Drive one zone ahead.
    Forward,
}

impl ChariotSpec {
    /// Bonus physical ranks of its team: "+1 Toughness" for two horses, "+3" for four (Herald
    /// reads Toughness as bonus ranks: they raise the damage a wound needs, absorbing nothing).
    pub fn team_bonus_ranks(&self) -> u8 {
        if self.horses >= 4 {
            3
        } else {
            1
        }
    }
}
