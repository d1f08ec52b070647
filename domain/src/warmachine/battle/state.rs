//! The folded state of a warmachine battle. `apply` never fails and never rolls: every number it
//! needs is in the event.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    command::{ModelSpec, PlayerSpec},
    event::{DamageDealt, WarmachineEvent},
};
use crate::{
    warmachine::{
        model::{DamageCapacity, DamageGrid, MovementRestriction, System, WeaponKind},
        movement::DEFAULT_MELEE_RANGE,
        rolls::{ContactedModel, FallSpec},
        table::{surface_height, within, Circle, Point, Position, Table},
    },
    DiceCursor,
};

/// A condition on a model: set by rules (knocked down, frenzy) or by a judge for effects the
/// service does not model (a spell that stops a model running).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Condition {
    /// Knocked down (slammed, thrown, fell): tracked, its effects left to the judge (seed 000 does
    /// not define them).
    KnockedDown,
    /// A warbeast that failed its threshold check (seed 000 "Control Phase" step 6); herald
    /// treats frenzy as a required charge on its next activation.
    Frenzied,
    /// "Cannot run": beats any rule that lets it run (seed 000 "Rule Priority").
    CannotRun,
    /// "Cannot charge".
    CannotCharge,
    /// "Cannot advance": troopers so affected are placed normally but forfeit their combat action.
    CannotAdvance,
    /// A required charge (seed 000 "Required Charges").
    MustCharge,
    /// A required run: with [`Condition::CannotRun`] too, the "cannot run" fallback applies.
    MustRun,
    /// A movement restriction relative to another model (seed 000 "Movement Restrictions").
    Restricted {
        /// Which one.
        restriction: MovementRestriction,
        /// Model B.
        relative_to: String,
    },
    /// An effect changing a weapon's RNG and POW (a spell the service does not model): a weapon
    /// whose RNG drops to 0 or less cannot attack, and POW never drops below 0 (seed 000 "Weapon
    /// Statistics").
    WeaponModifier {
        /// The weapon's name; every weapon of the model when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<String>,
        /// Inches added to RNG (negative to reduce it).
        #[serde(default)]
        rng: f64,
        /// Added to POW (negative to reduce it).
        #[serde(default)]
        pow: i16,
    },
    /// A continuous effect checked every maintenance phase (seed 000 "Maintenance Phase" step 2).
    ContinuousEffect {
        /// Its name (`fire`).
        name: String,
        /// The POW of its damage roll while it stays.
        pow: u8,
    },
}

/// A condition removed at the start of a player's turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Marker {
    /// The condition.
    pub condition: Condition,
    /// Removed at the start of this player's turn.
    pub expires_at_start_of: String,
}

/// One model's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelState {
    /// As set up.
    pub spec: ModelSpec,
    /// Where it stands now.
    pub position: Position,
    /// Damage points taken (boxes); for grids, see `grid`.
    pub damage: u16,
    /// A warjack's grid with its marked boxes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<DamageGrid>,
    /// Focus points.
    pub focus: u8,
    /// Fury points.
    pub fury: u8,
    /// Conditions on it.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// Conditions that expire at the start of a player's turn.
    #[serde(default)]
    pub markers: Vec<Marker>,
    /// Destroyed or removed from play.
    pub destroyed: bool,
    /// A warjack whose warcaster was incapacitated (seed 000 "Warjacks").
    pub inert: bool,
}

impl ModelState {
    /// The model's id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    /// Its base circle.
    pub fn circle(&self) -> Circle {
        self.position.base(self.spec.profile.base)
    }

    /// Whether it is on the table.
    pub fn in_play(&self) -> bool {
        !self.destroyed
    }

    /// Whether it carries `condition`.
    pub fn has(&self, condition: &Condition) -> bool {
        self.conditions.contains(condition)
    }

