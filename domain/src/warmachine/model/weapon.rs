//! Weapons and their stat bar (seed 000 "Weapon Statistics").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::special::SpecialRule;

/// Pistol (ranged) or sword (melee) icon (seed 000 "Weapon Statistics").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    /// A melee weapon: used with MAT.
    Melee,
    /// A ranged weapon: used with RAT, has a ROF.
    Ranged,
}

/// RNG (seed 000 "RNG, Range").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind", content = "inches")]
pub enum WeaponRange {
    /// Maximum distance in inches from the edge of the point of origin's base nearest the target.
    Inches(f64),
    /// A spray: the special descriptor `SP n`.
    Spray(f64),
    /// `CTRL`: any model in the attacking model's control range (so the model needs CTRL).
    Control,
    /// `*`: the model's special rules say how to determine the range.
    Special,
}

/// Where a warjack carries a weapon; losing every system box of that location cripples it
/// (seed 000 "L/R/H, Location").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// L: left arm.
    Left,
    /// R: right arm.
    Right,
    /// H: head.
    Head,
    /// S: superstructure.
    Superstructure,
}

/// A weapon's stat bar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// The weapon's name on the card.
    pub name: String,
    /// Melee or ranged.
    pub kind: WeaponKind,
    /// RNG.
    pub rng: WeaponRange,
    /// ROF: initial attacks per activation; ranged weapons only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rof: Option<u8>,
    /// AOE in inches: blast damage reaches models this far from a direct hit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aoe: Option<u8>,
    /// POW; `None` is the card's "–": the weapon causes no damage.
    #[serde(default)]
    pub pow: Option<u8>,
    /// The blast POW after the `/` of an AOE weapon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blast_pow: Option<u8>,
    /// L/R/H/S on a warjack's weapon bar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// The weapon's named special rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_rules: Vec<SpecialRule>,
}

impl Weapon {
    /// POW after a modifier: "A weapon's power can never be reduced to less than 0"
    /// (seed 000 "POW, Power"). `None` stays `None` (a "–" weapon never damages).
    pub fn modified_pow(&self, modifier: i16) -> Option<u8> {
        self.pow.map(|pow| clamp_u8(i16::from(pow) + modifier))
    }

    /// Whether the weapon can make attacks with a range modifier applied: "If a weapon's RNG is
    /// reduced to 0 or less by some effect, the weapon cannot be used" (seed 000 "RNG, Range").
    pub fn usable_with_range_modifier(&self, modifier: f64) -> bool {
        match self.rng {
            WeaponRange::Inches(inches) | WeaponRange::Spray(inches) => inches + modifier > 0.0,
            WeaponRange::Control | WeaponRange::Special => true,
        }
    }
}

fn clamp_u8(value: i16) -> u8 {
    u8::try_from(value.clamp(0, i16::from(u8::MAX))).unwrap_or(u8::MAX)
}
