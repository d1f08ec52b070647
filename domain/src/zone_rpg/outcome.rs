//! What the dice decided, as events record it: saves, damage rolls, deviations. Events carry
//! these so that folding the log never rolls and never recomputes.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::dice::Draw;

/// The three save values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgAbility)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// WIT.
    Wit,
    /// AGI.
    Agi,
    /// STR.
    Str,
}

impl Ability {
    /// Its name as the seed writes it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Wit => "WIT",
            Self::Agi => "AGI",
            Self::Str => "STR",
        }
    }
}

/// A save: a d20 against a value, or no roll when a rule decides it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgSave)]
pub struct Save {
    /// Who saves.
    pub character: String,
    /// Which value.
    pub ability: Ability,
    /// The value.
    pub value: u32,
    /// The d20, when one was rolled.
    pub roll: Option<Draw>,
    /// Whether it passed.
    pub passed: bool,
    /// Why no die was rolled, when none was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One damage roll against one character, and what armour made of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgDamageRoll)]
pub struct DamageRoll {
    /// Who inflicts it (a character, or a hazard or fall).
    pub by: String,
    /// Who suffers it.
    pub against: String,
    /// The weapon, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// The die rolled (`d6`; `d4` when impaired).
    pub die: String,
    /// Every draw, in order.
    pub draws: Vec<Draw>,
    /// The face each die counts for (the lower of two when impaired damage rolls twice).
    pub faces: Vec<u32>,
    /// Impaired damage.
    pub impaired: bool,
    /// Sizes the attacker is smaller than the target by (damage halved that many times,
    /// rounded up); 0 otherwise.
    pub halvings: u32,
    /// The damage before armour: the faces summed, then halved.
    pub damage: u32,
    /// Direct damage ignores armour.
    pub direct: bool,
    /// Armour value applied (cover included, never above 3).
    pub armour: u32,
    /// Whether cover added to the armour value.
    pub cover: bool,
    /// Damage suffered after reductions.
    pub suffered: u32,
}

/// Where a missed ranged blast went (seed 001 "Blast attacks").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgDeviation)]
pub struct Deviation {
    /// The neighbouring zones, numbered from 1 in this order.
    pub neighbours: Vec<String>,
    /// The die picking one, when there was more than one.
    pub roll: Option<Draw>,
    /// The zone hit instead; absent when the zone has no neighbour.
    pub zone: Option<String>,
}

/// A target of an attack as declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgAttackedCharacter)]
pub struct Targeted {
    /// The character.
    pub character: String,
    /// Damage dice aimed at it (a larger attacker's dice, possibly distributed).
    pub dice: u32,
    /// Whether it can react (aware, not grabbed, turn or a reaction left, not surprised).
    pub can_react: bool,
}

/// The order in which an attack and its counter hit (seed 001 "Reacting to an attack": "Whoever
/// suffers the most damage, after reductions, is hit first").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgExchange)]
#[serde(rename_all = "snake_case")]
pub enum Exchange {
    /// The attack hits first.
    AttackFirst,
    /// The counter hits first.
    CounterFirst,
    /// Both hit at the same time.
    Together,
}

/// What the durability roll did to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgWear)]
#[serde(rename_all = "snake_case")]
pub enum Wear {
    /// Nothing.
    Intact,
    /// It is now damaged.
    Damaged,
    /// It was damaged and is now destroyed.
    Destroyed,
}

/// Which piece of gear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgGearKind)]
#[serde(rename_all = "snake_case")]
pub enum GearKind {
    /// A weapon.
    Weapon,
    /// A shield.
    Shield,
    /// Armour.
    Armour,
}

/// How a character handled an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgHandling)]
#[serde(rename_all = "snake_case")]
pub enum Handling {
    /// Picked up from the zone (carried, not held).
    PickedUp,
    /// Put down in the zone.
    PutDown,
    /// Taken in hand.
    Equipped,
    /// Stowed.
    Unequipped,
}

/// Why a group or a lone character checks morale (seed 001 "Morale").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgMoraleReason)]
#[serde(rename_all = "snake_case")]
pub enum MoraleReason {
    /// The group was reduced to half or less its original numbers in the past round.
    GroupHalved,
    /// A character fighting alone was reduced to half or less its maximum health in the past
    /// round.
    AloneAtHalfHealth,
}