    /// Its melee range: the longest RNG of its melee weapons, 0.5″ for weapons with none;
    /// `None` without a melee weapon (it cannot engage or charge).
    pub fn melee_range(&self) -> Option<f64> {
        self.spec
            .profile
            .weapons
            .iter()
            .filter(|weapon| weapon.kind == WeaponKind::Melee)
            .map(|weapon| match weapon.rng {
                crate::warmachine::model::WeaponRange::Inches(inches) if inches > 0.0 => inches,
                _ => DEFAULT_MELEE_RANGE,
            })
            .reduce(f64::max)
    }

    /// The RNG and POW modifiers on `weapon` from [`Condition::WeaponModifier`] conditions.
    pub fn weapon_modifiers(&self, weapon: &str) -> (f64, i64) {
        self.conditions.iter().fold((0.0, 0), |(rng, pow), condition| match condition {
            Condition::WeaponModifier { weapon: named, rng: r, pow: p }
                if named.as_deref().is_none_or(|name| name == weapon) =>
            {
                (rng + r, pow + i64::from(*p))
            }
            _ => (rng, pow),
        })
    }

    /// This model as another model's fall or slam contacts it (its base and ARM).
    pub fn as_contacted(&self) -> ContactedModel {
        ContactedModel {
            model: self.spec.id.clone(),
            base_mm: u32::from(self.spec.profile.base.mm()),
            arm: u32::from(self.spec.profile.stats.arm),
        }
    }

    /// This model falling `drop_inches` onto `contacted` (seed 000 "Falling").
    pub fn fall(&self, drop_inches: f64, contacted: Vec<ContactedModel>) -> FallSpec {
        let ContactedModel { model, base_mm, arm } = self.as_contacted();
        FallSpec { model, drop_inches, arm, base_mm, options: Default::default(), contacted }
    }

    /// Damage boxes left.
    pub fn boxes_left(&self) -> u32 {
        match (&self.grid, &self.spec.profile.damage) {
            (Some(grid), _) => u32::try_from(grid.remaining()).unwrap_or(u32::MAX),
            (None, DamageCapacity::Boxes { boxes }) => u32::from(boxes.saturating_sub(self.damage)),
            (None, DamageCapacity::Grid { grid }) => u32::try_from(grid.remaining()).unwrap_or(u32::MAX),
        }
    }

    /// Crippled systems.
    pub fn crippled(&self) -> Vec<System> {
        self.grid.as_ref().map(DamageGrid::crippled).unwrap_or_default()
    }

    /// Whether its cortex works: has one and it is not crippled (seed 000 "Warjacks").
    pub fn functional_cortex(&self) -> bool {
        self.spec.profile.common_rules().cortex && !self.crippled().contains(&System::Cortex)
    }
}

/// What one model has done in the current activation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ModelActivation {
    /// Its normal movement is resolved (moved, aimed, forfeited, or placed with its unit).
    pub moved: bool,
    /// It aimed.
    pub aiming: bool,
    /// It ran.
    pub ran: bool,
    /// Its combat action is forfeited.
    pub combat_forfeited: bool,
    /// The model it charged, while its charge attack is still to come.
    pub charge_target: Option<String>,
    /// Whether its first attack is a charge attack.
    pub charge_attack: bool,
    /// Whether it has made an attack.
    pub attacked: bool,
    /// Melee or ranged, fixed by its first attack.
    pub combat: Option<WeaponKind>,
    /// Initial attacks made per weapon.
    pub attacks: BTreeMap<String, u32>,
}

/// The activation in progress.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Activation {
    /// The model id or unit name.
    pub id: String,
    /// The models activating.
    pub models: BTreeMap<String, ModelActivation>,
    /// For a unit: the trooper that moved, while the others wait to be placed.
    pub awaiting_placement: Option<String>,
    /// A required charge applies.
    pub required_charge: bool,
    /// Set once the unit's normal movement (all troopers) is resolved.
    pub movement_done: bool,
    /// Whether a model of the activation charged (seed 000 "Unit Charges").
    pub charged: bool,
}

/// A triggered effect waiting to be resolved (seed 000 "Triggers").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PendingTrigger {
    /// The model carrying the rule.
    pub model: String,
    /// The rule.
    pub rule: String,
    /// Its controller.
    pub player: String,
}

