//! The warmachine read model: a warmachine battle (seed 000) as served by `GET /v1/battles/{id}`.
//!
//! Nothing is hidden (see [`crate::redact`]), so the view is the same for every reader. It
//! spells out what a client would otherwise recompute from the folded state with the rules'
//! geometry: boxes left, crippled systems, who is engaged by whom, melee range. Those come from
//! the domain's own functions ([`ModelState::boxes_left`], [`WarmachineState::engaging`], …), so
//! the view never disagrees with what the decider will check.

use crate::{
    warmachine::{
        battle::{
            command::PlayerSpec,
            state::{Condition, Marker, ModelActivation, ModelState, PendingTrigger, Phase, Upkeep},
            Warmachine, WarmachineState,
        },
        model::{BaseSize, DamageCapacity, DamageGrid, ModelType, SpecialRule, StatCard, System, Weapon},
        table::{within, Position, Table},
    },
    Decider,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A warmachine battle as served by `GET /v1/battles/{id}` (and `?at=<version>`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "01936f3e-8f4d-7a31-8a9b-0c64d1f3a002", "stream": "battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a002",
    "version": 6, "ruleset": "warmachine", "rules": "warmachine@2", "phase": "activation", "turn": 1,
    "current_player": "red", "active_player": "red", "inactive_players": ["blue"], "players": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
    "table": {"width": 48.0, "depth": 48.0, "terrain": [{"name": "Hill", "kind": "elevated_surface",
        "shape": {"kind": "rect", "min": {"x": 20.0, "y": 20.0}, "max": {"x": 26.0, "y": 24.0}}, "height": 2.0}]},
    "activated": [], "to_activate": ["red-caster"],
    "activation": {"id": "red-jack", "unit": false, "models": [{"model": "red-jack", "moved": true, "aiming": false,
        "ran": false, "combat_forfeited": false, "charge_target": null, "charge_attack": false, "attacked": true,
        "combat": "melee", "attacks": {"Fist": 1}}], "awaiting_placement": null, "required_charge": false,
        "movement_done": true, "charged": false},
    "pending_triggers": [], "upkeeps": [], "winner": null, "ended_reason": null,
    "seed_commitment": "5d0b1c0c2e6e0f4a7f1e4b0b7e2a5a1c9f0d3e8b6a4c2e1f0a9b8c7d6e5f4a3b", "seed_revealed": false,
    "seed": null, "contributions": [], "next_word": 12,
    "models": [{"id": "blue-beast", "name": "Gorax", "player": "blue", "type": "warbeast", "unit": null,
        "battlegroup": "blue-lock", "position": {"x": 12.0, "y": 13.7, "facing": 270.0, "elevation": 0.0},
        "base": {"size": "large", "mm": 50, "radius": 0.984}, "stats": {"spd": 6, "str": 11, "mat": 6, "rat": 3,
        "def": 12, "arm": 16, "fury": 4, "thr": 9}, "damage": {"capacity": 26, "taken": 4, "left": 22, "grid": null,
        "crippled": []}, "focus": 0, "fury": 2, "conditions": [{"kind": "knocked_down"}], "markers": [],
        "knocked_down": true, "destroyed": false, "inert": false, "activated": false, "activating": false,
        "engaged": true, "engaged_by": ["red-jack"], "engaging": ["red-jack"], "melee_range": 2.0,
        "control_range": null, "weapons": [{"name": "Claw", "kind": "melee", "rng": {"kind": "inches", "inches": 2.0},
            "pow": 13}], "special_rules": []}]
}))]
pub struct WarmachineView {
    /// The battle id (the stream name without `battle-`).
    pub id: String,
    /// The stream, `battle-{uuid}`.
    pub stream: String,
    /// The stream version this view is folded to (also the `ETag`).
    pub version: u64,
    /// Always `warmachine`: tells a client which of the two battle views it holds.
    pub ruleset: String,
    /// The rules version of the decider (`warmachine@2`).
    pub rules: String,
    /// Where the battle stands.
    pub phase: Phase,
    /// Turn number (0 before the first; each player's turn counts).
    pub turn: u32,
    /// Whose turn it is (or was last).
    pub current_player: Option<String>,
    /// The active player (seed 000 "Active or Inactive player"): the attacker's controller during
    /// an attack and until the effects it triggered are resolved, otherwise the player whose turn
    /// it is. Attacks are made only in the activations of the player whose turn it is, so both
    /// readings name the same player here.
    pub active_player: Option<String>,
    /// The other players: the inactive players.
    pub inactive_players: Vec<String>,
    /// Players in turn order.
    pub players: Vec<PlayerSpec>,
    /// The table: its size in inches and its terrain.
    pub table: Table,
    /// Models and units that have activated this turn.
    pub activated: Vec<String>,
    /// Models and units of the current player still to activate this turn (empty between turns).
    pub to_activate: Vec<String>,
    /// The activation in progress.
    pub activation: Option<ActivationView>,
    /// Triggered effects waiting, in the order they must be resolved.
    pub pending_triggers: Vec<PendingTrigger>,
    /// Upkeep spells in play.
    pub upkeeps: Vec<Upkeep>,
    /// The winner, once over.
    pub winner: Option<String>,
    /// Why it ended.
    pub ended_reason: Option<String>,
    /// `sha256(server seed)`, published before any die was drawn.
    pub seed_commitment: Option<String>,
    /// Whether the server seed has been revealed (anyone may then verify every die).
    pub seed_revealed: bool,
    /// The server seed, once revealed.
    pub seed: Option<String>,
    /// Entropy contributed by participants, in order.
    pub contributions: Vec<String>,
    /// The dice tape's next output word: how far the stream's dice have been drawn.
    pub next_word: u64,
    /// Every model, destroyed ones included (flagged), by id.
    pub models: Vec<ModelView>,
}

