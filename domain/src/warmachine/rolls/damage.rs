//! Damage rolls against ARM, the charge attack's automatic boost, per-model rolls, d3 and
//! halving (seed 000 "Model Statistics", "Charge", "Additional Dice and Boosted Rolls",
//! "Dice and Rounding").

use super::*;

/// A rolled damage roll: 2d6 + POW against ARM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DamageRoll {
    /// The POW added (never below 0).
    pub pow: u32,
    /// The damaged model's ARM.
    pub target_arm: u32,
    /// The dice, with the additional and boost dice declared before rolling.
    pub roll: RollOutcome,
    /// Dice plus POW.
    pub total: i64,
    /// Damage points: "1 damage point for every point by which a damage roll exceeds its ARM",
    /// 0 when the roll does not exceed it.
    pub damage: u32,
    /// The rules applied.
    pub rule: String,
}

/// Damage points dealt by a damage roll `total` against `arm` (seed 000 "Model Statistics").
pub fn damage_points(total: i64, arm: u32) -> u32 {
    let over = total.saturating_sub(i64::from(arm)).max(0);
    u32::try_from(over).unwrap_or(u32::MAX)
}

/// Roll damage: 2d6 + POW against ARM (seed 000 "Model Statistics" ARM, "Weapon Statistics"
/// POW, "Additional Dice and Boosted Rolls" for `options`). Draws are named after `purpose`
/// (`"damage roll, die 1"`).
pub fn damage_roll(
    tape: &mut DiceTape,
    purpose: &str,
    pow: u32,
    target_arm: u32,
    options: &RollOptions,
) -> Result<DamageRoll, RuleError> {
    dice_damage_roll(tape, purpose, 2, pow, target_arm, options, MODEL_STATISTICS_RULE)
}

/// The options for the damage roll of a charge attack that hits (seed 000 "Charge": "If a
/// charged attack hits, the damage roll is automatically boosted"; "Additional Dice and Boosted
/// Rolls" EXAMPLE: it "cannot spend focus to boost the damage roll again", but "a model that
/// receives an additional die ... can still also boost that roll").
///
/// `requested` are the options the player declared; asking to boost as well is refused.
pub fn charge_damage_options(requested: &RollOptions) -> Result<RollOptions, RuleError> {
    if requested.boosted {
        return Err(RuleError::new(
            "warmachine.damage.charge_already_boosted",
            "the damage roll of a charge attack that hits is already boosted, so it cannot be boosted again",
            BOOSTED_ROLLS_RULE,
        ));
    }
    Ok(RollOptions { auto_boosted: true, ..requested.clone() })
}

/// One model a damage roll is made against, with the extra dice declared for its roll alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DamageTarget {
    /// The model's id, for the record.
    pub model: String,
    /// Its current ARM.
    pub arm: u32,
    /// Extra dice for the roll against this model only: "When an attack affects several models,
    /// the attack and damage rolls against each individual model must be boosted separately."
    #[serde(default)]
    pub options: RollOptions,
}

/// A damage roll against one named model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ModelDamage {
    /// The model's id.
    pub model: String,
    /// Its damage roll.
    pub damage: DamageRoll,
}

/// One damage roll per model, each with its own options (seed 000 "Additional Dice and Boosted
/// Rolls": rolls against each individual model are boosted separately). Draws are named
/// `"<purpose> against <model>, die 1"`.
pub fn damage_rolls_per_model(
    tape: &mut DiceTape,
    purpose: &str,
    pow: u32,
    targets: &[DamageTarget],
) -> Result<Vec<ModelDamage>, RuleError> {
    // Check every model's options first, so a refused command consumes no dice.
    for target in targets {
        target.options.validate()?;
    }
    targets
        .iter()
        .map(|target| {
            let label = format!("{purpose} against {}", target.model);
            let damage = damage_roll(tape, &label, pow, target.arm, &target.options)?;
            Ok(ModelDamage { model: target.model.clone(), damage })
        })
        .collect()
}

/// Roll a d3 (seed 000 "Dice and Rounding": "roll a d6, divide the result by 2, and round up").
/// The d6 drawn is recorded; the outcome's total is the halved face.
pub fn roll_d3(tape: &mut DiceTape, purpose: &str) -> Result<RollOutcome, RuleError> {
    let expr = DiceExpr::parse("d3")?;
    expr.roll(tape, purpose, &RollOptions::default())
}

/// Half a stat or a die roll, rounded up (seed 000 "Dice and Rounding": "For everything else,
/// always round a fractional result to the next highest whole number").
pub fn halve_stat(value: u32) -> u32 {
    value.div_ceil(2)
}

/// Half a distance, exactly (seed 000 "Dice and Rounding": "For distance measurements, use the
/// actual result after dividing").
pub fn halve_distance(inches: f64) -> f64 {
    inches / 2.0
}
