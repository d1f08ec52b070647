//! Profile validation: a card that breaks seed 000's definitions is refused with a stable
//! `warmachine.model.<rule>` code.

use super::{DamageCapacity, Mechanic, ModelProfile, ModelType, SpecialRule, Weapon, WeaponKind, WeaponRange};
use crate::RuleError;

const STATS: &str = "seed 000 \"Model Statistics\"";
const WEAPONS: &str = "seed 000 \"Weapon Statistics\"";
const TYPES: &str = "seed 000 \"Model Types, Stats, and Damage Capacity\"";

fn fail(code: &str, message: String, rule: &str) -> Result<(), RuleError> {
    Err(RuleError::new(format!("warmachine.model.{code}"), message, rule))
}

/// Requires a stat exactly when the type has it.
fn stat_matches(name: &str, stat: Option<u8>, required: bool, profile: &ModelProfile) -> Result<(), RuleError> {
    let kind = format!("{:?}", profile.model_type).to_lowercase();
    match (stat.is_some(), required) {
        (false, true) => fail(&format!("{name}_missing"), format!("a {kind} needs {}", name.to_uppercase()), STATS),
        (true, false) => {
            fail(&format!("{name}_not_allowed"), format!("a {kind} has no {} stat", name.to_uppercase()), STATS)
        }
        _ => Ok(()),
    }
}

impl ModelProfile {
    /// Checks the card against the seed: ARC and CTRL for warcasters and warlocks only, FURY and
    /// THR for warbeasts only, a damage grid for warjacks only, weapon bars that make sense.
    pub fn validate(&self) -> Result<(), RuleError> {
        let rules = self.common_rules();
        let caster = rules.focus_manipulation || rules.fury_manipulation;
        // ARC: "Only models that cast spells using focus or fury points ... have an ARC stat";
        // warjacks and warbeasts use their controller's, so they must not have one.
        if caster || matches!(self.model_type, ModelType::Warjack | ModelType::Warbeast) {
            stat_matches("arc", self.stats.arc, caster, self)?;
        }
        stat_matches("ctrl", self.stats.ctrl, rules.controls_battlegroup, self)?;
        stat_matches("fury", self.stats.fury, rules.forceable, self)?;
        stat_matches("thr", self.stats.thr, rules.forceable, self)?;
        match (&self.damage, self.model_type) {
            (DamageCapacity::Grid { grid }, ModelType::Warjack) => grid.validate()?,
            (DamageCapacity::Grid { .. }, _) => {
                return fail("grid_not_warjack", "only warjacks have a damage grid".into(), TYPES)
            }
            (DamageCapacity::Boxes { .. }, ModelType::Warjack) => {
                return fail("warjack_needs_grid", "a warjack's damage is a grid of system boxes".into(), TYPES)
            }
            (DamageCapacity::Boxes { boxes: 0 }, _) => {
                return fail("no_damage_boxes", "a model needs at least one damage box".into(), TYPES)
            }
            (DamageCapacity::Boxes { .. }, _) => {}
        }
        for weapon in &self.weapons {
            self.validate_weapon(weapon)?;
        }
        for rule in self.special_rules.iter().chain(self.weapons.iter().flat_map(|w| w.special_rules.iter())) {
            validate_rule(rule)?;
        }
        Ok(())
    }

    fn validate_weapon(&self, weapon: &Weapon) -> Result<(), RuleError> {
        let name = &weapon.name;
        match weapon.rng {
            WeaponRange::Inches(inches) | WeaponRange::Spray(inches) if !(inches.is_finite() && inches > 0.0) => {
                return fail("range_not_positive", format!("{name}: RNG must be more than 0\""), WEAPONS)
            }
            WeaponRange::Spray(_) if weapon.kind == WeaponKind::Melee => {
                return fail("melee_spray", format!("{name}: only ranged weapons spray"), WEAPONS)
            }
            WeaponRange::Control if self.stats.ctrl.is_none() => {
                return fail("control_range_without_ctrl", format!("{name}: RNG CTRL needs a CTRL stat"), WEAPONS)
            }
            _ => {}
        }
        match (weapon.kind, weapon.rof) {
            (WeaponKind::Melee, Some(_)) => {
                return fail("melee_rate_of_fire", format!("{name}: melee weapons have no ROF"), WEAPONS)
            }
            (WeaponKind::Ranged, None | Some(0)) => {
                return fail("ranged_needs_rate_of_fire", format!("{name}: a ranged weapon needs ROF 1+"), WEAPONS)
            }
            _ => {}
        }
        if weapon.aoe.is_some() != weapon.blast_pow.is_some() {
            return fail("blast_pow_without_aoe", format!("{name}: blast POW goes with an AOE"), WEAPONS);
        }
        if weapon.location.is_some() && self.model_type != ModelType::Warjack {
            return fail("location_not_warjack", format!("{name}: only warjack weapons have L/R/H/S"), WEAPONS);
        }
        Ok(())
    }
}

/// The longest end-of-activation advance a rule may grant, in inches (a service limit).
pub const MAX_RULE_ADVANCE: f64 = 100.0;

/// A rule's name and numbers must make sense: an end-of-activation advance is a distance
/// (seed 000 "End of activation Movement").
fn validate_rule(rule: &SpecialRule) -> Result<(), RuleError> {
    if rule.name.trim().is_empty() || rule.name.chars().count() > 100 || rule.name.chars().any(char::is_control) {
        return fail("rule_name", "a special rule needs a name of 1 to 100 printable characters".into(), STATS);
    }
    for mechanic in &rule.mechanics {
        if let Mechanic::EndOfActivationAdvance { inches } = mechanic {
            if !(inches.is_finite() && *inches > 0.0 && *inches <= MAX_RULE_ADVANCE) {
                return fail(
                    "advance_distance",
                    format!(
                        "{}: an end-of-activation advance is more than 0 and at most {MAX_RULE_ADVANCE} inches",
                        rule.name
                    ),
                    "seed 000 \"End of activation Movement\"",
                );
            }
        }
    }
    Ok(())
}
