//! Open combat (seed 002 "Open combat"): each side picks one of three attack options, the
//! triangle decides, and the same pick rolls percentile dice.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One of the three attack options ("3 Attack options: 1-2 Swing to the head 3-4 Thrust to the
/// body 5-6 Parry and counter attack").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishAttackOption)]
#[serde(rename_all = "snake_case")]
pub enum AttackOption {
    /// "Swing to the head" (1–2 on a d6): beats parry and counter attack.
    SwingToTheHead,
    /// "Thrust to the body" (3–4): beats swing to the head.
    ThrustToTheBody,
    /// "Parry and counter attack" (5–6): beats thrust to the body.
    ParryAndCounterAttack,
}

/// What a side submits: an option, or a d6 rolled for it on the seed's 1–6 table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishCombatChoice)]
#[serde(rename_all = "snake_case")]
pub enum CombatChoice {
    /// Swing to the head.
    SwingToTheHead,
    /// Thrust to the body.
    ThrustToTheBody,
    /// Parry and counter attack.
    ParryAndCounterAttack,
    /// Roll a d6 when both sides have chosen: 1–2 swing, 3–4 thrust, 5–6 parry.
    Random,
}

impl CombatChoice {
    /// The option chosen, or `None` for a random pick still to roll.
    pub fn option(self) -> Option<AttackOption> {
        match self {
            Self::SwingToTheHead => Some(AttackOption::SwingToTheHead),
            Self::ThrustToTheBody => Some(AttackOption::ThrustToTheBody),
            Self::ParryAndCounterAttack => Some(AttackOption::ParryAndCounterAttack),
            Self::Random => None,
        }
    }
}

impl AttackOption {
    /// The option a d6 picks: 1–2 swing, 3–4 thrust, 5–6 parry.
    pub fn from_d6(face: u32) -> Self {
        match face {
            1 | 2 => Self::SwingToTheHead,
            3 | 4 => Self::ThrustToTheBody,
            _ => Self::ParryAndCounterAttack,
        }
    }

    /// Whether this option beats `other` ("Swing to the head beats Parry and counter attack;
    /// Thrust to the body beats Swing to the head; Parry and counter attack beats Thrust to the
    /// body").
    pub fn beats(self, other: Self) -> bool {
        matches!(
            (self, other),
            (Self::SwingToTheHead, Self::ParryAndCounterAttack)
                | (Self::ThrustToTheBody, Self::SwingToTheHead)
                | (Self::ParryAndCounterAttack, Self::ThrustToTheBody)
        )
    }
}

/// Who hits in an open combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishExchange)]
#[serde(rename_all = "snake_case")]
pub enum Exchange {
    /// Nobody hits (01–40 on the same pick).
    BothMiss,
    /// Side A, the attacker, hits (its option won, or 41–60 on the same pick).
    AHits,
    /// Side B, the defender, hits (its option won, or 61–80 on the same pick).
    BHits,
    /// Both hit (81–100 on the same pick).
    BothHit,
}

impl Exchange {
    /// "If both pick the same option, then roll percentile dice: 01 - 40: Both miss 41 - 60: A
    /// hits, B misses 61 - 80: B hits, A misses 81 - 100: Both hit".
    pub fn from_percentile(roll: u32) -> Self {
        match roll {
            0..=40 => Self::BothMiss,
            41..=60 => Self::AHits,
            61..=80 => Self::BHits,
            _ => Self::BothHit,
        }
    }

    /// The exchange of two different options: the winner hits, the loser misses (Herald's
    /// reading of "beats"); `None` when they are the same and the percentile dice decide.
    pub fn from_options(a: AttackOption, b: AttackOption) -> Option<Self> {
        if a.beats(b) {
            Some(Self::AHits)
        } else if b.beats(a) {
            Some(Self::BHits)
        } else {
            None
        }
    }

    /// Whether side A (the attacker) hits.
    pub fn a_hits(self) -> bool {
        matches!(self, Self::AHits | Self::BothHit)
    }

    /// Whether side B (the defender) hits.
    pub fn b_hits(self) -> bool {
        matches!(self, Self::BHits | Self::BothHit)
    }
}
