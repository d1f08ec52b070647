//! Model profiles (seed 000 "Model Types, Stats, and Damage Capacity", "Model Statistics",
//! "Weapon Statistics"): stat cards, model types and the common rules each type carries,
//! weapons, damage capacity and named special rules.
//!
//! Not modelled here: specific spells and feats, hardpoints, animi, warbeast life spirals (kept
//! as plain boxes), unit composition beyond "trooper in a unit".

pub mod damage;
pub mod special;
pub mod stats;
pub mod validate;
pub mod weapon;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use damage::{DamageCapacity, DamageGrid, GridBox, GridDamage, System, GRID_COLUMNS};
pub use special::{additional_dice, may_boost, Mechanic, MovementRestriction, RollKind, SpecialRule, TriggerCondition};
pub use stats::{BaseSize, StatCard, MM_PER_INCH};
pub use weapon::{Location, Weapon, WeaponKind, WeaponRange};

/// Model types (seed 000 "Model Types, Stats, and Damage Capacity").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModelType {
    /// Controls a battlegroup of warjacks with focus.
    Warcaster,
    /// Controls a battlegroup of warbeasts with fury drawn from them.
    Warlock,
    /// A steamjack controlled through its cortex; a construct.
    Warjack,
    /// A creature a warlock controls; can be forced and can frenzy.
    Warbeast,
    /// A trooper: activates and moves with its unit.
    Trooper,
    /// An independent model of no other type.
    Solo,
}

/// The rules common to a model type that are not printed on its card, as flags with the seed's
/// meaning (seed 000 "Model Types, Stats, and Damage Capacity").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CommonRules {
    /// Focus Manipulation: replenishes focus up to ARC in the Control Phase, allocates focus to
    /// its warjacks in control range, loses focus above ARC in the Maintenance Phase.
    pub focus_manipulation: bool,
    /// Fury Manipulation: leeches fury from its warbeasts in control range up to ARC, gains fury
    /// from spirit bond, loses fury above ARC in the Maintenance Phase.
    pub fury_manipulation: bool,
    /// A leader model: rules affecting leaders affect it.
    pub leader: bool,
    /// Controls a battlegroup (warcasters and warlocks).
    pub controls_battlegroup: bool,
    /// Belongs to its controller's battlegroup (warjacks and warbeasts).
    pub battlegroup_member: bool,
    /// Has a cortex: powers up for 1 focus in control range unless the cortex is crippled.
    pub cortex: bool,
    /// Construct advantage; a construct is not living.
    pub construct: bool,
    /// Can be forced (generating fury) and must pass threshold checks or frenzy.
    pub forceable: bool,
    /// Activates on its own rather than as part of a unit.
    pub independent: bool,
}

impl ModelType {
    /// The type's common rules. Solos are independent (they are not troopers); the seed says
    /// nothing more of them.
    pub fn common_rules(self) -> CommonRules {
        let none = CommonRules {
            focus_manipulation: false,
            fury_manipulation: false,
            leader: false,
            controls_battlegroup: false,
            battlegroup_member: false,
            cortex: false,
            construct: false,
            forceable: false,
            independent: true,
        };
        match self {
            Self::Warcaster => {
                CommonRules { focus_manipulation: true, leader: true, controls_battlegroup: true, ..none }
            }
            Self::Warlock => CommonRules { fury_manipulation: true, leader: true, controls_battlegroup: true, ..none },
            Self::Warjack => CommonRules { battlegroup_member: true, cortex: true, construct: true, ..none },
            Self::Warbeast => CommonRules { battlegroup_member: true, forceable: true, ..none },
            Self::Trooper => CommonRules { independent: false, ..none },
            Self::Solo => none,
        }
    }
}

impl CommonRules {
    /// Living unless a construct (seed 000 "Warjacks": "construct advantage and are not living").
    pub fn living(self) -> bool {
        !self.construct
    }
}

/// A model's profile: what its card says plus its type's common rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelProfile {
    /// The model's name.
    pub name: String,
    /// Its type.
    pub model_type: ModelType,
    /// Its stat card.
    pub stats: StatCard,
    /// Its base.
    pub base: BaseSize,
    /// Its damage boxes or grid.
    pub damage: DamageCapacity,
    /// Its weapons.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Its named special rules.
    #[serde(default)]
    pub special_rules: Vec<SpecialRule>,
}

impl ModelProfile {
    /// The common rules of the profile's type.
    pub fn common_rules(&self) -> CommonRules {
        self.model_type.common_rules()
    }

    /// Whether the model can charge: "A model that does not have a melee weapon cannot charge"
    /// (seed 000 "Charge").
    pub fn can_charge(&self) -> bool {
        self.weapons.iter().any(|w| w.kind == WeaponKind::Melee)
    }
}
