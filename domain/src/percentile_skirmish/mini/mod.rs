//! A mini as the set-up gives it: level, size, movement, initiative, life points, armour,
//! weapons, resistances and, for casters, spell points and spells (seed 002; the seed's "mini
//! spreadsheet" is this data).

pub mod armour;
pub mod resistance;
pub mod weapon;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use armour::{protection, Armour, ArmourSlot, ArmourTest};
pub use resistance::{resistance_cost, Element, Resistance};
pub use weapon::{Weapon, WeaponKind};

use super::{headings, spells::Spell, table::Point, SERVICE_RULES};
use crate::percentile_skirmish::limits::{MAX_GEAR, MAX_SPELLS};
use crate::RuleError;

/// The highest level the service accepts (a service limit; chances are clamped to 0–100 anyway).
pub const MAX_LEVEL: u32 = 100;
/// The longest movement, in inches (a service limit).
pub const MAX_MOVEMENT: f64 = 100.0;
/// The most life or spell points (a service limit).
pub const MAX_POINTS: u32 = 100_000;
/// The most attacks or spell attacks a turn (a service limit).
pub const MAX_ATTACKS: u8 = 20;
/// The highest initiative a card may give (and the lowest, negated).
pub const MAX_INITIATIVE: i32 = 1000;

/// A mini's size (seed 002 "NON MEDIUM SIZED MINI'S": "Most mini's are medium sized, however
/// some mini's can be considered to be small or large sized and must be identified as such
/// before play begins").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishSize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    /// Small: harder to hit at range; cannot cross water wider than 1″.
    Small,
    /// Medium, the usual size.
    #[default]
    Medium,
    /// Large: easier to hit at range; crosses water up to 1″ wide.
    Large,
}

/// A mini's card: everything the set-up supplies about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishMiniProfile)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Archer", "level": 2, "size": "medium", "movement": 4.0, "initiative": 8,
    "life": 12, "attacks": 1, "spell_attacks": 1, "armour": [{"name": "Leather", "slot": "body", "protection": 1}],
    "weapons": [{"name": "Longbow", "kind": "ranged", "range": 24.0, "damage": "d8"}, {"name": "Dagger", "kind": "melee", "damage": "d4"}],
    "resistances": ["fire"], "spell_points": 0, "spells": [], "points": 40}))]
pub struct MiniProfile {
    /// Its name for people ("Archer").
    pub name: String,
    /// Character level: added to hit chances and initiative rolls, and to spells.
    pub level: u32,
    /// Small, medium (the default) or large.
    #[serde(default)]
    pub size: Size,
    /// Movement in inches a turn.
    pub movement: f64,
    /// Initiative value: the first round it may act in (seed 002 "INITIATIVE").
    pub initiative: i32,
    /// Life points; it is killed when they reach 0.
    pub life: u32,
    /// Attacks a turn with weapons (seed 002 "TURN": "a mini with movement of 4″ and two
    /// attacks"); 1 when not given.
    #[serde(default = "one")]
    pub attacks: u8,
    /// Spells (and commands to a commanded mini or golem) a turn, the seed's "spell attacks";
    /// 1 when not given.
    #[serde(default = "one")]
    pub spell_attacks: u8,
    /// Armour and shields.
    #[serde(default)]
    pub armour: Vec<Armour>,
    /// Weapons.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Resistances bought (seed 002 "RESISTANCES").
    #[serde(default)]
    pub resistances: Vec<Resistance>,
    /// Spell points to spend on spells (casters).
    #[serde(default)]
    pub spell_points: u32,
    /// The spells it can cast.
    #[serde(default)]
    pub spells: Vec<Spell>,
    /// What the mini costs before resistances, for a participant's points limit.
    #[serde(default)]
    pub points: u32,
}

fn one() -> u8 {
    1
}

