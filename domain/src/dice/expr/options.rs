//! Additional dice and boosted rolls, declared before the roll (seed 000 "Additional Dice and
//! Boosted Rolls").
//!
//! The options are an argument of [`DiceExpr::roll`](super::DiceExpr::roll) and are recorded in
//! the [`RollOutcome`](super::RollOutcome): a boost "must be declared before rolling any dice",
//! and taking it as input (never as a step after the dice are seen) makes a late boost
//! impossible to express rather than merely forbidden.

use serde::{Deserialize, Serialize};

use crate::RuleError;

/// The rule that the checks in this module enforce.
pub const ADDITIONAL_DICE_RULE: &str = "seed 000 \"Additional Dice and Boosted Rolls\"";

/// At most this many additional dice on one roll (a service cap, so a request cannot make the
/// service draw without bound; no rule in the seeds grants nearly as many).
pub const MAX_ADDITIONAL_DICE: usize = 16;

/// At most this many bytes in the name of a rule granting an additional die.
pub const MAX_RULE_NAME: usize = 100;

/// What changes how many dice a roll uses, declared before any die is drawn.
///
/// Extra dice are added to the expression's first dice term and are of its size: "if the model
/// gains an additional die on this attack, it would roll 3d6" (seed 000).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RollOptions {
    /// The rule granting each additional die, one entry per die. "A die roll can include
    /// multiple additional dice as long as each additional die comes from a different rule", so
    /// the same rule twice is refused.
    #[serde(default)]
    pub additional_dice: Vec<String>,
    /// The player boosts the roll: one extra die ("Boosting a roll allows you to roll one extra
    /// die").
    #[serde(default)]
    pub boosted: bool,
    /// A rule already boosts the roll, e.g. the damage roll of a charge attack that hits. Such a
    /// roll gets its boost die, and cannot also be `boosted`: "each attack or damage roll can be
    /// boosted only once".
    #[serde(default)]
    pub auto_boosted: bool,
}

impl RollOptions {
    /// A roll boosted by the player.
    pub fn boosted() -> Self {
        Self { boosted: true, ..Self::default() }
    }

    /// A roll that a rule boosts automatically (a charge attack's damage roll that hits).
    pub fn auto_boosted() -> Self {
        Self { auto_boosted: true, ..Self::default() }
    }

    /// These options with one more additional die granted by `rule`.
    pub fn with_additional_die(mut self, rule: impl Into<String>) -> Self {
        self.additional_dice.push(rule.into());
        self
    }

    /// Whether the roll has a boost die (from the player or from a rule).
    pub fn has_boost(&self) -> bool {
        self.boosted || self.auto_boosted
    }

    /// How many dice the options add to the first dice term.
    pub fn extra_dice(&self) -> usize {
        self.additional_dice.len() + usize::from(self.has_boost())
    }

    /// Check the options against seed 000 "Additional Dice and Boosted Rolls" before anything is
    /// drawn.
    pub fn validate(&self) -> Result<(), RuleError> {
        if self.boosted && self.auto_boosted {
            return Err(RuleError::new(
                "dice.already_boosted",
                "this roll is already boosted and cannot be boosted again: each attack or damage roll can be \
                 boosted only once",
                ADDITIONAL_DICE_RULE,
            ));
        }
        if self.additional_dice.len() > MAX_ADDITIONAL_DICE {
            return Err(RuleError::new(
                "dice.too_many_additional_dice",
                format!("at most {MAX_ADDITIONAL_DICE} additional dice may be added to one roll"),
                "herald: docs/DICE.md \"Additional dice and boosted rolls\"",
            ));
        }
        for (index, rule) in self.additional_dice.iter().enumerate() {
            if rule.trim().is_empty() || rule.len() > MAX_RULE_NAME {
                return Err(RuleError::new(
                    "dice.additional_die_rule_name",
                    format!("an additional die must name the rule granting it, in 1 to {MAX_RULE_NAME} bytes"),
                    ADDITIONAL_DICE_RULE,
                ));
            }
            if self.additional_dice[..index].contains(rule) {
                return Err(RuleError::new(
                    "dice.additional_die_same_rule",
                    format!(
                        "two additional dice come from the same rule \"{rule}\": a roll can include several \
                         additional dice only if each comes from a different rule"
                    ),
                    ADDITIONAL_DICE_RULE,
                ));
            }
        }
        Ok(())
    }
}
