//! Charge movement (seed 000 "Independent model charges").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::super::table::{first_contact, within, Circle, Point, Table, EPSILON};
use super::{check_base, check_inches, check_point, direction, terrain_contact};
use crate::RuleError;

const CHARGE: &str = "seed 000 \"Independent model charges\"";

/// Why a charge movement stopped before the point asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind", content = "index")]
pub enum ChargeStop {
    /// It contacted this base (an index into the `others` given; it may be the target's).
    Model(usize),
    /// It contacted this obstacle or obstruction (an index into the table's terrain).
    Terrain(usize),
    /// It reached the table edge ("Beyond the Play Area").
    TableEdge,
}

/// A resolved charge movement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ChargeMove {
    /// Where the charger's centre ends.
    pub end: Point,
    /// Inches moved (a charge attack needs at least 3″, for the caller to judge).
    pub travelled: f64,
    /// Whether the target is within the charger's melee range at the end; if not, the charge
    /// fails.
    pub in_melee_range: bool,
    /// What stopped the movement early, if anything did.
    pub stopped_by: Option<ChargeStop>,
}

/// Resolves a charge movement (seed 000 "Independent model charges"): the charger "advances up
/// to its SPD +3″ in a straight line in any direction that brings its target into melee range,
/// ignoring terrain, the distance to the charge target, and other models", from its centre
/// toward `to`.
///
/// `others` holds every other model's base, the target's at `target_index`; `max_inches` is
/// SPD + 3; `melee_range` is the charger's melee range ([`super::DEFAULT_MELEE_RANGE`] when no
/// weapon gives one). Refused when:
/// - the line of travel, extended without limit (the choice ignores distance, terrain and
///   models), never comes within melee range of the target, edge to edge
///   (`warmachine.movement.charge_direction`);
/// - `to` is farther than `max_inches` (`warmachine.movement.charge_too_far`);
/// - `to` stops short of where the target first comes into melee range, or, when that point is
///   beyond `max_inches`, short of the full distance: "The model can't voluntarily stop its
///   movement until its target is in melee range" (`warmachine.movement.charge_stopped_short`);
/// - the movement, not stopped by a contact or the edge and short of `max_inches`, would end
///   with the target out of melee range: herald reads running on through melee range and out
///   again as stopping voluntarily out of range (also `charge_stopped_short`).
///
/// The movement then stops at the first contact with a base in `others` (the target's
/// included), with an obstacle or an obstruction ("The model stops if it contacts a model, an
/// obstacle, or an obstruction"), or at the table edge ("Beyond the Play Area"); on a tie, a
/// model comes first, then terrain. Line of sight to the target is the caller's to check.
pub fn resolve_charge(
    table: &Table,
    mover: &Circle,
    to: Point,
    max_inches: f64,
    others: &[Circle],
    target_index: usize,
    melee_range: f64,
) -> Result<ChargeMove, RuleError> {
    check_base(mover, CHARGE)?;
    check_point(to, "the charge's end", CHARGE)?;
    check_inches(max_inches, "the charge distance", CHARGE)?;
    check_inches(melee_range, "the melee range", CHARGE)?;
    let target = others.get(target_index).ok_or_else(|| {
        RuleError::new("warmachine.movement.charge_target", "the charge target is not among the models given", CHARGE)
    })?;
    check_base(target, CHARGE)?;
    let start = mover.centre;
    let length = start.distance(to);
    let entry = if within(mover, target, melee_range) {
        Some(0.0)
    } else {
        direction(start, to).and_then(|(ux, uy, _)| melee_entry(mover, (ux, uy), target, melee_range))
    };
    // Already in melee range: a direction that takes the target out of it does not "bring its
    // target into melee range" — it would be a free retreat of SPD + 3″.
    let starts_in_range = entry == Some(0.0);
    if starts_in_range && !within(&Circle { centre: to, radius: mover.radius }, target, melee_range) {
        return Err(RuleError::new(
            "warmachine.movement.charge_direction",
            "the target is already in melee range: a charge may not move so as to leave it out of melee range",
            CHARGE,
        ));
    }
    if length >= EPSILON && entry.is_none() {
        return Err(RuleError::new(
            "warmachine.movement.charge_direction",
            "a charge must be in a direction that brings its target into melee range",
            CHARGE,
        ));
    }
    if length > max_inches + EPSILON {
        return Err(RuleError::new(
            "warmachine.movement.charge_too_far",
            format!("the charge moves {length:.3}″ but the model may charge only {max_inches}″ (SPD + 3″)"),
            CHARGE,
        ));
    }
    let required = entry.map_or(max_inches, |s| s.min(max_inches));
    if length < required - EPSILON {
        return Err(RuleError::new(
            "warmachine.movement.charge_stopped_short",
            format!(
                "the charge stops after {length:.3}″ but may not stop voluntarily before {required:.3}″: not until its \
                 target is in melee range, or its full distance if it cannot reach"
            ),
            CHARGE,
        ));
    }
    let model = first_contact(mover, to, others).map(|c| (c.travelled, ChargeStop::Model(c.index)));
    let terrain = terrain_contact(&table.terrain, mover, to).map(|(i, s)| (s, ChargeStop::Terrain(i)));
    let edge = Some(start.distance(table.stop_at_edge(mover, to)))
        .filter(|s| *s < length - EPSILON)
        .map(|s| (s, ChargeStop::TableEdge));
    let stop = [model, terrain, edge].into_iter().flatten().min_by(|a, b| a.0.total_cmp(&b.0));
    let (end, travelled) = match stop {
        Some((s, _)) => (start.lerp(to, s / length), s),
        None => (to, length),
    };
    let in_melee_range = within(&Circle { centre: end, radius: mover.radius }, target, melee_range);
    if stop.is_none() && !in_melee_range && length < max_inches - EPSILON {
        return Err(RuleError::new(
            "warmachine.movement.charge_stopped_short",
            "the charge would stop voluntarily, short of its full distance, with its target out of melee range",
            CHARGE,
        ));
    }
    Ok(ChargeMove { end, travelled, in_melee_range, stopped_by: stop.map(|(_, why)| why) })
}

/// Inches along the ray from the charger's centre in unit direction `(ux, uy)` at which the
/// target first comes within melee range, edge to edge ("even if it is exact"); `None` when
/// the ray never brings it there. The charger starts out of range.
fn melee_entry(mover: &Circle, (ux, uy): (f64, f64), target: &Circle, melee_range: f64) -> Option<f64> {
    let reach = mover.radius + target.radius + melee_range;
    let (ox, oy) = (mover.centre.x - target.centre.x, mover.centre.y - target.centre.y);
    let along = ux * ox + uy * oy;
    if along >= 0.0 {
        return None; // moving away from, or square past, a target out of range
    }
    let closest_squared = (ox * ox + oy * oy - along * along).max(0.0);
    let limit = reach + EPSILON;
    if closest_squared > limit * limit {
        return None;
    }
    Some((-along - (reach * reach - closest_squared).max(0.0).sqrt()).max(0.0))
}
