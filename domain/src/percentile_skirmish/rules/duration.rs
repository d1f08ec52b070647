//! How many turns a spell lasts (seed 002 "SPELL DESCRIPTIONS": "1 turn + caster's level", "1
//! turn + (caster's level - mini affected's level)"; "RESISTANCES": spells "have their duration
//! halved").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::options::{Rounding, ShortDuration};
use crate::percentile_skirmish::spells::DurationRule;

/// A duration as worked out, recorded with the spell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishDuration)]
#[schema(example = json!({"formula": 4, "halved": false, "turns": 4}))]
pub struct Duration {
    /// The seed's formula: 1 + caster's level, or 1 + caster's level − target's level (may be 0
    /// or negative).
    pub formula: i64,
    /// Whether the target's spell resistance halved it.
    pub halved: bool,
    /// The turns it lasts; 0 means the spell takes no effect.
    pub turns: u32,
}

/// The duration of a lasting spell by a caster of `caster_level` on a mini of `target_level`
/// (for level-difference spells), halved for a mini resisting spells.
///
/// A formula of 0 or less gives no effect, or 1 turn, as the battle's `short_durations` option
/// says. Halving never brings a lasting spell below 1 turn (Herald's reading: the resistance
/// shortens a spell, it does not stop it); `halves` rounds the half.
pub fn spell_duration(
    rule: DurationRule,
    caster_level: u32,
    target_level: u32,
    resists_spells: bool,
    short: ShortDuration,
    halves: Rounding,
) -> Option<Duration> {
    let formula = match rule {
        DurationRule::Immediate => return None,
        DurationRule::CasterLevel => 1 + i64::from(caster_level),
        DurationRule::LevelDifference => 1 + i64::from(caster_level) - i64::from(target_level),
    };
    let lasting = match (formula, short) {
        (turns, _) if turns > 0 => u32::try_from(turns).unwrap_or(u32::MAX),
        (_, ShortDuration::OneTurn) => 1,
        (_, ShortDuration::NoEffect) => 0,
    };
    let turns = if resists_spells && lasting > 0 { halves.halve(lasting).max(1) } else { lasting };
    Some(Duration { formula, halved: resists_spells && lasting > 0, turns })
}
