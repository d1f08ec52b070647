//! The fifteen spells of seed 002 "SPELL DESCRIPTIONS": cost, range, duration, what they aim at
//! and their effect, as data.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A spell (seed 002 "SPELL DESCRIPTIONS").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishSpell)]
#[serde(rename_all = "snake_case")]
pub enum Spell {
    /// Cost 5, immediate: 6 damage + caster's level.
    FlyingFist,
    /// Cost 10, immediate: 6 damage + caster's level; non-magical metal armour gives no
    /// protection.
    LightningBolt,
    /// Cost 10, range NA (the caster), 1 turn + caster's level: acts as a large shield.
    MagicShield,
    /// Cost 20, 1 turn + (caster's level − target's level): cannot move or attack.
    Statue,
    /// Cost 5, 1 turn + caster's level: +1″ movement, +3 initiative.
    Speed,
    /// Cost 10, immediate: 8 life points + caster's level.
    Heal,
    /// Cost 10, 1 turn + (caster's level − target's level): runs away from the caster.
    Fear,
    /// Cost 20, 1 turn + caster's level: acts as magical plate mail.
    Protection,
    /// Cost 20, immediate: every mini in its path (rolled separately) takes 8 + caster's level;
    /// non-magical non-metal armour gives no protection.
    Fireball,
    /// Cost 20, 1 turn + (caster's level − target's level): obeys the caster's simple commands.
    Command,
    /// Cost 40, 1 turn + caster's level: a golem (the set-up's stats) obeys simple commands.
    Golem,
    /// Cost 25, 1 turn + caster's level: a familiar (the set-up's stats and effect).
    Familiar,
    /// Cost 5, 1 turn + caster's level: −1″ movement, −3 initiative.
    Slow,
    /// Cost 50, immediate: the caster moves, keeping its facing.
    Teleport,
    /// Cost 10, 1 turn + caster's level: small and medium minis treat water as large minis do,
    /// large minis as clear terrain.
    WaterWalk,
}

/// How long a spell lasts (seed 002 "SPELL DESCRIPTIONS", each spell's "Duration").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishDurationRule)]
#[serde(rename_all = "snake_case")]
pub enum DurationRule {
    /// "Immediate": it happens and is over.
    Immediate,
    /// "1 turn + caster's level".
    CasterLevel,
    /// "1 turn + (caster's level - mini affected's level)".
    LevelDifference,
}

/// What a spell is cast at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishAim)]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    /// The caster itself ("Range: NA").
    Caster,
    /// One mini within range.
    Mini,
    /// A point within range (summons; the teleport's destination).
    Point,
    /// A line from the caster to a point within range: every mini in its path.
    Path,
}

/// Every spell, in the seed's order.
pub const ALL_SPELLS: [Spell; 15] = [
    Spell::FlyingFist,
    Spell::LightningBolt,
    Spell::MagicShield,
    Spell::Statue,
    Spell::Speed,
    Spell::Heal,
    Spell::Fear,
    Spell::Protection,
    Spell::Fireball,
    Spell::Command,
    Spell::Golem,
    Spell::Familiar,
    Spell::Slow,
    Spell::Teleport,
    Spell::WaterWalk,
];

impl Spell {
    /// Its spell-point cost ("Cost").
    pub const fn cost(self) -> u32 {
        match self {
            Self::FlyingFist | Self::Speed | Self::Slow => 5,
            Self::LightningBolt | Self::MagicShield | Self::Heal | Self::Fear | Self::WaterWalk => 10,
            Self::Statue | Self::Protection | Self::Fireball | Self::Command => 20,
            Self::Familiar => 25,
            Self::Golem => 40,
            Self::Teleport => 50,
        }
    }

    /// Its heading in the seed ("Flying fist").
    pub const fn heading(self) -> &'static str {
        match self {
            Self::FlyingFist => "Flying fist",
            Self::LightningBolt => "Lightning bolt",
            Self::MagicShield => "Magic shield",
            Self::Statue => "Statue",
            Self::Speed => "Speed",
            Self::Heal => "Heal",
            Self::Fear => "Fear",
            Self::Protection => "Protection",
            Self::Fireball => "Fireball",
            Self::Command => "Command",
            Self::Golem => "Golem",
            Self::Familiar => "Familiar",
            Self::Slow => "Slow",
            Self::Teleport => "Teleport",
            Self::WaterWalk => "Water walk",
        }
    }

    /// `seed 002 "<its heading>"`.
    pub fn rule(self) -> String {
        format!("seed 002 \"{}\"", self.heading())
    }

    /// Its duration rule ("Duration").
    pub const fn duration(self) -> DurationRule {
        match self {
            Self::FlyingFist | Self::LightningBolt | Self::Heal | Self::Fireball | Self::Teleport => {
                DurationRule::Immediate
            }
            Self::Statue | Self::Fear | Self::Command => DurationRule::LevelDifference,
            Self::MagicShield
            | Self::Speed
            | Self::Protection
            | Self::Golem
            | Self::Familiar
            | Self::Slow
            | Self::WaterWalk => DurationRule::CasterLevel,
        }
    }

    /// What it is cast at.
    pub const fn aim(self) -> Aim {
        match self {
            Self::MagicShield => Aim::Caster,
            Self::Golem | Self::Familiar | Self::Teleport => Aim::Point,
            Self::Fireball => Aim::Path,
            _ => Aim::Mini,
        }
    }

    /// Its damage before resistances and armour, for a caster of `level`: "6 damage + caster's
    /// level", "8 damage + caster's level".
    pub const fn damage(self, level: u32) -> Option<u32> {
        match self {
            Self::FlyingFist | Self::LightningBolt => Some(6 + level),
            Self::Fireball => Some(8 + level),
            _ => None,
        }
    }

    /// Whether it attacks: it does damage, so it is an attack for the rules on running,
    /// statues and minis in water (seed 002 "RUNNING", "Statue", "CROSSING WATER").
    pub const fn is_attack(self) -> bool {
        matches!(self, Self::FlyingFist | Self::LightningBolt | Self::Fireball)
    }

    /// Whether it works against the will of the mini it is cast at (it damages or disables
    /// it), so it always rolls to succeed whatever the battle's `spell_rolls` option says.
    pub const fn is_hostile(self) -> bool {
        matches!(
            self,
            Self::FlyingFist
                | Self::LightningBolt
                | Self::Fireball
                | Self::Statue
                | Self::Fear
                | Self::Command
                | Self::Slow
        )
    }

    /// Whether the golem and teleport may reach a point within range of the caster's familiar
    /// instead of the caster ("within LOS of the spell caster's familiar, if applicable").
    pub const fn reaches_from_familiar(self) -> bool {
        matches!(self, Self::Golem | Self::Teleport)
    }
}
