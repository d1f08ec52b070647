//! How many things a percentile-skirmish battle may hold (issue 15): the service caps, in one
//! place. Checked on every command before it is decided ([`crate::caps`]) and shown in the
//! OpenAPI document as `maxItems`. A skirmish fields five to twenty minis a side.

use crate::caps::Cap;

/// Minis.
pub const MAX_MINIS: usize = 200;
/// Participants.
pub const MAX_PARTICIPANTS: usize = 20;
/// Terrain features (roads, water).
pub const MAX_TERRAIN: usize = 100;
/// Points of one terrain shape's outline.
pub const MAX_SHAPE_POINTS: usize = 256;
/// Pieces of armour, and weapons, on one card.
pub const MAX_GEAR: usize = 20;
/// Spells on one card.
pub const MAX_SPELLS: usize = 15;
/// Resistances on one card.
pub const MAX_RESISTANCES: usize = 32;
/// Waypoints of one move.
pub const MAX_WAYPOINTS: usize = 50;

const CREATE: &str = "create_battle";

/// Every cap of a percentile-skirmish command.
pub const CAPS: &[Cap] = &[
    Cap::new(CREATE, "minis", MAX_MINIS, "mini_count", "minis"),
    Cap::new(CREATE, "participants", MAX_PARTICIPANTS, "participants", "participants"),
    Cap::new(CREATE, "table.terrain", MAX_TERRAIN, "too_much_terrain", "terrain features"),
    Cap::new(CREATE, "table.terrain[].shape.points", MAX_SHAPE_POINTS, "too_many_points", "points"),
    Cap::new(CREATE, "minis[].profile.armour", MAX_GEAR, "bad_profile", "pieces of armour"),
    Cap::new(CREATE, "minis[].profile.weapons", MAX_GEAR, "bad_profile", "weapons"),
    Cap::new(CREATE, "minis[].profile.spells", MAX_SPELLS, "bad_profile", "spells"),
    Cap::new(CREATE, "minis[].profile.resistances", MAX_RESISTANCES, "too_many_resistances", "resistances"),
    Cap::new(CREATE, "summons.golem.armour", MAX_GEAR, "bad_profile", "pieces of armour"),
    Cap::new(CREATE, "summons.golem.weapons", MAX_GEAR, "bad_profile", "weapons"),
    Cap::new(CREATE, "summons.golem.spells", MAX_SPELLS, "bad_profile", "spells"),
    Cap::new(CREATE, "summons.golem.resistances", MAX_RESISTANCES, "too_many_resistances", "resistances"),
    Cap::new(CREATE, "summons.familiar.profile.armour", MAX_GEAR, "bad_profile", "pieces of armour"),
    Cap::new(CREATE, "summons.familiar.profile.weapons", MAX_GEAR, "bad_profile", "weapons"),
    Cap::new(CREATE, "summons.familiar.profile.spells", MAX_SPELLS, "bad_profile", "spells"),
    Cap::new(CREATE, "summons.familiar.profile.resistances", MAX_RESISTANCES, "too_many_resistances", "resistances"),
    Cap::new("move", "path", MAX_WAYPOINTS, "path_too_long", "waypoints"),
    Cap::new("declare", "minis", MAX_MINIS, "mini_count", "minis"),
];
