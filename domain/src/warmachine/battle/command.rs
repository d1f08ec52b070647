//! What players and judges ask of a warmachine battle.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::state::Condition;
use crate::warmachine::{
    model::ModelProfile,
    table::{Point, Position, Table},
};

/// A player at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerSpec {
    /// The player's name in this battle (`red`).
    pub name: String,
    /// The player name of the token that acts for this player.
    pub controller: String,
}

/// A model put on the table when the battle is created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    /// A unique id in this battle (`red-caster`).
    pub id: String,
    /// The player the model belongs to.
    pub player: String,
    /// Its profile: stat card, type, base, damage capacity, weapons, special rules.
    pub profile: ModelProfile,
    /// Where it stands.
    pub position: Position,
    /// The unit a trooper belongs to (troopers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// For a warjack or warbeast: the warcaster or warlock whose battlegroup it is in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battlegroup: Option<String>,
}

/// Focus a warcaster allocates to a warjack in the control phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FocusAllocation {
    /// The warjack.
    pub warjack: String,
    /// Focus points.
    pub focus: u8,
}

/// Fury a warlock leeches from a warbeast in the control phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FuryLeech {
    /// The warbeast.
    pub warbeast: String,
    /// Fury points.
    pub fury: u8,
}

/// Fury a warlock gains through spirit bond.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SpiritBondGain {
    /// The warlock.
    pub warlock: String,
    /// Fury points (at most one per destroyed medium-or-larger warbeast of its battlegroup).
    pub fury: u8,
}

/// The choices of the control phase (seed 000 "Control Phase").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ControlChoices {
    /// Fury leeched by warlocks, step 1.
    #[serde(default)]
    pub leech: Vec<FuryLeech>,
    /// Fury gained by spirit bond, step 2.
    #[serde(default)]
    pub spirit_bond: Vec<SpiritBondGain>,
    /// Focus allocated to warjacks, step 4.
    #[serde(default)]
    pub allocate: Vec<FocusAllocation>,
    /// Names of the upkeep spells to keep paying for, step 5; the others expire.
    #[serde(default)]
    pub upkeep: Vec<String>,
}

/// A model's normal movement (seed 000 "Movement").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Movement {
    /// Forfeit normal movement.
    Forfeit,
    /// Aim: no movement, +2 to ranged attack rolls this activation (not while engaged).
    Aim,
    /// Advance up to SPD along the waypoints.
    FullAdvance {
        /// Waypoints of the base's centre, after the start.
        path: Vec<Point>,
    },
    /// Advance up to SPD + 5″; forfeits the combat action and ends the activation.
    Run {
        /// Waypoints of the base's centre, after the start.
        path: Vec<Point>,
    },
    /// Charge `target`, moving straight toward `to`.
    Charge {
        /// The charged model.
        target: String,
        /// Where the straight charge line ends (the model stops earlier on contact).
        to: Point,
    },
}

/// Where a trooper of a unit is placed after the trooper that moved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// The trooper.
    pub model: String,
    /// Its new centre.
    pub at: Point,
}

/// The other troopers of a unit after one trooper moved (seed 000 "Unit Movement").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitPlacement {
    /// Troopers placed within 2″ of the trooper that moved, with line of sight to it.
    #[serde(default)]
    pub placed: Vec<Placement>,
    /// Troopers that cannot be placed; they are destroyed. Refused when a legal spot exists.
    #[serde(default)]
    pub cannot_place: Vec<String>,
}

/// Displacements a judge applies for a spell or attack the service does not model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DisplacementKindSpec {
    /// seed 000 "Pushed".
    Push,
    /// seed 000 "Slammed".
    Slam,
    /// seed 000 "Thrown".
    Throw,
}

