//! The headings of seed 002, as every refusal and doc comment cites them (`seed 002 "TURN"`).
//!
//! The seed is one run of text whose headings are its capitalised section names and, under
//! "4 TYPES OF NON MAGIC COMBAT", "RESISTANCES" and "SPELL DESCRIPTIONS", the names underlined
//! with dashes; they are spelt here exactly as the seed spells them (its "Posion" included).

/// seed 002 "TURN": initiative rounds, declarations, split actions.
pub const TURN: &str = "seed 002 \"TURN\"";
/// seed 002 "INITIATIVE": descending order, waiting, percentile ties.
pub const INITIATIVE: &str = "seed 002 \"INITIATIVE\"";
/// seed 002 "RUNNING".
pub const RUNNING: &str = "seed 002 \"RUNNING\"";
/// seed 002 "ROAD BONUS".
pub const ROAD_BONUS: &str = "seed 002 \"ROAD BONUS\"";
/// seed 002 "CROSSING WATER".
pub const CROSSING_WATER: &str = "seed 002 \"CROSSING WATER\"";
/// seed 002 "NON MEDIUM SIZED MINI'S".
pub const NON_MEDIUM_SIZED: &str = "seed 002 \"NON MEDIUM SIZED MINI'S\"";
/// seed 002 "RANGE OR SPELL ATTACKS ON A FLANKED MINI".
pub const FLANKED_MINI: &str = "seed 002 \"RANGE OR SPELL ATTACKS ON A FLANKED MINI\"";
/// seed 002 "4 TYPES OF NON MAGIC COMBAT".
pub const NON_MAGIC_COMBAT: &str = "seed 002 \"4 TYPES OF NON MAGIC COMBAT\"";
/// seed 002 "Open combat".
pub const OPEN_COMBAT: &str = "seed 002 \"Open combat\"";
/// seed 002 "Range attacks".
pub const RANGE_ATTACKS: &str = "seed 002 \"Range attacks\"";
/// seed 002 "Attack of opportunity".
pub const ATTACK_OF_OPPORTUNITY: &str = "seed 002 \"Attack of opportunity\"";
/// seed 002 "Flank attack".
pub const FLANK_ATTACK: &str = "seed 002 \"Flank attack\"";
/// seed 002 "RESISTANCES".
pub const RESISTANCES: &str = "seed 002 \"RESISTANCES\"";
/// seed 002 "MAGIC ARMOR AND WEAPONS" (a heading with no text: magic is a property of the
/// set-up's armour and weapons).
pub const MAGIC_ARMOR_AND_WEAPONS: &str = "seed 002 \"MAGIC ARMOR AND WEAPONS\"";
/// seed 002 "SPELL DESCRIPTIONS".
pub const SPELL_DESCRIPTIONS: &str = "seed 002 \"SPELL DESCRIPTIONS\"";
