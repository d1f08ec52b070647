//! A spell that lasts, on the mini it affects, with the turns it has left (seed 002 "SPELL
//! DESCRIPTIONS": "Duration: 1 turn + caster's level").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Spell;

/// A lasting spell on a mini.
///
/// `turns_left` counts turn ends: an effect with 2 turns left lasts the rest of this turn and
/// all of the next, and is gone when that next turn ends (Herald's reading of "1 turn": the
/// turn the spell is cast in counts as its first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishActiveEffect)]
#[schema(example = json!({"spell": "speed", "caster": "red-mage", "turns_left": 3}))]
pub struct ActiveEffect {
    /// The spell.
    pub spell: Spell,
    /// Who cast it.
    pub caster: String,
    /// Turn ends until it expires (1: it expires when this turn ends).
    pub turns_left: u32,
}
