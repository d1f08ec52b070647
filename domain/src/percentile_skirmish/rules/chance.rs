//! Chances to hit on percentile dice: range bands by thirds of the maximum range, the base
//! chances and level bonuses, the size and flank modifiers, and the clamp to 0–100 (seed 002
//! "Range attacks", "SPELL DESCRIPTIONS", "NON MEDIUM SIZED MINI'S", "RANGE OR SPELL ATTACKS ON A
//! FLANKED MINI", "Attack of opportunity", "Flank attack").
//!
//! A percentile roll is one die of 100 faces, 1 to 100 (docs/DICE.md: `d%`); "100" is the
//! seed's "100" of "81 - 100" (the "00" of two ten-sided dice). An attack hits when the roll is
//! at most the chance.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::percentile_skirmish::{mini::Size, table::EPSILON};

/// A third of the maximum range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishRangeBand)]
#[serde(rename_all = "snake_case")]
pub enum RangeBand {
    /// "First 1/3 of the maximum range".
    Short,
    /// "Second 1/3 of the maximum range".
    Medium,
    /// "Last 1/3 of the maximum range".
    Long,
}

/// The band `distance` falls in for a maximum range of `maximum`, or `None` beyond it.
///
/// A boundary belongs to the nearer band: exactly a third of the range is still short range,
/// exactly two thirds still medium, exactly the maximum still long (Herald's reading: the first
/// third runs up to and including its end). Distances within 1e-9″ of a boundary count as on it.
pub fn range_band(distance: f64, maximum: f64) -> Option<RangeBand> {
    if !(distance.is_finite() && maximum.is_finite()) || distance > maximum + EPSILON {
        return None;
    }
    if distance <= maximum / 3.0 + EPSILON {
        Some(RangeBand::Short)
    } else if distance <= maximum * 2.0 / 3.0 + EPSILON {
        Some(RangeBand::Medium)
    } else {
        Some(RangeBand::Long)
    }
}

/// How a chance to hit was made up, as recorded in the event that rolled against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishChance)]
#[schema(example = json!({"base": 65, "level_bonus": 6, "size_modifier": -5, "flank_modifier": 15, "total": 81, "chance": 81}))]
pub struct Chance {
    /// The rule's base chance in percent (65, 50, 35 by band; 65 for a flank attack; 50 for an
    /// attack of opportunity).
    pub base: i64,
    /// The level bonus: level × 3, × 2 or × 1.
    pub level_bonus: i64,
    /// The target's size modifier (seed 002 "NON MEDIUM SIZED MINI'S").
    pub size_modifier: i64,
    /// The flanked-target modifier (seed 002 "RANGE OR SPELL ATTACKS ON A FLANKED MINI").
    pub flank_modifier: i64,
    /// The sum, before the clamp.
    pub total: i64,
    /// The chance rolled against: the total clamped to 0–100 (a roll of 1–100 hits when it is at
    /// most this; 0 never hits, 100 always does).
    pub chance: u32,
}

impl Chance {
    /// A chance of `base` + `level_bonus` + modifiers, clamped.
    pub fn new(base: i64, level_bonus: i64, size_modifier: i64, flank_modifier: i64) -> Self {
        let total = base + level_bonus + size_modifier + flank_modifier;
        // Clamped to 0..=100, so the conversion cannot fail.
        let chance = u32::try_from(total.clamp(0, 100)).unwrap_or(0);
        Self { base, level_bonus, size_modifier, flank_modifier, total, chance }
    }

    /// Whether a percentile roll of `roll` (1–100) hits.
    pub fn hit_by(&self, roll: u32) -> bool {
        roll <= self.chance
    }
}

/// The chance of a range attack or a spell with a ranged attack in `band`, by a mini of `level`,
/// at a target of `size` (none for a point), flanked or not (seed 002 "Range attacks", "Spells
/// with a ranged attack", "NON MEDIUM SIZED MINI'S", "RANGE OR SPELL ATTACKS ON A FLANKED MINI").
pub fn ranged_chance(band: RangeBand, level: u32, size: Option<Size>, flanked: bool) -> Chance {
    let level = i64::from(level);
    let (base, level_bonus) = match band {
        RangeBand::Short => (65, level * 3),
        RangeBand::Medium => (50, level * 2),
        RangeBand::Long => (35, level),
    };
    Chance::new(base, level_bonus, size.map_or(0, |size| size_modifier(band, size)), flank_modifier(band, flanked))
}

/// The size modifier "applied when trying to hit a small or large sized mini with a spell or
/// range attack" (seed 002 "NON MEDIUM SIZED MINI'S"): small −5/−10/−15, large +15/+10/+5.
pub fn size_modifier(band: RangeBand, size: Size) -> i64 {
    match (size, band) {
        (Size::Medium, _) => 0,
        (Size::Small, RangeBand::Short) => -5,
        (Size::Small, RangeBand::Medium) => -10,
        (Size::Small, RangeBand::Long) => -15,
        (Size::Large, RangeBand::Short) => 15,
        (Size::Large, RangeBand::Medium) => 10,
        (Size::Large, RangeBand::Long) => 5,
    }
}

/// The modifier for a spell or range attack on a flanked mini (seed 002 "RANGE OR SPELL ATTACKS
/// ON A FLANKED MINI"): +15/+10/+5.
pub fn flank_modifier(band: RangeBand, flanked: bool) -> i64 {
    match (flanked, band) {
        (false, _) => 0,
        (true, RangeBand::Short) => 15,
        (true, RangeBand::Medium) => 10,
        (true, RangeBand::Long) => 5,
    }
}

/// A flank attack: "65% chance to hit + mini's level * 3" (seed 002 "Flank attack").
pub fn flank_attack_chance(level: u32) -> Chance {
    Chance::new(65, i64::from(level) * 3, 0, 0)
}

/// An attack of opportunity: "50% chance to hit + mini's level * 2" (seed 002 "Attack of
/// opportunity").
pub fn opportunity_chance(level: u32) -> Chance {
    Chance::new(50, i64::from(level) * 2, 0, 0)
}
