//! Placing a unit's other troopers after one trooper moved (seed 000 "Unit Movement").

use super::super::table::{has_line_of_sight, overlaps, within, Circle, Point, Table};
use super::{check_base, UNIT_COHERENCY};
use crate::RuleError;

const MOVEMENT: &str = "seed 000 \"Movement\", \"Unit Movement\"";
const UNIT: &str = "seed 000 \"Unit Movement\"";
const BEYOND: &str = "seed 000 \"Beyond the Play Area\"";

/// Radial step, in inches, of [`find_unit_placement`]'s search.
pub const PLACEMENT_RADIAL_STEP: f64 = 0.05;

/// Angular step, in degrees, of [`find_unit_placement`]'s search.
pub const PLACEMENT_ANGLE_STEP_DEGREES: f64 = 5.0;

/// Checks where the other troopers of a unit are placed after one trooper moved (seed 000
/// "Unit Movement": "place the remaining troopers in the unit within 2″ of that model. These
/// models must be placed so they have line of sight to the trooper that moved").
///
/// Each placed base must be wholly on the table, within [`UNIT_COHERENCY`] of `moved` edge to
/// edge, see `moved` (the terrain, `others` and the other placed troopers can block; troopers
/// are "placed simultaneously"), and overlap neither `others`, nor another placed trooper, nor
/// `moved`. `others` are the bases of the models outside the unit; a base equal to `moved`
/// among them is taken for `moved` itself. Terrain under a base is not checked, as in
/// [`Table::check_placement`]. Errors name the first trooper (the `String` of its pair) that
/// breaks a rule.
pub fn check_unit_placement(
    table: &Table,
    moved: &Circle,
    placed: &[(String, Circle)],
    others: &[Circle],
) -> Result<(), RuleError> {
    check_base(moved, UNIT)?;
    for (index, (name, base)) in placed.iter().enumerate() {
        let refuse = |code: &str, why: &str, rule: &str| {
            RuleError::new(format!("warmachine.movement.{code}"), format!("trooper \"{name}\" {why}"), rule)
        };
        check_base(base, UNIT).map_err(|_| refuse("not_finite", "needs a finite position and size", UNIT))?;
        if !table.contains(base) {
            return Err(refuse("unit_off_table", "must be placed wholly on the table", BEYOND));
        }
        if !within(base, moved, UNIT_COHERENCY) {
            return Err(refuse("unit_coherency", "must be placed within 2″ of the trooper that moved", UNIT));
        }
        let troopers = placed.iter().enumerate().filter(|(other, _)| *other != index).map(|(_, (_, c))| *c);
        let blockers: Vec<Circle> = others.iter().copied().filter(|c| c != moved).chain(troopers).collect();
        if overlaps(base, moved) || blockers.iter().any(|other| overlaps(base, other)) {
            return Err(refuse("unit_overlapping", "may not overlap another model's base", MOVEMENT));
        }
        if !has_line_of_sight(&table.terrain, base, moved, &blockers) {
            return Err(refuse(
                "unit_line_of_sight",
                "must be placed with line of sight to the trooper that moved",
                UNIT,
            ));
        }
    }
    Ok(())
}

/// A legal spot for the centre of a trooper base of `radius`: wholly on the table, within
/// [`UNIT_COHERENCY`] of `moved` with line of sight to it, overlapping neither `moved` nor
/// `occupied` (every other base already on the table; a base equal to `moved` among them is
/// taken for `moved` itself). It lets the referee refuse a claim that a trooper "cannot be
/// placed within 2″" and is destroyed (seed 000 "Unit Movement") when a spot exists.
///
/// The search is deterministic: rings around `moved` from base-to-base contact out to 2″, every
/// [`PLACEMENT_RADIAL_STEP`] inches, each tried every [`PLACEMENT_ANGLE_STEP_DEGREES`] degrees
/// from the positive x axis counter-clockwise; the first spot found is returned. A gap
/// narrower than the steps can be missed, so `None` means no spot on that grid.
pub fn find_unit_placement(table: &Table, moved: &Circle, radius: f64, occupied: &[Circle]) -> Option<Point> {
    check_base(moved, UNIT).ok()?;
    if !(radius.is_finite() && radius > 0.0) {
        return None;
    }
    let blockers: Vec<Circle> = occupied.iter().copied().filter(|c| c != moved).collect();
    // Both steps divide their ranges exactly; counting steps keeps the last ring at 2″.
    let rings = (UNIT_COHERENCY / PLACEMENT_RADIAL_STEP).round() as u32;
    let angles = (360.0 / PLACEMENT_ANGLE_STEP_DEGREES).round() as u32;
    let contact = moved.radius + radius;
    (0..=rings)
        .flat_map(|ring| (0..angles).map(move |angle| (ring, angle)))
        .map(|(ring, angle)| {
            let distance = contact + UNIT_COHERENCY * f64::from(ring) / f64::from(rings);
            let theta = (f64::from(angle) * PLACEMENT_ANGLE_STEP_DEGREES).to_radians();
            Point::new(moved.centre.x + distance * theta.cos(), moved.centre.y + distance * theta.sin())
        })
        .find(|spot| {
            let base = Circle { centre: *spot, radius };
            table.contains(&base)
                && within(&base, moved, UNIT_COHERENCY)
                && !overlaps(&base, moved)
                && !blockers.iter().any(|other| overlaps(&base, other))
                && has_line_of_sight(&table.terrain, &base, moved, &blockers)
        })
}
