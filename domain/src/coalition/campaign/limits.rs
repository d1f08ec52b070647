//! How many things a coalition campaign round may hold (issue 15): the service caps, in one
//! place. Checked on every command before it is decided ([`crate::caps`], and for joining
//! players in the decider) and shown in the OpenAPI document as `maxItems`. A round has a few
//! dozen players and armies on a 14 × 38 map; the rules hold an army to 6 creature types and a
//! player to 3 factions (seed 003 §1.1.2, §2.5), and the caps here lie well above them.

use crate::caps::Cap;

/// Players in a round, joining players included.
pub const MAX_PLAYERS: usize = 256;
/// Armies in a round.
pub const MAX_ARMIES: usize = 256;
/// Mercenary armies.
pub const MAX_MERCENARIES: usize = 64;
/// Troop lines (slots) of one army in a request; the rules then allow 6 creature types.
pub const MAX_SLOTS: usize = 32;
/// Colours of one army or troop line (there are six).
pub const MAX_COLORS: usize = 8;
/// Controllers (or control holders) of one army.
pub const MAX_CONTROLLERS: usize = 16;
/// Factions one player claims in a request; the rules then allow 3.
pub const MAX_FACTIONS: usize = 16;
/// Squares with terrain or a site: every square of the largest map (26 columns × 255 rows).
pub const MAX_SQUARES: usize = 26 * 255;
/// Options of one vote.
pub const MAX_VOTE_OPTIONS: usize = 32;
/// Sides of one battle result.
pub const MAX_SIDES: usize = 16;

const CREATE: &str = "create_campaign";

/// Every cap of a campaign command.
pub const CAPS: &[Cap] = &[
    Cap::new(CREATE, "players", MAX_PLAYERS, "too_many_players", "players"),
    Cap::new(CREATE, "players[].factions", MAX_FACTIONS, "too_many_factions", "factions"),
    Cap::new(CREATE, "armies", MAX_ARMIES, "too_many_armies", "armies"),
    Cap::new(CREATE, "armies[].controllers", MAX_CONTROLLERS, "too_many_controllers", "controllers"),
    Cap::new(CREATE, "armies[].army.colors", MAX_COLORS, "too_many_colors", "colours"),
    Cap::new(CREATE, "armies[].army.troops", MAX_SLOTS, "too_many_slots", "troop lines"),
    Cap::new(CREATE, "armies[].army.troops[].colors", MAX_COLORS, "too_many_colors", "colours"),
    Cap::new(CREATE, "mercenaries", MAX_MERCENARIES, "too_many_armies", "mercenary armies"),
    Cap::new(CREATE, "mercenaries[].army.colors", MAX_COLORS, "too_many_colors", "colours"),
    Cap::new(CREATE, "mercenaries[].army.troops", MAX_SLOTS, "too_many_slots", "troop lines"),
    Cap::new(CREATE, "mercenaries[].army.troops[].colors", MAX_COLORS, "too_many_colors", "colours"),
    Cap::new(CREATE, "map.terrain", MAX_SQUARES, "too_many_squares", "squares"),
    Cap::new(CREATE, "map.sites", MAX_SQUARES, "too_many_squares", "sites"),
    Cap::new("add_player", "player.factions", MAX_FACTIONS, "too_many_factions", "factions"),
    Cap::new("set_controllers", "controllers", MAX_CONTROLLERS, "too_many_controllers", "controllers"),
    Cap::new("request_control_change", "controllers", MAX_CONTROLLERS, "too_many_controllers", "controllers"),
    Cap::new("transfer_control_authority", "holders", MAX_CONTROLLERS, "too_many_controllers", "holders"),
    Cap::new("authorize_emergency_control", "holders", MAX_CONTROLLERS, "too_many_controllers", "holders"),
    Cap::new("call_vote", "options", MAX_VOTE_OPTIONS, "too_many_options", "options"),
    Cap::new("customise_army", "troops", MAX_SLOTS, "too_many_slots", "troop lines"),
    Cap::new("change_troops", "troops", MAX_SLOTS, "too_many_slots", "troop lines"),
    Cap::new("post_orders", "orders", MAX_ARMIES, "too_many_armies", "orders"),
    Cap::new("adjudicate_turn", "battle_results", MAX_ARMIES, "too_many_armies", "battle results"),
    Cap::new("adjudicate_turn", "battle_results[].sides", MAX_SIDES, "too_many_sides", "sides"),
    Cap::new("adjudicate_turn", "battle_results[].sides[].losses", MAX_SLOTS, "too_many_slots", "losses"),
    Cap::new("adjudicate_turn", "battle_results[].withdrawn", MAX_ARMIES, "too_many_armies", "armies"),
];
