//! Attack rolls: 2d6 + MAT or RAT (+ aim) against DEF, RNG and ROF checks, POW modifiers
//! (seed 000 "Dice and Rounding", "Model Statistics", "Weapon Statistics", "Aim").

use super::*;

/// Melee or ranged: which stat the attack roll adds (seed 000 "Model Statistics").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// A melee attack roll: 2d6 + MAT.
    Melee,
    /// A ranged attack roll: 2d6 + RAT (+2 when aiming and not engaged).
    Ranged,
}

impl AttackKind {
    fn purpose(self) -> &'static str {
        match self {
            AttackKind::Melee => "melee attack roll",
            AttackKind::Ranged => "ranged attack roll",
        }
    }
}

/// What an attack roll needs, as plain numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AttackSpec {
    /// Melee (adds MAT) or ranged (adds RAT).
    pub kind: AttackKind,
    /// The attacker's current MAT for a melee attack, RAT for a ranged attack.
    pub attack_stat: u32,
    /// The target's current DEF.
    pub target_def: u32,
    /// The weapon's current RNG in inches, after every effect on it. At 0 or less the weapon
    /// "cannot be used to make attacks" (seed 000 "Weapon Statistics").
    pub weapon_rng: f64,
    /// The attacker used its normal movement to aim this activation (seed 000 "Aim").
    #[serde(default)]
    pub aiming: bool,
    /// The attacker is engaged: "Models do not gain this bonus while they are engaged".
    #[serde(default)]
    pub engaged: bool,
}

/// A rolled attack: 2d6 + MAT or RAT (+ aim) against DEF.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AttackRoll {
    /// Melee or ranged.
    pub kind: AttackKind,
    /// The MAT or RAT added.
    pub attack_stat: u32,
    /// The aim bonus added: 2 for an aiming, unengaged model's ranged attack, otherwise 0.
    pub aim_bonus: u32,
    /// The target's DEF.
    pub target_def: u32,
    /// The dice, with the additional and boost dice declared before rolling.
    pub roll: RollOutcome,
    /// Dice plus stat plus aim bonus.
    pub total: i64,
    /// "An attack roll must be equal to or greater than the target model's DEF to score a hit".
    pub hit: bool,
    /// The rules applied.
    pub rule: String,
}

/// The aim bonus an attack gets (seed 000 "Aim"): +2 to ranged attack rolls of an aiming model,
/// none while it is engaged, none on melee attack rolls (the rule names ranged attack rolls only).
pub fn aim_bonus(kind: AttackKind, aiming: bool, engaged: bool) -> u32 {
    if kind == AttackKind::Ranged && aiming && !engaged {
        AIM_BONUS
    } else {
        0
    }
}

/// Refuse a weapon whose RNG was reduced to 0 or less (seed 000 "Weapon Statistics": "If a
/// weapon's RNG is reduced to 0 or less by some effect, the weapon cannot be used to make
/// attacks"). A RNG that is not a number is refused too.
pub fn check_weapon_range(weapon_rng: f64) -> Result<(), RuleError> {
    if weapon_rng > 0.0 {
        Ok(())
    } else {
        Err(RuleError::new(
            "warmachine.attack.range_zero",
            "this weapon's RNG has been reduced to 0 or less, so it cannot be used to make attacks",
            WEAPON_STATISTICS_RULE,
        ))
    }
}

/// Roll an attack (seed 000 "Dice and Rounding": "melee attack rolls are described as 2d6 +
/// MAT"; "Model Statistics": RAT for ranged attack rolls, a hit when the roll is "equal to or
/// greater than the target model's DEF"; "Aim"; "Weapon Statistics": RNG 0 or less cannot attack;
/// "Additional Dice and Boosted Rolls": `options`).
///
/// Draws are named `"melee attack roll, die 1"` / `"ranged attack roll, boost die"`.
pub fn attack_roll(tape: &mut DiceTape, spec: &AttackSpec, options: &RollOptions) -> Result<AttackRoll, RuleError> {
    check_weapon_range(spec.weapon_rng)?;
    let bonus = aim_bonus(spec.kind, spec.aiming, spec.engaged);
    let expr = d6_expr(2, &[spec.attack_stat, bonus])?;
    let roll = expr.roll(tape, spec.kind.purpose(), options)?;
    let total = roll.total;
    let mut rule = format!("{DICE_AND_ROUNDING_RULE}; {MODEL_STATISTICS_RULE}");
    if bonus > 0 {
        rule.push_str("; ");
        rule.push_str(AIM_RULE);
    }
    if options.extra_dice() > 0 {
        rule.push_str("; ");
        rule.push_str(BOOSTED_ROLLS_RULE);
    }
    Ok(AttackRoll {
        kind: spec.kind,
        attack_stat: spec.attack_stat,
        aim_bonus: bonus,
        target_def: spec.target_def,
        roll,
        total,
        hit: total >= i64::from(spec.target_def),
        rule,
    })
}

/// Check an initial ranged attack against the weapon's ROF (seed 000 "Weapon Statistics": "the
/// number of initial attacks a model can make with this ranged weapon during its activation").
///
/// `made` is how many initial attacks the weapon already made this activation; the answer is how
/// many remain after this one.
pub fn check_rate_of_fire(rof: u32, made: u32) -> Result<u32, RuleError> {
    if made < rof {
        Ok(rof - made - 1)
    } else {
        Err(RuleError::new(
            "warmachine.attack.rate_of_fire",
            format!("this weapon has ROF {rof} and has made all {made} of its initial attacks this activation"),
            WEAPON_STATISTICS_RULE,
        ))
    }
}

/// A weapon's POW after modifiers: "A weapon's power can never be reduced to less than 0"
/// (seed 000 "Weapon Statistics").
pub fn effective_pow(base: u32, modifier: i64) -> u32 {
    let pow = i64::from(base).saturating_add(modifier).max(0);
    u32::try_from(pow).unwrap_or(u32::MAX)
}
