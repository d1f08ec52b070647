//! Where one base may stand, and the exact spots nearest its start, for seed 000 "Rule of Least
//! Disturbance" ("find the locations to move them that create the least total distance moved").
//!
//! The places a base of radius r may be moved to — its centre's positions — form a closed set: the
//! table shrunk by r (the [`Room`]) minus open forbidden [`Region`]s, one per other base (a disc
//! grown by r) and one per obstruction (its footprint grown by r: a disc, or a rectangle with
//! rounded corners). Touching is allowed: bases in contact do not overlap (seed 000 "Measuring
//! Distances"), and a base may stand against an obstruction.
//!
//! Why [`Clearance::spots`] holds the nearest place exactly. When the start is not allowed, the
//! nearest allowed place lies on the boundary of the allowed set. That boundary is made of circle
//! arcs and straight, axis-aligned segments (pieces of the [`Curve`]s bounding the regions and the
//! room). Along one such piece the distance to the start is least either where the perpendicular
//! from the start meets it — its foot: straight away from a circle's centre, square to a line — or
//! at an end of the piece, where it crosses another curve. So the nearest allowed place is the
//! nearest allowed point among the feet of all curves and the crossings of every two of them:
//! no direction grid, no step size. When the start is a circle's centre, every point of that circle
//! is a foot at the same distance: herald lists [`DIRECTIONS`] of them, every 5°, and they tie.
//!
//! For bases placed before others, [`Clearance::spots`] can also sweep [`DIRECTIONS`] directions,
//! taking in each the first allowed point: when several bases must fit together, the best place
//! for one is not always its own nearest.
//!
//! Bounds. Only the [`MAX_NEAR_CURVES`] curves nearest the start are crossed with each other: the
//! nearest spot is exact while fewer curves than that come within its distance of the start. When
//! more crowd in and none of the spots found is allowed, the directions are swept as well, so a
//! place is still found if a straight line leads to one. Every spot is checked against every
//! region that could hold it, so no spot listed is ever illegal.

use super::disturbance::{DIRECTIONS, MAX_NEAR_CURVES};
use crate::warmachine::table::{Circle, Point, Rect, Shape, Table, EPSILON};

/// Spots closer together than this are the same spot.
const SAME_SPOT: f64 = 1e-9;
/// A start closer than this to a circle's centre has no direction straight away from it.
const CENTRED: f64 = 1e-12;

/// Where the centre of a base of one radius keeps the base wholly on the table (seed 000 "Beyond
/// the Play Area"), with the table's tolerance for touching an edge.
#[derive(Debug, Clone, Copy)]
pub(super) struct Room {
    min: Point,
    max: Point,
}

impl Room {
    /// The room on `table` for a base of `radius`.
    pub(super) fn new(table: &Table, radius: f64) -> Self {
        Self { min: Point::new(radius, radius), max: Point::new(table.width - radius, table.depth - radius) }
    }

    fn holds(&self, p: Point) -> bool {
        p.x >= self.min.x - EPSILON
            && p.x <= self.max.x + EPSILON
            && p.y >= self.min.y - EPSILON
            && p.y <= self.max.y + EPSILON
    }

    fn edges(&self) -> [Curve; 4] {
        [
            Curve::Vertical(self.min.x),
            Curve::Vertical(self.max.x),
            Curve::Horizontal(self.min.y),
            Curve::Horizontal(self.max.y),
        ]
    }
}

/// Where a moving base's centre may not go: it would overlap a base or an obstruction.
#[derive(Debug, Clone, Copy)]
pub(super) enum Region {
    /// Closer than the radius to the centre: another base, or a round obstruction, grown.
    Disc(Circle),
    /// Closer than `margin` to the rectangle: a rectangular obstruction grown by the radius.
    Rounded { rect: Rect, margin: f64 },
}

impl Region {
    /// Another base, as a base of `radius` must keep clear of it.
    pub(super) fn base(other: &Circle, radius: f64) -> Self {
        Region::Disc(Circle { centre: other.centre, radius: other.radius + radius })
    }

    /// An obstruction's footprint, as a base of `radius` must keep clear of it.
    pub(super) fn obstruction(shape: &Shape, radius: f64) -> Self {
        match shape {
            Shape::Circle(c) => Region::Disc(Circle { centre: c.centre, radius: c.radius + radius }),
            Shape::Rect(rect) => Region::Rounded { rect: *rect, margin: radius },
        }
    }

    /// How far `p` is outside the region (negative inside). It changes no faster than `p` moves,
    /// so a region more than `d` from the start cannot hold a spot within `d` of it.
    fn gap(&self, p: Point) -> f64 {
        match self {
            Region::Disc(c) => p.distance(c.centre) - c.radius,
            Region::Rounded { rect, margin } => rect.distance_to_point(p) - margin,
        }
    }

