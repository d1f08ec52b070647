//! Percentile skirmish (seed 002): minis on a table measured in inches with roads and water,
//! turns of declared initiative rounds, movement, open combat, ranged, flank and opportunity
//! attacks on percentile dice, resistances, and fifteen spells — refereed end to end.
//!
//! The seed refers to things it does not define (the golem's and familiar's stats, armour
//! values, weapon damage, life points): a battle's set-up supplies them as data. Every reading
//! Herald takes where the seed is silent is written down in `docs/rulesets/percentile-skirmish.md`
//! under "Herald's readings", and the ones referees differ on are battle options
//! ([`rules::BattleOptions`]).

pub mod battle;
pub mod headings;
pub mod limits;
pub mod mini;
pub mod picture;
pub mod redact;
pub mod rules;
pub mod ruleset;
pub mod sheet;
pub mod spells;
pub mod table;
pub mod view;

/// Where Herald's own rules for percentile-skirmish battles (authority, the order of commands,
/// set-up limits) are written down.
pub const SERVICE_RULES: &str = "herald: docs/rulesets/percentile-skirmish.md";
