//! Weapons with their maximum range and damage (seed 002 "Range attacks": "the maximum range of
//! the weapon"; the damage is the set-up's data).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::resistance::Element;
use crate::dice::DiceExpr;

/// Melee or ranged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishWeaponKind)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    /// Used in open combat, flank attacks and attacks of opportunity, within the battle's melee
    /// reach.
    Melee,
    /// Used for range attacks up to its maximum range.
    Ranged,
}

/// A weapon as the set-up gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishWeapon)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Longbow", "kind": "ranged", "range": 24.0, "damage": "d8", "magical": false, "element": null}))]
pub struct Weapon {
    /// Its name, unique on the mini.
    pub name: String,
    /// Melee or ranged.
    pub kind: WeaponKind,
    /// A ranged weapon's maximum range in inches, split in thirds into short, medium and long
    /// range (seed 002 "Range attacks"); absent for melee weapons.
    #[serde(default)]
    pub range: Option<f64>,
    /// Its damage: a number (`6`) or a dice expression (`d8+1`, docs/DICE.md), rolled on the
    /// battle's tape when it hits.
    #[schema(value_type = String, example = "d8")]
    pub damage: DiceExpr,
    /// A magic weapon: "non magic weapons" resistance does not halve it.
    #[serde(default)]
    pub magical: bool,
    /// Fire, electricity or poison: a mini resistant to it takes no damage.
    #[serde(default)]
    pub element: Option<Element>,
}

impl Weapon {
    /// Whether it is a melee weapon.
    pub fn is_melee(&self) -> bool {
        self.kind == WeaponKind::Melee
    }
}