/// An upkeep spell in play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Upkeep {
    /// The caster.
    pub caster: String,
    /// The spell.
    pub spell: String,
    /// The model it is on.
    pub target: String,
}

/// Where the battle stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Not created.
    #[default]
    Empty,
    /// Between turns: the next player starts their turn.
    BetweenTurns,
    /// A player's activation phase.
    Activation,
    /// Over.
    Ended,
}

/// A warmachine battle.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct WarmachineState {
    /// Where the battle stands.
    pub phase: Phase,
    /// The table.
    pub table: Table,
    /// Players in turn order.
    pub players: Vec<PlayerSpec>,
    /// Models by id.
    pub models: BTreeMap<String, ModelState>,
    /// Turn number (0 before the first).
    pub turn: u32,
    /// Whose turn it is (or was last).
    pub current: Option<String>,
    /// Models and units that have activated this turn.
    pub activated: BTreeSet<String>,
    /// The activation in progress.
    pub activation: Option<Activation>,
    /// Triggered effects waiting, in order.
    pub pending_triggers: Vec<PendingTrigger>,
    /// Upkeep spells in play.
    pub upkeeps: Vec<Upkeep>,
    /// The winner, once over.
    pub winner: Option<String>,
    /// Why it ended.
    pub ended_reason: Option<String>,
    /// `sha256(server seed)`.
    pub seed_commitment: Option<String>,
    /// Entropy contributions, in order.
    pub contributions: Vec<String>,
    /// The tape's next word.
    pub next_word: u64,
    /// The revealed seed.
    pub revealed_seed: Option<String>,
    /// Fresh seeds committed at early reveals, in order (docs/DICE.md "Re-sealing").
    #[serde(default)]
    pub reseals: Vec<crate::dice::sealed::ResealKey>,
}

impl WarmachineState {
    /// Whether the battle exists.
    pub fn created(&self) -> bool {
        self.phase != Phase::Empty
    }

    /// Whether it is over.
    pub fn ended(&self) -> bool {
        self.phase == Phase::Ended
    }

    /// The player `name`.
    pub fn player(&self, name: &str) -> Option<&PlayerSpec> {
        self.players.iter().find(|player| player.name == name)
    }

    /// A model.
    pub fn model(&self, id: &str) -> Option<&ModelState> {
        self.models.get(id)
    }

    /// The models of a unit, in play or not.
    pub fn unit_members(&self, unit: &str) -> Vec<&ModelState> {
        self.models.values().filter(|m| m.spec.unit.as_deref() == Some(unit)).collect()
    }

    /// What activates as one: an independent model's id or a unit's name.
    pub fn activation_of(&self, model: &ModelState) -> String {
        model.spec.unit.clone().unwrap_or_else(|| model.spec.id.clone())
    }

    /// The models and units of `player` that must still activate this turn: on the table, not
    /// inert (seed 000 "Activation Phase": "A model must be on the table to activate").
    pub fn to_activate(&self, player: &str) -> BTreeSet<String> {
        self.models
            .values()
            .filter(|m| m.spec.player == player && m.in_play() && !m.inert)
            .map(|m| self.activation_of(m))
            .filter(|id| !self.activated.contains(id))
            .collect()
    }

    /// Whether `a` and `b` belong to different players.
    pub fn enemies(&self, a: &ModelState, b: &ModelState) -> bool {
        a.spec.player != b.spec.player
    }

    /// The enemy models in whose melee range `model` stands: it is engaged by them (herald's
    /// reading; seed 000 uses "engaged" without defining it).
    pub fn engaging(&self, model: &ModelState) -> Vec<String> {
        if !model.in_play() {
            return Vec::new();
        }
        let base = model.circle();
        self.models
            .values()
            .filter(|other| other.in_play() && self.enemies(model, other))
            .filter(|other| other.melee_range().is_some_and(|range| within(&other.circle(), &base, range)))
            .map(|other| other.spec.id.clone())
            .collect()
    }

