//! How many things a swift-swords encounter may hold (issue 15): the service caps, in one place.
//! Checked on every command before it is decided ([`crate::caps`]) and shown in the OpenAPI
//! document as `maxItems`. An encounter has a few heroes against a mob or two over a grid of
//! a few dozen zones.

use crate::caps::Cap;

/// Zones (a 20 × 20 grid).
pub const MAX_ZONES: usize = 400;
/// Cover along borders: every border of a 20 × 20 grid, twice.
pub const MAX_BORDER_COVER: usize = 1600;
/// Cover areas inside zones.
pub const MAX_COVER_AREAS: usize = 400;
/// Figures.
pub const MAX_FIGURES: usize = 200;
/// Sides.
pub const MAX_SIDES: usize = 20;
/// Chariots.
pub const MAX_CHARIOTS: usize = 64;
/// Skills on one figure.
pub const MAX_SKILLS: usize = 64;
/// Weapons on one figure.
pub const MAX_WEAPONS: usize = 16;
/// Steps of one flight or drive.
pub const MAX_STEPS: usize = 64;
/// Injuries healed at once (every location, more than once).
pub const MAX_INJURIES: usize = 32;

const CREATE: &str = "create_battle";

/// Every cap of a swift-swords command.
pub const CAPS: &[Cap] = &[
    Cap::new(CREATE, "map.zones", MAX_ZONES, "zone_count", "zones"),
    Cap::new(CREATE, "map.borders", MAX_BORDER_COVER, "too_much_cover", "border covers"),
    Cap::new(CREATE, "map.cover", MAX_COVER_AREAS, "too_much_cover", "cover areas"),
    Cap::new(CREATE, "figures", MAX_FIGURES, "figure_count", "figures"),
    Cap::new(CREATE, "sides", MAX_SIDES, "sides", "sides"),
    Cap::new(CREATE, "chariots", MAX_CHARIOTS, "too_many_chariots", "chariots"),
    Cap::new(CREATE, "chariots[].crew", MAX_FIGURES, "figure_count", "crew"),
    Cap::new(CREATE, "figures[].skills", MAX_SKILLS, "too_many_skills", "skills"),
    Cap::new(CREATE, "figures[].weapons", MAX_WEAPONS, "too_many_weapons", "weapons"),
    Cap::new("fly", "steps", MAX_STEPS, "flight_too_long", "steps"),
    Cap::new("drive", "steps", MAX_STEPS, "drive_too_long", "steps"),
    Cap::new("begin", "surprised", MAX_FIGURES, "figure_count", "figures"),
    Cap::new("attack", "targets", MAX_FIGURES, "figure_count", "targets"),
    Cap::new("heal", "injuries", MAX_INJURIES, "too_many_injuries", "injuries"),
];
