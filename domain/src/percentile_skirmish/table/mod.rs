//! The table (seed 002 measures in inches): its size, its roads and its water.

pub mod geometry;
pub mod terrain;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use geometry::{angle_between, normalise_degrees, path_length, segment_distance, Point, EPSILON};
pub use terrain::{Shape, TerrainFeature, TerrainKind};

use super::SERVICE_RULES;
use crate::RuleError;

/// The largest table side the service accepts, in inches (a service limit: 20 feet).
pub const MAX_TABLE_INCHES: f64 = 240.0;
pub use crate::percentile_skirmish::limits::MAX_TERRAIN;

/// The table: its size in inches and its roads and water. Herald's default is 48″ × 48″ with
/// no terrain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishTable)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"width": 48.0, "depth": 36.0, "terrain": [
    {"name": "King's road", "kind": "road", "shape": {"kind": "rect", "min": {"x": 0.0, "y": 10.0}, "max": {"x": 48.0, "y": 12.0}}},
    {"name": "Mill stream", "kind": "water", "shape": {"kind": "band", "points": [{"x": 30.0, "y": 0.0}, {"x": 30.0, "y": 36.0}], "width": 0.75}}
]}))]
pub struct Table {
    /// Width (x) in inches.
    pub width: f64,
    /// Depth (y) in inches.
    pub depth: f64,
    /// Roads and water.
    #[serde(default)]
    pub terrain: Vec<TerrainFeature>,
}

impl Default for Table {
    fn default() -> Self {
        Self { width: 48.0, depth: 48.0, terrain: Vec::new() }
    }
}

impl Table {
    /// Refuse a table that cannot be played on: sides not positive and finite or over the
    /// service limit, terrain without a name or an inside, two features of one name.
    pub fn validate(&self) -> Result<(), RuleError> {
        let fits = |side: f64| side.is_finite() && side > 0.0 && side <= MAX_TABLE_INCHES;
        if !(fits(self.width) && fits(self.depth)) {
            return Err(refuse(
                "table_size",
                format!("a table is more than 0″ and at most {MAX_TABLE_INCHES}″ a side"),
            ));
        }
        if self.terrain.len() > MAX_TERRAIN {
            return Err(refuse("too_much_terrain", format!("at most {MAX_TERRAIN} terrain features")));
        }
        let mut names = BTreeSet::new();
        for feature in &self.terrain {
            let name = feature.name.trim();
            if name.is_empty() || feature.name.chars().count() > 100 || feature.name.chars().any(char::is_control) {
                return Err(refuse("bad_name", "a terrain feature needs a name of 1 to 100 printable characters"));
            }
            if !names.insert(feature.name.as_str()) {
                return Err(refuse("duplicate_terrain", format!("two terrain features are named {}", feature.name)));
            }
            if !feature.shape.is_valid() {
                return Err(refuse(
                    "bad_terrain",
                    format!(
                        "terrain feature {} needs finite coordinates and an inside (a band has 1 to 100 points and a width)",
                        feature.name
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether `point` is on the table, edges included.
    pub fn contains(&self, point: Point) -> bool {
        point.is_finite()
            && (-EPSILON..=self.width + EPSILON).contains(&point.x)
            && (-EPSILON..=self.depth + EPSILON).contains(&point.y)
    }

    /// Whether `point` is on a road, its edge included (seed 002 "ROAD BONUS").
    pub fn on_road(&self, point: Point) -> bool {
        self.terrain.iter().any(|feature| feature.is_road() && feature.shape.touches(point))
    }

    /// The water features.
    pub fn water(&self) -> impl Iterator<Item = &TerrainFeature> {
        self.terrain.iter().filter(|feature| feature.is_water())
    }

    /// The water `point` is in (past the edge), if any: the widest when several overlap.
    pub fn water_holding(&self, point: Point) -> Option<&TerrainFeature> {
        self.water().filter(|feature| feature.shape.holds(point)).max_by(|a, b| a.width().total_cmp(&b.width()))
    }

    /// `to`, or where the straight line from `from` to `to` reaches the table's edge when `to`
    /// is off the table (a fleeing mini stops at the edge).
    pub fn clip(&self, from: Point, to: Point) -> Point {
        if self.contains(to) {
            return to;
        }
        let mut t = 1.0_f64;
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if to.x < 0.0 && dx.abs() > EPSILON {
            t = t.min((0.0 - from.x) / dx);
        }
        if to.x > self.width && dx.abs() > EPSILON {
            t = t.min((self.width - from.x) / dx);
        }
        if to.y < 0.0 && dy.abs() > EPSILON {
            t = t.min((0.0 - from.y) / dy);
        }
        if to.y > self.depth && dy.abs() > EPSILON {
            t = t.min((self.depth - from.y) / dy);
        }
        let clipped = from.lerp(to, t.clamp(0.0, 1.0));
        Point::new(clipped.x.clamp(0.0, self.width), clipped.y.clamp(0.0, self.depth))
    }
}

fn refuse(code: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(format!("percentile-skirmish.{code}"), message, SERVICE_RULES)
}