/// The activation in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ActivationView {
    /// The model id, or the unit name.
    pub id: String,
    /// Whether a unit is activating (the id is a unit name).
    pub unit: bool,
    /// What each activating model has done, by model id.
    pub models: Vec<ModelActivationView>,
    /// For a unit: the trooper that moved, while the others wait to be placed.
    pub awaiting_placement: Option<String>,
    /// A required charge applies (seed 000 "Required Charges").
    pub required_charge: bool,
    /// The activation's normal movement is resolved: combat actions may follow.
    pub movement_done: bool,
    /// Whether a model of the activation charged.
    pub charged: bool,
}

/// What one model has done in the activation in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelActivationView {
    /// The model.
    pub model: String,
    /// What it has done: movement resolved, aiming, ran, combat forfeited, charge, attacks.
    #[serde(flatten)]
    pub doing: ModelActivation,
}

/// One model as the table shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelView {
    /// Its id in this battle.
    pub id: String,
    /// The name on its card.
    pub name: String,
    /// Its player.
    pub player: String,
    /// Its model type.
    #[serde(rename = "type")]
    pub model_type: ModelType,
    /// The unit a trooper belongs to.
    pub unit: Option<String>,
    /// For a warjack or warbeast: the warcaster or warlock whose battlegroup it is in.
    pub battlegroup: Option<String>,
    /// Where it stands: centre in inches, facing in degrees, elevation in inches.
    pub position: Position,
    /// Its base.
    pub base: BaseView,
    /// Its stat card.
    pub stats: StatCard,
    /// Damage taken and left.
    pub damage: DamageView,
    /// Focus points.
    pub focus: u8,
    /// Fury points.
    pub fury: u8,
    /// Conditions on it (knocked down, frenzied, restrictions, continuous effects…).
    pub conditions: Vec<Condition>,
    /// Conditions that expire at the start of a player's turn.
    pub markers: Vec<Marker>,
    /// Whether it is knocked down (also in `conditions`; spelled out for clients).
    pub knocked_down: bool,
    /// Destroyed or removed from play.
    pub destroyed: bool,
    /// A warjack whose warcaster was incapacitated.
    pub inert: bool,
    /// Whether its activation (its own, or its unit's) has happened this turn.
    pub activated: bool,
    /// Whether it is part of the activation in progress.
    pub activating: bool,
    /// Whether an enemy model in play has it in its melee range (herald's reading of "engaged").
    pub engaged: bool,
    /// The enemy models engaging it.
    pub engaged_by: Vec<String>,
    /// The enemy models in its own melee range.
    pub engaging: Vec<String>,
    /// Its melee range in inches (base edge to base edge); `None` without a melee weapon.
    pub melee_range: Option<f64>,
    /// A warcaster's or warlock's control range (CTRL) in inches, base edge to base edge.
    pub control_range: Option<u8>,
    /// Its weapons.
    pub weapons: Vec<Weapon>,
    /// Its named special rules.
    pub special_rules: Vec<SpecialRule>,
}

/// A model's base.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BaseView {
    /// Its size class.
    pub size: BaseSize,
    /// Its diameter in millimetres.
    pub mm: u16,
    /// Its radius in inches: what every distance adds to centre-to-centre measurements,
    /// because distances are measured from base edges (seed 000 "Measuring Distances").
    pub radius: f64,
}

/// Damage a model has taken and can still take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DamageView {
    /// Damage boxes in all (a warjack's: every box of its grid).
    pub capacity: u32,
    /// Boxes marked.
    pub taken: u32,
    /// Boxes left.
    pub left: u32,
    /// A warjack's grid with its marked boxes.
    pub grid: Option<DamageGrid>,
    /// A warjack's crippled systems.
    pub crippled: Vec<System>,
}

