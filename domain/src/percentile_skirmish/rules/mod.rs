//! The rules of seed 002 as pure functions: chances to hit, open combat, damage after
//! resistances and armour, durations, movement allowances, water, facing, initiative order and
//! the battle options. The decider (`battle::decide`) calls them; tests call them directly with
//! the seed's tables.

pub mod chance;
pub mod damage;
pub mod duration;
pub mod facing;
pub mod initiative;
pub mod movement;
pub mod open_combat;
pub mod options;
pub mod water;

pub use chance::{flank_attack_chance, opportunity_chance, range_band, ranged_chance, Chance, RangeBand};
pub use damage::{mitigate, DamageSource, Mitigated, ResistanceApplied};
pub use duration::{spell_duration, Duration};
pub use facing::in_flank;
pub use initiative::{acting_order, InitiativeRoll};
pub use movement::{allowance, Allowance};
pub use open_combat::{AttackOption, CombatChoice, Exchange};
pub use options::{BattleOptions, Declarations, Rounding, ShortDuration, SpellRolls};
pub use water::{in_penalising_water, walk, Walk, WaterSense};