/// A command to a warmachine battle. `create_battle` is sent as `POST /v1/battles` and
/// `reveal_seed` as `POST /v1/battles/{id}/reveal`; every other type to `/actions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum WarmachineCommand {
    /// Open the battle (a judge or admin).
    CreateBattle {
        /// The table and its terrain.
        table: Table,
        /// The players, in turn order.
        players: Vec<PlayerSpec>,
        /// Every model.
        models: Vec<ModelSpec>,
        /// `sha256(server seed)`, hex.
        seed_commitment: String,
    },
    /// Mix entropy into the dice (before the first die).
    ContributeEntropy {
        /// Any text.
        entropy: String,
    },
    /// Begin the next player's turn: expire markers, maintenance, control.
    StartTurn {
        /// The control phase's choices.
        #[serde(default)]
        control: ControlChoices,
    },
    /// Activate an independent model or a unit.
    Activate {
        /// The model id, or the unit name.
        activation: String,
    },
    /// Resolve a model's normal movement (for a unit: the trooper that moves).
    Move {
        /// The moving model.
        model: String,
        /// What it does.
        movement: Movement,
        /// For a unit: where the others go. Absent: they are placed by a later `place_troopers`.
        #[serde(default)]
        placement: Option<UnitPlacement>,
    },
    /// Place the other troopers of a unit after its trooper moved.
    PlaceTroopers {
        /// The placement.
        placement: UnitPlacement,
    },
    /// An initial attack with one weapon.
    Attack {
        /// The attacking model.
        attacker: String,
        /// The weapon's name.
        weapon: String,
        /// The target model.
        target: String,
        /// Boost the attack roll (spending focus, forcing a warbeast, or a rule's free boost).
        #[serde(default)]
        boost_attack: bool,
        /// Boost the damage roll.
        #[serde(default)]
        boost_damage: bool,
    },
    /// Resolve one pending triggered effect.
    ResolveTrigger {
        /// The model carrying the rule.
        model: String,
        /// The rule's name.
        rule: String,
        /// Decline the effect's optional part.
        #[serde(default)]
        decline_optional: bool,
    },
    /// Use an "any time" special rule.
    UseSpecialRule {
        /// The model.
        model: String,
        /// The rule's name.
        rule: String,
        /// For an upkeep spell: the model it is on.
        #[serde(default)]
        target: Option<String>,
    },
    /// End the current activation, optionally with one end-of-activation advance.
    EndActivation {
        /// The model making an end-of-activation advance.
        #[serde(default)]
        advance_model: Option<String>,
        /// The rule granting it.
        #[serde(default)]
        advance_rule: Option<String>,
        /// Its path.
        #[serde(default)]
        advance_path: Vec<Point>,
    },
    /// End the turn once every model and unit has activated.
    EndTurn {},
    /// A judge sets or clears a condition (knocked down, cannot run, a movement restriction …).
    SetCondition {
        /// The model.
        model: String,
        /// The condition.
        condition: Condition,
        /// Set (true) or clear (false).
        active: bool,
        /// Removed at the start of this player's next turn (seed 000 "markers that expire").
        #[serde(default)]
        expires_at_start_of: Option<String>,
        /// Why (recorded).
        reason: String,
    },
    /// A judge pushes, slams or throws a model for an effect the service does not model.
    Displace {
        /// The moved model.
        model: String,
        /// Push, slam or throw.
        kind: DisplacementKindSpec,
        /// The point of origin it moves directly away from.
        origin: Point,
        /// Inches.
        distance: f64,
        /// POW of its damage roll (slam, throw); absent for a push.
        #[serde(default)]
        pow: Option<u8>,
        /// POW of collateral damage (slam, throw).
        #[serde(default)]
        collateral_pow: Option<u8>,
        /// Why (recorded).
        reason: String,
    },
    /// A judge ends the battle, or a player concedes.
    EndBattle {
        /// The winning player, if any.
        #[serde(default)]
        winner: Option<String>,
        /// Why (recorded).
        reason: String,
    },
    /// Publish the server seed.
    RevealSeed {
        /// 64 hex digits.
        seed: String,
        /// `sha256` of a fresh sealed seed, filled in by the service when a judge reveals before
        /// the end: every later die comes from it (docs/DICE.md "Re-sealing").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_commitment: Option<String>,
    },
    /// A judge rolls dice the rules leave to the judge (docs/DICE.md "A judge's roll").
    JudgeRoll(crate::dice::JudgeRoll),
}
