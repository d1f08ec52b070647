//! The General Injury Table (seed 004): a 4d6 location roll, the effect table per location and
//! what every effect does.
//!
//! "The number that comes up the most becomes the target location. If the result is a draw (2
//! pairs or 4 singles) then the HIGHEST roll is hit. … you may shift the location one connected
//! area if you rolled a triple, two areas if you rolled a quadruple." The Location Table itself
//! is missing: the battle option `location_table` maps the faces (default 1 left leg, 2 right
//! leg, 3 left arm, 4 right arm — the seed's example — 5 chest, 6 head). The Neck lies between
//! Head and Chest and the Groin between Chest and Legs; being optional, they are reached by a
//! shift, and when the option drops them the Head and the Legs join the Chest directly.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::options::LocationTable;

/// A hit location.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsLocation)]
pub enum Location {
    /// The head.
    Head,
    /// The neck (optional).
    Neck,
    /// The chest.
    Chest,
    /// The groin (optional).
    Groin,
    /// The left arm.
    LeftArm,
    /// The right arm.
    RightArm,
    /// The left leg.
    LeftLeg,
    /// The right leg.
    RightLeg,
}

impl Location {
    /// The areas connected to this one.
    pub fn connected(self, neck_and_groin: bool) -> Vec<Self> {
        use Location::*;
        match (self, neck_and_groin) {
            (Head, true) => vec![Neck],
            (Head, false) => vec![Chest],
            (Neck, _) => vec![Head, Chest],
            (Chest, true) => vec![Neck, LeftArm, RightArm, Groin],
            (Chest, false) => vec![Head, LeftArm, RightArm, LeftLeg, RightLeg],
            (Groin, _) => vec![Chest, LeftLeg, RightLeg],
            (LeftArm | RightArm, _) => vec![Chest],
            (LeftLeg | RightLeg, true) => vec![Groin],
            (LeftLeg | RightLeg, false) => vec![Chest],
        }
    }

    /// Which effect column it rolls on.
    pub fn column(self) -> InjuryColumn {
        match self {
            Self::Head => InjuryColumn::Head,
            Self::Neck => InjuryColumn::Neck,
            Self::Chest => InjuryColumn::Chest,
            Self::Groin => InjuryColumn::Groin,
            Self::LeftArm | Self::RightArm => InjuryColumn::Arms,
            Self::LeftLeg | Self::RightLeg => InjuryColumn::Legs,
        }
    }

    /// Whether it is an arm.
    pub fn arm(self) -> bool {
        matches!(self, Self::LeftArm | Self::RightArm)
    }

    /// Whether it is a leg.
    pub fn leg(self) -> bool {
        matches!(self, Self::LeftLeg | Self::RightLeg)
    }
}

/// The columns of the effect table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjuryColumn {
    /// Head.
    Head,
    /// Neck.
    Neck,
    /// Chest.
    Chest,
    /// Legs.
    Legs,
    /// Arms.
    Arms,
    /// Groin.
    Groin,
}

/// The outcome of the 4d6 location roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsLocationRoll)]
pub struct LocationRoll {
    /// The four faces.
    pub faces: Vec<u8>,
    /// The face that came up most (the highest on a draw).
    pub face: u8,
    /// How often it came up.
    pub count: u32,
    /// Its location.
    pub rolled: Location,
    /// Areas the attacker may shift: one on a triple, two on a quadruple.
    pub shifts: u32,
    /// The location hit, after any shift.
    pub location: Location,
}

/// Read four faces: the most common face, ties to the highest; a triple may shift one area, a
/// quadruple two.
pub fn locate(faces: &[u8], table: &LocationTable) -> LocationRoll {
    let mut best = (0u32, 0u8);
    for face in 1..=6u8 {
        let count = u32::try_from(faces.iter().filter(|f| **f == face).count()).unwrap_or(0);
        if count > 0 && (count, face) > best {
            best = (count, face);
        }
    }
    let (count, face) = best;
    let rolled = table.of(face);
    let shifts = count.saturating_sub(2);
    LocationRoll { faces: faces.to_vec(), face, count, rolled, shifts, location: rolled }
}

