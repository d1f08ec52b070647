//! Plane geometry in inches: points, circles, axis-aligned rectangles and the distances the
//! table needs (seed 000 "Measuring Distances").
//!
//! Floats: a distance is "within" a limit when it is at most the limit plus [`EPSILON`], so a
//! model exactly at the limit is within "even if it is exact" despite rounding in the square
//! roots; two bases overlap only when they interpenetrate by more than [`EPSILON`], so bases in
//! base-to-base contact do not overlap.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Tolerance for comparing distances in inches (a billionth of an inch).
pub const EPSILON: f64 = 1e-9;

/// A point on the table, in inches from the table's lower-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Point {
    /// Inches from the left edge.
    pub x: f64,
    /// Inches from the bottom edge.
    pub y: f64,
}

impl Point {
    /// A point.
    pub fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// Straight-line distance between two points.
    pub fn distance(self, other: Point) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// Whether both coordinates are finite.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// The point a fraction `t` of the way from `self` to `to`.
    pub fn lerp(self, to: Point, t: f64) -> Point {
        Point::new(self.x + (to.x - self.x) * t, self.y + (to.y - self.y) * t)
    }
}

/// A circle: a model's base or a round terrain feature.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Circle {
    /// Centre.
    pub centre: Point,
    /// Radius in inches.
    pub radius: f64,
}

/// An axis-aligned rectangle: a rectangular terrain feature.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Rect {
    /// Lower-left corner.
    pub min: Point,
    /// Upper-right corner.
    pub max: Point,
}

impl Rect {
    /// Distance from a point to the rectangle (0 inside).
    pub fn distance_to_point(&self, p: Point) -> f64 {
        let dx = (self.min.x - p.x).max(0.0).max(p.x - self.max.x);
        let dy = (self.min.y - p.y).max(0.0).max(p.y - self.max.y);
        dx.hypot(dy)
    }

    /// Whether the segment `a`–`b` touches the rectangle (slab test).
    pub fn intersects_segment(&self, a: Point, b: Point) -> bool {
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (start, delta, low, high) in
            [(a.x, b.x - a.x, self.min.x, self.max.x), (a.y, b.y - a.y, self.min.y, self.max.y)]
        {
            if delta.abs() < EPSILON {
                if start < low || start > high {
                    return false;
                }
            } else {
                let (mut near, mut far) = ((low - start) / delta, (high - start) / delta);
                if near > far {
                    std::mem::swap(&mut near, &mut far);
                }
                t0 = t0.max(near);
                t1 = t1.min(far);
                if t0 > t1 {
                    return false;
                }
            }
        }
        true
    }

    /// Distance between the segment `a`–`b` and the rectangle: 0 if they touch, else the least
    /// of the segment's endpoints to the rectangle and the rectangle's corners to the segment.
    pub fn distance_to_segment(&self, a: Point, b: Point) -> f64 {
        if self.intersects_segment(a, b) {
            return 0.0;
        }
        let corners = [self.min, Point::new(self.min.x, self.max.y), self.max, Point::new(self.max.x, self.min.y)];
        corners
            .iter()
            .map(|c| segment_point_distance(a, b, *c))
            .chain([self.distance_to_point(a), self.distance_to_point(b)])
            .fold(f64::INFINITY, f64::min)
    }
}

/// A terrain footprint.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Shape {
    /// Round.
    Circle(Circle),
    /// Rectangular, axis-aligned.
    Rect(Rect),
}

impl Shape {
    /// Whether every coordinate is finite and the shape has a size (radius > 0, min ≤ max).
    pub fn is_finite(&self) -> bool {
        match self {
            Shape::Circle(c) => c.centre.is_finite() && c.radius.is_finite() && c.radius > 0.0,
            Shape::Rect(r) => r.min.is_finite() && r.max.is_finite() && r.min.x <= r.max.x && r.min.y <= r.max.y,
        }
    }

    /// Distance between the segment `a`–`b` and the shape (0 if they touch).
    pub fn distance_to_segment(&self, a: Point, b: Point) -> f64 {
        match self {
            Shape::Circle(c) => (segment_point_distance(a, b, c.centre) - c.radius).max(0.0),
            Shape::Rect(r) => r.distance_to_segment(a, b),
        }
    }
}

/// Distance from point `p` to the segment `a`–`b`.
pub fn segment_point_distance(a: Point, b: Point, p: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length_squared = dx * dx + dy * dy;
    if length_squared < EPSILON * EPSILON {
        return a.distance(p);
    }
    let t = (((p.x - a.x) * dx + (p.y - a.y) * dy) / length_squared).clamp(0.0, 1.0);
    a.lerp(b, t).distance(p)
}

/// Distance between the nearest edges of two circles; 0 when they touch or overlap
/// (seed 000 "Measuring Distances": "If models bases overlap, they are within 0″").
pub fn edge_distance(a: &Circle, b: &Circle) -> f64 {
    (a.centre.distance(b.centre) - (a.radius + b.radius)).max(0.0)
}

/// Whether `b` is within `inches` of `a`, edge to edge, "even if it is exact".
pub fn within(a: &Circle, b: &Circle, inches: f64) -> bool {
    edge_distance(a, b) <= inches + EPSILON
}

/// Whether two circles overlap (interpenetrate); touching is not overlapping.
pub fn overlaps(a: &Circle, b: &Circle) -> bool {
    a.centre.distance(b.centre) < a.radius + b.radius - EPSILON
}
