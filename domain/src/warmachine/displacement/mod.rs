//! Unintentional movement (seed 000 "Unintentional Movement", "Pushed", "Slammed", "Thrown",
//! "Beyond the Play Area", "Falling", "Rule of Least Disturbance"): the geometry that feeds the
//! damage side in [`super::rolls`].
//!
//! [`displace`] moves one model directly away from a point of origin and reports where it stopped,
//! what stopped it, what it contacted (as [`rolls::Contact`] values ready for
//! [`rolls::slam_damage`]), the hazards it moved through and how far it fell.
//! [`least_disturbance`] then lists the ways to clear any overlapping bases.
//!
//! Herald's readings, where the seed is silent:
//! - Push: the seed only says a pushed model "suffers the effects of any hazards" (and may fall).
//!   Herald pushes it directly away from the point of origin like a slam, and, since "A model's
//!   base cannot pass over another model's base" (seed 000 "Movement"), it stops on contact with
//!   any model's base, an obstacle or an obstruction. A push deals no damage, so it reports no
//!   contacts.
//! - Contact is plan-view: elevation is ignored when bases or terrain footprints meet (as herald's
//!   line of sight ignores it). Touching is contact only at the end of a move, as in
//!   [`first_contact`]: grazing a base or a feature on the way is not.
//! - A model standing over an obstacle's footprint is not stopped by that obstacle while it leaves
//!   it; a model touching a feature or base is stopped at once only if it moves into it.
//! - The surface a model ends on is the one under its base's centre ([`surface_height`]).

mod clearance;
mod disturbance;
mod sweep;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use disturbance::{
    least_disturbance, Relocation, DIRECTIONS, MAX_EXTRA_MODELS, MAX_NEAR_CURVES, MAX_NEIGHBOURS, SEARCH_BUDGET,
    TIE_INCHES,
};

use super::model::BaseSize;
use super::rolls::{self, ContactedModel, MIN_FALL_INCHES};
use super::table::{
    edge_distance, fall_height, first_contact, overlaps, surface_height, Circle, Point, Table, TerrainKind, EPSILON,
};
use crate::RuleError;

/// seed 000 "Unintentional Movement".
pub const UNINTENTIONAL_MOVEMENT_RULE: &str = "seed 000 \"Unintentional Movement\"";
/// seed 000 "Pushed".
pub const PUSHED_RULE: &str = "seed 000 \"Pushed\"";
/// seed 000 "Beyond the Play Area".
pub const BEYOND_THE_PLAY_AREA_RULE: &str = "seed 000 \"Beyond the Play Area\"";
/// seed 000 "Rule of Least Disturbance".
pub const LEAST_DISTURBANCE_RULE: &str = "seed 000 \"Rule of Least Disturbance\"";

/// Contacts closer together along the path than this (inches) happen at once.
const SIMULTANEOUS: f64 = 1e-9;

/// A model on the table as displacement sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Body {
    /// The model's id.
    pub id: String,
    /// Its base, which decides what it moves through (seed 000 "Slammed", "Thrown").
    pub base: BaseSize,
    /// Its base's centre, in inches.
    pub centre: Point,
    /// Inches above the table: the height of the surface it stands on (seed 000 "Falling").
    #[serde(default)]
    pub elevation: f64,
    /// Whether the rule of least disturbance may move it; a model "that cannot be moved" makes the
    /// moving model give way instead (seed 000 "Rule of Least Disturbance").
    pub movable: bool,
}

impl Body {
    /// The circle its base covers.
    pub fn circle(&self) -> Circle {
        Circle { centre: self.centre, radius: self.base.radius_inches() }
    }
}

/// Push, slam or throw (seed 000 "Pushed", "Slammed", "Thrown").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DisplacementKind {
    /// Pushed: moved directly away, stopped by any base, obstacle or obstruction; no damage.
    Push,
    /// Slammed: moves through smaller bases, contacting them.
    Slam,
    /// Thrown: moves through smaller bases without contacting them; contacts what it lands by.
    Throw,
}