/// Shift `roll` toward `aim` by at most its allowed areas along connected areas (the attacker's
/// choice, "you may shift"); without an aim it stays.
pub fn shift_toward(roll: &mut LocationRoll, aim: Option<Location>, neck_and_groin: bool) {
    let Some(aim) = aim else { return };
    if !neck_and_groin && matches!(aim, Location::Neck | Location::Groin) {
        return;
    }
    // Breadth-first paths from the rolled location.
    let mut paths: Vec<Vec<Location>> = vec![vec![roll.rolled]];
    let mut seen = vec![roll.rolled];
    let mut index = 0;
    while index < paths.len() {
        let path = paths[index].clone();
        index += 1;
        let here = *path.last().unwrap_or(&roll.rolled);
        if here == aim {
            let steps = u32::try_from(path.len() - 1).unwrap_or(u32::MAX);
            let reach = usize::try_from(steps.min(roll.shifts)).unwrap_or(0);
            roll.location = path[reach];
            return;
        }
        for next in here.connected(neck_and_groin) {
            if !seen.contains(&next) {
                seen.push(next);
                let mut longer = path.clone();
                longer.push(next);
                paths.push(longer);
            }
        }
    }
}

/// Whether a shift from the rolled location to `to` is within reach.
pub fn within_shift(roll: &LocationRoll, to: Location, neck_and_groin: bool) -> bool {
    let mut probe = roll.clone();
    shift_toward(&mut probe, Some(to), neck_and_groin);
    probe.location == to
}

/// An effect of the injury table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsInjuryEffect)]
pub enum InjuryEffect {
    /// Stunned, lucky escape; burn 1 action die.
    Stun,
    /// An immediate Will roll (−2d on the head) or unconscious, OoA; burn 1.
    Unconscious,
    /// −1d to every roll needing sight; lose 1 mental rank.
    Sight,
    /// Deafened: −2d to verbal casting; lose 1 mental rank.
    Sound,
    /// −2d to rolls using the area.
    Fracture,
    /// A DEX roll to move or fall prone; −2d casting; lose 1 mental rank; burn 2.
    Balance,
    /// A BODY roll at the start of each round or lose a physical rank, until treated.
    Bleeder,
    /// A BODY roll at −2d or OoA; discard every action die; lose 2 mental ranks.
    Kill,
    /// Lose an extra physical rank.
    FleshWound,
    /// Lose 1 mental rank; burn 2.
    Wind,
    /// Lose an extra physical rank; −1d to every roll; burn 1.
    Puncture,
    /// The limb is unusable (an arm drops what is not strapped; a leg needs DEX at −2d to move
    /// or falls prone); lose an extra physical rank.
    Broken,
    /// DEX roll now or prone, and at every move; movement rolls −2d; burn 1.
    Foot,
    /// The hand drops what it holds and cannot be used; burn 1.
    Hand,
    /// A BODY roll or fall OoA.
    Paralysed,
    /// The limb is severed: lose 2 extra physical ranks, −2d to every roll, burn 2.
    Sever,
    /// Lose 1 mental rank; −1d to every roll; burn 1.
    Maim,
}

