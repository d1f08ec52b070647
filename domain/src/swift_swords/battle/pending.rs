//! What a battle waits for before anything else happens: a target's defence against a declared
//! attack, or the answers of the enemies a figure leaves when it moves out of contact.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::swift_swords::{
    damage::{SpecialResult, Tactic},
    injury::Location,
};

fn yes() -> bool {
    true
}

/// What an attacker declares with its attack, decided before the dice are rolled (the seed lets
/// the attacker choose after rolling where it spends its 1s and extra successes and shifts an
/// injury's location; Herald takes those choices as standing orders, applied to the dice as they
/// fall).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsAttackOptions)]
pub struct AttackOptions {
    /// Spend a 1 for effort: +1 die, "decided before the roll".
    #[serde(default)]
    pub effort: bool,
    /// Spend a 1 after the roll to raise one die by one (a die one short of a success, else a 1).
    #[serde(default)]
    pub bump: bool,
    /// Pick up the exposure dice lying in front of the target and add them to the attack.
    #[serde(default = "yes")]
    pub use_exposures: bool,
    /// Successes to spend stripping the target's Block pool; absent: whatever lets the most
    /// successes through.
    #[serde(default)]
    pub strip_block: Option<u32>,
    /// Special results to buy with extra successes, in order of preference.
    #[serde(default)]
    pub special_results: Vec<SpecialResult>,
    /// The location to shift an injury toward on a triple or quadruple.
    #[serde(default)]
    pub aim: Option<Location>,
    /// Release the attacker's action pool into this attack (+1 die per pooled die).
    #[serde(default)]
    pub from_pool: bool,
    /// For a follow-on: the opponent the second attack goes to.
    #[serde(default)]
    pub follow_on_target: Option<String>,
}

impl Default for AttackOptions {
    fn default() -> Self {
        Self {
            effort: false,
            bump: false,
            use_exposures: true,
            strip_block: None,
            special_results: Vec::new(),
            aim: None,
            from_pool: false,
            follow_on_target: None,
        }
    }
}

/// Why an attack roll is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsAttackPurpose)]
pub enum AttackPurpose {
    /// To hurt (or, with a grappling weapon, to apply a Hold).
    Strike,
    /// A Break: each success strips a die of the target's defence pools.
    Break,
    /// An opportunity attack on a figure moving out of contact.
    Opportunity,
    /// The second attack of a follow-on.
    FollowOn,
    /// A parrying defender's immediate attack with the attacker's exposure dice.
    Counter,
}

/// An attack declared and waiting for its target's defence (or for its turn in a sequence).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsAwaitedAttack)]
pub struct PendingAttack {
    /// Its number in this battle.
    pub id: u32,
    /// Who attacks.
    pub attacker: String,
    /// Who is attacked.
    pub target: String,
    /// With what.
    pub weapon: String,
    /// What for.
    pub purpose: AttackPurpose,
    /// The special tactic it belongs to.
    pub tactic: Tactic,
    /// The attacker's declared choices.
    pub options: AttackOptions,
    /// Dice released from the attacker's action pool into it.
    pub pool_dice: u32,
}

/// Where a move goes (seed 004 "Status").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = SwiftSwordsDestination)]
pub enum Destination {
    /// Into an adjacent zone, Alone ("On the first occasion you enter a zone you are Alone unless
    /// part of a Charge").
    Zone {
        /// The zone.
        zone: String,
    },
    /// Out of the group, Alone in the same zone.
    Alone,
    /// Alongside a figure of the same zone: standing alone together with a friend, or into
    /// contact with an enemy (its whole group becomes InContact).
    Join {
        /// The figure.
        figure: String,
    },
    /// Into a cover area of the same zone (entering one held by enemies puts you InContact with
    /// its holders).
    Occupy {
        /// The cover area.
        cover: String,
    },
}

/// A figure moving out of contact, waiting for the opportunity attacks of the enemies it leaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsAwaitedMove)]
pub struct PendingMove {
    /// Who moves.
    pub mover: String,
    /// Where to.
    pub destination: Destination,
    /// Enemies yet to attack or let it go.
    pub waiting: Vec<String>,
}

/// Something awaited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = SwiftSwordsPending)]
pub enum Pending {
    /// An attack.
    Attack(PendingAttack),
    /// A move out of contact.
    Move(PendingMove),
}
