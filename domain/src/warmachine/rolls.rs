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
            format!("this weapon has ROF {rof} and has already made {made} initial attacks this activation"),
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

/// The result of a direct hit with an area-of-effect weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BlastDamage {
    /// The damage roll against the directly hit target, at the weapon's POW.
    pub direct_hit: ModelDamage,
    /// The POW of blast damage (the number after the `/`).
    pub blast_pow: u32,
    /// One separate blast damage roll for each other model in the AOE, in the order given.
    pub blasts: Vec<ModelDamage>,
    /// The rules applied.
    pub rule: String,
}

/// Resolve the damage of a direct hit with an AOE weapon (seed 000 "Weapon Statistics" AOE and
/// POW: "On an area of effect weapon, the number after the / is the POW of blast damage").
///
/// The target suffers a damage roll at `pow`; every model in `others` (the models within the AOE
/// other than the target, found by the caller's geometry) suffers its own blast damage roll at
/// `blast_pow`. Each roll is separate and takes only its own options: the seed says rolls
/// "against each individual model must be boosted separately", so boosting the direct hit never
/// boosts a blast roll, and a blast roll has extra dice only when the caller passes them because a
/// rule grants them ("If a model has a rule that gives it the option to boost a roll"). The seed
/// has no rule forbidding a boosted blast roll (unlike collateral damage), so none is refused here.
pub fn aoe_direct_hit(
    tape: &mut DiceTape,
    pow: u32,
    blast_pow: u32,
    target: &DamageTarget,
    others: &[DamageTarget],
) -> Result<BlastDamage, RuleError> {
    target.options.validate()?;
    for other in others {
        other.options.validate()?;
    }
    let label = format!("direct hit damage roll against {}", target.model);
    let direct = damage_roll(tape, &label, pow, target.arm, &target.options)?;
    let blasts = damage_rolls_per_model(tape, "blast damage roll", blast_pow, others)?;
    Ok(BlastDamage {
        direct_hit: ModelDamage { model: target.model.clone(), damage: direct },
        blast_pow,
        blasts,
        rule: format!("{WEAPON_STATISTICS_RULE}; {BOOSTED_ROLLS_RULE}"),
    })
}

/// How many dice a fall of `drop_inches` adds to its 2d6 (seed 000 "Falling": "Add an additional
/// die to the damage roll for every additional 2″ the model falls, rounded up"): 0 up to 2",
/// then `ceil((drop - 2) / 2)`. A 5" fall adds 2 (4d6 + 12).
pub fn fall_extra_dice(drop_inches: f64) -> u32 {
    if drop_inches.is_nan() || drop_inches <= 2.0 {
        return 0;
    }
    let extra = ((drop_inches.min(MAX_FALL_INCHES) - 2.0) / 2.0).ceil();
    // Bounded by MAX_FALL_INCHES, so the value fits; the cast saturates regardless.
    extra as u32
}

/// Whether dropping `drop_inches` is a fall: "another surface at least 1 full inch lower".
pub fn is_fall(drop_inches: f64) -> bool {
    drop_inches >= MIN_FALL_INCHES
}

/// A model another model lands on, is slammed or thrown into, found by the caller's geometry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ContactedModel {
    /// The model's id.
    pub model: String,
    /// Its base diameter in millimetres (30 small, 40 medium, 50 large, 120 huge).
    pub base_mm: u32,
    /// Its current ARM.
    pub arm: u32,
}

/// A falling model and what it lands on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FallSpec {
    /// The falling model's id.
    pub model: String,
    /// How far below its starting surface it lands, in inches.
    pub drop_inches: f64,
    /// Its current ARM.
    pub arm: u32,
    /// Its base diameter in millimetres.
    pub base_mm: u32,
    /// Extra dice a rule grants the falling model's damage roll (usually none).
    #[serde(default)]
    pub options: RollOptions,
    /// The models it contacts when it lands.
    #[serde(default)]
    pub contacted: Vec<ContactedModel>,
}

