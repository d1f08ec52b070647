//! The battle options: where seed 001 is vague and reasonable referees differ, the GM picks the
//! reading when the fight is set up (docs/rulesets/zone-rpg.md "Herald's readings"). The
//! defaults are the readings Herald takes when the GM says nothing.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// When a save passes. seed 001 "Reacting to an attack": the bandit "rolls a 2 on a d20, lower
/// than their AGI, so the attack misses": a pass is a roll lower than the value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgSavePasses)]
#[serde(rename_all = "snake_case")]
pub enum SavePasses {
    /// A d20 roll lower than the value passes (the seed's own words; the default).
    #[default]
    Under,
    /// A d20 roll lower than or equal to the value passes.
    UnderOrEqual,
}

impl SavePasses {
    /// Whether `roll` passes a save against `value`.
    pub fn passes(self, roll: u32, value: u32) -> bool {
        match self {
            Self::Under => roll < value,
            Self::UnderOrEqual => roll <= value,
        }
    }
}

/// What impaired damage is. The seed uses the word (unarmed attacks, holding back, riders)
/// without defining it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgImpairedDamage)]
#[serde(rename_all = "snake_case")]
pub enum ImpairedDamage {
    /// Impaired damage is rolled on a d4 whatever the weapon ("Unarmed attacks inflict d4
    /// impaired damage"; the default).
    #[default]
    D4,
    /// Impaired damage rolls each damage die twice and keeps the lower.
    LowerOfTwo,
}

/// When damage is critical and incapacitates. seed 001 "Attacking": a bandit taking 4 of his 8
/// health is incapacitated; seed 001 "Reacting to an attack": 4 damage "is enough to inflict
/// critical damage and incapacitate" the bandit leader.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgCriticalDamage)]
#[serde(rename_all = "snake_case")]
pub enum CriticalDamage {
    /// A single hit taking at least half the character's maximum health is critical (the
    /// default: being worn down to half health by small hits is what morale checks are for).
    #[default]
    HalfMaximumInOneHit,
    /// Any hit that leaves the character at half their maximum health or less is critical.
    HalfHealthOrLess,
}

/// Who makes morale checks. seed 001 "Morale" says "groups" and "characters fighting alone"
/// without excepting the players' characters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgMoraleFor)]
#[serde(rename_all = "snake_case")]
pub enum MoraleFor {
    /// Every character (the seed's words; the default).
    #[default]
    AllCharacters,
    /// Only characters the GM controls; players decide their own characters' courage.
    GmCharacters,
}

/// The durability roll made after a fight for used weapons and armour (seed 001 "Combat gear
/// degradation" names the roll without its die).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgDurability)]
#[serde(deny_unknown_fields)]
pub struct Durability {
    /// The die rolled for each item (default 6).
    #[serde(default = "six")]
    pub die: u32,
    /// The item fails on this face or lower (default 1): an intact item becomes damaged, a
    /// damaged one is destroyed.
    #[serde(default = "one")]
    pub fails_at_or_below: u32,
}

fn six() -> u32 {
    6
}

fn one() -> u32 {
    1
}

impl Default for Durability {
    fn default() -> Self {
        Self { die: six(), fails_at_or_below: one() }
    }
}

/// The readings a fight is played by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgOptions)]
#[serde(deny_unknown_fields)]
pub struct ZoneRpgOptions {
    /// When a save passes.
    #[serde(default)]
    pub save_passes: SavePasses,
    /// What impaired damage is.
    #[serde(default)]
    pub impaired: ImpairedDamage,
    /// When damage is critical.
    #[serde(default)]
    pub critical_damage: CriticalDamage,
    /// Who makes morale checks.
    #[serde(default)]
    pub morale_for: MoraleFor,
    /// The durability roll after the fight.
    #[serde(default)]
    pub durability: Durability,
}