    /// Whether a base centred at `p` would overlap what the region stands for: by more than
    /// touching, as [`crate::warmachine::table::overlaps`] and
    /// [`crate::warmachine::table::TerrainFeature::overlaps_base`] decide.
    fn forbids(&self, p: Point) -> bool {
        self.gap(p) < -EPSILON
    }

    /// How far along the ray from `from` in unit direction `u` the ray leaves the region for good,
    /// if it passes through its inside at all ahead of `from`. The region is convex, so the ray is
    /// inside it along one stretch, which ends here.
    fn exit(&self, from: Point, u: (f64, f64)) -> Option<f64> {
        match *self {
            Region::Disc(c) => disc_exit(&c, from, u),
            Region::Rounded { rect, margin } => {
                // A rounded rectangle is two crossed slabs and four corner discs; its exit is the
                // last of theirs.
                let wide = Rect {
                    min: Point::new(rect.min.x - margin, rect.min.y),
                    max: Point::new(rect.max.x + margin, rect.max.y),
                };
                let tall = Rect {
                    min: Point::new(rect.min.x, rect.min.y - margin),
                    max: Point::new(rect.max.x, rect.max.y + margin),
                };
                let corners =
                    [rect.min, Point::new(rect.min.x, rect.max.y), rect.max, Point::new(rect.max.x, rect.min.y)];
                [rect_exit(&wide, from, u), rect_exit(&tall, from, u)]
                    .into_iter()
                    .chain(corners.iter().map(|&centre| disc_exit(&Circle { centre, radius: margin }, from, u)))
                    .flatten()
                    .reduce(f64::max)
            }
        }
    }

    /// The curves bounding the region.
    fn boundary(&self, out: &mut Vec<Curve>) {
        match *self {
            Region::Disc(c) => out.push(Curve::Circle(c)),
            Region::Rounded { rect, margin } => {
                out.extend([
                    Curve::Vertical(rect.min.x - margin),
                    Curve::Vertical(rect.max.x + margin),
                    Curve::Horizontal(rect.min.y - margin),
                    Curve::Horizontal(rect.max.y + margin),
                ]);
                for corner in
                    [rect.min, Point::new(rect.min.x, rect.max.y), rect.max, Point::new(rect.max.x, rect.min.y)]
                {
                    out.push(Curve::Circle(Circle { centre: corner, radius: margin }));
                }
            }
        }
    }
}

/// A piece of the boundary of where a base may go, extended to a whole circle or line.
#[derive(Debug, Clone, Copy)]
enum Curve {
    Circle(Circle),
    /// The line x = this.
    Vertical(f64),
    /// The line y = this.
    Horizontal(f64),
}

impl Curve {
    fn distance_from(&self, p: Point) -> f64 {
        match self {
            Curve::Circle(c) => (p.distance(c.centre) - c.radius).abs(),
            Curve::Vertical(x) => (p.x - x).abs(),
            Curve::Horizontal(y) => (p.y - y).abs(),
        }
    }

    /// The points of the curve nearest `p`: its foot. For a circle centred on `p`, every point is;
    /// [`DIRECTIONS`] of them are listed.
    fn feet(&self, p: Point, out: &mut Vec<Point>) {
        match *self {
            Curve::Circle(c) => {
                let away = p.distance(c.centre);
                if away < CENTRED {
                    out.extend(
                        unit_directions()
                            .map(|(ux, uy)| Point::new(c.centre.x + ux * c.radius, c.centre.y + uy * c.radius)),
                    );
                } else {
                    let scale = c.radius / away;
                    out.push(Point::new(
                        c.centre.x + (p.x - c.centre.x) * scale,
                        c.centre.y + (p.y - c.centre.y) * scale,
                    ));
                }
            }
            Curve::Vertical(x) => out.push(Point::new(x, p.y)),
            Curve::Horizontal(y) => out.push(Point::new(p.x, y)),
        }
    }

    /// Where two curves cross (or touch).
    fn crossings(&self, other: &Curve, out: &mut Vec<Point>) {
        match (*self, *other) {
            (Curve::Circle(a), Curve::Circle(b)) => circle_crossings(&a, &b, out),
            (Curve::Circle(c), Curve::Vertical(x)) | (Curve::Vertical(x), Curve::Circle(c)) => {
                for h in half_chord(c.radius, x - c.centre.x) {
                    out.push(Point::new(x, c.centre.y + h));
                }
            }
            (Curve::Circle(c), Curve::Horizontal(y)) | (Curve::Horizontal(y), Curve::Circle(c)) => {
                for h in half_chord(c.radius, y - c.centre.y) {
                    out.push(Point::new(c.centre.x + h, y));
                }
            }
            (Curve::Vertical(x), Curve::Horizontal(y)) | (Curve::Horizontal(y), Curve::Vertical(x)) => {
                out.push(Point::new(x, y));
            }
            (Curve::Vertical(_), Curve::Vertical(_)) | (Curve::Horizontal(_), Curve::Horizontal(_)) => {}
        }
    }
}

