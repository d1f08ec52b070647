//! Slam and throw damage with collateral (seed 000 "Slammed", "Thrown", "Beyond the Play Area").

use super::*;

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

    /// What the damage is called in dice purposes and damage records: `"slam"` or `"throw"`, so
    /// a thrown model's damage is never labelled a slam (seed 000 "Thrown").
    pub fn name(self) -> &'static str {
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
