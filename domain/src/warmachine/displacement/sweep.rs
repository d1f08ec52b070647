//! A base swept along a straight path: where it first meets a terrain footprint, which smaller
//! bases a slam moves through, which hazards it crosses.

use super::Body;
use crate::warmachine::table::{first_contact, overlaps, Circle, Point, Shape, TerrainFeature, TerrainKind, EPSILON};

/// How far ahead (inches) a base touching a feature looks to tell moving into it from moving
/// away or alongside.
const PROBE: f64 = 1e-6;
/// The least rate (inches of approach per inch moved) that counts as moving into a touched
/// feature; shallower is moving alongside.
const INTO_RATE: f64 = 1e-6;
/// Bisection steps: halving a path of at most a few hundred inches this often leaves far less
/// than [`EPSILON`].
const BISECTIONS: usize = 100;

/// Inches a base of `radius` centred on `start` moves along unit `direction`, at most `length`,
/// before it contacts `shape`; `None` when it passes clear, only grazes, or starts touching or
/// over the feature and does not move further into it (as `table::first_contact` treats bases).
///
/// The least distance from the swept segment `start`–`start + s·direction` to a convex footprint
/// never grows with `s`, so the contact is found by bisection; the answer is on the near side,
/// touching but not overlapping.
pub(super) fn terrain_contact(
    shape: &Shape,
    start: Point,
    direction: (f64, f64),
    radius: f64,
    length: f64,
) -> Option<f64> {
    if length < EPSILON {
        return None;
    }
    let at = |s: f64| Point::new(start.x + direction.0 * s, start.y + direction.1 * s);
    let from_start = shape.distance_to_segment(start, start);
    if from_start <= radius + EPSILON {
        let step = length.min(PROBE);
        let ahead = shape.distance_to_segment(at(step), at(step));
        return (ahead < from_start - step * INTO_RATE).then_some(0.0);
    }
    if shape.distance_to_segment(start, at(length)) >= radius - EPSILON {
        return None;
    }
    let (mut clear, mut touching) = (0.0_f64, length);
    for _ in 0..BISECTIONS {
        let mid = (clear + touching) / 2.0;
        if shape.distance_to_segment(start, at(mid)) < radius {
            touching = mid;
        } else {
            clear = mid;
        }
    }
    Some(clear)
}

/// The smaller bases a slammed model moved through (seed 000 "Slammed": "If slammed into a model
/// with a smaller base, the model moves through it"), in the order it met them (ties in `bodies`
/// order): those it overlapped on the way from `start` to `end`, or overlaps at the end.
pub(super) fn passed_through(bodies: &[Body], mover_index: usize, start: &Circle, end: &Circle) -> Vec<String> {
    let Some(mover) = bodies.get(mover_index) else {
        return Vec::new();
    };
    let travelled = start.centre.distance(end.centre);
    let mut met: Vec<(f64, usize)> = bodies
        .iter()
        .enumerate()
        .filter(|(index, body)| *index != mover_index && body.base < mover.base)
        .filter_map(|(index, body)| {
            let circle = body.circle();
            match first_contact(start, end.centre, &[circle]) {
                Some(contact) => Some((contact.travelled, index)),
                None => overlaps(end, &circle).then_some((travelled, index)),
            }
        })
        .collect();
    met.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    met.into_iter().map(|(_, index)| bodies[index].id.clone()).collect()
}

/// Indexes of the hazards a base of `radius` overlaps anywhere on its way from `from` to `to`
/// (seed 000 "Pushed", "Slammed": it "suffers the effects of hazards through which it moves"),
/// including one it starts in and leaves; touching a hazard's edge is not moving through it.
pub(super) fn hazards_crossed(terrain: &[TerrainFeature], from: Point, to: Point, radius: f64) -> Vec<usize> {
    terrain
        .iter()
        .enumerate()
        .filter(|(_, feature)| {
            feature.kind == TerrainKind::Hazard && feature.shape.distance_to_segment(from, to) < radius - EPSILON
        })
        .map(|(index, _)| index)
        .collect()
}
