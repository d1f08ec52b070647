//! What happened in a warmachine battle. Every event that rolled carries its dice and the tape's
//! `next_word`, so replaying the log needs no dice at all and verifying it redraws every die.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    command::{DisplacementKindSpec, ModelSpec, PlayerSpec},
    state::Condition,
};
use crate::{
    dice::RollOutcome,
    warmachine::{
        model::System,
        rolls::{AttackRoll, DamageRoll},
        table::{Point, Table},
    },
    EventType,
};

/// How a normal movement or an end-of-activation advance moved the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdvanceKind {
    /// seed 000 "Full Advance".
    FullAdvance,
    /// seed 000 "Run".
    Run,
    /// A run the model could not make: a full advance, then the activation ends (seed 000 "Run").
    RunFallback,
    /// seed 000 "End of activation Movement".
    EndOfActivation,
}

/// What a warjack or warbeast paid to run, charge or boost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Cost {
    /// Nothing: the model needs no focus or fury for this, or a rule grants it.
    Free,
    /// One focus point spent.
    Focus,
    /// One fury point spent by a model with Fury Manipulation (a warlock enhancing its own
    /// abilities with fury, seed 000 "Warlocks").
    Fury,
    /// The warbeast was forced: one fury point gained.
    Forced,
}

/// Damage one roll did to one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DamageDealt {
    /// The damaged model.
    pub model: String,
    /// What rolled it (`"blast"`, `"collateral"`, `"fall"` …).
    pub source: String,
    /// The damage roll.
    pub roll: DamageRoll,
    /// For a warjack's grid: the d6 that picked the column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<RollOutcome>,
    /// Damage boxes marked.
    pub marked: u16,
    /// Systems crippled by this damage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crippled: Vec<System>,
    /// Whether the model was destroyed.
    pub destroyed: bool,
}

/// A moved model put out of the way (seed 000 "Rule of Least Disturbance").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Moved {
    /// The model.
    pub model: String,
    /// Its new centre.
    pub to: Point,
}

/// A marker that expired at the start of its turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExpiredMarker {
    /// The model it was on.
    pub model: String,
    /// The condition it marked.
    pub condition: Condition,
}

/// A special rule an attack triggered, pending until its controller resolves it (seed 000
/// "Triggers").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TriggeredRule {
    /// The model carrying the rule.
    pub model: String,
    /// The rule.
    pub rule: String,
}

