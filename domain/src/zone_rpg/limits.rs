//! How many things a zone-rpg fight may hold (issue 15): the service caps, in one place.
//! Checked on every command before it is decided ([`crate::caps`]) and shown in the OpenAPI
//! document as `maxItems`. A GM's fight has a party of four to six against a dozen foes over
//! three to ten zones.

use crate::caps::Cap;

/// Zones.
pub const MAX_ZONES: usize = 100;
/// Borders between zones (a dense map of 100 zones has a few hundred).
pub const MAX_BORDERS: usize = 500;
/// Characters.
pub const MAX_CHARACTERS: usize = 200;
/// Factions.
pub const MAX_FACTIONS: usize = 20;
/// Weapons a character carries.
pub const MAX_WEAPONS: usize = 20;
/// Features (a low wall, a table) in one zone.
pub const MAX_FEATURES: usize = 32;
/// Hazards in one zone.
pub const MAX_HAZARDS: usize = 32;
/// Zones entered in one move (a sprint crosses a few).
pub const MAX_PATH: usize = MAX_ZONES;

const CREATE: &str = "create_battle";

/// Every cap of a zone-rpg command.
pub const CAPS: &[Cap] = &[
    Cap::new(CREATE, "zones", MAX_ZONES, "zone_count", "zones"),
    Cap::new(CREATE, "borders", MAX_BORDERS, "border_count", "borders"),
    Cap::new(CREATE, "characters", MAX_CHARACTERS, "character_count", "characters"),
    Cap::new(CREATE, "factions", MAX_FACTIONS, "faction_count", "factions"),
    Cap::new(CREATE, "characters[].weapons", MAX_WEAPONS, "weapon_count", "weapons"),
    Cap::new(CREATE, "zones[].features", MAX_FEATURES, "too_many_features", "features"),
    Cap::new(CREATE, "zones[].hazards", MAX_HAZARDS, "too_many_hazards", "hazards"),
    Cap::new("move", "path", MAX_PATH, "path_too_long", "zones"),
    Cap::new("resolve_chase", "fleeing", MAX_CHARACTERS, "character_count", "characters"),
    Cap::new("resolve_chase", "pursuers", MAX_CHARACTERS, "character_count", "characters"),
];
