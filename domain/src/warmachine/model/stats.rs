//! Stat cards and base sizes (seed 000 "Model Statistics").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Millimetres per inch: bases are sold in millimetres, the table is measured in inches.
pub const MM_PER_INCH: f64 = 25.4;

/// A model's stat card (seed 000 "Model Statistics").
///
/// Stats a model type does not have are `None` rather than 0, because 0 is a real value (a
/// weapon reduced to RNG 0 cannot attack) while an absent stat means the rule does not apply:
/// only spellcasters have ARC, only warcasters and warlocks have CTRL, only warbeasts have FURY
/// and THR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StatCard {
    /// SPD: inches moved on a full advance (seed 000 "Full Advance").
    pub spd: u8,
    /// STR: strength, where the card shows one (used by power attacks, not yet modelled).
    #[serde(default, rename = "str", skip_serializing_if = "Option::is_none")]
    pub strength: Option<u8>,
    /// MAT: added to melee attack rolls.
    pub mat: u8,
    /// RAT: added to ranged attack rolls.
    pub rat: u8,
    /// AAT: added to arcane attack rolls, for models that cast offensive spells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aat: Option<u8>,
    /// DEF: an attack roll equal to or greater than DEF hits.
    pub def: u8,
    /// ARM: each point a damage roll exceeds ARM is 1 damage point.
    pub arm: u8,
    /// ARC: starting focus or fury; only models that cast spells with focus or fury have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arc: Option<u8>,
    /// FURY: how much a warbeast can be forced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fury: Option<u8>,
    /// CTRL: a warcaster's or warlock's control range, in inches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ctrl: Option<u8>,
    /// THR: a warbeast's threshold against frenzy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thr: Option<u8>,
}

/// Base sizes, ordered small to huge so "equal or larger base" (seed 000 "Slammed", "Thrown")
/// is a comparison.
///
/// The seed speaks of "medium based or larger" and "large base" without giving sizes; the
/// millimetre values are the game's usual 30/40/50/120 mm round bases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BaseSize {
    /// 30 mm.
    Small,
    /// 40 mm.
    Medium,
    /// 50 mm.
    Large,
    /// 120 mm.
    Huge,
}

impl BaseSize {
    /// The base's diameter in millimetres.
    pub fn mm(self) -> u16 {
        match self {
            Self::Small => 30,
            Self::Medium => 40,
            Self::Large => 50,
            Self::Huge => 120,
        }
    }

    /// The base's radius in inches, because every distance is measured in inches from the base
    /// edge (seed 000 "Measuring Distances").
    pub fn radius_inches(self) -> f64 {
        f64::from(self.mm()) / MM_PER_INCH / 2.0
    }
}