    /// Whether `model` is engaged.
    pub fn engaged(&self, model: &ModelState) -> bool {
        !self.engaging(model).is_empty()
    }

    /// Every other model's base in play, with ids.
    pub fn other_bases(&self, except: &[&str]) -> Vec<(String, Circle)> {
        self.models
            .values()
            .filter(|m| m.in_play() && !except.contains(&m.spec.id.as_str()))
            .map(|m| (m.spec.id.clone(), m.circle()))
            .collect()
    }

    /// The stream's dice cursor.
    pub fn dice_cursor(&self) -> Option<DiceCursor> {
        DiceCursor::chain(
            (self.seed_commitment.as_deref()?, self.revealed_seed.as_deref()),
            &crate::dice::sealed::reseal_chain(&self.reseals),
            &self.contributions,
            self.next_word,
            self.ended(),
        )
    }

    fn model_mut(&mut self, id: &str) -> Option<&mut ModelState> {
        self.models.get_mut(id)
    }

    fn activation_mut(&mut self, model: &str) -> Option<&mut ModelActivation> {
        self.activation.as_mut().and_then(|activation| activation.models.get_mut(model))
    }

    fn apply_damage(&mut self, dealt: &DamageDealt) {
        if let Some(model) = self.model_mut(&dealt.model) {
            match (&mut model.grid, dealt.column.as_ref()) {
                (Some(grid), Some(column)) => {
                    let column = u8::try_from(column.total).unwrap_or(1);
                    // The decider marked the same grid; marking again reproduces it.
                    let _ = grid.mark(column, dealt.marked);
                    // "A warjack whose cortex is crippled cannot have focus points" (seed 000
                    // "Warjacks"): the focus it had is lost when the cortex is crippled, not kept
                    // (and spent) until the next maintenance phase.
                    if dealt.crippled.contains(&System::Cortex) {
                        model.focus = 0;
                    }
                }
                _ => model.damage = model.damage.saturating_add(dealt.marked),
            }
        }
    }

    /// Mark damage on a working copy of the state while deciding, destroying the model when the
    /// damage says so, so a later roll in the same decision sees it.
    pub fn record_damage(&mut self, dealt: &DamageDealt) {
        self.apply_damage(dealt);
        if dealt.destroyed {
            if let Some(model) = self.model_mut(&dealt.model) {
                model.destroyed = true;
            }
        }
    }

