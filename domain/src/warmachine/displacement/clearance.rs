//! Clearance along a straight line: how far a base must go in one direction to stop overlapping
//! other bases, and how far it may go and stay on the table (for seed 000 "Rule of Least
//! Disturbance").

use super::disturbance::DIRECTIONS;
use crate::warmachine::table::{Point, Table};

/// Tolerance on distances along a direction (well inside the table's overlap tolerance).
pub(super) const ALONG: f64 = 1e-10;

/// Unit vectors every 360/[`DIRECTIONS`] degrees; axis directions are exact.
pub(super) fn directions() -> Vec<(f64, f64)> {
    let exact = |v: f64| if v.abs() < 1e-12 { 0.0 } else { v };
    (0..DIRECTIONS)
        .map(|k| {
            let angle = (360.0 * k as f64 / DIRECTIONS as f64).to_radians();
            (exact(angle.cos()), exact(angle.sin()))
        })
        .collect()
}

/// The open stretch `(near, far)` of distances along unit `direction` from `centre` at which a
/// base comes within `reach` of `other`'s centre (overlaps it); `None` if it never does ahead.
pub(super) fn forbidden(centre: Point, direction: (f64, f64), reach: f64, other: Point) -> Option<(f64, f64)> {
    let (wx, wy) = (centre.x - other.x, centre.y - other.y);
    let b = wx * direction.0 + wy * direction.1;
    let disc = b * b - (wx * wx + wy * wy - reach * reach);
    if disc <= 0.0 {
        return None;
    }
    let root = disc.sqrt();
    let far = -b + root;
    (far > ALONG).then_some((-b - root, far))
}

/// The least distance at or after 0 outside every stretch in `blocked` (sorted by start).
pub(super) fn least_clear(blocked: &[(f64, f64)]) -> f64 {
    let mut at = 0.0_f64;
    for &(near, far) in blocked {
        if near + ALONG >= at {
            break;
        }
        if at < far - ALONG {
            at = far;
        }
    }
    at
}

/// How far a base can go along `direction` and stay wholly on the table.
pub(super) fn table_reach(table: &Table, centre: Point, radius: f64, direction: (f64, f64)) -> f64 {
    let mut reach = f64::INFINITY;
    for (start, delta, high) in [(centre.x, direction.0, table.width), (centre.y, direction.1, table.depth)] {
        if delta > 0.0 {
            reach = reach.min((high - radius - start) / delta);
        } else if delta < 0.0 {
            reach = reach.min((radius - start) / delta);
        }
    }
    reach
}
