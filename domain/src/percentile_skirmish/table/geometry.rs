//! Points, distances and directions on the table, in inches (seed 002 measures everything in
//! inches: movement, ranges, water widths).
//!
//! A mini stands at a point (its centre) and distances are measured centre to centre: the seed
//! gives no base sizes, only small, medium and large (Herald's reading, in the docs).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Distances closer than this are equal: a range band's boundary, a water edge, a road edge.
pub const EPSILON: f64 = 1e-9;

/// A point on the table, in inches from the lower-left corner (x to the right, y up).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishPoint)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"x": 12.0, "y": 4.5}))]
pub struct Point {
    /// Inches from the left edge.
    pub x: f64,
    /// Inches from the bottom edge.
    pub y: f64,
}

impl Point {
    /// The point (`x`, `y`).
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// The straight-line distance to `other`.
    pub fn distance(self, other: Point) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// Whether both coordinates are finite numbers.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// The point a fraction `t` of the way from `self` to `other`.
    pub fn lerp(self, other: Point, t: f64) -> Point {
        Point::new(self.x + (other.x - self.x) * t, self.y + (other.y - self.y) * t)
    }

    /// The direction from `self` to `other`, in degrees counter-clockwise from the positive x
    /// axis (0 ≤ angle < 360); `None` when the points coincide.
    pub fn bearing_to(self, other: Point) -> Option<f64> {
        let (dx, dy) = (other.x - self.x, other.y - self.y);
        if dx.abs() < EPSILON && dy.abs() < EPSILON {
            return None;
        }
        Some(normalise_degrees(dy.atan2(dx).to_degrees()))
    }

    /// The point `distance` inches from `self` in direction `degrees`.
    pub fn towards(self, degrees: f64, distance: f64) -> Point {
        let radians = degrees.to_radians();
        Point::new(self.x + radians.cos() * distance, self.y + radians.sin() * distance)
    }
}

/// An angle in degrees brought into 0 ≤ angle < 360.
pub fn normalise_degrees(degrees: f64) -> f64 {
    let turned = degrees.rem_euclid(360.0);
    if turned >= 360.0 {
        0.0
    } else {
        turned
    }
}

/// The smaller angle between two directions, 0 to 180 degrees.
pub fn angle_between(a: f64, b: f64) -> f64 {
    let difference = normalise_degrees(a - b);
    difference.min(360.0 - difference)
}

/// The length of a path through `points`, in order.
pub fn path_length(points: &[Point]) -> f64 {
    points.windows(2).map(|pair| pair[0].distance(pair[1])).sum()
}

/// The distance from `point` to the segment `a`–`b`.
pub fn segment_distance(point: Point, a: Point, b: Point) -> f64 {
    point.distance(closest_on_segment(point, a, b))
}

/// The point of the segment `a`–`b` closest to `point`.
pub fn closest_on_segment(point: Point, a: Point, b: Point) -> Point {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length_squared = dx * dx + dy * dy;
    if length_squared < EPSILON * EPSILON {
        return a;
    }
    let t = (((point.x - a.x) * dx + (point.y - a.y) * dy) / length_squared).clamp(0.0, 1.0);
    a.lerp(b, t)
}

/// The first `t` in [0, 1] at which the segment `from`–`to` (as `from + t·(to − from)`) is
/// strictly closer than `radius` to `centre`, if any: where a path enters a round pond or the
/// rounded end of a river.
pub fn circle_entry(from: Point, to: Point, centre: Point, radius: f64) -> Option<f64> {
    if from.distance(centre) < radius - EPSILON {
        return Some(0.0);
    }
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let (fx, fy) = (from.x - centre.x, from.y - centre.y);
    let a = dx * dx + dy * dy;
    if a < EPSILON * EPSILON {
        return None;
    }
    let b = 2.0 * (fx * dx + fy * dy);
    let c = fx * fx + fy * fy - radius * radius;
    let discriminant = b * b - 4.0 * a * c;
    if discriminant <= 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    let (t0, t1) = ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a));
    // The path crosses the inside only between t0 and t1; touching the rim is not entering.
    let entry = t0.max(0.0);
    (entry < 1.0 && t1 - entry > EPSILON && t1 > 0.0).then_some(entry)
}

/// The first `t` in [0, 1] at which the segment `from`–`to` is strictly inside the
/// axis-aligned rectangle `min`–`max`, if any (Liang–Barsky clipping).
pub fn rect_entry(from: Point, to: Point, min: Point, max: Point) -> Option<f64> {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let (mut enter, mut leave) = (0.0_f64, 1.0_f64);
    for (p, q) in [(-dx, from.x - min.x), (dx, max.x - from.x), (-dy, from.y - min.y), (dy, max.y - from.y)] {
        if p.abs() < EPSILON {
            if q <= EPSILON {
                // Parallel to this side and outside it, or running along it.
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                enter = enter.max(t);
            } else {
                leave = leave.min(t);
            }
        }
    }
    (leave - enter > EPSILON).then_some(enter)
}

/// The first `t` in [0, 1] at which the segment `from`–`to` comes strictly closer than
/// `radius` to the segment `a`–`b` (a capsule: a straight stretch of river or road).
pub fn capsule_entry(from: Point, to: Point, a: Point, b: Point, radius: f64) -> Option<f64> {
    let mut entries: Vec<f64> =
        [circle_entry(from, to, a, radius), circle_entry(from, to, b, radius)].into_iter().flatten().collect();
    // The straight part: a rectangle along a–b, `radius` either side, in a–b's own frame.
    let length = a.distance(b);
    if length > EPSILON {
        let (ux, uy) = ((b.x - a.x) / length, (b.y - a.y) / length);
        let frame = |p: Point| Point::new((p.x - a.x) * ux + (p.y - a.y) * uy, -(p.x - a.x) * uy + (p.y - a.y) * ux);
        if let Some(t) = rect_entry(frame(from), frame(to), Point::new(0.0, -radius), Point::new(length, radius)) {
            entries.push(t);
        }
    }
    entries.into_iter().reduce(f64::min)
}
