//! A figure as the judge sets it up (seed 004): its side and controller, ranks, action dice,
//! weapons, defences, characteristics, size, fear, flight and formation.
//!
//! The seed's tables of ranks, skills and action costs are missing; a figure therefore carries
//! the numbers a GM would read off its character sheet (dice per roll, ranks, armour), and the
//! rules below turn them into rolls.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{flight::FlightSpec, formation::FormationSpec, zones::Direction};

/// How a figure gets its action dice each round (seed 004 "Initiative, ActionDice(AD) & Actions").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = SwiftSwordsActionDice)]
pub enum ActionDiceSpec {
    /// Rolls this many dice: heroes, veterans and top predators 4, soldiers 3, untrained 2.
    Roll {
        /// Dice rolled each round, before modifiers (0 to 6).
        dice: u8,
    },
    /// A minor NPC: set values, no roll ("eg 5,4,3,2 or 5,3,2").
    Set {
        /// The faces it is given each round (1 to 6 dice, faces 1 to 6).
        values: Vec<u8>,
    },
}

impl ActionDiceSpec {
    /// How many dice the spec gives before modifiers.
    pub fn count(&self) -> u32 {
        match self {
            Self::Roll { dice } => u32::from(*dice),
            Self::Set { values } => u32::try_from(values.len()).unwrap_or(u32::MAX),
        }
    }
}

/// The weight of an attack, which turns successes into damage (seed 004 "Damage").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsWeight)]
pub enum Weight {
    /// 1+2d: damage on 1, 3, 5, 7 … successes (a dagger).
    Light,
    /// 1+1d: one damage per success (a broadsword).
    Medium,
    /// 2+1d: 2 damage for the first success, one more per success (a great sword).
    Heavy,
    /// 3+1d (a large creature's weapon).
    Large,
    /// 4+1d (a huge creature's weapon).
    Huge,
    /// Any success is massive damage.
    Massive,
}

impl Weight {
    /// The next heavier class (a hold improves one class, seed 004 "InClose Combat").
    pub fn heavier(self) -> Self {
        match self {
            Self::Light => Self::Medium,
            Self::Medium => Self::Heavy,
            Self::Heavy => Self::Large,
            Self::Large => Self::Huge,
            Self::Huge | Self::Massive => Self::Massive,
        }
    }

    /// The next lighter class, `None` below Light (a hold broken).
    pub fn lighter(self) -> Option<Self> {
        match self {
            Self::Light => None,
            Self::Medium => Some(Self::Light),
            Self::Heavy => Some(Self::Medium),
            Self::Large => Some(Self::Heavy),
            Self::Huge => Some(Self::Large),
            Self::Massive => Some(Self::Huge),
        }
    }

    /// Its level as a number, Light 1 to Massive 6 (the dice of a subdual roll's "level").
    pub fn level(self) -> u32 {
        match self {
            Self::Light => 1,
            Self::Medium => 2,
            Self::Heavy => 3,
            Self::Large => 4,
            Self::Huge => 5,
            Self::Massive => 6,
        }
    }
}

/// How a weapon reaches its target (seed 004 "Attacks", "Reach Weapons", "Mental Damage").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsWeaponKind)]
pub enum WeaponKind {
    /// Hand to hand, InContact.
    #[default]
    Melee,
    /// Spears, polearms, pikes: attacks from Alone without entering contact; not InContact.
    Reach,
    /// A thrown missile (dodged at full effect).
    Thrown,
    /// A fired missile (bow, sling): dodge counts one success fewer.
    Fired,
    /// A mental attack (intimidation, a spell on the mind): damages mental ranks, no physical
    /// defence stops it.
    Mental,
}

impl WeaponKind {
    /// Whether the attack is made at range (missiles and mental attacks).
    pub fn at_range(self) -> bool {
        matches!(self, Self::Thrown | Self::Fired | Self::Mental)
    }

    /// Whether the attack is a missile.
    pub fn missile(self) -> bool {
        matches!(self, Self::Thrown | Self::Fired)
    }
}

/// Whether a weapon is part of the creature (seed 004 "InClose Combat").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsNatural)]
pub enum Natural {
    /// A carried weapon.
    #[default]
    No,
    /// Hands and feet: count as Light, no InClose SL unless `close_bonus`.
    Human,
    /// Claws, talons, beaks, fangs: count as their weight and gain the InClose SL.
    Combat,
}

fn default_cost() -> u8 {
    4
}