impl DisplacementKind {
    /// The rule this kind of movement follows.
    pub fn rule(self) -> &'static str {
        match self {
            DisplacementKind::Push => PUSHED_RULE,
            DisplacementKind::Slam => rolls::SLAMMED_RULE,
            DisplacementKind::Throw => rolls::THROWN_RULE,
        }
    }

    /// The matching kind for [`rolls::SlamSpec`]; a push has no damage roll.
    pub fn roll_displacement(self) -> Option<rolls::Displacement> {
        match self {
            DisplacementKind::Push => None,
            DisplacementKind::Slam => Some(rolls::Displacement::Slammed),
            DisplacementKind::Throw => Some(rolls::Displacement::Thrown),
        }
    }

    /// Whether a moving `mover` base stops on contact with an `other` base: a push stops at any
    /// base (seed 000 "Movement"), a slam or throw at "a model with an equal or larger base".
    fn stopped_by(self, mover: BaseSize, other: BaseSize) -> bool {
        self == DisplacementKind::Push || other >= mover
    }
}

/// What stopped the moved model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum Stop {
    /// The obstacle at this index of the table's terrain.
    Obstacle(usize),
    /// The obstruction at this index of the table's terrain.
    Obstruction(usize),
    /// The model with this id.
    Model(String),
    /// The table edge, which "does not count as an obstacle" (seed 000 "Beyond the Play Area").
    TableEdge,
}

/// What moves, which way and how far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DisplacementSpec {
    /// Push, slam or throw.
    pub kind: DisplacementKind,
    /// The moved model's id.
    pub model: String,
    /// The point of origin: the model is moved "directly away from" it.
    pub origin: Point,
    /// Inches, "determined by the spell or attack"; finite and at least 0 (0 is no move).
    pub distance: f64,
}

/// Where a displaced model ended and what happened on the way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DisplacementOutcome {
    /// The base's centre where it stopped.
    pub end: Point,
    /// Inches moved.
    pub travelled: f64,
    /// What stopped it before the full distance; `None` when it moved the whole distance.
    pub stopped_by: Option<Stop>,
    /// The models it contacted, by id. A slam: the smaller bases it moved through, in the order
    /// met, then the model that stopped it if one did. A throw: every model it is base to base
    /// with or overlaps after moving (which includes a model that stopped it). A push: none.
    pub contacted: Vec<String>,
    /// Its contacts as [`rolls::slam_damage`] takes them: the obstacle or obstruction that stopped
    /// it, then a [`rolls::Contact::Model`] for each model in `contacted`, with the ARM the
    /// caller's `arm_of` gave. The table edge is never a contact. Empty for a push.
    pub contacts: Vec<rolls::Contact>,
    /// Indexes (in the table's terrain) of the hazards its base moved through, in terrain order.
    pub hazards: Vec<usize>,
    /// The drop, when it moved and the surface under its end point is at least 1″ below its
    /// elevation: "moves off an elevated surface to another surface at least 1 full inch lower"
    /// (seed 000 "Falling"). The caller resolves the fall with [`rolls::fall_damage`].
    pub fall_inches: Option<f64>,
    /// When it falls: the models it lands on or beside (base to base or overlapping at the end and
    /// standing less than 1″ from the surface it lands on), ready for [`rolls::FallSpec`].
    pub landed_on: Vec<ContactedModel>,
    /// Whether it stopped at the table edge (seed 000 "Beyond the Play Area").
    pub stopped_at_table_edge: bool,
}

