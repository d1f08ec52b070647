//! What movement adjudication takes and gives: armies on the map before the turn, and the
//! positions, per-army report and engagements after it (seed 003 §3.1: "update the game map with
//! all legal moves ... pointing out which moves were rejected as illegal and why").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::coalition::army::{RankClass, Team};
use crate::coalition::map::Square;
use crate::coalition::orders::Leg;
use crate::dice::Draw;

/// An army on the map as movement sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyPosition {
    /// The army's name, unique in the campaign.
    pub name: String,
    /// Its team; mercenaries never share a square with each other either (seed 003 ch. 6).
    pub team: Team,
    /// Its rank class: Captain/Evincar and above cannot Joint Engage (seed 003 §3.2.5.4).
    pub rank: RankClass,
    /// Where it stands at the movement lock.
    pub square: Square,
    /// Engaged in battle last turn: its action is the battle, so it does not move (seed 003 §3.2.1).
    #[serde(default)]
    pub in_battle: bool,
}

/// Where an army stands after the turn's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ArmyPosition)]
pub struct Position {
    /// The army.
    pub army: String,
    /// Its square.
    pub square: Square,
}

/// The result of one turn's movement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MovementOutcome {
    /// Every army's square after the turn, by army name; no army is ever lost.
    pub positions: Vec<Position>,
    /// One line per army, by army name: what it was ordered, what happened and why.
    pub report: Vec<MoveReport>,
    /// Squares where enemies meet this turn, for the Battle Announcements (seed 003 §3.1).
    pub engagements: Vec<EngagementReport>,
    /// Long moves that go on next turn: the legs still to do (seed 003 §3.2.2.3).
    pub long_moves: Vec<LongMove>,
    /// The dice drawn by this adjudication, in order (random routes, §3.2.2.4; random picks, §3.2.3.2).
    pub draws: Vec<Draw>,
}

/// What happened to one army's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveReport {
    /// The army.
    pub army: String,
    /// Its team.
    pub team: Team,
    /// Where it started.
    pub from: Square,
    /// Where it ended.
    pub to: Square,
    /// Where this turn's leg meant to go, when it was a move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intended: Option<Square>,
    /// The squares it passed, `from` first, when it moved along a known route.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub route: Vec<Square>,
    /// What happened.
    pub outcome: MoveOutcome,
    /// Why, in words a player understands.
    pub reason: String,
    /// The rule applied (`seed 003 §3.3.1`).
    pub rule: String,
    /// What became of the rest of a long move, when the order had more than one leg.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_move: Option<LongMoveStatus>,
}

/// The outcome of an army's order for the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveOutcome {
    /// Reached its destination.
    Moved,
    /// Got only as close as possible to its destination (seed 003 §3.3.2).
    Partial,
    /// Was not ordered to move (no order, hold, transfer, an intercept that caught nothing).
    Stayed,
    /// Fought last turn and could not move (seed 003 §3.2.1).
    InBattle,
    /// The order is illegal; the army stays.
    Rejected,
    /// A Joint Engage whose conditions failed: ignored, the army stays (seed 003 §3.2.5.3).
    JointEngageIgnored,
    /// Stopped on the interceptor's square to fight it (seed 003 §3.2.3).
    Intercepted {
        /// The interceptor.
        by: String,
    },
    /// Caught the army it intercepted (seed 003 §3.2.3).
    Intercepts {
        /// The army caught.
        target: String,
    },
    /// Entered (or held) the square of this turn's joint engagement (seed 003 §3.2.5.2).
    JointEngagement,
}

/// What became of the legs after this turn's leg (seed 003 §3.2.2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LongMoveStatus {
    /// The move goes on next turn with these many legs left.
    Continues {
        /// Legs left.
        legs: u32,
    },
    /// The rest of the move is cancelled; the player must post again.
    Cancelled {
        /// Legs dropped.
        legs: u32,
        /// Why.
        reason: String,
    },
}

/// A long move that goes on next turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LongMove {
    /// The army.
    pub army: String,
    /// The legs still to do, next turn's first.
    pub legs: Vec<Leg>,
}

/// A square where enemy armies end the turn together and will fight (seed 003 §3.3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EngagementReport {
    /// The square.
    pub square: Square,
    /// The armies of each team there, by team.
    pub sides: Vec<EngagedSide>,
    /// Who attacks whom (seed 003 §4.1.2.3).
    pub attack: Attack,
    /// A 3- or 4-army battle from a Joint Engage (seed 003 §3.2.5, §4.4).
    pub joint: bool,
}

/// One team's armies in an engagement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EngagedSide {
    /// The team.
    pub team: Team,
    /// Its armies there, by name.
    pub armies: Vec<String>,
}

/// How a battle starts (seed 003 §4.1.2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Attack {
    /// `attackers` moved into the square where `defenders` already stood: the defenders start in
    /// the centre with a few hours to prepare.
    Attacks {
        /// The armies that moved in.
        attackers: Vec<String>,
        /// The armies that were there.
        defenders: Vec<String>,
    },
    /// Both sides moved in at the same time (or both were already there): a "no-attacker"
    /// battle that begins part way into the day.
    NoAttacker,
}
