//! From successes to damage to effects (seed 004 "Damage", "Physical Damage", "Mental Damage").
//!
//! A weapon's damage code turns the final successes into damage; damage against the target's
//! total rank (real plus bonus) decides whether the hit is a plain State or Rank loss, a Trauma
//! (more than the rank), a Killing Blow (more than twice) or Massive damage (more than three
//! times, or any hit of a Massive weapon).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::figure::Weight;

/// Damage `successes` do with a weapon of `weight`: Light 1+2d (1, 3, 5 … successes), Medium
/// 1+1d, Heavy 2+1d, Large 3+1d, Huge 4+1d. A Massive hit is measured by [`Severity`], not
/// points; it counts as its successes plus four here, more than any other code.
pub fn damage(weight: Weight, successes: u32) -> u32 {
    if successes == 0 {
        return 0;
    }
    match weight {
        Weight::Light => successes.div_ceil(2),
        Weight::Medium => successes,
        Weight::Heavy => successes + 1,
        Weight::Large => successes + 2,
        Weight::Huge => successes + 3,
        Weight::Massive => successes + 4,
    }
}

/// How bad one hit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsSeverity)]
pub struct Severity {
    /// More damage than the total rank: a Trauma wound (mentally, Panicked).
    pub trauma: bool,
    /// More than twice the total rank, or Massive: a Killing Blow (mentally, Crushed).
    pub killing_blow: bool,
    /// Massive damage: more than three times the total rank, or a Massive weapon.
    pub massive: bool,
}

/// The severity of `damage` against `total_rank`; `massive_weapon` makes any hit Massive.
pub fn severity(damage: u32, total_rank: u32, massive_weapon: bool) -> Severity {
    let massive = damage > 0 && (massive_weapon || damage > total_rank.saturating_mul(3));
    Severity {
        trauma: damage > total_rank || massive,
        killing_blow: damage > total_rank.saturating_mul(2) || massive,
        massive,
    }
}

/// Advantage in numbers in a melee group (seed 004 "Modifiers ToHit").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsAdvantage)]
pub enum Advantage {
    /// As many or fewer friends than enemies.
    None,
    /// More friends than enemies InContact in the group.
    Minor,
    /// Twice as many friends.
    Major,
}

/// The advantage of a side with `friends` (the attacker included) against `enemies` in a group.
pub fn advantage(friends: u32, enemies: u32) -> Advantage {
    if enemies > 0 && friends >= enemies.saturating_mul(2) {
        Advantage::Major
    } else if friends > enemies {
        Advantage::Minor
    } else {
        Advantage::None
    }
}

/// What extra successes can buy (seed 004 "Special Results"), each at the battle's
/// `special_result_cost`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsSpecialResult)]
pub enum SpecialResult {
    /// +2 damage.
    ExtraDamage,
    /// The target makes a DEX roll or drops the weapon it holds.
    Disarm,
    /// The target loses an action die (its lowest).
    LoseActionDie,
    /// The target is Stunned (if not already).
    Stun,
    /// The target makes a DEX roll or its weapon breaks.
    BreakWeapon,
    /// One exposure die is placed on the target for the next attacker.
    Expose,
    /// The target's armour is reduced by one.
    RemoveArmour,
    /// The target is moved out of contact (Alone in its zone).
    MoveOutOfContact,
    /// A reach-armed target attacking from Alone is drawn into contact with the attacker.
    DrawIntoContact,
    /// The target is knocked down (prone).
    KnockDown,
    /// The target is hamstrung: every move needs a DEX roll or it falls prone.
    Hamstring,
    /// One die is removed from each of the target's defence pools.
    ReduceDefencePool,
}

/// The special tactics (seed 004 "Special Tactics").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsTactic)]
pub enum Tactic {
    /// One attack.
    #[default]
    Normal,
    /// "no defence, combine both attacks into one": two attacks' cost, double the dice, no defence
    /// until the attacker's next action.
    AllOut,
    /// "two attacks, one after the other": two attacks' cost, only Dodge until the next action.
    DoubleStrike,
    /// "attack plus possible second attack if conditions are right": if the first attack puts its
    /// target out of action, a second attack at another opponent of the group follows at no cost.
    FollowOn,
}

/// A hold's damage roll: the holder's grappling weapon, counted at the hold's level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageCode {
    /// The weapon whose dice are rolled.
    pub weapon: String,
    /// The class the successes are counted at.
    pub level: Weight,
}
