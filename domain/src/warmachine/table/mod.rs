//! The table (seed 000 "Measuring Distances", "Movement", "Beyond the Play Area"): positions in
//! inches, bases as circles, terrain, line of sight, paths and placement.
//!
//! Distances are measured base edge to base edge; "within" includes exact distances (with a
//! tolerance of [`EPSILON`]); overlapping bases are within 0″ of each other.

pub mod geometry;
pub mod path;
pub mod sight;
pub mod terrain;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use geometry::{edge_distance, overlaps, segment_point_distance, within, Circle, Point, Rect, Shape, EPSILON};
pub use path::{first_contact, passes_over_base, terrain_in_path, Contact};
pub use sight::{has_line_of_sight, sight_blocker, SightBlocker};
pub use terrain::{fall_height, surface_height, surface_under, TerrainFeature, TerrainKind};

use super::model::BaseSize;
use crate::RuleError;

const MEASURING: &str = "seed 000 \"Measuring Distances\"";
const MOVEMENT: &str = "seed 000 \"Movement\"";
const BEYOND: &str = "seed 000 \"Beyond the Play Area\"";

/// The largest table side the service accepts, in inches (a service limit: 20 feet).
pub const MAX_TABLE_INCHES: f64 = 240.0;

/// Where a model stands: its base's centre, facing and height above the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Centre, inches from the left edge.
    pub x: f64,
    /// Centre, inches from the bottom edge.
    pub y: f64,
    /// Facing in degrees, counter-clockwise from the positive x axis (kept, not yet used).
    #[serde(default)]
    pub facing: f64,
    /// Inches above the table (the surface it stands on).
    // Left out, it is `Position::ON_SURFACE`: battle creation stands the model on the surface
    // under its base's centre. (Kept out of the doc comment, which is the API schema's text.)
    #[serde(default = "on_surface", skip_serializing_if = "is_on_surface")]
    pub elevation: f64,
}

/// Serde's value for a position given without an elevation.
fn on_surface() -> f64 {
    Position::ON_SURFACE
}

/// Whether an elevation is [`Position::ON_SURFACE`]: left out when serialized, so a command read
/// back from the log means what it meant when it was sent.
fn is_on_surface(elevation: &f64) -> bool {
    *elevation == 0.0 && elevation.is_sign_negative()
}

impl Position {
    /// The elevation that means "not given: stand on the surface under the base's centre".
    ///
    /// It is −0: equal to 0 in every comparison, told apart only by its sign. So the field stays
    /// an `f64` (every caller and every JSON document accepted so far keeps working) and an
    /// elevation of 0 that is given can still be told from one that is not (seed 000 "Falling":
    /// a model stands on a surface, and falls are measured from it). Battle creation resolves it;
    /// no model state ever holds it.
    pub const ON_SURFACE: f64 = -0.0;

    /// Whether the elevation was given rather than left to the surface under the centre.
    pub fn elevation_given(&self) -> bool {
        !is_on_surface(&self.elevation)
    }

    /// The base's centre.
    pub fn centre(&self) -> Point {
        Point::new(self.x, self.y)
    }

    /// The circle a base of `size` covers here.
    pub fn base(&self, size: BaseSize) -> Circle {
        Circle { centre: self.centre(), radius: size.radius_inches() }
    }
}

/// The table: its size in inches and its terrain. Herald's default is 48″ × 48″.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Width (x) in inches.
    pub width: f64,
    /// Depth (y) in inches.
    pub depth: f64,
    /// Terrain features.
    #[serde(default)]
    pub terrain: Vec<TerrainFeature>,
}

impl Default for Table {
    fn default() -> Self {
        Self { width: 48.0, depth: 48.0, terrain: Vec::new() }
    }
}

impl Table {
    /// Checks the size is positive and finite.
    pub fn validate(&self) -> Result<(), RuleError> {
        let fits = |side: f64| side.is_finite() && side > 0.0 && side <= MAX_TABLE_INCHES;
        if !(fits(self.width) && fits(self.depth)) {
            return Err(RuleError::new(
                "warmachine.table.size",
                format!("the table's width and depth are more than 0 and at most {MAX_TABLE_INCHES} inches"),
                MEASURING,
            ));
        }
        Ok(())
    }

    /// Whether the whole base is on the table (touching an edge is on it).
    pub fn contains(&self, base: &Circle) -> bool {
        let c = base.centre;
        c.is_finite()
            && c.x - base.radius >= -EPSILON
            && c.y - base.radius >= -EPSILON
            && c.x + base.radius <= self.width + EPSILON
            && c.y + base.radius <= self.depth + EPSILON
    }

    /// Where a base moving straight from its centre toward `to` stops at the table edge: "the
    /// model stops at the table edge and remains in play" (seed 000 "Beyond the Play Area").
    /// The base is assumed to start on the table.
    pub fn stop_at_edge(&self, base: &Circle, to: Point) -> Point {
        let from = base.centre;
        let r = base.radius;
        let mut t = 1.0_f64;
        for (start, end, high) in [(from.x, to.x, self.width), (from.y, to.y, self.depth)] {
            let delta = end - start;
            if end > high - r && delta > 0.0 {
                t = t.min((high - r - start) / delta);
            }
            if end < r && delta < 0.0 {
                t = t.min((r - start) / delta);
            }
        }
        from.lerp(to, t.clamp(0.0, 1.0))
    }

    /// Checks a base may be placed: finite, wholly on the table, not overlapping another base
    /// (`others`). The seed says nothing of standing on terrain, so terrain is not checked.
    pub fn check_placement(&self, base: &Circle, others: &[Circle]) -> Result<(), RuleError> {
        if !(base.centre.is_finite() && base.radius.is_finite() && base.radius > 0.0) {
            return Err(RuleError::new("warmachine.table.not_finite", "a base needs a finite position", MEASURING));
        }
        if !self.contains(base) {
            return Err(RuleError::new("warmachine.table.off_table", "the base must be wholly on the table", BEYOND));
        }
        if others.iter().any(|other| overlaps(base, other)) {
            return Err(RuleError::new("warmachine.table.overlapping_bases", "bases may not overlap", MOVEMENT));
        }
        Ok(())
    }
}