/// Move a model directly away from a point of origin (seed 000 "Pushed", "Slammed", "Thrown",
/// "Beyond the Play Area", "Falling").
///
/// `bodies` are every model on the table at its current position, including the moved one.
/// `arm_of` gives a model's current ARM by id, for the [`rolls::ContactedModel`]s in `contacts`
/// and `landed_on` (a closure, so the caller can read ARM from wherever it keeps stat cards).
///
/// The path ends at the first of: the full distance; the table edge, where "the model stops ...
/// and remains in play" and which "does not count as an obstacle"; contact with an obstacle, an
/// obstruction, or a base that stops this kind of move (see [`DisplacementKind`]). Contacts at
/// the same point happen together: the first (terrain by index, then models in `bodies` order)
/// is `stopped_by`, all are contacts. The end may overlap bases the model moved through; resolve
/// that with [`least_disturbance`].
///
/// Refused: a distance that is negative or not finite, an unknown or duplicated model id, a
/// position that is not finite, a moved base not wholly on the table, and a point of origin at
/// the model's centre when the distance is more than 0 ("directly away" has no direction). A 0″
/// move needs no direction and is allowed.
pub fn displace(
    table: &Table,
    bodies: &[Body],
    spec: &DisplacementSpec,
    arm_of: &dyn Fn(&str) -> u32,
) -> Result<DisplacementOutcome, RuleError> {
    let rule = spec.kind.rule();
    table.validate()?;
    check_bodies(bodies)?;
    if !(spec.distance.is_finite() && spec.distance >= 0.0) {
        return Err(RuleError::new(
            "warmachine.displacement.bad_distance",
            format!("the distance moved must be a finite number of inches, at least 0, not {}", spec.distance),
            rule,
        ));
    }
    if !spec.origin.is_finite() {
        return Err(RuleError::new("warmachine.displacement.not_finite", "the point of origin must be finite", rule));
    }
    let mover_index = find(bodies, &spec.model)?;
    let mover = &bodies[mover_index];
    let start = mover.circle();
    if !table.contains(&start) {
        return Err(RuleError::new(
            "warmachine.displacement.off_table",
            format!("{} must start wholly on the table", mover.id),
            BEYOND_THE_PLAY_AREA_RULE,
        ));
    }
    let away = (mover.centre.x - spec.origin.x, mover.centre.y - spec.origin.y);
    let away_length = away.0.hypot(away.1);
    if spec.distance > 0.0 && away_length < EPSILON {
        return Err(RuleError::new(
            "warmachine.displacement.no_direction",
            format!("the point of origin is {}'s centre, so there is no direction directly away from it", mover.id),
            rule,
        ));
    }
    let direction = if away_length < EPSILON { (0.0, 0.0) } else { (away.0 / away_length, away.1 / away_length) };
    let at = |s: f64| Point::new(start.centre.x + direction.0 * s, start.centre.y + direction.1 * s);

    // Beyond the Play Area: the path is cut short at the table edge.
    let edge_point = table.stop_at_edge(&start, at(spec.distance));
    let edge_length = start.centre.distance(edge_point).min(spec.distance);
    let reaches_edge = edge_length < spec.distance - EPSILON;

    let hits = stops_on_path(table, bodies, mover_index, spec.kind, direction, edge_length);
    let (travelled, end) = match hits.first() {
        Some((s, _)) => (*s, at(*s)),
        None => (edge_length, edge_point),
    };
    let stopped_by = hits.first().map(|(_, stop)| stop.clone()).or_else(|| reaches_edge.then_some(Stop::TableEdge));
    let moved = travelled > EPSILON;
    let end_circle = Circle { centre: end, radius: start.radius };

    let contacted = match spec.kind {
        DisplacementKind::Push => Vec::new(),
        DisplacementKind::Slam => {
            let mut through = sweep::passed_through(bodies, mover_index, &start, &end_circle);
            for (_, stop) in &hits {
                if let Stop::Model(id) = stop {
                    through.push(id.clone());
                }
            }
            through
        }
        DisplacementKind::Throw => touching(bodies, mover_index, &end_circle).map(|body| body.id.clone()).collect(),
    };
    let mut contacts = Vec::new();
    if spec.kind != DisplacementKind::Push {
        for (_, stop) in &hits {
            match stop {
                Stop::Obstacle(_) => contacts.push(rolls::Contact::Obstacle),
                Stop::Obstruction(_) => contacts.push(rolls::Contact::Obstruction),
                Stop::Model(_) | Stop::TableEdge => {}
            }
        }
        for id in &contacted {
            if let Some(body) = bodies.iter().find(|body| &body.id == id) {
                contacts.push(rolls::Contact::Model(contacted_model(body, arm_of)));
            }
        }
    }

    let hazards =
        if moved { sweep::hazards_crossed(&table.terrain, start.centre, end, start.radius) } else { Vec::new() };
    let landing = surface_height(&table.terrain, end);
    let fall_inches = if moved { fall_height(mover.elevation, landing) } else { None };
    let landed_on = match fall_inches {
        Some(_) => touching(bodies, mover_index, &end_circle)
            .filter(|body| (body.elevation - landing).abs() < MIN_FALL_INCHES)
            .map(|body| contacted_model(body, arm_of))
            .collect(),
        None => Vec::new(),
    };

    Ok(DisplacementOutcome {
        end,
        travelled,
        stopped_by,
        contacted,
        contacts,
        hazards,
        fall_inches,
        landed_on,
        stopped_at_table_edge: hits.is_empty() && reaches_edge,
    })
}

