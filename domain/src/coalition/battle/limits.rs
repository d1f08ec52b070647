//! How many things a coalition battle may hold (issue 15): the service caps, in one place.
//! Checked on every command before it is decided ([`crate::caps`]) and shown in the OpenAPI
//! document as `maxItems`. The rules already hold an army to 6 creature types (slots) and a side
//! to 2 armies (seed 003 §3.2.5.2, §4.4); the caps here bound what a client can send before
//! those rules read it, well above them.

use crate::caps::Cap;

/// Slots (creature types) of one army in a request; the rules then allow 6.
pub const MAX_SLOTS: usize = 32;
/// Colours of one slot (there are six).
pub const MAX_COLORS: usize = 8;
/// Partner armies in a request; the rules then allow one a side.
pub const MAX_PARTNERS: usize = 8;
/// Involvement shares.
pub const MAX_SHARES: usize = 8;

const CREATE: &str = "create_battle";

/// Every cap of a coalition battle command.
pub const CAPS: &[Cap] = &[
    Cap::new(CREATE, "armies.*.slots", MAX_SLOTS, "too_many_slots", "slots"),
    Cap::new(CREATE, "armies.*.slots[].colors", MAX_COLORS, "too_many_colors", "colours"),
    Cap::new(CREATE, "partners", MAX_PARTNERS, "too_many_armies", "partner armies"),
    Cap::new(CREATE, "partners[].army.slots", MAX_SLOTS, "too_many_slots", "slots"),
    Cap::new(CREATE, "partners[].army.slots[].colors", MAX_COLORS, "too_many_colors", "colours"),
    Cap::new("assign_involvement", "shares", MAX_SHARES, "too_many_shares", "shares"),
    Cap::new("apply_sanction", "losses", MAX_SLOTS, "too_many_slots", "losses"),
    Cap::new("override_casualties", "losses", MAX_SLOTS, "too_many_slots", "losses"),
];
