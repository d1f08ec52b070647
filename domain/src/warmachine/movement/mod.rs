//! Intentional movement (seed 000 "Movement"): advances along a path ("Full Advance", "Run",
//! "End of activation Movement"), movement restrictions ("Movement Restrictions"), charge
//! movement ("Independent model charges") and placing a unit's troopers ("Unit Movement").
//!
//! Everything is measured in inches on the table's plane, with bases as circles (see
//! [`super::table`]). Herald's readings where the seed is silent:
//! - an advancing model's base may not pass over another base (the seed says so) nor through
//!   an obstruction (herald's reading: the seed lets a charge stop on one, and an obstruction is
//!   tall); it may cross obstacles and hazards, and the hazards crossed are reported;
//! - terrain is not checked where a base ends or is placed ([`Table::check_placement`] does not
//!   either), so a feature a base already overlaps where a move starts does not hold it there;
//! - a model with no melee weapon giving a melee range uses [`DEFAULT_MELEE_RANGE`].
//!
//! [`Table::check_placement`]: super::table::Table::check_placement

mod advance;
mod charge;
mod restriction;
mod unit;

pub use advance::{check_advance, terrain_contact, Advance};
pub use charge::{resolve_charge, ChargeMove, ChargeStop};
pub use restriction::{check_restriction, DIRECT_TOLERANCE_RADIANS};
pub use unit::{check_unit_placement, find_unit_placement, PLACEMENT_ANGLE_STEP_DEGREES, PLACEMENT_RADIAL_STEP};

use super::table::{Circle, Point};
use crate::RuleError;

/// Melee range in inches when no melee weapon gives one. Seed 000 uses melee range ("Charge")
/// without giving a default; herald takes 0.5″, the usual range of a melee weapon.
pub const DEFAULT_MELEE_RANGE: f64 = 0.5;

/// Troopers are placed within 2″ of the trooper that moved (seed 000 "Unit Movement").
pub const UNIT_COHERENCY: f64 = 2.0;

const MOVEMENT: &str = "seed 000 \"Movement\"";

/// Refuses a base that is not finite or has no size.
fn check_base(base: &Circle, rule: &str) -> Result<(), RuleError> {
    if base.centre.is_finite() && base.radius.is_finite() && base.radius > 0.0 {
        Ok(())
    } else {
        Err(RuleError::new("warmachine.movement.not_finite", "a base needs a finite position and size", rule))
    }
}

/// Refuses a point that is not finite.
fn check_point(point: Point, what: &str, rule: &str) -> Result<(), RuleError> {
    if point.is_finite() {
        Ok(())
    } else {
        Err(RuleError::new("warmachine.movement.not_finite", format!("{what} must be a finite point"), rule))
    }
}

/// Refuses a distance that is negative or not finite.
fn check_inches(inches: f64, what: &str, rule: &str) -> Result<(), RuleError> {
    if inches.is_finite() && inches >= 0.0 {
        Ok(())
    } else {
        Err(RuleError::new(
            "warmachine.movement.not_finite",
            format!("{what} must be a finite, non-negative distance"),
            rule,
        ))
    }
}

/// The unit vector from `from` to `to` and the distance, or `None` when they coincide.
fn direction(from: Point, to: Point) -> Option<(f64, f64, f64)> {
    let length = from.distance(to);
    (length >= super::table::EPSILON).then(|| ((to.x - from.x) / length, (to.y - from.y) / length, length))
}
