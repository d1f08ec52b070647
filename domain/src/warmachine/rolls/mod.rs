//! Warmachine's dice: attack rolls, damage rolls, d3 and halving, blasts, and the damage of
//! unintentional movement (seed 000 "Dice and Rounding", "Additional Dice and Boosted Rolls",
//! "Weapon Statistics", "Aim", "Slammed", "Thrown", "Falling").
//!
//! Every function here is pure: it takes stats as plain numbers (so it does not depend on the
//! model types), draws only from the [`DiceTape`] it is given through [`DiceExpr::roll`], and
//! returns a record holding each [`RollOutcome`] (every draw with its purpose, such as
//! `"melee attack roll, die 1"`), the totals, what they mean and the rule applied. Geometry
//! (who is in an AOE, how far a model fell, what a slammed model contacted) is an input.
//!
//! Extra dice are declared before rolling as [`RollOptions`]: additional dice, one per distinct
//! rule, and at most one boost (seed 000 "Additional Dice and Boosted Rolls"); the options are
//! checked before anything is drawn, so a refused roll consumes no dice.

use serde::{Deserialize, Serialize};

use crate::dice::expr::ADDITIONAL_DICE_RULE;
use crate::dice::{DiceExpr, DiceTape, RollOptions, RollOutcome};
use crate::RuleError;

/// seed 000 "Dice and Rounding".
pub const DICE_AND_ROUNDING_RULE: &str = "seed 000 \"Dice and Rounding\"";
/// seed 000 "Additional Dice and Boosted Rolls" (the same text the dice module cites).
pub const BOOSTED_ROLLS_RULE: &str = ADDITIONAL_DICE_RULE;
/// seed 000 "Model Statistics" (MAT, RAT, DEF, ARM).
pub const MODEL_STATISTICS_RULE: &str = "seed 000 \"Model Statistics\"";
/// seed 000 "Weapon Statistics" (RNG, ROF, AOE, POW).
pub const WEAPON_STATISTICS_RULE: &str = "seed 000 \"Weapon Statistics\"";
/// seed 000 "Aim" (in "Movement").
pub const AIM_RULE: &str = "seed 000 \"Aim\"";
/// seed 000 "Charge" (in "Movement").
pub const CHARGE_RULE: &str = "seed 000 \"Charge\"";
/// seed 000 "Slammed" (in "Unintentional Movement").
pub const SLAMMED_RULE: &str = "seed 000 \"Slammed\"";
/// seed 000 "Thrown" (in "Unintentional Movement").
pub const THROWN_RULE: &str = "seed 000 \"Thrown\"";
/// seed 000 "Falling".
pub const FALLING_RULE: &str = "seed 000 \"Falling\"";

/// The bonus an aiming model gets on every ranged attack roll (seed 000 "Aim").
pub const AIM_BONUS: u32 = 2;
/// The POW of the damage roll of a fall of up to 2" (seed 000 "Falling").
pub const FALL_POW: u32 = 12;
/// The smallest drop, in inches, that makes a model fall: "at least 1 full inch lower".
pub const MIN_FALL_INCHES: f64 = 1.0;
/// The base diameter, in millimetres, from which a base counts as large (30 mm small, 40 mm
/// medium, 50 mm large). Used by seed 000 "Thrown": "A large base model does not suffer
/// collateral damage and is not knocked down."
pub const LARGE_BASE_MM: u32 = 50;
/// The longest fall the service accepts, in inches (a service cap keeping the number of fall
/// dice bounded; no table is this tall).
pub const MAX_FALL_INCHES: f64 = 1000.0;

mod attack;
mod blast;
mod damage;
mod fall;
mod slam;

pub use attack::*;
pub use blast::*;
pub use damage::*;
pub use fall::*;
pub use slam::*;

/// `{dice}d6` plus each non-zero constant (`2d6+7+2`).
fn d6_expr(dice: u32, constants: &[u32]) -> Result<DiceExpr, RuleError> {
    let mut text = format!("{dice}d6");
    for constant in constants.iter().filter(|constant| **constant > 0) {
        text.push_str(&format!("+{constant}"));
    }
    Ok(DiceExpr::parse(&text)?)
}

/// `{dice}d6 + POW` against ARM.
fn dice_damage_roll(
    tape: &mut DiceTape,
    purpose: &str,
    dice: u32,
    pow: u32,
    target_arm: u32,
    options: &RollOptions,
    rule: &str,
) -> Result<DamageRoll, RuleError> {
    let expr = d6_expr(dice, &[pow])?;
    let roll = expr.roll(tape, purpose, options)?;
    let total = roll.total;
    let mut rule = rule.to_string();
    if options.extra_dice() > 0 && rule != BOOSTED_ROLLS_RULE {
        rule.push_str("; ");
        rule.push_str(BOOSTED_ROLLS_RULE);
    }
    Ok(DamageRoll { pow, target_arm, roll, total, damage: damage_points(total, target_arm), rule })
}
