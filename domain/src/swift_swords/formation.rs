//! Mobs, crowds, hordes, companies and units: many NPCs acting as one figure (seed 004 "Mobs,
//! Crowds and Hordes").
//!
//! Each gains ranks and dice and strikes several separate targets with one attack. The seed's own
//! note, "Need to think about these some more.... stacking limits?", leaves stacking open:
//! Herald sets no limit on how many formations share a zone (a GM may cap attackers per target
//! with the `max_attackers_per_target` option).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The size of a group of NPCs treated as one entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsFormationKind)]
pub enum FormationKind {
    /// 3 or 4 creatures.
    Mob,
    /// 2 mobs (8 men).
    Crowd,
    /// 2 crowds (16 men).
    Horde,
    /// 2 hordes (32 men), with an NCO commander.
    Company,
    /// 2 companies (64 men), with an officer commander.
    Unit,
}

/// A formation and how many creatures it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsFormation)]
pub struct FormationSpec {
    /// Mob, crowd, horde, company or unit.
    pub kind: FormationKind,
    /// Creatures in it.
    pub members: u32,
}

/// What a formation gains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormationBonus {
    /// Physical ranks gained.
    pub physical: u8,
    /// Mental ranks gained.
    pub mental: u8,
    /// Attack dice gained.
    pub dice: u8,
    /// Separate targets one attack action may strike.
    pub attacks: u8,
    /// The commander it comes with, if any.
    pub commander: Option<&'static str>,
}

impl FormationKind {
    /// The bonuses of seed 004 "Mobs, Crowds and Hordes".
    pub fn bonus(self) -> FormationBonus {
        let (physical, mental, dice, attacks, commander) = match self {
            Self::Mob => (1, 0, 1, 2, None),
            Self::Crowd => (1, 1, 2, 3, None),
            Self::Horde => (2, 1, 3, 4, None),
            Self::Company => (3, 2, 4, 4, Some("NCO")),
            Self::Unit => (4, 2, 4, 6, Some("officer")),
        };
        FormationBonus { physical, mental, dice, attacks, commander }
    }

    /// The creatures it may hold: more than the next smaller formation, up to its nominal size
    /// (a mob 3–4, a crowd 5–8, a horde 9–16, a company 17–32, a unit 33–64).
    pub fn members(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Self::Mob => 3..=4,
            Self::Crowd => 5..=8,
            Self::Horde => 9..=16,
            Self::Company => 17..=32,
            Self::Unit => 33..=64,
        }
    }
}

/// The bonus of an optional formation (none for a single figure).
pub fn bonus_of(formation: Option<&FormationSpec>) -> FormationBonus {
    formation.map_or(FormationBonus { physical: 0, mental: 0, dice: 0, attacks: 1, commander: None }, |formation| {
        formation.kind.bonus()
    })
}
