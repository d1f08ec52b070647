//! Line of sight: herald's documented simplification.
//!
//! Seed 000 requires line of sight (to target an attack, "RNG, Range"; to charge, "Independent
//! model charges"; for troopers placed after unit movement, "Unit Movement") but does not define
//! it. Herald draws one segment between the two bases' centres, on the table's plane, and it is
//! blocked by:
//! - an obstruction whose footprint the segment crosses (touching counts), and
//! - the base of another model that the segment passes through (grazing the edge does not
//!   count), unless that base is smaller than the target's — the seed's slam and throw rules
//!   let smaller bases be passed through, and herald applies the same size comparison to sight.
//!
//! Not modelled: elevation (models on elevated surfaces see as if on the table), facing and
//! arcs, partial sight to a base edge, forests and concealment, clouds, stealth.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::geometry::{segment_point_distance, Circle, EPSILON};
use super::terrain::TerrainFeature;

/// What blocks a line of sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind", content = "index")]
pub enum SightBlocker {
    /// The terrain feature at this index blocks.
    Terrain(usize),
    /// The other model at this index blocks.
    Model(usize),
}

/// The first thing (terrain first, then models in order) blocking sight from `viewer` to
/// `target`; `None` when the viewer has line of sight. `others` are the other models' bases,
/// excluding the viewer and the target.
pub fn sight_blocker(
    terrain: &[TerrainFeature],
    viewer: &Circle,
    target: &Circle,
    others: &[Circle],
) -> Option<SightBlocker> {
    let (a, b) = (viewer.centre, target.centre);
    let by_terrain = terrain
        .iter()
        .position(|f| f.blocks_sight() && f.shape.distance_to_segment(a, b) <= EPSILON)
        .map(SightBlocker::Terrain);
    by_terrain.or_else(|| {
        others
            .iter()
            .position(|other| {
                other.radius + EPSILON >= target.radius
                    && segment_point_distance(a, b, other.centre) < other.radius - EPSILON
            })
            .map(SightBlocker::Model)
    })
}

/// Whether `viewer` has line of sight to `target`.
pub fn has_line_of_sight(terrain: &[TerrainFeature], viewer: &Circle, target: &Circle, others: &[Circle]) -> bool {
    sight_blocker(terrain, viewer, target, others).is_none()
}