/// The effect of `roll` (1d6, +1 for a Killing Blow or Massive damage) at `location`, with the
/// −2d of the table's "Bleeder -2d" and "Unconscious -2d" rows.
pub fn effect(location: Location, roll: u32) -> (InjuryEffect, u32) {
    use InjuryEffect::*;
    let roll = roll.clamp(1, 7);
    match location.column() {
        InjuryColumn::Head => match roll {
            1 => (Stun, 0),
            2 => (Unconscious, 2),
            3 => (Sight, 0),
            4 => (Fracture, 0),
            5 => (Balance, 0),
            6 => (Bleeder, 0),
            _ => (Kill, 0),
        },
        InjuryColumn::Neck => match roll {
            1 | 2 => (Bleeder, 2),
            3 | 4 => (FleshWound, 0),
            5 | 6 => (Paralysed, 0),
            _ => (Kill, 0),
        },
        InjuryColumn::Chest => match roll {
            1 => (Stun, 0),
            2 => (Wind, 0),
            3 => (Bleeder, 0),
            4 => (FleshWound, 0),
            5 => (Fracture, 0),
            6 => (Puncture, 0),
            _ => (Kill, 0),
        },
        InjuryColumn::Legs => match roll {
            1 => (Bleeder, 0),
            2 => (Balance, 0),
            3 => (Fracture, 0),
            4 | 6 => (Broken, 0),
            5 => (Foot, 0),
            _ => (Sever, 0),
        },
        InjuryColumn::Arms => match roll {
            1 | 3 => (Bleeder, 0),
            2 => (FleshWound, 0),
            4 => (Hand, 0),
            5 => (Fracture, 0),
            6 => (Broken, 0),
            _ => (Sever, 0),
        },
        InjuryColumn::Groin => match roll {
            1 | 2 => (Bleeder, 2),
            3 | 4 => (FleshWound, 0),
            5 | 6 => (Maim, 0),
            _ => (Kill, 0),
        },
    }
}

/// What an effect does at once and while it lasts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mechanics {
    /// Extra physical ranks lost at once.
    pub physical: u32,
    /// Mental ranks lost at once.
    pub mental: u32,
    /// Action dice burnt (turned into 1s) at once and every round until healed.
    pub burn: u32,
    /// Dice off every roll.
    pub all_rolls: u32,
}

/// The standing mechanics of an effect (rolls it calls for are made by the decider).
pub fn mechanics(effect: InjuryEffect) -> Mechanics {
    use InjuryEffect::*;
    let (physical, mental, burn, all_rolls) = match effect {
        Stun | Unconscious | Hand | Foot => (0, 0, 1, 0),
        Sight | Sound => (0, 1, 0, 0),
        Balance => (0, 1, 2, 0),
        Kill => (0, 2, 0, 0),
        FleshWound | Broken => (1, 0, 0, 0),
        Wind => (0, 1, 2, 0),
        Puncture => (1, 0, 1, 1),
        Sever => (2, 0, 2, 2),
        Maim => (0, 1, 1, 1),
        Fracture | Bleeder | Paralysed => (0, 0, 0, 0),
    };
    Mechanics { physical, mental, burn, all_rolls }
}

use super::rolls::RollKind;

/// Dice an effect at `location` takes off a roll of `kind`, beyond its all-roll penalty:
/// Sight −1d to visual rolls; Sound and Balance −2d to casting; a Fracture −2d to rolls using the
/// area (an arm: attacks, blocks, parries; a leg: dodges and DEX; the head: Mind and Will; the
/// chest: BODY); a Foot or a broken leg −2d to DEX (movement).
pub fn penalty(effect: InjuryEffect, location: Location, kind: RollKind) -> u32 {
    use InjuryEffect::*;
    let scoped = match effect {
        Sight => kind.visual().then_some(1),
        Sound | Balance => (kind == RollKind::Casting).then_some(2),
        Fracture => {
            let uses = match location.column() {
                InjuryColumn::Arms => matches!(kind, RollKind::Attack | RollKind::Block | RollKind::Parry),
                InjuryColumn::Legs => matches!(kind, RollKind::Dodge | RollKind::Dex),
                InjuryColumn::Head => matches!(kind, RollKind::Mind | RollKind::Will),
                InjuryColumn::Chest => kind == RollKind::Body,
                InjuryColumn::Neck | InjuryColumn::Groin => false,
            };
            uses.then_some(2)
        }
        Foot => (kind == RollKind::Dex).then_some(2),
        Broken if location.leg() => (kind == RollKind::Dex).then_some(2),
        _ => None,
    };
    scoped.unwrap_or(0) + mechanics(effect).all_rolls
}