/// The offsets ±h along a line `offset` from a circle's centre where it meets the circle; a line
/// that only grazes it (within the table's tolerance) meets it once.
fn half_chord(radius: f64, offset: f64) -> Vec<f64> {
    let squared = radius * radius - offset * offset;
    if squared < -EPSILON {
        Vec::new()
    } else if squared <= 0.0 {
        vec![0.0]
    } else {
        let h = squared.sqrt();
        vec![h, -h]
    }
}

/// Where two circles cross; circles that only touch (within the table's tolerance) meet once.
fn circle_crossings(a: &Circle, b: &Circle, out: &mut Vec<Point>) {
    let (dx, dy) = (b.centre.x - a.centre.x, b.centre.y - a.centre.y);
    let d = dx.hypot(dy);
    if d < CENTRED {
        return; // the same circle, or one inside the other: they do not cross
    }
    let along = (a.radius * a.radius - b.radius * b.radius + d * d) / (2.0 * d);
    let (ux, uy) = (dx / d, dy / d);
    let (mx, my) = (a.centre.x + ux * along, a.centre.y + uy * along);
    for h in half_chord(a.radius, along) {
        out.push(Point::new(mx - uy * h, my + ux * h));
    }
}

/// Where a ray leaves the open disc, if it passes through it ahead of `from`.
fn disc_exit(c: &Circle, from: Point, u: (f64, f64)) -> Option<f64> {
    let (wx, wy) = (from.x - c.centre.x, from.y - c.centre.y);
    let b = wx * u.0 + wy * u.1;
    let disc = b * b - (wx * wx + wy * wy - c.radius * c.radius);
    if disc <= 0.0 {
        return None;
    }
    let far = -b + disc.sqrt();
    (far > 0.0).then_some(far)
}

/// Where a ray leaves the open rectangle, if it passes through it ahead of `from` (slab test).
fn rect_exit(rect: &Rect, from: Point, u: (f64, f64)) -> Option<f64> {
    let (mut enter, mut leave) = (f64::NEG_INFINITY, f64::INFINITY);
    for (start, delta, low, high) in [(from.x, u.0, rect.min.x, rect.max.x), (from.y, u.1, rect.min.y, rect.max.y)] {
        if delta == 0.0 {
            if start <= low || start >= high {
                return None;
            }
        } else {
            let (a, b) = ((low - start) / delta, (high - start) / delta);
            enter = enter.max(a.min(b));
            leave = leave.min(a.max(b));
        }
    }
    (enter < leave && leave > 0.0).then_some(leave)
}

/// Unit vectors every 360/[`DIRECTIONS`] degrees from the +x axis counter-clockwise; axis
/// directions are exact.
fn unit_directions() -> impl Iterator<Item = (f64, f64)> {
    let exact = |v: f64| if v.abs() < 1e-12 { 0.0 } else { v };
    (0..DIRECTIONS).map(move |k| {
        let angle = (360.0 * k as f64 / DIRECTIONS as f64).to_radians();
        (exact(angle.cos()), exact(angle.sin()))
    })
}

/// A place a moving base may stop, and how far its centre moves to get there.
#[derive(Debug, Clone, Copy)]
pub(super) struct Spot {
    /// The centre there.
    pub(super) at: Point,
    /// Inches from the start, in a straight line.
    pub(super) distance: f64,
}

/// Everything one moving base must keep clear of, seen from its start: the room on the table and
/// the regions of what stays put, nearest first.
#[derive(Debug, Clone)]
pub(super) struct Clearance {
    start: Point,
    room: Room,
    /// Each region with how far the start is from it (0 inside), nearest first.
    regions: Vec<(f64, Region)>,
}

impl Clearance {
    /// A base starting at `start` that must stay in `room` and out of `regions`.
    pub(super) fn new(start: Point, room: Room, regions: impl IntoIterator<Item = Region>) -> Self {
        let mut regions: Vec<(f64, Region)> =
            regions.into_iter().map(|region| (region.gap(start).max(0.0), region)).collect();
        regions.sort_by(|a, b| a.0.total_cmp(&b.0));
        Self { start, room, regions }
    }

