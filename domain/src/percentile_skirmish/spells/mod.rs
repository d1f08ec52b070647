//! Spells (seed 002 "SPELL DESCRIPTIONS"): the catalogue, and the effects that last.

pub mod catalogue;
pub mod effect;

pub use catalogue::{Aim, DurationRule, Spell, ALL_SPELLS};
pub use effect::ActiveEffect;
