//! Facing and the flank position (seed 002 "Flank attack", "RANGE OR SPELL ATTACKS ON A FLANKED
//! MINI"). The seed uses the flank position without defining it: Herald's reading is that an
//! attacker outside the target's front arc (the battle's `front_arc`, 180° by default, centred
//! on its facing) is in its flank; the arc's edge counts as front.

use crate::percentile_skirmish::table::{angle_between, Point, EPSILON};

/// Whether an attacker at `attacker` is in the flank position of a mini at `target` facing
/// `facing` degrees, with a front arc of `front_arc` degrees. An attacker on the very spot of the
/// target is in front of it.
pub fn in_flank(attacker: Point, target: Point, facing: f64, front_arc: f64) -> bool {
    match target.bearing_to(attacker) {
        Some(bearing) => angle_between(bearing, facing) > front_arc / 2.0 + EPSILON,
        None => false,
    }
}
