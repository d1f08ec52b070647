//! Characters and factions as the GM sets them up: health, saves, size, speed, gear, where they
//! stand, who controls them (seed 001 throughout; "Effects of size in combat" for sizes).

pub mod gear;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use gear::{ArmourSpec, ShieldSpec, WeaponSpec};

/// A character's size (seed 001 "Effects of size in combat").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgSize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    /// Small.
    Small,
    /// Medium: a human (default).
    #[default]
    Medium,
    /// Large: a wyrm.
    Large,
    /// Massive: makes melee attacks up to range 1.
    Massive,
}

impl Size {
    /// Its rank: small 0 to massive 3.
    pub fn rank(self) -> i32 {
        match self {
            Self::Small => 0,
            Self::Medium => 1,
            Self::Large => 2,
            Self::Massive => 3,
        }
    }

    /// How many sizes larger `self` is than `other` (negative when smaller): "each size of
    /// difference".
    pub fn steps_over(self, other: Size) -> i32 {
        self.rank() - other.rank()
    }
}

/// A faction: characters (and groups of them) fighting on one side (seed 001 "Combat
/// procedure": "The factions involved in the fight alternate taking turns").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgFaction)]
#[serde(deny_unknown_fields)]
pub struct FactionSpec {
    /// Its name, unique in the fight (`party`, `bandits`).
    pub name: String,
    /// The player who acts for the faction and for its characters that name no controller of
    /// their own; absent: the GM.
    #[serde(default)]
    pub controller: Option<String>,
}

/// Who holds the initiative (seed 001 "Combat procedure": "held by the faction which started
/// the fight, or is assigned randomly if that's unclear").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgInitiative)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum InitiativeSpec {
    /// The faction that started the fight.
    Faction {
        /// Its name.
        faction: String,
    },
    /// Unclear: a recorded die assigns it (`roll_initiative`).
    Random,
}

fn two() -> u32 {
    2
}

/// A character as the GM sets it up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgCharacterSpec)]
#[serde(deny_unknown_fields)]
pub struct CharacterSpec {
    /// A unique id in this fight, also its name (`Balthasar`).
    pub id: String,
    /// Its faction.
    pub faction: String,
    /// The player who controls it; absent: the faction's controller, or the GM.
    #[serde(default)]
    pub controller: Option<String>,
    /// The group it fights in, for morale (seed 001 "Morale"); absent: it fights alone.
    #[serde(default)]
    pub group: Option<String>,
    /// Health now.
    pub health: u32,
    /// Maximum health (default: its health now).
    #[serde(default)]
    pub max_health: Option<u32>,
    /// WIT save value.
    pub wit: u32,
    /// AGI save value.
    pub agi: u32,
    /// STR save value.
    pub str: u32,
    /// Its size (default medium).
    #[serde(default)]
    pub size: Size,
    /// Zones it moves at full speed (default 2; sprinting doubles it).
    #[serde(default = "two")]
    pub speed: u32,
    /// Its weapons, natural attacks included.
    #[serde(default)]
    pub weapons: Vec<WeaponSpec>,
    /// Its shield.
    #[serde(default)]
    pub shield: Option<ShieldSpec>,
    /// Its armour.
    #[serde(default)]
    pub armour: Option<ArmourSpec>,
    /// The zone it stands in.
    pub zone: String,
    /// A neighbouring zone whose border it stands on (blasts on either zone hit it).
    #[serde(default)]
    pub at_border: Option<String>,
    /// A cover or barrier feature of its zone it is behind.
    #[serde(default)]
    pub behind: Option<String>,
    /// The mount or vehicle it rides.
    #[serde(default)]
    pub riding: Option<String>,
    /// For a mount or vehicle: how many riders or passengers it carries (default 0).
    #[serde(default)]
    pub carries: u32,
    /// Concealed at the start of the fight: it launches an ambush (seed 001 "Sneaking in
    /// combat").
    #[serde(default)]
    pub concealed: bool,
    /// Unaware of its attackers: it cannot react (seed 001 "Reacting to an attack").
    #[serde(default)]
    pub unaware: bool,
    /// Immune to fear, so to morale (seed 001 "Morale").
    #[serde(default)]
    pub fearless: bool,
    /// Reactions a skill grants beyond the one a turn gives (seed 001 "Reacting to an attack":
    /// "Some skills grant the ability to react multiple times in a round").
    #[serde(default)]
    pub extra_reactions: u32,
}

impl CharacterSpec {
    /// Its maximum health.
    pub fn maximum_health(&self) -> u32 {
        self.max_health.unwrap_or(self.health)
    }
}