/// A weapon or attack form (seed 004 "Attacks", "Damage").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsWeapon)]
pub struct WeaponSpec {
    /// Its name, unique on the figure (`Broadsword`).
    pub name: String,
    /// Attack dice rolled with it (skill and advantages included).
    pub dice: u8,
    /// Its damage code.
    pub weight: Weight,
    /// Melee (default), reach, thrown, fired or mental.
    #[serde(default)]
    pub kind: WeaponKind,
    /// Part of the body (hands and feet, claws and fangs) or carried (default).
    #[serde(default)]
    pub natural: Natural,
    /// Pip cost of an attack with it: 4 for "a melee attack with a normal weapon".
    #[serde(default = "default_cost")]
    pub cost: u8,
    /// For missiles and mental attacks: how many zones away it reaches (0 = its own zone).
    #[serde(default)]
    pub range: u8,
    /// A wrestling or grappling skill: a successful attack with it inflicts a Hold.
    #[serde(default)]
    pub grapple: bool,
    /// Strapped on: not dropped when the hand or arm is disabled.
    #[serde(default)]
    pub strapped: bool,
    /// A bane weapon: can knock its target off level 9.
    #[serde(default)]
    pub bane: bool,
    /// A natural human weapon used with a skill, advantage or equipment that gains the InClose SL.
    #[serde(default)]
    pub close_bonus: bool,
    /// Needs two hands (default: heavy weapons do, "generally two handed weapons for humans").
    #[serde(default)]
    pub two_handed: Option<bool>,
}

impl WeaponSpec {
    /// The weight its damage is counted at: natural human weapons count as Light.
    pub fn damage_weight(&self) -> Weight {
        if self.natural == Natural::Human {
            Weight::Light
        } else {
            self.weight
        }
    }

    /// Whether it may be used InClose: Light, Medium and natural weapons; Heavy ones are dropped.
    pub fn usable_in_close(&self) -> bool {
        self.natural != Natural::No || self.damage_weight() <= Weight::Medium
    }

    /// Whether it gains the bonus SL InClose: Light weapons, natural combat weapons, and natural
    /// human weapons with a skill for it.
    pub fn close_superiority(&self) -> bool {
        match self.natural {
            Natural::Human => self.close_bonus,
            Natural::Combat => true,
            Natural::No => self.weight == Weight::Light,
        }
    }

    /// Whether it needs both hands.
    pub fn needs_two_hands(&self) -> bool {
        self.natural == Natural::No && self.two_handed.unwrap_or(self.weight >= Weight::Heavy)
    }
}

/// A blocking device: a shield, or a weapon used to block (seed 004 "Block").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsDevice)]
pub struct DeviceSpec {
    /// Its name (`Medium Shield`).
    pub name: String,
    /// Its block (armour) value: a Medium Shield is Block=2.
    pub block: u8,
}

/// The defence skills a figure has trained (seed 004 "Defences": "They are gained by taking an
/// appropriate Skill"). Absent: the figure cannot use that defence.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsDefences)]
pub struct DefenceSkills {
    /// Dodge dice (skill plus advantages: Roland's 4d + 1d is 5).
    #[serde(default)]
    pub dodge: Option<u8>,
    /// Block dice, before the device's value.
    #[serde(default)]
    pub block: Option<u8>,
    /// Parry dice.
    #[serde(default)]
    pub parry: Option<u8>,
    /// The "appropriate Skill+Mod" that lets Parry work against missiles.
    #[serde(default)]
    pub parry_missiles: bool,
}

fn four() -> u8 {
    4
}

/// Dice for the characteristic rolls the seed names ("BODY dice (4+level)", "a Body or Will roll
/// (4d+level)"): each is the full number of dice rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsCharacteristics)]
pub struct Characteristics {
    /// BODY: stun recovery, bleeders, KIA and injury rolls, holds and knock-downs.
    #[serde(default = "four")]
    pub body: u8,
    /// DEX: balance, foot and broken-leg rolls, disarms.
    #[serde(default = "four")]
    pub dex: u8,
    /// Mind: shock recovery.
    #[serde(default = "four")]
    pub mind: u8,
    /// Will: unconsciousness, fatigue.
    #[serde(default = "four")]
    pub will: u8,
    /// Soul: doubt recovery.
    #[serde(default = "four")]
    pub soul: u8,
    /// Spirit: fear, panic and crushed recovery.
    #[serde(default = "four")]
    pub spirit: u8,
}

impl Default for Characteristics {
    fn default() -> Self {
        Self { body: 4, dex: 4, mind: 4, will: 4, soul: 4, spirit: 4 }
    }
}

/// Another skill a figure rolls (`driving`, `healing`, a spell).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsSkill)]
pub struct SkillSpec {
    /// Its name.
    pub name: String,
    /// Dice rolled.
    pub dice: u8,
}

