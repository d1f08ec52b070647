//! A judge's roll: any dice expression, on any stream, for a stated purpose.
//!
//! Rulesets leave some dice to the judge: seed 000 "Dice and Rounding" (a d3 is a d6 halved and
//! rounded up; "for everything else, always round a fractional result to the next highest whole
//! number", distances excepted), seed 003 §5.4.1's sanction rolls, anything a referee settles
//! with a die. The roll is drawn from the stream's own tape like every other die, recorded as
//! [`JudgeRolled`] and checked by replay like any other draw (docs/DICE.md).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{DiceExpr, RollOptions, RollOutcome};
use crate::{Context, RuleError};

/// The rule the checks below enforce.
const JUDGE_ROLL_RULE: &str = "herald: docs/DICE.md \"A judge's roll\"";

/// At most this many characters in a roll's purpose.
pub const MAX_PURPOSE: usize = 200;

/// How a rolled total is halved (seed 000 "Dice and Rounding").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Halving {
    /// Round a fractional half up to the next whole number ("for everything else").
    RoundUp,
    /// Keep the fraction: "for distance measurements, use the actual result after dividing".
    Exact,
}

/// What a judge asks to roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"expression": "2d6+3", "purpose": "sanction: severity 2 on Sai Rei", "halve": null,
    "options": {"additional_dice": [], "boosted": false, "auto_boosted": false}}))]
#[serde(deny_unknown_fields)]
pub struct JudgeRoll {
    /// The dice expression (`d3`, `2d6+3`, `6d6>=5`, `3d6!`, `4d6kh3`; docs/DICE.md).
    #[schema(value_type = String, example = "2d6+3")]
    pub expression: DiceExpr,
    /// What the roll decides, in words (1 to 200 characters); recorded with every draw.
    pub purpose: String,
    /// Halve the total (seed 000 "Dice and Rounding").
    #[serde(default)]
    pub halve: Option<Halving>,
    /// Additional dice and boosts declared before the roll (seed 000 "Additional Dice and
    /// Boosted Rolls").
    #[serde(default)]
    pub options: RollOptions,
}

/// A judge's roll as recorded: the outcome with every draw, and what it was for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct JudgeRolled {
    /// What the roll decides.
    pub purpose: String,
    /// The roll: expression, options, every draw, every die and the total.
    pub roll: RollOutcome,
    /// How the total was halved, if it was.
    pub halve: Option<Halving>,
    /// The result: the total, or the halved total (a whole number unless halved exactly).
    pub result: f64,
    /// The judge who rolled.
    pub by: String,
    /// The tape position after the roll.
    pub next_word: u64,
}

// `result` is a whole number or a half (never NaN), so equality is reflexive.
impl Eq for JudgeRolled {}

impl JudgeRoll {
    /// Roll for a judge: checks the actor and the purpose, then draws from `ctx`'s tape.
    ///
    /// `code_prefix` is the ruleset's error-code namespace (`coalition.battle`), so a refusal reads
    /// like the ruleset's other refusals (`coalition.battle.judge_roll.not_a_judge`). Once the stream's
    /// seed is public (`seed_revealed`) every later die could be predicted, so the roll is refused.
    pub fn roll(&self, ctx: &mut Context, code_prefix: &str, seed_revealed: bool) -> Result<JudgeRolled, RuleError> {
        if !ctx.actor.is_judge() {
            return Err(RuleError::forbidden(
                format!("{code_prefix}.judge_roll.not_a_judge"),
                "only a judge (or an admin) may roll for the judge",
                JUDGE_ROLL_RULE,
            ));
        }
        if seed_revealed {
            return Err(RuleError::new(
                format!("{code_prefix}.judge_roll.seed_revealed"),
                "this stream's seed is public, so any die drawn from it now could be predicted",
                JUDGE_ROLL_RULE,
            ));
        }
        let purpose = self.purpose.trim();
        if purpose.is_empty() || purpose.chars().count() > MAX_PURPOSE {
            return Err(RuleError::new(
                format!("{code_prefix}.judge_roll.purpose"),
                format!("say what the roll is for, in 1 to {MAX_PURPOSE} characters"),
                JUDGE_ROLL_RULE,
            ));
        }
        let roll = self.expression.roll(&mut ctx.dice, purpose, &self.options)?;
        let result = halved(roll.total, self.halve);
        Ok(JudgeRolled {
            purpose: purpose.to_string(),
            halve: self.halve,
            result,
            by: ctx.actor.id.clone(),
            next_word: ctx.dice.next_word(),
            roll,
        })
    }
}

/// `total`, halved as asked (seed 000 "Dice and Rounding").
pub fn halved(total: i64, halve: Option<Halving>) -> f64 {
    // Totals are bounded by the expression caps (well inside f64's exact integers).
    let total = total as f64;
    match halve {
        None => total,
        Some(Halving::RoundUp) => (total / 2.0).ceil(),
        Some(Halving::Exact) => total / 2.0,
    }
}
