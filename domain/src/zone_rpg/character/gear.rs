//! Weapons, shields and armour (seed 001 "Attacking", "Combat gear degradation"), as the GM
//! lists them and as they fare in the fight: held or carried, damaged, destroyed, used.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::zone_rpg::die::Die;

/// How many hands a weapon takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgHands)]
#[serde(rename_all = "snake_case")]
pub enum Hands {
    /// A one-handed weapon (seed 001 "Non-lethal attacks": a grabbing character can still
    /// attack "with a one-handed weapon").
    #[default]
    One,
    /// A two-handed weapon.
    Two,
}

impl Hands {
    /// How many hands it occupies.
    pub fn count(self) -> u32 {
        match self {
            Self::One => 1,
            Self::Two => 2,
        }
    }
}

fn yes() -> bool {
    true
}

/// A weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgWeapon)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Its name, unique among the character's weapons (`longsword`).
    pub name: String,
    /// Its damage die (`d6`).
    pub damage: Die,
    /// Its range in zones; 0 for a melee weapon.
    #[serde(default)]
    pub range: u32,
    /// Whether it has the blast property (seed 001 "Blast attacks").
    #[serde(default)]
    pub blast: bool,
    /// One- or two-handed.
    #[serde(default)]
    pub hands: Hands,
    /// A mundane item used as a weapon: handled as already damaged (seed 001 "Combat gear
    /// degradation").
    #[serde(default)]
    pub improvised: bool,
    /// Damaged: destroyed when it attacks and a 1 is rolled on its damage die.
    #[serde(default)]
    pub damaged: bool,
    /// A natural attack (bite, talons, fire breath): takes no hand, cannot be disarmed, needs no
    /// durability roll.
    #[serde(default)]
    pub natural: bool,
    /// Powerful enough to penetrate cover (seed 001 "Cover").
    #[serde(default)]
    pub penetrating: bool,
    /// Held in hand, ready to attack with (default); carried otherwise.
    #[serde(default = "yes")]
    pub held: bool,
}

impl WeaponSpec {
    /// Whether it makes ranged attacks.
    pub fn ranged(&self) -> bool {
        self.range > 0
    }

    /// Hands it occupies while held.
    pub fn hands_held(&self) -> u32 {
        if self.held && !self.natural {
            self.hands.count()
        } else {
            0
        }
    }
}

/// A shield: +1 armour value while held (seed 001 "Reacting to an attack": "holding a shield
/// and wearing light armour, so he has an armour value of 2").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgShield)]
#[serde(deny_unknown_fields)]
pub struct ShieldSpec {
    /// Its name.
    pub name: String,
    /// Damaged: destroyed by an attack inflicting 8 or more damage before armour reduction.
    #[serde(default)]
    pub damaged: bool,
    /// Held in hand (default); carried otherwise.
    #[serde(default = "yes")]
    pub held: bool,
}

/// Armour worn (or a natural hide).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgArmour)]
#[serde(deny_unknown_fields)]
pub struct ArmourSpec {
    /// Its name (`light armour`).
    pub name: String,
    /// Its armour value, 1 to 3.
    pub value: u32,
    /// Damaged: destroyed by an attack inflicting 8 or more damage before armour reduction.
    #[serde(default)]
    pub damaged: bool,
    /// A natural hide or scales: never damaged, needs no durability roll.
    #[serde(default)]
    pub natural: bool,
}

/// A weapon as it fares in the fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgWeaponState)]
pub struct WeaponState {
    /// The weapon, with whether it is held and damaged now.
    pub weapon: WeaponSpec,
    /// Used to attack at least once (it gets a durability roll after the fight).
    pub used: bool,
    /// Destroyed.
    pub destroyed: bool,
}

/// A shield as it fares in the fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgShieldState)]
pub struct ShieldState {
    /// The shield, with whether it is held and damaged now.
    pub shield: ShieldSpec,
    /// It protected its bearer from a hit (it gets a durability roll after the fight).
    pub used: bool,
    /// Destroyed.
    pub destroyed: bool,
}

/// Armour as it fares in the fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgArmourState)]
pub struct ArmourState {
    /// The armour, with whether it is damaged now.
    pub armour: ArmourSpec,
    /// It protected its wearer from a hit (it gets a durability roll after the fight).
    pub used: bool,
    /// Destroyed.
    pub destroyed: bool,
}

/// Something lying in a zone: dropped, thrown away or put down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgItem)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    /// A weapon.
    Weapon {
        /// The weapon.
        weapon: WeaponSpec,
        /// Whether it was used in this fight.
        used: bool,
    },
    /// A shield.
    Shield {
        /// The shield.
        shield: ShieldSpec,
        /// Whether it was used in this fight.
        used: bool,
    },
}

impl Item {
    /// Its name.
    pub fn name(&self) -> &str {
        match self {
            Self::Weapon { weapon, .. } => &weapon.name,
            Self::Shield { shield, .. } => &shield.name,
        }
    }
}

/// An item lying in a zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgZoneItem)]
pub struct ZoneItem {
    /// The zone.
    pub zone: String,
    /// The item.
    pub item: Item,
    /// Who left it there.
    pub left_by: String,
    /// Put down by a character who is still concealed: only their side sees it.
    pub concealed: bool,
}
