//! Sites on the map: the 5 Phyrexian portals, the 7 colored Coalition bases and the 3 neutral
//! towns (seed 003 §1.1, §2.5.1).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Square;

/// The seven Coalition factions, which are also the colors of its bases (seed 003 §1.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Faction {
    /// Red.
    Red,
    /// White.
    White,
    /// Blue.
    Blue,
    /// Green.
    Green,
    /// Black.
    Black,
    /// 5-Color (multicolored creatures, seed 003 §2.2.1).
    FiveColor,
    /// Colorless (artifacts).
    Colorless,
}

/// What a site is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SiteKind {
    /// A Phyrexian portal (seed 003 §1.1.1).
    Portal,
    /// A Coalition base of a faction's color (seed 003 §1.1.2).
    Base {
        /// The base's color.
        color: Faction,
    },
    /// A neutral town (seed 003 §2.5.1.4).
    Town,
}

/// A portal, base or town.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Site {
    /// Its name ("Red Base", "Portal of Yawgmoth").
    pub name: String,
    /// Where it is.
    pub square: Square,
    /// What it is.
    pub kind: SiteKind,
    /// Whether it has been destroyed (seed 003 §1.7.1).
    #[serde(default)]
    pub destroyed: bool,
    /// Whether it is one of its team's win conditions (seed 003 §2.5.1.3).
    #[serde(default)]
    pub win_condition: bool,
    /// The location description strategies may use (seed 003 §2.5.1.2).
    #[serde(default)]
    pub description: String,
}