    /// Apply an event.
    pub fn apply(&mut self, event: &WarmachineEvent) {
        use WarmachineEvent as E;
        match event {
            E::BattleCreated { table, players, models, seed_commitment } => {
                self.phase = Phase::BetweenTurns;
                self.table = table.clone();
                self.players = players.clone();
                self.seed_commitment = Some(seed_commitment.clone());
                for spec in models {
                    let grid = match &spec.profile.damage {
                        DamageCapacity::Grid { grid } => Some(grid.clone()),
                        DamageCapacity::Boxes { .. } => None,
                    };
                    let state = ModelState {
                        spec: spec.clone(),
                        position: spec.position,
                        damage: 0,
                        grid,
                        focus: 0,
                        fury: 0,
                        conditions: Vec::new(),
                        markers: Vec::new(),
                        destroyed: false,
                        inert: false,
                    };
                    self.models.insert(spec.id.clone(), state);
                }
            }
            E::EntropyContributed { entropy, .. } => self.contributions.push(entropy.clone()),
            E::TurnStarted { turn, player } => {
                self.turn = *turn;
                self.current = Some(player.clone());
                self.activated.clear();
                self.activation = None;
                self.phase = Phase::Activation;
            }
            E::MarkersExpired { removed } => {
                for super::event::ExpiredMarker { model: id, condition } in removed {
                    if let Some(model) = self.model_mut(id) {
                        model.conditions.retain(|c| c != condition);
                        model.markers.retain(|m| &m.condition != condition);
                    }
                }
            }
            E::PointsRemoved { model, focus, fury, .. } => {
                if let Some(model) = self.model_mut(model) {
                    model.focus = model.focus.saturating_sub(*focus);
                    model.fury = model.fury.saturating_sub(*fury);
                }
            }
            E::ContinuousEffectChecked { model, effect, expired, damage, next_word, .. } => {
                self.next_word = *next_word;
                if *expired {
                    if let Some(model) = self.model_mut(model) {
                        model
                            .conditions
                            .retain(|c| !matches!(c, Condition::ContinuousEffect { name, .. } if name == effect));
                    }
                }
                if let Some(dealt) = damage {
                    self.apply_damage(dealt);
                }
            }
            E::FocusReplenished { model, focus } => {
                if let Some(model) = self.model_mut(model) {
                    model.focus = *focus;
                }
            }
            E::FuryLeeched { warlock, warbeast, fury } => {
                if let Some(beast) = self.model_mut(warbeast) {
                    beast.fury = beast.fury.saturating_sub(*fury);
                }
                if let Some(lock) = self.model_mut(warlock) {
                    lock.fury = lock.fury.saturating_add(*fury);
                }
            }
            E::SpiritBond { warlock, fury } => {
                if let Some(lock) = self.model_mut(warlock) {
                    lock.fury = lock.fury.saturating_add(*fury);
                }
            }
            E::PoweredUp { warjack } => {
                if let Some(jack) = self.model_mut(warjack) {
                    jack.focus = jack.focus.saturating_add(1);
                }
            }
            E::FocusAllocated { warcaster, warjack, focus } => {
                if let Some(caster) = self.model_mut(warcaster) {
                    caster.focus = caster.focus.saturating_sub(*focus);
                }
                if let Some(jack) = self.model_mut(warjack) {
                    jack.focus = jack.focus.saturating_add(*focus);
                }
            }
            E::UpkeepPaid { caster, .. } => {
                if let Some(caster) = self.model_mut(caster) {
                    if caster.focus > 0 {
                        caster.focus -= 1;
                    } else {
                        caster.fury = caster.fury.saturating_sub(1);
                    }
                }
            }
            E::UpkeepExpired { caster, spell } => {
                self.upkeeps.retain(|u| !(u.caster == *caster && u.spell == *spell));
            }
            E::ThresholdChecked { warbeast, frenzied, next_word, .. } => {
                self.next_word = *next_word;
                if *frenzied {
                    if let Some(beast) = self.model_mut(warbeast) {
                        if !beast.has(&Condition::Frenzied) {
                            beast.conditions.push(Condition::Frenzied);
                        }
                    }
                }
            }
            E::Activated { activation, models, required_charge } => {
                self.activation = Some(Activation {
                    id: activation.clone(),
                    models: models.iter().map(|m| (m.clone(), ModelActivation::default())).collect(),
                    awaiting_placement: None,
                    required_charge: *required_charge,
                    movement_done: false,
                    charged: false,
                });
            }
            E::MovementForfeited { model, combat_forfeited, .. } => {
                if let Some(state) = self.activation_mut(model) {
                    state.moved = true;
                    state.combat_forfeited |= *combat_forfeited;
                }
                self.finish_stationary(model);
            }
            E::Aimed { model } => {
                if let Some(state) = self.activation_mut(model) {
                    state.moved = true;
                    state.aiming = true;
                }
                self.finish_stationary(model);
            }
            E::Advanced { model, kind, path, cost, .. } => {
                self.pay(model, *cost);
                if let Some(to) = path.last() {
                    self.place_at(model, *to);
                }
                if *kind != super::event::AdvanceKind::EndOfActivation {
                    if let Some(state) = self.activation_mut(model) {
                        state.moved = true;
                        if matches!(kind, super::event::AdvanceKind::Run | super::event::AdvanceKind::RunFallback) {
                            state.ran = true;
                            state.combat_forfeited = true;
                        }
                    }
                    self.finish_movement_if_independent(model);
                }
            }
            E::Charged { model, target, to, in_melee_range, charge_attack, cost, .. } => {
                self.pay(model, *cost);
                self.place_at(model, *to);
                if let Some(activation) = self.activation.as_mut() {
                    activation.charged = true;
                }
                if let Some(state) = self.activation_mut(model) {
                    state.moved = true;
                    state.charge_target = Some(target.clone());
                    state.charge_attack = *charge_attack && *in_melee_range;
                    state.combat_forfeited |= !*in_melee_range;
                }
                self.finish_movement_if_independent(model);
            }
            // Troopers that cannot be placed leave play through the `ModelDestroyed` events that
            // follow, so the log says what destroyed them.
            E::TroopersPlaced { placed, forfeit_combat, .. } => {
                for moved in placed {
                    self.place_at(&moved.model, moved.to);
                    if let Some(state) = self.activation_mut(&moved.model) {
                        state.moved = true;
                    }
                }
                for id in forfeit_combat {
                    if let Some(state) = self.activation_mut(id) {
                        state.combat_forfeited = true;
                        state.charge_attack = false;
                    }
                }
                if let Some(activation) = self.activation.as_mut() {
                    activation.awaiting_placement = None;
                    activation.movement_done = true;
                }
            }
            E::AttackResolved {
                attacker,
                weapon,
                damage,
                triggers,
                next_word,
                roll,
                attack_boost,
                damage_boost,
                ..
            } => {
                self.next_word = *next_word;
                for cost in attack_boost.iter().chain(damage_boost.iter()) {
                    self.pay(attacker, *cost);
                }
                if let Some(state) = self.activation_mut(attacker) {
                    state.attacked = true;
                    state.combat.get_or_insert(match roll.kind {
                        crate::warmachine::rolls::AttackKind::Melee => WeaponKind::Melee,
                        crate::warmachine::rolls::AttackKind::Ranged => WeaponKind::Ranged,
                    });
                    *state.attacks.entry(weapon.clone()).or_default() += 1;
                    state.charge_target = None;
                    state.charge_attack = false;
                }
                for dealt in damage {
                    self.apply_damage(dealt);
                }
                let players: BTreeMap<String, String> =
                    self.models.values().map(|m| (m.spec.id.clone(), m.spec.player.clone())).collect();
                for super::event::TriggeredRule { model, rule } in triggers {
                    let player = players.get(model).cloned().unwrap_or_default();
                    self.pending_triggers.push(PendingTrigger { model: model.clone(), rule: rule.clone(), player });
                }
            }
            E::Fell { knocked_down, damage, next_word, .. } => {
                self.next_word = *next_word;
                for id in knocked_down {
                    if let Some(m) = self.model_mut(id) {
                        if !m.has(&Condition::KnockedDown) {
                            m.conditions.push(Condition::KnockedDown);
                        }
                    }
                }
                for dealt in damage {
                    self.apply_damage(dealt);
                }
            }
            E::ModelDestroyed { model, .. } => {
                if let Some(m) = self.model_mut(model) {
                    m.destroyed = true;
                }
            }
            E::WarjacksInert { warjacks, .. } => {
                for id in warjacks {
                    if let Some(m) = self.model_mut(id) {
                        m.inert = true;
                        m.focus = 0;
                    }
                }
            }
            E::TriggerResolved { model, rule, .. } => {
                if let Some(index) = self.pending_triggers.iter().position(|t| t.model == *model && t.rule == *rule) {
                    self.pending_triggers.remove(index);
                }
            }
            E::SpecialRuleUsed { model, rule, target } => {
                if let Some(target) = target {
                    self.upkeeps.push(Upkeep { caster: model.clone(), spell: rule.clone(), target: target.clone() });
                }
            }
            E::ConditionChanged { model, condition, active, expires_at_start_of, .. } => {
                if let Some(m) = self.model_mut(model) {
                    m.conditions.retain(|c| c != condition);
                    m.markers.retain(|marker| &marker.condition != condition);
                    if *active {
                        m.conditions.push(condition.clone());
                        if let Some(player) = expires_at_start_of {
                            m.markers
                                .push(Marker { condition: condition.clone(), expires_at_start_of: player.clone() });
                        }
                    }
                }
            }
            E::Displaced { model, to, elevation, knocked_down, damage, relocated, next_word, .. } => {
                self.next_word = *next_word;
                if let Some(m) = self.model_mut(model) {
                    m.position.x = to.x;
                    m.position.y = to.y;
                    m.position.elevation = *elevation;
                }
                for moved in relocated {
                    self.place_at(&moved.model, moved.to);
                }
                for id in knocked_down {
                    if let Some(m) = self.model_mut(id) {
                        if !m.has(&Condition::KnockedDown) {
                            m.conditions.push(Condition::KnockedDown);
                        }
                    }
                }
                for dealt in damage {
                    self.apply_damage(dealt);
                }
            }
            E::ActivationEnded { activation, .. } => {
                self.activated.insert(activation.clone());
                if let Some(current) = self.activation.take() {
                    // Frenzy lasts one activation in herald's reading (docs/rulesets/warmachine.md).
                    for id in current.models.keys() {
                        if let Some(m) = self.model_mut(id) {
                            m.conditions.retain(|c| *c != Condition::Frenzied);
                        }
                    }
                }
            }
            E::TurnEnded { .. } => {
                self.phase = Phase::BetweenTurns;
                self.activation = None;
            }
            E::BattleEnded { winner, reason } => {
                self.phase = Phase::Ended;
                self.winner = winner.clone();
                self.ended_reason = Some(reason.clone());
                self.activation = None;
            }
            E::SeedRevealed { seed, next_commitment, .. } => crate::dice::sealed::apply_reveal(
                &mut self.revealed_seed,
                &mut self.reseals,
                seed,
                next_commitment.as_ref(),
            ),
            E::JudgeRolled(rolled) => self.next_word = rolled.next_word,
        }
    }

