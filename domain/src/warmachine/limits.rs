//! How many things a warmachine battle may hold (issue 15): the service caps, in one place.
//! Checked on every command before it is decided ([`crate::caps`]) and shown in the OpenAPI
//! document as `maxItems`. Each is far past a real table: a large two-player game fields 40 to
//! 80 models on a 48″ table with a dozen terrain features.

use crate::caps::Cap;

/// Models in a battle: several full armies a side.
pub const MAX_MODELS: usize = 200;
/// Terrain features on the table.
pub const MAX_TERRAIN: usize = 200;
/// Players: the game is for two, multiplayer tables seat four to six.
pub const MAX_PLAYERS: usize = 16;
/// Weapons on one profile (a warjack carries two to four).
pub const MAX_WEAPONS: usize = 16;
/// Special rules on one profile or weapon (a warcaster lists a dozen abilities and spells).
pub const MAX_SPECIAL_RULES: usize = 64;
/// Mechanics of one special rule.
pub const MAX_MECHANICS: usize = 32;
/// Columns of a damage grid (six on every warjack).
pub const MAX_GRID_COLUMNS: usize = 16;
/// Waypoints of one path (a move follows a handful).
pub const MAX_WAYPOINTS: usize = 100;

const CREATE: &str = "create_battle";

/// Every cap of a warmachine command.
pub const CAPS: &[Cap] = &[
    Cap::new(CREATE, "models", MAX_MODELS, "model_count", "models"),
    Cap::new(CREATE, "table.terrain", MAX_TERRAIN, "too_much_terrain", "terrain features"),
    Cap::new(CREATE, "players", MAX_PLAYERS, "too_many_players", "players"),
    Cap::new(CREATE, "models[].profile.weapons", MAX_WEAPONS, "too_many_weapons", "weapons"),
    Cap::new(CREATE, "models[].profile.special_rules", MAX_SPECIAL_RULES, "too_many_special_rules", "special rules"),
    Cap::new(
        CREATE,
        "models[].profile.weapons[].special_rules",
        MAX_SPECIAL_RULES,
        "too_many_special_rules",
        "special rules",
    ),
    Cap::new(CREATE, "models[].profile.special_rules[].mechanics", MAX_MECHANICS, "too_many_mechanics", "mechanics"),
    Cap::new(
        CREATE,
        "models[].profile.weapons[].special_rules[].mechanics",
        MAX_MECHANICS,
        "too_many_mechanics",
        "mechanics",
    ),
    Cap::new(CREATE, "models[].profile.damage.grid.columns", MAX_GRID_COLUMNS, "too_many_grid_columns", "columns"),
    Cap::new("move", "movement.path", MAX_WAYPOINTS, "path_too_long", "waypoints"),
    Cap::new("move", "placement.placed", MAX_MODELS, "model_count", "placements"),
    Cap::new("move", "placement.cannot_place", MAX_MODELS, "model_count", "models"),
    Cap::new("place_troopers", "placement.placed", MAX_MODELS, "model_count", "placements"),
    Cap::new("place_troopers", "placement.cannot_place", MAX_MODELS, "model_count", "models"),
    Cap::new("end_activation", "advance_path", MAX_WAYPOINTS, "path_too_long", "waypoints"),
    Cap::new("start_turn", "control.leech", MAX_MODELS, "model_count", "leeches"),
    Cap::new("start_turn", "control.spirit_bond", MAX_MODELS, "model_count", "spirit bond gains"),
    Cap::new("start_turn", "control.allocate", MAX_MODELS, "model_count", "allocations"),
    Cap::new("start_turn", "control.upkeep", MAX_MODELS, "model_count", "upkept spells"),
];
