//! Roads and water (seed 002 "ROAD BONUS", "CROSSING WATER"): their footprints on the table, and
//! the width of a water feature, on which the crossing rules depend.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::geometry::{capsule_entry, circle_entry, rect_entry, segment_distance, Point, EPSILON};

/// What a terrain feature is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishTerrainKind)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    /// A road: a mini that begins and ends its movement on it adds 1″ (seed 002 "ROAD BONUS").
    Road,
    /// Water: stops, slows or bars minis by their size and its width (seed 002 "CROSSING WATER").
    Water,
}

/// A feature's footprint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishShape)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Shape {
    /// An axis-aligned rectangle; its width is its shorter side.
    Rect {
        /// The lower-left corner.
        min: Point,
        /// The upper-right corner.
        max: Point,
    },
    /// A disc (a pond); its width is its diameter.
    Circle {
        /// The centre.
        centre: Point,
        /// The radius in inches.
        radius: f64,
    },
    /// A band of `width` inches along a line through `points` (a river, a stream, a road).
    Band {
        /// The centre line, two points or more.
        points: Vec<Point>,
        /// The band's width in inches.
        width: f64,
    },
}

impl Shape {
    /// The feature's width: what a mini crossing it has to cover (seed 002 "CROSSING WATER":
    /// "water larger than 1″" is water wider than 1″).
    pub fn width(&self) -> f64 {
        match self {
            Self::Rect { min, max } => (max.x - min.x).abs().min((max.y - min.y).abs()),
            Self::Circle { radius, .. } => radius * 2.0,
            Self::Band { width, .. } => *width,
        }
    }

    /// How far inside the footprint `point` lies: positive inside, 0 on the edge, negative
    /// outside (for rectangles, the distance to the nearest side, signed).
    fn depth(&self, point: Point) -> f64 {
        match self {
            Self::Rect { min, max } => {
                let inside_x = (point.x - min.x).min(max.x - point.x);
                let inside_y = (point.y - min.y).min(max.y - point.y);
                inside_x.min(inside_y)
            }
            Self::Circle { centre, radius } => radius - point.distance(*centre),
            Self::Band { points, width } => {
                let nearest = match points.as_slice() {
                    [only] => point.distance(*only),
                    _ => points
                        .windows(2)
                        .map(|pair| segment_distance(point, pair[0], pair[1]))
                        .fold(f64::INFINITY, f64::min),
                };
                width / 2.0 - nearest
            }
        }
    }

    /// Whether `point` is on the footprint, its edge included (a mini at a road's edge is on
    /// the road; a mini at the water's edge is at the water).
    pub fn touches(&self, point: Point) -> bool {
        self.depth(point) >= -1e-6
    }

    /// Whether `point` is inside the footprint, off its edge (a mini in the water).
    pub fn holds(&self, point: Point) -> bool {
        self.depth(point) > 1e-6
    }

    /// The first fraction `t` of the segment `from`–`to` at which it goes inside the footprint
    /// (past its edge), if it does: where a moving mini reaches the water's edge.
    pub fn entry(&self, from: Point, to: Point) -> Option<f64> {
        match self {
            Self::Rect { min, max } => rect_entry(from, to, *min, *max),
            Self::Circle { centre, radius } => circle_entry(from, to, *centre, *radius),
            Self::Band { points, width } => match points.as_slice() {
                [only] => circle_entry(from, to, *only, width / 2.0),
                _ => points
                    .windows(2)
                    .filter_map(|pair| capsule_entry(from, to, pair[0], pair[1], width / 2.0))
                    .reduce(f64::min),
            },
        }
    }

    /// The stretches of the segment `from`–`to` inside the footprint, as fractions `(enter,
    /// leave)` of it, one per convex piece (a band has one per stretch of its centre line; the
    /// stretches may overlap).
    pub fn intervals(&self, from: Point, to: Point) -> Vec<(f64, f64)> {
        let piece = |entry: &dyn Fn(Point, Point) -> Option<f64>| {
            let enter = entry(from, to)?;
            let leave = 1.0 - entry(to, from)?;
            (leave > enter).then_some((enter, leave))
        };
        match self {
            Self::Rect { min, max } => piece(&|a, b| rect_entry(a, b, *min, *max)).into_iter().collect(),
            Self::Circle { centre, radius } => {
                piece(&|a, b| circle_entry(a, b, *centre, *radius)).into_iter().collect()
            }
            Self::Band { points, width } => match points.as_slice() {
                [only] => piece(&|a, b| circle_entry(a, b, *only, width / 2.0)).into_iter().collect(),
                _ => points
                    .windows(2)
                    .filter_map(|pair| piece(&|a, b| capsule_entry(a, b, pair[0], pair[1], width / 2.0)))
                    .collect(),
            },
        }
    }

    /// Whether every number is finite and the footprint has an inside.
    pub fn is_valid(&self) -> bool {
        match self {
            Self::Rect { min, max } => {
                min.is_finite() && max.is_finite() && max.x - min.x > EPSILON && max.y - min.y > EPSILON
            }
            Self::Circle { centre, radius } => centre.is_finite() && radius.is_finite() && *radius > EPSILON,
            Self::Band { points, width } => {
                !points.is_empty()
                    && points.len() <= 100
                    && points.iter().all(|p| p.is_finite())
                    && width.is_finite()
                    && *width > EPSILON
            }
        }
    }
}

/// A road or a stretch of water on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishTerrainFeature)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Mill stream", "kind": "water",
    "shape": {"kind": "band", "points": [{"x": 0.0, "y": 24.0}, {"x": 48.0, "y": 20.0}], "width": 0.5}}))]
pub struct TerrainFeature {
    /// Its name, unique on the table (named in events: "stopped at the water's edge of …").
    pub name: String,
    /// Road or water.
    pub kind: TerrainKind,
    /// Its footprint.
    pub shape: Shape,
}

impl TerrainFeature {
    /// Whether it is water.
    pub fn is_water(&self) -> bool {
        self.kind == TerrainKind::Water
    }

    /// Whether it is a road.
    pub fn is_road(&self) -> bool {
        self.kind == TerrainKind::Road
    }

    /// Its width in inches.
    pub fn width(&self) -> f64 {
        self.shape.width()
    }
}