    fn pay(&mut self, model: &str, cost: super::event::Cost) {
        if let Some(m) = self.model_mut(model) {
            match cost {
                super::event::Cost::Free => {}
                super::event::Cost::Focus => m.focus = m.focus.saturating_sub(1),
                super::event::Cost::Fury => m.fury = m.fury.saturating_sub(1),
                super::event::Cost::Forced => m.fury = m.fury.saturating_add(1),
            }
        }
    }

    /// An independent model's movement is the activation's movement.
    fn finish_movement_if_independent(&mut self, model: &str) {
        // The trooper that moved was destroyed before the others were placed: the trooper moving
        // now takes its place (seed 000 "Unit Movement"). Keeping the destroyed one left the unit
        // unable to place its troopers or end its activation.
        let mover_lost = self
            .activation
            .as_ref()
            .and_then(|activation| activation.awaiting_placement.as_deref())
            .is_some_and(|moved| self.models.get(moved).is_some_and(|m| m.destroyed));
        if let Some(activation) = self.activation.as_mut() {
            if activation.id == model {
                activation.movement_done = true;
            } else if activation.awaiting_placement.is_none() || mover_lost {
                activation.awaiting_placement = Some(model.to_string());
            }
        }
    }

    /// Put a model's centre at `to`, standing on the surface there: a model that moves stands on
    /// whatever is under it afterwards (seed 000 "Falling" measures falls between surfaces).
    fn place_at(&mut self, id: &str, to: Point) {
        let height = surface_height(&self.table.terrain, to);
        if let Some(m) = self.models.get_mut(id) {
            m.position.x = to.x;
            m.position.y = to.y;
            m.position.elevation = height;
        }
    }

    /// Aiming or forfeiting moves nobody: the activation's movement is done once every model in
    /// it has resolved its normal movement.
    fn finish_stationary(&mut self, model: &str) {
        let models = &self.models;
        if let Some(activation) = self.activation.as_mut() {
            let in_play = |id: &String| models.get(id).is_some_and(ModelState::in_play);
            if activation.id == model || activation.models.iter().all(|(id, m)| m.moved || !in_play(id)) {
                activation.movement_done = true;
                // A unit whose moving trooper was lost chose to aim or forfeit instead: nobody
                // waits to be placed any more (seed 000 "Unit Movement").
                activation.awaiting_placement = None;
            }
        }
    }
}