/// An event of a warmachine battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type")]
pub enum WarmachineEvent {
    /// The battle opened.
    #[serde(rename = "warmachine.BattleCreated")]
    BattleCreated {
        /// The table.
        table: Table,
        /// Players in turn order.
        players: Vec<PlayerSpec>,
        /// The models as set up.
        models: Vec<ModelSpec>,
        /// `sha256(server seed)`.
        seed_commitment: String,
    },
    /// Entropy mixed into the dice.
    #[serde(rename = "warmachine.EntropyContributed")]
    EntropyContributed {
        /// The text.
        entropy: String,
        /// Who.
        by: String,
    },
    /// A player's turn began.
    #[serde(rename = "warmachine.TurnStarted")]
    TurnStarted {
        /// Turn number, from 1 (each player's turn counts).
        turn: u32,
        /// Whose turn.
        player: String,
    },
    /// Markers that expire at the start of this turn were removed.
    #[serde(rename = "warmachine.MarkersExpired")]
    MarkersExpired {
        /// The markers removed.
        removed: Vec<ExpiredMarker>,
    },
    /// Maintenance phase step 1: focus or fury removed.
    #[serde(rename = "warmachine.PointsRemoved")]
    PointsRemoved {
        /// The model.
        model: String,
        /// Focus removed.
        focus: u8,
        /// Fury removed.
        fury: u8,
        /// The rule.
        rule: String,
    },
    /// Maintenance phase step 2: a continuous effect checked (d6: 1–2 expires, herald's reading).
    #[serde(rename = "warmachine.ContinuousEffectChecked")]
    ContinuousEffectChecked {
        /// The model.
        model: String,
        /// The effect's name.
        effect: String,
        /// The expiry die.
        roll: RollOutcome,
        /// Whether it expired.
        expired: bool,
        /// Its damage when it stays.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage: Option<DamageDealt>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// Control phase step 1: focus replenished to ARC.
    #[serde(rename = "warmachine.FocusReplenished")]
    FocusReplenished {
        /// The model.
        model: String,
        /// Its focus now.
        focus: u8,
    },
    /// Control phase step 1: fury leeched.
    #[serde(rename = "warmachine.FuryLeeched")]
    FuryLeeched {
        /// The warlock.
        warlock: String,
        /// The warbeast.
        warbeast: String,
        /// Points moved.
        fury: u8,
    },
    /// Control phase step 2: spirit bond.
    #[serde(rename = "warmachine.SpiritBond")]
    SpiritBond {
        /// The warlock.
        warlock: String,
        /// Points gained.
        fury: u8,
    },
    /// Control phase step 3: a warjack powered up.
    #[serde(rename = "warmachine.PoweredUp")]
    PoweredUp {
        /// The warjack.
        warjack: String,
    },
    /// Control phase step 4: focus allocated.
    #[serde(rename = "warmachine.FocusAllocated")]
    FocusAllocated {
        /// The warcaster.
        warcaster: String,
        /// The warjack.
        warjack: String,
        /// Points.
        focus: u8,
    },
    /// Control phase step 5: an upkeep spell paid for.
    #[serde(rename = "warmachine.UpkeepPaid")]
    UpkeepPaid {
        /// The caster.
        caster: String,
        /// The spell.
        spell: String,
    },
    /// Control phase step 5: an upkeep spell not paid for expired.
    #[serde(rename = "warmachine.UpkeepExpired")]
    UpkeepExpired {
        /// The caster.
        caster: String,
        /// The spell.
        spell: String,
    },
    /// Control phase step 6: a threshold check.
    #[serde(rename = "warmachine.ThresholdChecked")]
    ThresholdChecked {
        /// The warbeast.
        warbeast: String,
        /// Its fury.
        fury: u8,
        /// Its THR.
        thr: u8,
        /// 2d6 + fury.
        roll: RollOutcome,
        /// Whether it failed and frenzied.
        frenzied: bool,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A model or unit activated.
    #[serde(rename = "warmachine.Activated")]
    Activated {
        /// The model id or unit name.
        activation: String,
        /// The models activating.
        models: Vec<String>,
        /// Whether a required charge applies.
        #[serde(default)]
        required_charge: bool,
    },
    /// A model forfeited its normal movement.
    #[serde(rename = "warmachine.MovementForfeited")]
    MovementForfeited {
        /// The model.
        model: String,
        /// Whether the combat action is forfeited too (required charge with no target).
        #[serde(default)]
        combat_forfeited: bool,
        /// The rule.
        rule: String,
    },
    /// A model aimed.
    #[serde(rename = "warmachine.Aimed")]
    Aimed {
        /// The model.
        model: String,
    },
    /// A model advanced.
    #[serde(rename = "warmachine.Advanced")]
    Advanced {
        /// The model.
        model: String,
        /// How.
        kind: AdvanceKind,
        /// Where it started.
        from: Point,
        /// The waypoints.
        path: Vec<Point>,
        /// Inches moved.
        distance: f64,
        /// What it paid.
        cost: Cost,
        /// Hazards it entered (terrain indexes), for the judge.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hazards: Vec<usize>,
    },
    /// A model charged.
    #[serde(rename = "warmachine.Charged")]
    Charged {
        /// The model.
        model: String,
        /// The charged model.
        target: String,
        /// Where it started.
        from: Point,
        /// Where it stopped.
        to: Point,
        /// Inches moved.
        travelled: f64,
        /// What stopped it early, if anything.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stopped_by: Option<String>,
        /// Whether the target is in its melee range: otherwise the charge failed.
        in_melee_range: bool,
        /// Whether its first attack will be a charge attack (moved at least 3″).
        charge_attack: bool,
        /// What it paid.
        cost: Cost,
    },
    /// The other troopers of a unit were placed.
    #[serde(rename = "warmachine.TroopersPlaced")]
    TroopersPlaced {
        /// The unit.
        unit: String,
        /// The trooper that moved.
        moved: String,
        /// New centres.
        placed: Vec<Moved>,
        /// Troopers that could not be placed and are destroyed.
        #[serde(default)]
        destroyed: Vec<String>,
        /// Troopers that must forfeit their combat action (seed 000 "Unit Movement", "Unit Charges").
        #[serde(default)]
        forfeit_combat: Vec<String>,
    },
    /// An attack was resolved.
    #[serde(rename = "warmachine.AttackResolved")]
    AttackResolved {
        /// The attacker.
        attacker: String,
        /// The weapon.
        weapon: String,
        /// The target.
        target: String,
        /// Whether this was a charge attack.
        charge_attack: bool,
        /// The attack roll.
        roll: AttackRoll,
        /// What the attack roll's boost cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attack_boost: Option<Cost>,
        /// What the damage roll's boost cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage_boost: Option<Cost>,
        /// Damage, direct and blast.
        #[serde(default)]
        damage: Vec<DamageDealt>,
        /// Triggered effects now pending, in the order they must be offered.
        #[serde(default)]
        triggers: Vec<TriggeredRule>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A model that moved off an elevated surface onto one at least 1″ lower fell: knocked down,
    /// with its falling damage roll (seed 000 "Falling").
    #[serde(rename = "warmachine.Fell")]
    Fell {
        /// The model.
        model: String,
        /// How far it dropped, in inches.
        drop_inches: f64,
        /// It and the models it landed in contact with that suffer the fall (equal or smaller bases).
        knocked_down: Vec<String>,
        /// The damage of the fall.
        damage: Vec<DamageDealt>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A model was destroyed and removed from the table.
    #[serde(rename = "warmachine.ModelDestroyed")]
    ModelDestroyed {
        /// The model.
        model: String,
        /// Why.
        cause: String,
    },
    /// A warcaster's warjacks became inert (seed 000 "Warjacks").
    #[serde(rename = "warmachine.WarjacksInert")]
    WarjacksInert {
        /// The incapacitated warcaster.
        warcaster: String,
        /// The warjacks.
        warjacks: Vec<String>,
    },
    /// A pending triggered effect was resolved (or lapsed).
    #[serde(rename = "warmachine.TriggerResolved")]
    TriggerResolved {
        /// The model.
        model: String,
        /// The rule.
        rule: String,
        /// Whether it resolved; false when its condition no longer held.
        resolved: bool,
        /// Whether the optional part was declined.
        declined_optional: bool,
        /// The rule applied.
        reason: String,
    },
    /// An "any time" special rule was used.
    #[serde(rename = "warmachine.SpecialRuleUsed")]
    SpecialRuleUsed {
        /// The model.
        model: String,
        /// The rule.
        rule: String,
        /// An upkeep spell's target.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    /// A condition set or cleared by a judge or a rule.
    #[serde(rename = "warmachine.ConditionChanged")]
    ConditionChanged {
        /// The model.
        model: String,
        /// The condition.
        condition: Condition,
        /// Set or cleared.
        active: bool,
        /// Expires at the start of this player's turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expires_at_start_of: Option<String>,
        /// Why.
        reason: String,
    },
    /// A model was pushed, slammed or thrown.
    #[serde(rename = "warmachine.Displaced")]
    Displaced {
        /// The model.
        model: String,
        /// How.
        kind: DisplacementKindSpec,
        /// The point of origin.
        origin: Point,
        /// Where it started.
        from: Point,
        /// Where it stopped.
        to: Point,
        /// Its elevation after.
        elevation: f64,
        /// What stopped it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stopped_by: Option<String>,
        /// Models it contacted.
        #[serde(default)]
        contacted: Vec<String>,
        /// Models knocked down.
        #[serde(default)]
        knocked_down: Vec<String>,
        /// Hazards it moved through.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hazards: Vec<usize>,
        /// Damage from the slam or throw, collateral and fall.
        #[serde(default)]
        damage: Vec<DamageDealt>,
        /// Models moved out of the way.
        #[serde(default)]
        relocated: Vec<Moved>,
        /// The die that chose among equally small disturbances.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tie_break: Option<RollOutcome>,
        /// Why (the judge's reason).
        reason: String,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// An activation ended.
    #[serde(rename = "warmachine.ActivationEnded")]
    ActivationEnded {
        /// The model id or unit name.
        activation: String,
        /// Why (`"declared"`, `"ran"`, `"charge failed"` …).
        reason: String,
    },
    /// A turn ended.
    #[serde(rename = "warmachine.TurnEnded")]
    TurnEnded {
        /// The turn.
        turn: u32,
        /// Whose it was.
        player: String,
    },
    /// The battle ended.
    #[serde(rename = "warmachine.BattleEnded")]
    BattleEnded {
        /// The winner.
        #[serde(default)]
        winner: Option<String>,
        /// Why.
        reason: String,
    },
    /// The server seed, published.
    #[serde(rename = "warmachine.SeedRevealed")]
    SeedRevealed {
        /// The seed.
        seed: String,
        /// The effective seed derived from it.
        effective_seed: String,
        /// A reveal before the battle ended: `sha256` of the fresh sealed seed every later die
        /// comes from (docs/DICE.md "Re-sealing").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_commitment: Option<String>,
    },
    /// A judge rolled (docs/DICE.md "A judge's roll").
    #[serde(rename = "dice.JudgeRolled")]
    JudgeRolled(crate::dice::JudgeRolled),
}

impl EventType for WarmachineEvent {}
