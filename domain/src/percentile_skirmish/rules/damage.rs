//! Damage after resistances and armour (seed 002 "RESISTANCES", "Flank attack", "Lightning
//! bolt", "Fireball").
//!
//! Herald's order: the damage rolled, then resistances (an element resisted does nothing; a
//! resisted non-magic weapon or spell does half), then armour subtracts its protection, never
//! below 0.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::options::Rounding;
use crate::percentile_skirmish::mini::{protection, Armour, ArmourTest, Element, MiniProfile, Resistance};

/// Where damage comes from, for resistances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishDamageSource)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum DamageSource {
    /// A weapon: non-magic weapons are halved by the "non magic weapons" resistance.
    Weapon {
        /// A magic weapon.
        magical: bool,
        /// Its element, if any.
        element: Option<Element>,
    },
    /// A spell: halved by the "spells" resistance.
    Spell {
        /// Its element, if any (fire for the fireball, electricity for the lightning bolt).
        element: Option<Element>,
    },
}

/// What a resistance did to the damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishResistanceApplied)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ResistanceApplied {
    /// No resistance applied.
    None,
    /// The damage was halved.
    Halved {
        /// By this resistance.
        resistance: Resistance,
    },
    /// No damage: the element is resisted.
    Negated {
        /// By this resistance.
        resistance: Resistance,
    },
}

/// Damage worked out for one mini.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishMitigated)]
pub struct Mitigated {
    /// The damage before resistances and armour.
    pub rolled: u32,
    /// What a resistance did.
    pub resistance: ResistanceApplied,
    /// The damage after resistances.
    pub after_resistance: u32,
    /// The protection of the armour that counted against this attack.
    pub armour: u32,
    /// The life points lost.
    pub taken: u32,
}

/// The damage `rolled` from `source` does to a mini with `profile`, wearing also the spells'
/// armour `spell_armour`, against an attack that armour meets as `test`.
pub fn mitigate(
    rolled: u32,
    source: DamageSource,
    profile: &MiniProfile,
    spell_armour: &[Armour],
    test: ArmourTest,
    halves: Rounding,
) -> Mitigated {
    let element = match source {
        DamageSource::Weapon { element, .. } | DamageSource::Spell { element } => element,
    };
    let halving = match source {
        DamageSource::Weapon { magical: false, .. } => Some(Resistance::NonMagicWeapons),
        DamageSource::Weapon { magical: true, .. } => None,
        DamageSource::Spell { .. } => Some(Resistance::Spells),
    };
    let resistance = match (element.map(Resistance::to), halving) {
        (Some(resisted), _) if profile.resists(resisted) => ResistanceApplied::Negated { resistance: resisted },
        (_, Some(halved)) if profile.resists(halved) => ResistanceApplied::Halved { resistance: halved },
        _ => ResistanceApplied::None,
    };
    let after_resistance = match resistance {
        ResistanceApplied::None => rolled,
        ResistanceApplied::Halved { .. } => halves.halve(rolled),
        ResistanceApplied::Negated { .. } => 0,
    };
    let armour = protection(&profile.armour, spell_armour, test);
    Mitigated { rolled, resistance, after_resistance, armour, taken: after_resistance.saturating_sub(armour) }
}
