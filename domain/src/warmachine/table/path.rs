//! Paths: a base moving in a straight line, swept against other bases and terrain (seed 000
//! "Movement": "A model's base cannot pass over another model's base"; "Charge", "Slammed",
//! "Thrown": the model stops when it contacts a model, an obstacle or an obstruction).
//!
//! A moving base contacts another when the swept circle comes closer than the two radii
//! (less [`EPSILON`]). Ending in base-to-base contact is allowed; starting in contact and moving
//! away or alongside is allowed; moving deeper into a base it touches is a contact at 0″.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::geometry::{Circle, Point, EPSILON};
use super::terrain::TerrainFeature;

/// The first base a straight move contacts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Contact {
    /// Index of the contacted base in the list given.
    pub index: usize,
    /// Inches moved before contact.
    pub travelled: f64,
}

/// Inches `mover` can travel along unit direction `(ux, uy)` before contacting `other`.
fn contact_distance(mover: &Circle, ux: f64, uy: f64, other: &Circle) -> Option<f64> {
    let reach = mover.radius + other.radius;
    let (ox, oy) = (mover.centre.x - other.centre.x, mover.centre.y - other.centre.y);
    let start = ox.hypot(oy);
    let b = ux * ox + uy * oy;
    if start <= reach + EPSILON {
        // Already touching or overlapping: only moving toward the other's centre is a contact.
        return (b < -EPSILON).then_some(0.0);
    }
    // Closest approach of the line of travel; grazing (within EPSILON) is not a contact.
    let closest_squared = (start * start - b * b).max(0.0);
    let graze = reach - EPSILON;
    if closest_squared >= graze * graze {
        return None;
    }
    let s = -b - (reach * reach - closest_squared).sqrt();
    (s >= 0.0).then_some(s)
}

/// The first of `others` that `mover` contacts moving its centre straight to `to`, before
/// arriving there; ending in base-to-base contact is not a contact on the way.
pub fn first_contact(mover: &Circle, to: Point, others: &[Circle]) -> Option<Contact> {
    let length = mover.centre.distance(to);
    if length < EPSILON {
        return None;
    }
    let (ux, uy) = ((to.x - mover.centre.x) / length, (to.y - mover.centre.y) / length);
    others
        .iter()
        .enumerate()
        .filter_map(|(index, other)| {
            contact_distance(mover, ux, uy, other)
                .filter(|s| *s < length - EPSILON)
                .map(|travelled| Contact { index, travelled })
        })
        .min_by(|a, b| a.travelled.total_cmp(&b.travelled))
}

/// Whether a straight move would pass over (or into) another base.
pub fn passes_over_base(mover: &Circle, to: Point, others: &[Circle]) -> bool {
    first_contact(mover, to, others).is_some()
}

/// The first obstacle or obstruction (by index) that the moving base's swept area overlaps,
/// for moves that stop on contact. The sweep is checked as a whole, so it says whether, not
/// where, the base contacts the feature.
pub fn terrain_in_path(terrain: &[TerrainFeature], mover: &Circle, to: Point) -> Option<usize> {
    terrain
        .iter()
        .position(|f| f.stops_movement() && f.shape.distance_to_segment(mover.centre, to) < mover.radius - EPSILON)
}