/// The damage of a fall.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FallDamage {
    /// How far the model fell, in inches.
    pub drop_inches: f64,
    /// Dice added for every additional 2" (0 for a fall of up to 2").
    pub fall_dice: u32,
    /// The falling model's damage roll: (2 + fall dice)d6 + 12.
    pub falling: ModelDamage,
    /// The contacted models with an equal or smaller base, each suffering "the same damage roll
    /// as the falling model" (the same dice and POW, rolled for it separately).
    pub contacted: Vec<ModelDamage>,
    /// Contacted models with a larger base: no damage, not knocked down.
    pub unaffected: Vec<String>,
    /// The rule applied.
    pub rule: String,
}

/// Resolve a fall (seed 000 "Falling"). Returns `None` when the drop is less than a full inch,
/// which is not a fall.
///
/// "A fall of up to 2″ causes a POW 12 damage roll. Add an additional die to the damage roll for
/// every additional 2″ the model falls, rounded up": a 2" fall is 2d6 + 12, a 5" fall 4d6 + 12.
/// The fall dice are written into the expression (`4d6+12`), so the falling model's own
/// [`RollOptions`] can still add dice from other rules. A contacted model with an equal or
/// smaller base suffers the same damage roll, made separately against it; one with a larger base
/// "does not suffer damage". All damage from the fall is simultaneous: it is all rolled here and
/// applied together by the caller.
pub fn fall_damage(tape: &mut DiceTape, spec: &FallSpec) -> Result<Option<FallDamage>, RuleError> {
    if spec.drop_inches.is_nan() || spec.drop_inches > MAX_FALL_INCHES {
        return Err(RuleError::new(
            "warmachine.fall.bad_distance",
            format!("a fall must be a distance of at most {MAX_FALL_INCHES} inches"),
            "herald: warmachine rolls",
        ));
    }
    if !is_fall(spec.drop_inches) {
        return Ok(None);
    }
    spec.options.validate()?;
    let fall_dice = fall_extra_dice(spec.drop_inches);
    let dice = 2 + fall_dice;
    let label = format!("falling damage roll against {}", spec.model);
    let falling = dice_damage_roll(tape, &label, dice, FALL_POW, spec.arm, &spec.options, FALLING_RULE)?;
    let mut contacted = Vec::new();
    let mut unaffected = Vec::new();
    for other in &spec.contacted {
        if other.base_mm <= spec.base_mm {
            let label = format!("falling damage roll against contacted {}", other.model);
            let none = RollOptions::default();
            let damage = dice_damage_roll(tape, &label, dice, FALL_POW, other.arm, &none, FALLING_RULE)?;
            contacted.push(ModelDamage { model: other.model.clone(), damage });
        } else {
            unaffected.push(other.model.clone());
        }
    }
    Ok(Some(FallDamage {
        drop_inches: spec.drop_inches,
        fall_dice,
        falling: ModelDamage { model: spec.model.clone(), damage: falling },
        contacted,
        unaffected,
        rule: FALLING_RULE.to_string(),
    }))
}

/// What a slammed or thrown model contacts, found by the caller's geometry. The table edge is
/// not a contact: "The table edge does not count as an obstacle, models do not take additional
/// damage for stopping there" (seed 000 "Beyond the Play Area").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Contact {
    /// An obstacle.
    Obstacle,
    /// An obstruction.
    Obstruction,
    /// Another model.
    Model(ContactedModel),
}

/// Whether slams or throws are resolved: they differ in who suffers collateral damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Displacement {
    /// seed 000 "Slammed".
    Slammed,
    /// seed 000 "Thrown".
    Thrown,
}

impl Displacement {
    fn rule(self) -> &'static str {
        match self {
            Displacement::Slammed => SLAMMED_RULE,
            Displacement::Thrown => THROWN_RULE,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Displacement::Slammed => "slam",
            Displacement::Thrown => "throw",
        }
    }
}