impl MiniProfile {
    /// Its weapon called `name`.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|weapon| weapon.name == name)
    }

    /// Its first melee weapon, if it has one.
    pub fn melee_weapon(&self) -> Option<&Weapon> {
        self.weapons.iter().find(|weapon| weapon.is_melee())
    }

    /// Whether it resists `resistance`.
    pub fn resists(&self, resistance: Resistance) -> bool {
        self.resistances.contains(&resistance)
    }

    /// What it costs with its resistances.
    pub fn total_cost(&self) -> u32 {
        self.points.saturating_add(resistance_cost(&self.resistances))
    }

    /// Refuse a card the rules cannot play (`what` names the mini in the message).
    pub fn validate(&self, what: &str) -> Result<(), RuleError> {
        let bad = |message: String| Err(RuleError::new("percentile-skirmish.bad_profile", message, SERVICE_RULES));
        if self.name.trim().is_empty() || self.name.chars().count() > 100 || self.name.chars().any(char::is_control) {
            return bad(format!("{what} needs a name of 1 to 100 printable characters"));
        }
        if self.level > MAX_LEVEL {
            return bad(format!("{what}'s level is at most {MAX_LEVEL}"));
        }
        if !(self.movement.is_finite() && (0.0..=MAX_MOVEMENT).contains(&self.movement)) {
            return bad(format!("{what}'s movement is 0 to {MAX_MOVEMENT} inches"));
        }
        if !(-MAX_INITIATIVE..=MAX_INITIATIVE).contains(&self.initiative) {
            return bad(format!("{what}'s initiative is -{MAX_INITIATIVE} to {MAX_INITIATIVE}"));
        }
        if self.life == 0 || self.life > MAX_POINTS || self.spell_points > MAX_POINTS || self.points > MAX_POINTS {
            return bad(format!(
                "{what} needs 1 to {MAX_POINTS} life points, and at most {MAX_POINTS} spell points and points"
            ));
        }
        if self.attacks > MAX_ATTACKS || self.spell_attacks > MAX_ATTACKS {
            return bad(format!("{what} has at most {MAX_ATTACKS} attacks and spell attacks a turn"));
        }
        if self.armour.len() > MAX_GEAR || self.weapons.len() > MAX_GEAR || self.spells.len() > MAX_SPELLS {
            return bad(format!(
                "{what} carries at most {MAX_GEAR} pieces of armour and {MAX_GEAR} weapons, and knows at most {MAX_SPELLS} spells"
            ));
        }
        for piece in &self.armour {
            if piece.name.trim().is_empty() || piece.name.chars().count() > 100 || piece.protection > MAX_POINTS {
                return bad(format!("{what}'s armour needs a name and a protection of at most {MAX_POINTS}"));
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for weapon in &self.weapons {
            if weapon.name.trim().is_empty() || weapon.name.chars().count() > 100 || !names.insert(&weapon.name) {
                return bad(format!("{what}'s weapons need names of 1 to 100 characters, each its own"));
            }
            match (weapon.kind, weapon.range) {
                (WeaponKind::Ranged, Some(range)) if range.is_finite() && range > 0.0 && range <= 1000.0 => {}
                (WeaponKind::Ranged, _) => {
                    return Err(RuleError::new(
                        "percentile-skirmish.bad_profile",
                        format!("{what}'s ranged weapon {} needs a maximum range of more than 0″", weapon.name),
                        headings::RANGE_ATTACKS,
                    ))
                }
                (WeaponKind::Melee, None) => {}
                (WeaponKind::Melee, Some(_)) => {
                    return bad(format!(
                        "{what}'s melee weapon {} has no range: melee reaches the battle's melee_reach",
                        weapon.name
                    ))
                }
            }
        }
        Ok(())
    }
}

/// A mini put on the table when the battle is created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishMiniSpec)]
#[serde(deny_unknown_fields)]
pub struct MiniSpec {
    /// A unique id in this battle (`red-archer`).
    pub id: String,
    /// The participant it belongs to.
    pub participant: String,
    /// Its card.
    pub profile: MiniProfile,
    /// Where it stands.
    pub position: Point,
    /// The direction it faces, degrees counter-clockwise from the positive x axis (0 faces
    /// right, 90 faces up the table).
    #[serde(default)]
    pub facing: f64,
}