impl WarmachineView {
    /// The view of `state`, folded to `version` of `stream`.
    pub fn new(stream: &str, version: u64, state: &WarmachineState) -> Self {
        let to_activate = match (&state.current, state.phase) {
            (Some(player), Phase::Activation) => state.to_activate(player).into_iter().collect(),
            _ => Vec::new(),
        };
        Self {
            id: crate::ruleset::battle_id(stream).to_string(),
            stream: stream.to_string(),
            version,
            ruleset: <Warmachine as crate::ruleset::Ruleset>::ID.to_string(),
            rules: Warmachine::RULES.to_string(),
            phase: state.phase,
            turn: state.turn,
            current_player: state.current.clone(),
            active_player: state.current.clone(),
            inactive_players: state
                .players
                .iter()
                .filter(|p| state.current.as_deref().is_some_and(|current| current != p.name))
                .map(|p| p.name.clone())
                .collect(),
            players: state.players.clone(),
            table: state.table.clone(),
            activated: state.activated.iter().cloned().collect(),
            to_activate,
            activation: state.activation.as_ref().map(|activation| ActivationView {
                id: activation.id.clone(),
                unit: state.model(&activation.id).is_none(),
                models: activation
                    .models
                    .iter()
                    .map(|(model, doing)| ModelActivationView { model: model.clone(), doing: doing.clone() })
                    .collect(),
                awaiting_placement: activation.awaiting_placement.clone(),
                required_charge: activation.required_charge,
                movement_done: activation.movement_done,
                charged: activation.charged,
            }),
            pending_triggers: state.pending_triggers.clone(),
            upkeeps: state.upkeeps.clone(),
            winner: state.winner.clone(),
            ended_reason: state.ended_reason.clone(),
            seed_commitment: state.seed_commitment.clone(),
            seed_revealed: state.revealed_seed.is_some(),
            seed: state.revealed_seed.clone(),
            contributions: state.contributions.clone(),
            next_word: state.next_word,
            models: state.models.values().map(|model| ModelView::new(state, model)).collect(),
        }
    }
}

impl ModelView {
    /// The view of `model` in `state`.
    pub fn new(state: &WarmachineState, model: &ModelState) -> Self {
        let profile = &model.spec.profile;
        // A model off the table engages nobody and is engaged by nobody, whatever its last
        // position was: the domain's `engaging` measures from wherever the base was left.
        let engaged_by = if model.in_play() { state.engaging(model) } else { Vec::new() };
        let engaging = engaging(state, model);
        let activation = state.activation_of(model);
        Self {
            id: model.spec.id.clone(),
            name: profile.name.clone(),
            player: model.spec.player.clone(),
            model_type: profile.model_type,
            unit: model.spec.unit.clone(),
            battlegroup: model.spec.battlegroup.clone(),
            position: model.position,
            base: BaseView { size: profile.base, mm: profile.base.mm(), radius: profile.base.radius_inches() },
            stats: profile.stats,
            damage: damage(model),
            focus: model.focus,
            fury: model.fury,
            conditions: model.conditions.clone(),
            markers: model.markers.clone(),
            knocked_down: model.has(&Condition::KnockedDown),
            destroyed: model.destroyed,
            inert: model.inert,
            activated: state.activated.contains(&activation),
            activating: state.activation.as_ref().is_some_and(|a| a.models.contains_key(&model.spec.id)),
            engaged: !engaged_by.is_empty(),
            engaged_by,
            engaging,
            melee_range: model.melee_range(),
            control_range: profile.stats.ctrl.filter(|_| profile.common_rules().controls_battlegroup),
            weapons: profile.weapons.clone(),
            special_rules: profile.special_rules.clone(),
        }
    }
}

/// The enemy models in play in `model`'s melee range: the other half of
/// [`WarmachineState::engaging`], measured the same way.
fn engaging(state: &WarmachineState, model: &ModelState) -> Vec<String> {
    let (Some(range), true) = (model.melee_range(), model.in_play()) else { return Vec::new() };
    let base = model.circle();
    state
        .models
        .values()
        .filter(|other| other.in_play() && state.enemies(model, other))
        .filter(|other| within(&base, &other.circle(), range))
        .map(|other| other.spec.id.clone())
        .collect()
}

/// Capacity, taken and left, consistent with [`ModelState::boxes_left`] (what the decider uses).
fn damage(model: &ModelState) -> DamageView {
    let capacity = match (&model.grid, &model.spec.profile.damage) {
        (Some(grid), _) | (None, DamageCapacity::Grid { grid }) => {
            u32::try_from(grid.total_boxes()).unwrap_or(u32::MAX)
        }
        (None, DamageCapacity::Boxes { boxes }) => u32::from(*boxes),
    };
    let left = model.boxes_left().min(capacity);
    DamageView { capacity, taken: capacity - left, left, grid: model.grid.clone(), crippled: model.crippled() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented example is a view a client can read: it deserializes as one.
    #[test]
    fn the_schema_example_is_a_warmachine_view() {
        let schema = serde_json::to_value(<WarmachineView as utoipa::PartialSchema>::schema()).unwrap_or_default();
        let example = schema.get("example").cloned().unwrap_or_default();
        let view: Result<WarmachineView, _> = serde_json::from_value(example.clone());
        assert!(view.is_ok(), "{view:?}\n{example}");
    }
}
