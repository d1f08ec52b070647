//! Named special rules as data: a name and the generic mechanics seed 000 defines for them.
//!
//! What is modelled is what the seed gives a meaning to: additional dice ("Additional Dice and
//! Boosted Rolls"), the option to boost, the four movement restrictions ("Movement
//! Restrictions"), triggered effects ("Triggers"), "any time" use ("Use of Any Time Special
//! Rules") and end-of-activation advances ("End of activation Movement"). Specific spells, feats,
//! animi and the text of individual special rules are not modelled: a rule whose effect is not
//! one of these mechanics is kept by name only, for the referee to adjudicate.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Which roll a mechanic applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RollKind {
    /// 2d6 + MAT.
    MeleeAttack,
    /// 2d6 + RAT.
    RangedAttack,
    /// 2d6 + AAT.
    ArcaneAttack,
    /// A damage roll.
    Damage,
}

/// The four movement restrictions (seed 000 "Movement Restrictions"). In all of them the model
/// may still forfeit its movement or not move at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MovementRestriction {
    /// Any path along which the distance to the other model keeps decreasing.
    Toward,
    /// Directly toward the other model.
    DirectlyToward,
    /// Any path along which the distance to the other model keeps increasing.
    Away,
    /// The most direct path away.
    DirectlyAway,
}

/// When a triggered effect's condition is checked (seed 000 "Triggers").
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind", content = "text")]
pub enum TriggerCondition {
    /// An attack hits.
    AttackHit,
    /// "After the attack is resolved": active and inactive players stay as during the attack.
    AfterAttackResolved,
    /// The model's activation ends.
    EndOfActivation,
    /// Any other condition, described for the referee.
    Other(String),
}

/// One mechanic a special rule provides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Mechanic {
    /// One additional die on a roll; dice from the same rule do not stack.
    AdditionalDie {
        /// The roll.
        roll: RollKind,
    },
    /// The option to boost a roll (declared before rolling; once per roll).
    Boost {
        /// The roll.
        roll: RollKind,
    },
    /// A restriction on the model's movement relative to another model.
    MovementRestriction {
        /// Which restriction.
        restriction: MovementRestriction,
    },
    /// A triggered effect. When `optional`, the player may skip the optional part and the
    /// trigger still counts as resolved.
    Trigger {
        /// The condition.
        condition: TriggerCondition,
        /// Whether the effect has an optional part.
        optional: bool,
    },
    /// Usable at any time during the activation: not while moving, attacking or resolving
    /// another trigger, and not after running.
    AnyTime,
    /// An upkeep spell: used with a target, it stays in play while its caster pays 1 focus or
    /// fury in each control phase (seed 000 "Control Phase" step 5).
    UpkeepSpell,
    /// Advance up to this many inches at the end of the activation; only one such rule applies.
    EndOfActivationAdvance {
        /// Inches.
        inches: f64,
    },
}

/// A named special rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialRule {
    /// The rule's name as printed; rules are told apart by name.
    pub name: String,
    /// The mechanics herald understands; empty for rules kept by name only.
    #[serde(default)]
    pub mechanics: Vec<Mechanic>,
}

impl SpecialRule {
    /// A rule with no modelled mechanics.
    pub fn named(name: impl Into<String>) -> Self {
        Self { name: name.into(), mechanics: Vec::new() }
    }

    /// A rule with mechanics.
    pub fn with(name: impl Into<String>, mechanics: Vec<Mechanic>) -> Self {
        Self { name: name.into(), mechanics }
    }
}

/// Additional dice the `rules` give a `roll`: one per distinct rule, because "a die roll can
/// include multiple additional dice as long as each additional die comes from a different rule"
/// (seed 000 "Additional Dice and Boosted Rolls").
pub fn additional_dice(rules: &[SpecialRule], roll: RollKind) -> u8 {
    let granting: BTreeSet<&str> = rules
        .iter()
        .filter(|rule| rule.mechanics.contains(&Mechanic::AdditionalDie { roll }))
        .map(|rule| rule.name.as_str())
        .collect();
    u8::try_from(granting.len()).unwrap_or(u8::MAX)
}

/// Whether any of the `rules` lets the model boost a `roll`.
pub fn may_boost(rules: &[SpecialRule], roll: RollKind) -> bool {
    rules.iter().any(|rule| rule.mechanics.contains(&Mechanic::Boost { roll }))
}
