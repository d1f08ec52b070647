//! The table of a zone-rpg fight: zones the GM lays out as a graph (seed 001 is played in
//! zones: "move their full speed (typically 2 zones …)", "a bow (d6 damage, range 8)", "5 zones
//! of distance"), with their light, the cover, barriers and hazards in them, and the borders
//! between them.

mod routes;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use routes::Route;

use crate::dice::DiceExpr;

/// Whether characters in a zone can be seen (seed 001 "Attacking": "when the target isn't
/// visible, for example when fighting in complete darkness").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgLight)]
#[serde(rename_all = "snake_case")]
pub enum Light {
    /// Lit: characters in it are visible (unless concealed).
    #[default]
    Lit,
    /// Complete darkness: nobody in it is visible.
    Dark,
}

/// What stands between an attacker and a target (seed 001 "Cover").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgProtection)]
#[serde(rename_all = "snake_case")]
pub enum Protection {
    /// Nothing.
    #[default]
    None,
    /// Cover: the target's armour value is increased by 1 (never above 3).
    Cover,
    /// A barrier: it completely blocks attacks.
    Barrier,
}

/// Something inside a zone a character can get behind (a cart, a stone wall).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgFeature)]
#[serde(deny_unknown_fields)]
pub struct FeatureSpec {
    /// Its name, unique in the zone.
    pub name: String,
    /// Cover or barrier.
    pub protection: Protection,
}

/// A hazard a character can be shoved into (seed 001 "Non-lethal attacks": "pits, traps,
/// lava, etc.").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgHazard)]
#[serde(deny_unknown_fields)]
pub struct HazardSpec {
    /// Its name, unique in the zone.
    pub name: String,
    /// The direct damage it inflicts (`d6`, `2d6`), if any.
    #[serde(default)]
    pub damage: Option<DiceExpr>,
    /// Whether it kills whoever falls in (lava).
    #[serde(default)]
    pub kills: bool,
}

/// Where the zone map picture draws a zone: 0 to 100 across and down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgMapPoint)]
#[serde(deny_unknown_fields)]
pub struct MapPoint {
    /// 0 (left) to 100 (right).
    pub x: u32,
    /// 0 (top) to 100 (bottom).
    pub y: u32,
}

/// A zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgZone)]
#[serde(deny_unknown_fields)]
pub struct ZoneSpec {
    /// Its name, unique in the fight.
    pub name: String,
    /// Lit or dark.
    #[serde(default)]
    pub light: Light,
    /// Cover and barriers inside it.
    #[serde(default)]
    pub features: Vec<FeatureSpec>,
    /// Hazards in it.
    #[serde(default)]
    pub hazards: Vec<HazardSpec>,
    /// Where to draw it; laid out on a circle when absent.
    #[serde(default)]
    pub at: Option<MapPoint>,
}

impl ZoneSpec {
    /// The feature `name` in this zone.
    pub fn feature(&self, name: &str) -> Option<&FeatureSpec> {
        self.features.iter().find(|feature| feature.name == name)
    }

    /// The hazard `name` in this zone.
    pub fn hazard(&self, name: &str) -> Option<&HazardSpec> {
        self.hazards.iter().find(|hazard| hazard.name == name)
    }
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// Two zones that border each other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgBorder)]
#[serde(deny_unknown_fields)]
pub struct BorderSpec {
    /// One zone.
    pub a: String,
    /// The other zone.
    pub b: String,
    /// How many zones of movement and range crossing it counts for (default 1).
    #[serde(default = "one")]
    pub length: u32,
    /// Cover or a barrier along it, protecting against attacks that cross it.
    #[serde(default)]
    pub protection: Protection,
    /// Whether characters can move across it (a chasm or a locked gate cannot be crossed, but
    /// can be shot across unless it is a barrier).
    #[serde(default = "yes")]
    pub passable: bool,
}

impl BorderSpec {
    /// Whether it joins `x` and `y`, in either order.
    pub fn joins(&self, x: &str, y: &str) -> bool {
        (self.a == x && self.b == y) || (self.a == y && self.b == x)
    }

    /// The zone across it from `zone`, if it touches `zone`.
    pub fn across(&self, zone: &str) -> Option<&str> {
        if self.a == zone {
            Some(&self.b)
        } else if self.b == zone {
            Some(&self.a)
        } else {
            None
        }
    }
}

/// The zones and their borders, as laid out by the GM.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneMap {
    /// Zones in the order the GM listed them (the order neighbours are numbered in for a
    /// deviating blast).
    pub zones: Vec<ZoneSpec>,
    /// Borders.
    pub borders: Vec<BorderSpec>,
}

impl ZoneMap {
    /// The zone `name`.
    pub fn zone(&self, name: &str) -> Option<&ZoneSpec> {
        self.zones.iter().find(|zone| zone.name == name)
    }

    /// The border between `x` and `y`.
    pub fn border(&self, x: &str, y: &str) -> Option<&BorderSpec> {
        self.borders.iter().find(|border| border.joins(x, y))
    }

    /// The zones bordering `zone`, in the order the zones are listed (seed 001 "Blast attacks":
    /// "Assign a number to each neighbouring zone").
    pub fn neighbours(&self, zone: &str) -> Vec<&str> {
        self.zones
            .iter()
            .map(|candidate| candidate.name.as_str())
            .filter(|candidate| *candidate != zone && self.border(zone, candidate).is_some())
            .collect()
    }

    /// Whether characters in `zone` are in complete darkness.
    pub fn dark(&self, zone: &str) -> bool {
        self.zone(zone).is_some_and(|zone| zone.light == Light::Dark)
    }
}
