//! Advancing along a path (seed 000 "Movement", "Full Advance", "Run", "End of activation
//! Movement") and where a straight move first contacts terrain that stops it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::super::table::{first_contact, overlaps, Circle, Point, Table, TerrainFeature, TerrainKind, EPSILON};
use super::{check_base, check_inches, check_point, direction, MOVEMENT};
use crate::RuleError;

const ALLOWANCE: &str = "seed 000 \"Full Advance\", \"Run\"";
const BEYOND: &str = "seed 000 \"Beyond the Play Area\"";

/// Bisection steps for [`terrain_contact`]: 64 halvings leave far less than [`EPSILON`] of a
/// table's length.
const BISECTION_STEPS: u32 = 64;

/// The result of a checked advance along a path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Advance {
    /// Where the base's centre ends.
    pub end: Point,
    /// Inches advanced: the length of the path.
    pub distance: f64,
    /// Indexes (ascending) of the hazards in `table.terrain` that the swept base overlaps; the
    /// seed gives hazards effects on models moving through them ("Pushed", "Slammed").
    pub hazards_entered: Vec<usize>,
}

/// Checks an intentional advance (a full advance, a run or an end-of-activation advance) along
/// the polyline `path`, whose waypoints follow `mover.centre` (the start is not repeated).
///
/// An empty path is no movement: the seed lets a model "choose not to move at all". Otherwise
/// the advance is refused when a waypoint is not finite; when the path is longer than
/// `max_inches` ("Full Advance": up to SPD; "Run": up to SPD plus 5″); when the base would pass
/// over a base in `others` ("Movement": "A model's base cannot pass over another model's
/// base"; ending in base-to-base contact is allowed); when the base would be off the table at
/// a waypoint (the table is a rectangle, so a base on it at both ends of a straight segment is
/// on it all along); when it would pass through an obstruction (herald's reading; obstacles
/// may be crossed); or when it would end overlapping a base. `others` are the other models'
/// bases, without the mover's own.
pub fn check_advance(
    table: &Table,
    mover: &Circle,
    path: &[Point],
    max_inches: f64,
    others: &[Circle],
) -> Result<Advance, RuleError> {
    check_base(mover, MOVEMENT)?;
    check_inches(max_inches, "the movement allowance", ALLOWANCE)?;
    for (index, waypoint) in path.iter().enumerate() {
        check_point(*waypoint, &format!("waypoint {}", index + 1), MOVEMENT)?;
    }
    let starts = std::iter::once(mover.centre).chain(path.iter().copied());
    // A float sum of nothing is -0.0; adding 0.0 records an empty path as 0″.
    let distance: f64 = starts.clone().zip(path).map(|(a, b)| a.distance(*b)).sum::<f64>() + 0.0;
    if distance > max_inches + EPSILON {
        return Err(RuleError::new(
            "warmachine.movement.too_far",
            if distance < 1e6 {
                format!("the path is {distance:.3}″ long but the model may advance only {max_inches}″")
            } else {
                format!("the path is far longer than the {max_inches}″ the model may advance")
            },
            ALLOWANCE,
        ));
    }
    let mut hazards_entered = Vec::new();
    for (index, (from, to)) in starts.zip(path).enumerate() {
        let base = Circle { centre: from, radius: mover.radius };
        let to = *to;
        let leg = index + 1;
        if !table.contains(&Circle { centre: to, radius: mover.radius }) {
            return Err(RuleError::new(
                "warmachine.movement.off_table",
                format!("at waypoint {leg} the base would not be wholly on the table"),
                BEYOND,
            ));
        }
        if let Some(contact) = first_contact(&base, to, others) {
            return Err(RuleError::new(
                "warmachine.movement.passes_over_base",
                format!("on leg {leg} the base would pass over another model's base (base {})", contact.index),
                MOVEMENT,
            ));
        }
        for (feature_index, feature) in table.terrain.iter().enumerate() {
            if !sweep_overlaps(feature, &base, to) {
                continue;
            }
            match feature.kind {
                TerrainKind::Obstruction if !feature.overlaps_base(&base) => {
                    return Err(RuleError::new(
                        "warmachine.movement.through_obstruction",
                        format!("on leg {leg} the base would pass through the obstruction \"{}\"", feature.name),
                        MOVEMENT,
                    ));
                }
                TerrainKind::Hazard if !hazards_entered.contains(&feature_index) => hazards_entered.push(feature_index),
                _ => {}
            }
        }
    }
    let end = path.last().copied().unwrap_or(mover.centre);
    let end_base = Circle { centre: end, radius: mover.radius };
    if !path.is_empty() && others.iter().any(|other| overlaps(&end_base, other)) {
        return Err(RuleError::new(
            "warmachine.movement.overlapping_bases",
            "the base would end overlapping another model's base",
            MOVEMENT,
        ));
    }
    hazards_entered.sort_unstable();
    Ok(Advance { end, distance, hazards_entered })
}

/// Whether the base swept straight from its centre to `to` overlaps the feature's footprint
/// by more than touching.
fn sweep_overlaps(feature: &TerrainFeature, base: &Circle, to: Point) -> bool {
    feature.shape.distance_to_segment(base.centre, to) < base.radius - EPSILON
}

/// Where the first obstacle or obstruction ([`TerrainFeature::stops_movement`]) contacts a base
/// moving straight from its centre to `to`: the feature's index in `terrain` and the inches
/// travelled before contact (seed 000 "Independent model charges", "Slammed", "Thrown": the
/// model "stops if it contacts ... an obstacle, or an obstruction"). Touching a feature is not
/// contact; moving into one that the base touches is contact at 0″. A feature the base already
/// overlaps where it starts does not stop it (herald does not forbid standing on one). The
/// contact point is found by bisection: the distance from a feature to the swept segment only
/// shrinks as the segment grows. Ties go to the lower index.
pub fn terrain_contact(terrain: &[TerrainFeature], mover: &Circle, to: Point) -> Option<(usize, f64)> {
    let (ux, uy, length) = direction(mover.centre, to)?;
    let at = |s: f64| Point::new(mover.centre.x + ux * s, mover.centre.y + uy * s);
    terrain
        .iter()
        .enumerate()
        .filter(|(_, feature)| feature.stops_movement() && !feature.overlaps_base(mover))
        .filter(|(_, feature)| sweep_overlaps(feature, mover, to))
        .map(|(index, feature)| {
            let (mut clear, mut hit) = (0.0_f64, length);
            for _ in 0..BISECTION_STEPS {
                let middle = (clear + hit) / 2.0;
                if sweep_overlaps(feature, mover, at(middle)) {
                    hit = middle;
                } else {
                    clear = middle;
                }
            }
            (index, clear)
        })
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
}
