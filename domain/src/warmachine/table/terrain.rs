//! Terrain features on the table.
//!
//! Seed 000 names obstacles, obstructions, hazards and elevated surfaces (in "Charge",
//! "Slammed", "Thrown", "Pushed", "Falling") without defining them further, so herald keeps
//! only what those rules use: obstacles and obstructions stop a charging, slammed or thrown
//! model that contacts them; obstructions also block line of sight (herald's simplification);
//! hazards affect a pushed, slammed or thrown model moving through them; elevated surfaces have a
//! height a model can fall from.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::geometry::{Circle, Point, Shape};

/// What a terrain feature is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    /// A low feature: stops charges, slams and throws on contact.
    Obstacle,
    /// A tall feature: stops like an obstacle and blocks line of sight.
    Obstruction,
    /// A feature with an effect on models moved through it.
    Hazard,
    /// A raised surface models stand on; moving off it 1″ or more lower is a fall.
    ElevatedSurface,
}

/// A terrain feature: a kind, a footprint and a height.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainFeature {
    /// A label for the referee.
    pub name: String,
    /// What it is.
    pub kind: TerrainKind,
    /// Its footprint.
    pub shape: Shape,
    /// Height in inches (the height of an elevated surface's top).
    #[serde(default)]
    pub height: f64,
}

impl TerrainFeature {
    /// Whether the footprint is finite and has a size.
    pub fn shape_is_finite(&self) -> bool {
        self.shape.is_finite()
    }

    /// Whether a model that contacts the feature stops there (seed 000 "Charge", "Slammed",
    /// "Thrown": "stops if it contacts ... an obstacle, or an obstruction").
    pub fn stops_movement(&self) -> bool {
        matches!(self.kind, TerrainKind::Obstacle | TerrainKind::Obstruction)
    }

    /// Whether the feature blocks line of sight (only obstructions, herald's simplification).
    pub fn blocks_sight(&self) -> bool {
        self.kind == TerrainKind::Obstruction
    }

    /// Whether `point` is on the feature's footprint (edges included).
    pub fn covers(&self, point: Point) -> bool {
        self.shape.distance_to_segment(point, point) <= super::geometry::EPSILON
    }

    /// Whether a base overlaps the footprint by more than touching.
    pub fn overlaps_base(&self, base: &Circle) -> bool {
        self.shape.distance_to_segment(base.centre, base.centre) < base.radius - super::geometry::EPSILON
    }
}

/// The elevated surface under `point`: the highest one covering it (the first listed among equals),
/// or `None` where only the table is.
pub fn surface_under(terrain: &[TerrainFeature], point: Point) -> Option<&TerrainFeature> {
    terrain.iter().filter(|f| f.kind == TerrainKind::ElevatedSurface && f.covers(point)).fold(
        None,
        |best: Option<&TerrainFeature>, f| match best {
            Some(b) if b.height >= f.height => Some(b),
            _ => Some(f),
        },
    )
}

/// The surface height under `point`: the highest elevated surface covering it, else 0 (the
/// table). Used to measure falls (seed 000 "Falling").
pub fn surface_height(terrain: &[TerrainFeature], point: Point) -> f64 {
    // Adding +0 turns a −0 height into 0: −0 is how a position says "on the surface".
    surface_under(terrain, point).map_or(0.0, |f| f.height.max(0.0)) + 0.0
}

/// How far a model falls moving from a surface of height `from` to one of height `to`: `Some`
/// when the drop is at least 1 full inch (seed 000 "Falling"), else `None`.
pub fn fall_height(from: f64, to: f64) -> Option<f64> {
    let drop = from - to;
    (drop >= 1.0 - super::geometry::EPSILON).then_some(drop)
}
