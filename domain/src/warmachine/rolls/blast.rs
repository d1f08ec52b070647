//! Area-of-effect direct hits and blast damage (seed 000 "Weapon Statistics").

use super::*;

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