/// The levels of fear a creature causes (seed 004 "Levels of Fear"), weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsFearLevel)]
pub enum FearLevel {
    /// A failed SPIR roll loses the action die just discarded.
    Scary,
    /// Pass or lose one Mental Rank, or be stunned.
    Fearsome,
    /// As Fearsome, SPIR at −1d, no stun.
    Dread,
    /// As Dread, in its zone and every adjacent one.
    Terror,
    /// As Dread, rolled again and again until passed or broken.
    Fell,
}

fn two() -> u8 {
    2
}

/// Where a figure starts, beyond its zone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsStart)]
pub struct StartSpec {
    /// The zone it stands in.
    pub zone: String,
    /// A label shared by figures that start together: InContact if enemies share it, standing
    /// alone as a group otherwise.
    #[serde(default)]
    pub group: Option<String>,
    /// A cover area in its zone that it occupies.
    #[serde(default)]
    pub cover: Option<String>,
    /// A flyer starts in the air.
    #[serde(default)]
    pub flying: bool,
    /// A flyer's facing (default north).
    #[serde(default)]
    pub facing: Option<Direction>,
}

/// One figure: a hero, an NPC, a minor NPC, a mob or a horse team (seed 004).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsFigure)]
pub struct FigureSpec {
    /// A unique id in this battle (`roland`).
    pub id: String,
    /// Its name for people (default: the id).
    #[serde(default)]
    pub name: Option<String>,
    /// The side it fights for.
    pub side: String,
    /// The player who acts for it; absent for the GM's figures (NPCs). Player figures act before
    /// NPCs with as many dice (seed 004 "The Countdown").
    #[serde(default)]
    pub controller: Option<String>,
    /// Where it starts.
    pub start: StartSpec,
    /// Its action dice.
    pub action_dice: ActionDiceSpec,
    /// Physical rank (0 to 9), the Heroic level included where it was taken here.
    pub physical: u8,
    /// Mental rank (0 to 9).
    pub mental: u8,
    /// Bonus physical ranks (position, magic): count for thresholds, absorb nothing.
    #[serde(default)]
    pub bonus_physical: u8,
    /// Bonus mental ranks.
    #[serde(default)]
    pub bonus_mental: u8,
    /// Heroic (players, important NPCs): goes to −3 ranks before Out of Action.
    #[serde(default)]
    pub heroic: bool,
    /// Minor NPCs flagged Stateless always take a rank loss instead of a State.
    #[serde(default)]
    pub stateless: bool,
    /// Every how many rank losses on one side one crosses over to the other (2 to 4).
    #[serde(default = "two")]
    pub crossover_every: u8,
    /// Its weapons and attack forms.
    #[serde(default)]
    pub weapons: Vec<WeaponSpec>,
    /// Its trained defences.
    #[serde(default)]
    pub defences: DefenceSkills,
    /// Its blocking device, if any.
    #[serde(default)]
    pub shield: Option<DeviceSpec>,
    /// Passive armour: successes each attack loses before damage.
    #[serde(default)]
    pub armour: u8,
    /// Characteristic dice.
    #[serde(default)]
    pub characteristics: Characteristics,
    /// Other skills (`driving`, `healing`).
    #[serde(default)]
    pub skills: Vec<SkillSpec>,
    /// Size, a man being 1.
    #[serde(default = "one")]
    pub size: u8,
    /// Legs: four give +1 size for stability, eight or more +2.
    #[serde(default = "two")]
    pub legs: u8,
    /// The fear it causes.
    #[serde(default)]
    pub fear: Option<FearLevel>,
    /// Immune to fear.
    #[serde(default)]
    pub fearless: bool,
    /// A flyer's speed, turn rate and dive.
    #[serde(default)]
    pub flight: Option<FlightSpec>,
    /// A mob, crowd, horde, company or unit acting as one figure.
    #[serde(default)]
    pub formation: Option<FormationSpec>,
}

fn one() -> u8 {
    1
}

impl FigureSpec {
    /// Its name for people.
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.id)
    }

    /// A weapon by name.
    pub fn weapon(&self, name: &str) -> Option<&WeaponSpec> {
        self.weapons.iter().find(|weapon| weapon.name == name)
    }

    /// Dice of a named skill.
    pub fn skill(&self, name: &str) -> Option<u8> {
        self.skills.iter().find(|skill| skill.name.eq_ignore_ascii_case(name)).map(|skill| skill.dice)
    }

    /// Size for standing InClose: size plus the stability bonus of four (+1) or eight (+2) legs.
    pub fn stable_size(&self) -> u32 {
        let stability = match self.legs {
            0..=3 => 0,
            4..=7 => 1,
            _ => 2,
        };
        u32::from(self.size) + stability
    }
}
