//! The adjudicator's working model: each army's intent (fixed for the turn) and its fate in one
//! resolution pass (recomputed when a pass finds an army that cannot move anywhere).
//!
//! Armies are addressed by their index in the name-sorted army list, so every loop runs in the
//! same order whatever order the caller passed them in (replay must give the same events).

use chrono::{DateTime, Utc};

use super::types::MoveOutcome;
use crate::coalition::army::Team;
use crate::coalition::map::Square;

/// Index of an army in the name-sorted army list.
pub(super) type Id = usize;

/// Where an order stands in the §3.3.1 priority after distance: the post's timestamp, then the
/// post, then its line ("if both moves are contained within the same post, the first one written
/// takes priority"). Posts with the same timestamp are ordered by post id — a deterministic
/// default for a tie the seed leaves to the judge (§3.3.3).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct OrderKey {
    /// The post's timestamp.
    pub posted_at: DateTime<Utc>,
    /// The post's id.
    pub post: String,
    /// The line within the post.
    pub line: u32,
}

/// A report line decided before the report is written: outcome, reason and rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Why {
    /// The outcome.
    pub outcome: MoveOutcome,
    /// In words.
    pub reason: String,
    /// The rule (`seed 003 §…`).
    pub rule: &'static str,
}

impl Why {
    /// A report line.
    pub fn new(outcome: MoveOutcome, reason: impl Into<String>, rule: &'static str) -> Self {
        Self { outcome, reason: reason.into(), rule }
    }
}

/// This turn's leg of a move order, checked and with its route known.
#[derive(Debug, Clone)]
pub(super) struct MovePlan {
    /// Where the leg ends.
    pub dest: Square,
    /// The squares it crosses, start first and `dest` last: the player's route, or one drawn.
    pub route: Vec<Square>,
    /// Whether the player gave the route (a partial move then keeps to it).
    pub routed: bool,
    /// Posted with `Joint Engage` (seed 003 §3.2.5).
    pub joint: bool,
    /// Order priority after distance (§3.3.1).
    pub key: OrderKey,
}

/// What an army's order asks this turn, before any other army is considered.
#[derive(Debug, Clone)]
pub(super) enum Intent {
    /// It does not move: no order, hold, transfer, in battle, or an order refused.
    Stay(Why),
    /// It stays and intercepts the named army (seed 003 §3.2.3).
    Intercept {
        /// The army to intercept.
        target: String,
    },
    /// It moves this leg.
    Move(MovePlan),
}

impl Intent {
    /// The move plan, when the army moves.
    pub fn plan(&self) -> Option<&MovePlan> {
        match self {
            Self::Move(plan) => Some(plan),
            _ => None,
        }
    }
}

/// What one resolution pass makes of an army.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fate {
    /// Ends where it started.
    Stay,
    /// Claims `target` with the intent to enter it (its destination, or an interceptor's square).
    Enter {
        /// The square it enters.
        target: Square,
    },
    /// Cannot enter `target`; moves as close to it as possible (seed 003 §3.3.2).
    Partial {
        /// The square it could not enter.
        target: Square,
    },
}

/// The state of one resolution pass.
#[derive(Debug, Clone)]
pub(super) struct Turn {
    /// Each army's fate.
    pub fate: Vec<Fate>,
    /// Each army's report line, when something other than its plain intent decided it.
    pub why: Vec<Option<Why>>,
    /// The turn's joint engagement: its square and its two armies (seed 003 §3.2.5.4).
    pub joint: Option<(Square, [Id; 2])>,
    /// Interceptors that caught their target: interceptor → target (seed 003 §3.2.3).
    pub caught: Vec<(Id, Id)>,
    /// Each army's square at the end of the pass.
    pub finals: Vec<Square>,
}

/// A fixed order of teams, so grouping by team never depends on hashing.
pub(super) fn team_index(team: Team) -> u8 {
    match team {
        Team::Phyrexia => 0,
        Team::Coalition => 1,
        Team::Mercenary => 2,
    }
}

/// Whether two armies' teams fight when they meet. Mercenaries "will never attack each other"
/// (seed 003 ch. 6), so two mercenaries are kept apart like friends.
pub(super) fn enemies(a: Team, b: Team) -> bool {
    a != b
}
