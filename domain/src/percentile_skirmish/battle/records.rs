//! What events record besides their own fields: who may declare, what was declared, damage
//! done, random open-combat picks, what a spell did, what expired.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    dice::{Draw, RollOutcome},
    percentile_skirmish::{
        rules::{Chance, Duration, Mitigated, RangeBand},
        spells::Spell,
    },
};

/// A participant's minis that may act in a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishEligible)]
pub struct Eligible {
    /// The participant.
    pub participant: String,
    /// Minis it may declare.
    pub minis: Vec<String>,
    /// Minis that act whether declared or not (a mini under fear runs at its first chance).
    pub must_act: Vec<String>,
}

/// What a participant declared for a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishDeclaration)]
pub struct Declaration {
    /// The participant.
    pub participant: String,
    /// The minis that act, its own choice and those that must.
    pub minis: Vec<String>,
}

/// Damage done to one mini.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishDamageDealt)]
pub struct DamageDealt {
    /// The mini hit.
    pub mini: String,
    /// What hit it ("Longsword of red-knight", "Fireball of blue-mage").
    pub source: String,
    /// The weapon's damage roll (absent for a spell's fixed damage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<RollOutcome>,
    /// Resistances and armour applied.
    pub damage: Mitigated,
    /// Its life points after the hit.
    pub life_left: u32,
    /// Whether the hit killed it.
    pub killed: bool,
}

/// Which kind of attack rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishAttackKind)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// seed 002 "Range attacks".
    Ranged,
    /// seed 002 "Flank attack".
    Flank,
    /// seed 002 "Attack of opportunity".
    Opportunity,
}

/// A d6 rolled for a side that picked its open-combat option at random.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishOptionRoll)]
pub struct OptionRoll {
    /// The mini.
    pub mini: String,
    /// The d6: 1–2 swing, 3–4 thrust, 5–6 parry.
    pub draw: Draw,
}

/// What a spell did to one mini or point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishSpellOutcome)]
pub struct SpellOutcome {
    /// The mini aimed at, if the spell aims at minis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mini: Option<String>,
    /// Inches from where the spell was cast from (the caster, or its familiar).
    pub distance: f64,
    /// The range band of the spell's range (12″ + caster's level).
    pub band: RangeBand,
    /// The chance rolled against, when the spell rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<Chance>,
    /// The percentile die, when the spell rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<Draw>,
    /// Whether it worked here.
    pub success: bool,
    /// How long it lasts here (lasting spells that worked); 0 turns is no effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<Duration>,
    /// Damage it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<DamageDealt>,
    /// Life points it restored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healed: Option<u32>,
}

/// A lasting spell that ran out when a turn ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishExpiry)]
pub struct Expiry {
    /// The mini it was on.
    pub mini: String,
    /// The spell.
    pub spell: Spell,
}