/// A slammed or thrown model and what it contacted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SlamSpec {
    /// Slammed or thrown.
    pub displacement: Displacement,
    /// The moved model's id.
    pub model: String,
    /// Its current ARM.
    pub arm: u32,
    /// Its base diameter in millimetres.
    pub base_mm: u32,
    /// The POW of its damage roll, "determined by the spell or attack that caused" it.
    pub pow: u32,
    /// The POW of collateral damage, determined by the same spell or attack.
    pub collateral_pow: u32,
    /// Extra dice declared for the moved model's damage roll (a boost, if a rule allows one).
    #[serde(default)]
    pub options: RollOptions,
    /// What it contacted: for a slam, the models it moved through and what stopped it; for a
    /// throw, what stopped it and the models it is base to base with or overlaps after moving.
    #[serde(default)]
    pub contacts: Vec<Contact>,
}

/// The damage of a slam or throw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SlamDamage {
    /// Slammed or thrown.
    pub displacement: Displacement,
    /// Whether it contacted an obstacle, an obstruction or a model with an equal or larger base,
    /// which adds a die to its damage roll.
    pub stopped_hard: bool,
    /// The moved model's damage roll.
    pub moved: ModelDamage,
    /// Collateral damage rolls (never boosted), one per contacted model that suffers one; these
    /// models are also knocked down.
    pub collateral: Vec<ModelDamage>,
    /// The rule applied.
    pub rule: String,
}

/// The name recorded for the additional die a hard contact adds.
pub fn contact_die_rule(displacement: Displacement) -> String {
    format!("{} contact", displacement.rule())
}

/// Resolve the damage of a slam or throw (seed 000 "Slammed", "Thrown").
///
/// The moved model suffers a damage roll at `pow`, with "an additional die ... if it contacts an
/// obstacle, obstruction, or a model with an equal or larger base" (recorded as an additional die
/// from [`contact_die_rule`], on top of `options`). Each contacted model with an equal or smaller
/// base suffers a collateral damage roll at `collateral_pow`, which "cannot be boosted"; when
/// thrown, "A large base model does not suffer collateral damage" (base of [`LARGE_BASE_MM`] or
/// more).
pub fn slam_damage(tape: &mut DiceTape, spec: &SlamSpec) -> Result<SlamDamage, RuleError> {
    let stopped_hard = spec.contacts.iter().any(|contact| match contact {
        Contact::Obstacle | Contact::Obstruction => true,
        Contact::Model(other) => other.base_mm >= spec.base_mm,
    });
    let mut options = spec.options.clone();
    if stopped_hard {
        options = options.with_additional_die(contact_die_rule(spec.displacement));
    }
    options.validate()?;
    let rule = spec.displacement.rule();
    let name = spec.displacement.name();
    let label = format!("{name} damage roll against {}", spec.model);
    let moved = dice_damage_roll(tape, &label, 2, spec.pow, spec.arm, &options, rule)?;
    let mut collateral = Vec::new();
    for contact in &spec.contacts {
        let Contact::Model(other) = contact else { continue };
        let exempt = spec.displacement == Displacement::Thrown && other.base_mm >= LARGE_BASE_MM;
        if other.base_mm <= spec.base_mm && !exempt {
            let label = format!("{name} collateral damage roll against {}", other.model);
            let none = RollOptions::default();
            let damage = dice_damage_roll(tape, &label, 2, spec.collateral_pow, other.arm, &none, rule)?;
            collateral.push(ModelDamage { model: other.model.clone(), damage });
        }
    }
    Ok(SlamDamage {
        displacement: spec.displacement,
        stopped_hard,
        moved: ModelDamage { model: spec.model.clone(), damage: moved },
        collateral,
        rule: rule.to_string(),
    })
}

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