/// Everything that stops the move within `length`, at the nearest distance: all contacts within
/// [`SIMULTANEOUS`] of the first, terrain (by index) before models (in `bodies` order).
fn stops_on_path(
    table: &Table,
    bodies: &[Body],
    mover_index: usize,
    kind: DisplacementKind,
    direction: (f64, f64),
    length: f64,
) -> Vec<(f64, Stop)> {
    let mover = &bodies[mover_index];
    let start = mover.circle();
    let to = Point::new(start.centre.x + direction.0 * length, start.centre.y + direction.1 * length);
    let mut hits: Vec<(f64, Stop)> = Vec::new();
    for (index, feature) in table.terrain.iter().enumerate() {
        let stop = match feature.kind {
            TerrainKind::Obstacle => Stop::Obstacle(index),
            TerrainKind::Obstruction => Stop::Obstruction(index),
            TerrainKind::Hazard | TerrainKind::ElevatedSurface => continue,
        };
        if let Some(s) = sweep::terrain_contact(&feature.shape, start.centre, direction, start.radius, length) {
            hits.push((s, stop));
        }
    }
    for (index, body) in bodies.iter().enumerate() {
        if index == mover_index || !kind.stopped_by(mover.base, body.base) {
            continue;
        }
        if let Some(contact) = first_contact(&start, to, &[body.circle()]) {
            hits.push((contact.travelled, Stop::Model(body.id.clone())));
        }
    }
    let first = hits.iter().map(|(s, _)| *s).fold(f64::INFINITY, f64::min);
    // Kept in insertion order, terrain before models, all at the nearest distance.
    hits.retain(|(s, _)| *s <= first + SIMULTANEOUS);
    for hit in &mut hits {
        hit.0 = first;
    }
    hits
}

/// The other models whose bases touch or overlap `circle`, in `bodies` order.
fn touching<'a>(bodies: &'a [Body], mover_index: usize, circle: &'a Circle) -> impl Iterator<Item = &'a Body> + 'a {
    bodies
        .iter()
        .enumerate()
        .filter(move |(index, body)| *index != mover_index && edge_distance(circle, &body.circle()) <= EPSILON)
        .map(|(_, body)| body)
}

fn contacted_model(body: &Body, arm_of: &dyn Fn(&str) -> u32) -> ContactedModel {
    ContactedModel { model: body.id.clone(), base_mm: u32::from(body.base.mm()), arm: arm_of(&body.id) }
}

/// Index of the model with `id`.
fn find(bodies: &[Body], id: &str) -> Result<usize, RuleError> {
    bodies.iter().position(|body| body.id == id).ok_or_else(|| {
        RuleError::new(
            "warmachine.displacement.unknown_model",
            format!("no model {id} is on the table"),
            UNINTENTIONAL_MOVEMENT_RULE,
        )
    })
}

/// Ids are unique and positions finite, so every answer names one model at one place.
fn check_bodies(bodies: &[Body]) -> Result<(), RuleError> {
    for (index, body) in bodies.iter().enumerate() {
        if !(body.centre.is_finite() && body.elevation.is_finite()) {
            return Err(RuleError::new(
                "warmachine.displacement.not_finite",
                format!("{} needs a finite position and elevation", body.id),
                UNINTENTIONAL_MOVEMENT_RULE,
            ));
        }
        if bodies[..index].iter().any(|other| other.id == body.id) {
            return Err(RuleError::new(
                "warmachine.displacement.duplicate_model",
                format!("model {} is listed twice", body.id),
                UNINTENTIONAL_MOVEMENT_RULE,
            ));
        }
    }
    Ok(())
}

/// Whether any two of `circles` overlap (touching is not overlapping).
fn any_overlap(circles: &[Circle]) -> bool {
    circles.iter().enumerate().any(|(i, a)| circles[i + 1..].iter().any(|b| overlaps(a, b)))
}
