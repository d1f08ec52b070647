//! Falling damage (seed 000 "Falling").

use super::*;

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
