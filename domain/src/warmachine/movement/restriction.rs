//! Movement restrictions (seed 000 "Movement Restrictions"): toward, directly toward, away
//! and directly away from another model.

use super::super::model::MovementRestriction;
use super::super::table::{Point, EPSILON};
use super::{check_point, direction};
use crate::RuleError;

const RESTRICTIONS: &str = "seed 000 \"Movement Restrictions\"";

/// How far (in radians) a "directly" toward or away move may point off the line through the
/// two centres: about 0.06°, or 0.01″ sideways over a 10″ move, far below what a tabletop can
/// measure, yet loose enough for coordinates a client rounded.
pub const DIRECT_TOLERANCE_RADIANS: f64 = 1e-3;

/// Checks a path (waypoints after `start`, model A's centre) against a movement restriction
/// relative to `other`, model B's centre (seed 000 "Movement Restrictions").
///
/// Distances between the models are measured edge to edge, which differs from the distance
/// between centres by the fixed radii, so the centres are compared. Repeated waypoints are
/// not movement and are skipped; a path that does not move satisfies every restriction ("a
/// model can still forfeit its movement or choose not to move at all").
/// - `Toward`: the distance must decrease all along the path. The distance from a point moving
///   along a segment is convex, so it decreases all along the segment when it is not
///   increasing at the segment's end.
/// - `DirectlyToward`: one straight segment pointing at B's centre (within
///   [`DIRECT_TOLERANCE_RADIANS`]), not going past it.
/// - `Away`: the distance must increase all along the path: by convexity, it must not be
///   decreasing at each segment's start.
/// - `DirectlyAway`: one straight segment pointing directly away from B's centre, "the most
///   direct path away".
pub fn check_restriction(
    restriction: MovementRestriction,
    other: Point,
    start: Point,
    path: &[Point],
) -> Result<(), RuleError> {
    check_point(other, "the other model's position", RESTRICTIONS)?;
    check_point(start, "the start", RESTRICTIONS)?;
    let mut points = vec![start];
    for (index, waypoint) in path.iter().enumerate() {
        check_point(*waypoint, &format!("waypoint {}", index + 1), RESTRICTIONS)?;
        if points.last().is_some_and(|last| last.distance(*waypoint) >= EPSILON) {
            points.push(*waypoint);
        }
    }
    let legs: Vec<(Point, Point)> = points.windows(2).map(|pair| (pair[0], pair[1])).collect();
    let toward = |(from, to): (Point, Point)| rate(other, from, to, to) <= EPSILON;
    let away = |(from, to): (Point, Point)| rate(other, from, to, from) >= -EPSILON;
    match restriction {
        MovementRestriction::Toward if !legs.iter().copied().all(toward) => Err(refusal(
            "warmachine.movement.not_toward",
            "the model must move toward the other model: the distance must decrease all along its path",
        )),
        MovementRestriction::Away if !legs.iter().copied().all(away) => Err(refusal(
            "warmachine.movement.not_away",
            "the model must move away from the other model: the distance must increase all along its path",
        )),
        MovementRestriction::DirectlyToward
            if !(legs.is_empty() || (legs.len() == 1 && toward(legs[0]) && aligned(legs[0], start, other))) =>
        {
            Err(refusal(
                "warmachine.movement.not_directly_toward",
                "the model must move in one straight line directly toward the other model, not past it",
            ))
        }
        MovementRestriction::DirectlyAway
            if !(legs.is_empty() || (legs.len() == 1 && aligned(legs[0], other, start))) =>
        {
            Err(refusal(
                "warmachine.movement.not_directly_away",
                "the model must move in one straight line directly away from the other model",
            ))
        }
        _ => Ok(()),
    }
}

fn refusal(code: &str, message: &str) -> RuleError {
    RuleError::new(code, message, RESTRICTIONS)
}

/// The rate of change of the distance to `other` per inch moved along `from`–`to`, at `at`
/// (a point of the segment): the component of the direction of travel along `at − other`.
fn rate(other: Point, from: Point, to: Point, at: Point) -> f64 {
    match (direction(from, to), direction(other, at)) {
        (Some((ux, uy, _)), Some((rx, ry, _))) => ux * rx + uy * ry,
        // The distance is least at the other model's centre: it was decreasing on arriving
        // there and increases on leaving, whichever the direction.
        (Some(_), None) => 0.0,
        (None, _) => 0.0,
    }
}

/// Whether the leg points the same way as the line from `from` to `to` (within tolerance); a
/// line of no length (the models' centres coincide) gives every direction, so any leg fits.
fn aligned((start, end): (Point, Point), from: Point, to: Point) -> bool {
    match (direction(start, end), direction(from, to)) {
        (Some((ux, uy, _)), Some((vx, vy, _))) => {
            (ux * vy - uy * vx).atan2(ux * vx + uy * vy).abs() <= DIRECT_TOLERANCE_RADIANS
        }
        _ => true,
    }
}
