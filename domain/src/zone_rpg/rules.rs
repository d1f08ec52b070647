//! Where each refusal and each reading comes from: the headings of seed 001, and Herald's own
//! service rules for what the seed does not cover (authority, command order, limits).

/// Herald's own rules for zone-rpg fights (authority, the order of commands, limits), written
/// down in the ruleset's documentation.
pub const SERVICE: &str = "herald: docs/rulesets/zone-rpg.md";
/// Herald's readings of what the seed leaves open, written down in the documentation.
pub const READINGS: &str = "herald: docs/rulesets/zone-rpg.md \"Herald's readings\"";

/// seed 001 "Combat procedure": rounds, factions alternating, initiative, passing.
pub const COMBAT_PROCEDURE: &str = "seed 001 \"Combat procedure\"";
/// seed 001 "Taking a turn": movement, main and bonus actions, reactions.
pub const TAKING_A_TURN: &str = "seed 001 \"Taking a turn\"";
/// seed 001 "Attacking": targets, damage, WIT saves to hit, death blows.
pub const ATTACKING: &str = "seed 001 \"Attacking\"";
/// seed 001 "Reacting to an attack": dodge, counter, hide behind someone.
pub const REACTING: &str = "seed 001 \"Reacting to an attack\"";
/// seed 001 "Guarding".
pub const GUARDING: &str = "seed 001 \"Guarding\"";
/// seed 001 "Opportunity attacks".
pub const OPPORTUNITY: &str = "seed 001 \"Opportunity attacks\"";
/// seed 001 "Cover": cover and barriers.
pub const COVER: &str = "seed 001 \"Cover\"";
/// seed 001 "Blast attacks".
pub const BLAST: &str = "seed 001 \"Blast attacks\"";
/// seed 001 "Attack stunts".
pub const STUNTS: &str = "seed 001 \"Attack stunts\"";
/// seed 001 "Non-lethal attacks": disarm, shove, grapple.
pub const NON_LETHAL: &str = "seed 001 \"Non-lethal attacks\"";
/// seed 001 "Sneaking in combat".
pub const SNEAKING: &str = "seed 001 \"Sneaking in combat\"";
/// seed 001 "Morale".
pub const MORALE: &str = "seed 001 \"Morale\"";
/// seed 001 "Surrendering".
pub const SURRENDERING: &str = "seed 001 \"Surrendering\"";
/// seed 001 "Chases".
pub const CHASES: &str = "seed 001 \"Chases\"";
/// seed 001 "Combat gear degradation".
pub const GEAR: &str = "seed 001 \"Combat gear degradation\"";
/// seed 001 "Effects of size in combat".
pub const SIZE: &str = "seed 001 \"Effects of size in combat\"";
/// seed 001 "Mounts and vehicles in combat".
pub const MOUNTS: &str = "seed 001 \"Mounts and vehicles in combat\"";