    /// Every allowed spot within `limit` inches of the start among the feet and crossings of the
    /// boundary curves, nearest first (then by x, then y), each once. `extra` are regions added
    /// for this call (bases already placed); `work` is decreased by the tests and crossings made.
    ///
    /// With `sweep` — or when none of those spots is allowed (more outlines crowd the start than
    /// [`MAX_NEAR_CURVES`]) — also the first allowed spot in each of [`DIRECTIONS`] directions:
    /// places that are not nearest for this base but may leave room for bases placed after it.
    pub(super) fn spots(&self, extra: &[Region], limit: f64, sweep: bool, work: &mut usize) -> Vec<Spot> {
        let near = self.near_regions(extra, limit);
        let (points, crowded) = self.candidates(&near, limit, work);
        let mut spots = self.allowed_spots(&near, points, limit, work);
        if sweep || (crowded && spots.is_empty()) {
            spots.extend(unit_directions().filter_map(|u| self.first_clear(&near, u, limit, work)));
        }
        spots.sort_by(|a, b| {
            a.distance.total_cmp(&b.distance).then(a.at.x.total_cmp(&b.at.x)).then(a.at.y.total_cmp(&b.at.y))
        });
        dedup(spots)
    }

    /// The `points` within `limit` that are on the table and in no region.
    fn allowed_spots(&self, near: &[(f64, Region)], points: Vec<Point>, limit: f64, work: &mut usize) -> Vec<Spot> {
        // Each point is measured, sorted and compared with its neighbours.
        *work = work.saturating_sub(points.len());
        points
            .into_iter()
            .filter_map(|at| {
                let distance = self.start.distance(at);
                (distance <= limit && self.room.holds(at) && allowed(near, at, distance, work))
                    .then_some(Spot { at, distance })
            })
            .collect()
    }

    /// The first allowed point within `limit` along unit direction `u` from the start: the start,
    /// or where the ray leaves one of the regions (the allowed part of a ray begins at such a
    /// point).
    fn first_clear(&self, near: &[(f64, Region)], u: (f64, f64), limit: f64, work: &mut usize) -> Option<Spot> {
        *work = work.saturating_sub(near.len() + 1);
        let mut exits: Vec<f64> = near.iter().filter_map(|(_, region)| region.exit(self.start, u)).collect();
        exits.push(0.0);
        exits.sort_by(f64::total_cmp);
        exits
            .into_iter()
            .take_while(|t| *t <= limit)
            .map(|t| Point::new(self.start.x + u.0 * t, self.start.y + u.1 * t))
            .find(|&at| self.room.holds(at) && allowed(near, at, self.start.distance(at), work))
            .map(|at| Spot { at, distance: self.start.distance(at) })
    }

    /// The regions that could hold a spot within `limit` of the start, nearest first.
    fn near_regions(&self, extra: &[Region], limit: f64) -> Vec<(f64, Region)> {
        let mut near: Vec<(f64, Region)> = self.regions.iter().take_while(|(d, _)| *d <= limit).copied().collect();
        near.extend(extra.iter().map(|region| (region.gap(self.start).max(0.0), *region)).filter(|(d, _)| *d <= limit));
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        near
    }

    /// The feet and pairwise crossings of the [`MAX_NEAR_CURVES`] curves nearest the start that
    /// come within `limit` of it, and whether more curves than that did (the spots may then miss
    /// the nearest).
    fn candidates(&self, near: &[(f64, Region)], limit: f64, work: &mut usize) -> (Vec<Point>, bool) {
        let mut curves = Vec::new();
        curves.extend(self.room.edges());
        for (_, region) in near {
            region.boundary(&mut curves);
        }
        let mut ranked: Vec<(f64, Curve)> = curves
            .into_iter()
            .map(|curve| (curve.distance_from(self.start), curve))
            .filter(|(d, _)| *d <= limit)
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        let crowded = ranked.len() > MAX_NEAR_CURVES;
        ranked.truncate(MAX_NEAR_CURVES);
        // Crossing two curves costs about what testing a spot against a region does.
        *work = work.saturating_sub(ranked.len() * (ranked.len() + 1) / 2);
        let mut points = Vec::new();
        for (i, (_, curve)) in ranked.iter().enumerate() {
            curve.feet(self.start, &mut points);
            for (_, other) in &ranked[i + 1..] {
                curve.crossings(other, &mut points);
            }
        }
        (points, crowded)
    }
}

/// Whether no region holds `at`; only regions no farther from the start than `at` can.
fn allowed(near: &[(f64, Region)], at: Point, distance: f64, work: &mut usize) -> bool {
    for (from_start, region) in near {
        if *from_start > distance + EPSILON {
            break;
        }
        *work = work.saturating_sub(1);
        if region.forbids(at) {
            return false;
        }
    }
    true
}

/// `spots` (sorted by distance) without repeats: a foot that is also a crossing is one spot.
fn dedup(spots: Vec<Spot>) -> Vec<Spot> {
    let mut kept: Vec<Spot> = Vec::with_capacity(spots.len());
    for spot in spots {
        let repeat = kept
            .iter()
            .rev()
            .take_while(|k| spot.distance - k.distance <= SAME_SPOT)
            .any(|k| k.at.distance(spot.at) <= SAME_SPOT);
        if !repeat {
            kept.push(spot);
        }
    }
    kept
}
