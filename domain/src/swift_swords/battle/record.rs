//! What an attack's resolution records: every die and every number that turned the roll into
//! hits, so the log explains itself and evolve recomputes nothing.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::pending::AttackPurpose;
use crate::swift_swords::{
    damage::{Advantage, Severity, SpecialResult},
    defence::{BlockUse, DodgeUse},
    rolls::PoolRoll,
};

/// Dice taken off an attack, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsDicePenalty)]
pub struct DicePenalty {
    /// Why (`hard light cover`, `range 3 zones`, `fracture (right arm)`).
    pub reason: String,
    /// Dice.
    pub dice: u32,
}

/// How an attack's dice were counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsDiceBreakdown)]
pub struct DiceBreakdown {
    /// The weapon's dice.
    pub weapon: u32,
    /// A formation's bonus dice.
    pub formation: u32,
    /// Advantage in numbers InContact.
    pub advantage: Advantage,
    /// Dice it gave.
    pub advantage_dice: u32,
    /// Exposure dice picked up from in front of the target.
    pub exposures_picked: u32,
    /// Effort (a 1 spent).
    pub effort: u32,
    /// Dice released from the action pool.
    pub pool: u32,
    /// An all-out attack's second attack combined into this one.
    pub all_out: u32,
    /// Dice taken away.
    pub penalties: Vec<DicePenalty>,
    /// Dice before any Dodge.
    pub total: u32,
    /// Dice the Dodge removed.
    pub dodged: u32,
    /// Dice rolled.
    pub rolled: u32,
    /// Superiority bonuses, by reason (`target fumbled`, `light weapon InClose`).
    pub superiority: Vec<String>,
}

/// A Parry against one attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsParryUse)]
pub struct ParryUse {
    /// The parry roll.
    pub roll: PoolRoll,
    /// Missed attack dice turned into exposures.
    pub converted: u32,
}

/// One attack, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsAttackRecord)]
pub struct AttackRecord {
    /// The attack's number.
    pub attack: u32,
    /// Who attacked.
    pub attacker: String,
    /// Who was attacked.
    pub target: String,
    /// With what.
    pub weapon: String,
    /// What for.
    pub purpose: AttackPurpose,
    /// The dice.
    pub dice: DiceBreakdown,
    /// The target's Dodge pool at work.
    pub dodge: Option<DodgeUse>,
    /// The roll (absent when no die was left to roll, or the target was defeated without one).
    pub roll: Option<PoolRoll>,
    /// More 1s than successes: the attacker is Fumbled.
    pub fumble: bool,
    /// 1s left in front of the attacker as exposures.
    pub exposures: u32,
    /// The target's Parry.
    pub parry: Option<ParryUse>,
    /// The target's Block pool at work.
    pub block: Option<BlockUse>,
    /// Successes the target's passive armour stopped.
    pub armour: u32,
    /// Successes that hit.
    pub hits: u32,
    /// Special results bought with extra successes.
    pub special_results: Vec<SpecialResult>,
    /// Damage inflicted.
    pub damage: u32,
    /// How bad it is against the target's total rank.
    pub severity: Option<Severity>,
    /// A level 0 target: defeated by the mere effort, no roll.
    pub level_zero: bool,
}
