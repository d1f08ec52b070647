//! Success counting (seed 004 "Attacks"): a roll is a pool of d6, every die at or above the
//! Superiority Level's threshold is a success ("normally 5-6"), and 1s are exposures or a
//! fumble. Every roll the ruleset makes, from attacks to BODY rolls, is a [`PoolRoll`].
//!
//! A characteristic or skill roll passes with at least one success ("roll its BODY dice (4+level)
//! and achieve a success"). An opposed roll (BODY vs BODY) is won by more successes; a tie goes
//! to the one who resists.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    dice::{DiceTape, Draw},
    RuleError,
};

/// The lowest face any Superiority bonus can bring the threshold to: a 1 is never a success.
pub const BEST_THRESHOLD: u8 = 2;

/// The success threshold at `superiority` (5 normally) with `bonus` levels of Superiority:
/// each bonus SL lowers it by one ("5-6 will become 4-6").
pub fn threshold(superiority: u8, bonus: u32) -> u8 {
    let lowered = i64::from(superiority) - i64::from(bonus);
    u8::try_from(lowered.clamp(i64::from(BEST_THRESHOLD), 6)).unwrap_or(6)
}

/// A 1 spent after the roll "as a +1 dice to increase another skill dice, eg: increasing a 3
/// result to a 4" (seed 004 "AD = 1 (1-AD)").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsBump)]
pub struct Bump {
    /// The face raised.
    pub from: u8,
    /// What it became.
    pub to: u8,
}

/// A pool of d6 rolled and counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsPoolRoll)]
pub struct PoolRoll {
    /// What it was for (`attack of roland on goblin-1`).
    pub purpose: String,
    /// Dice rolled.
    pub dice: u32,
    /// The lowest face that is a success.
    pub threshold: u8,
    /// Every die drawn from the tape.
    pub draws: Vec<Draw>,
    /// The faces as counted (after a bump).
    pub faces: Vec<u8>,
    /// A die raised by a 1-AD, if one was spent.
    pub bump: Option<Bump>,
    /// Faces at or above the threshold.
    pub successes: u32,
    /// Faces of 1.
    pub ones: u32,
}

impl PoolRoll {
    /// Whether it scored at least one success.
    pub fn passed(&self) -> bool {
        self.successes > 0
    }

    /// Faces that are neither successes nor 1s: misses a Parry can turn into exposures.
    pub fn misses(&self) -> u32 {
        u32::try_from(self.faces.len()).unwrap_or(u32::MAX).saturating_sub(self.successes + self.ones)
    }

    /// A roll of no dice: fails without touching the tape.
    pub fn empty(purpose: &str, threshold: u8) -> Self {
        Self {
            purpose: purpose.into(),
            dice: 0,
            threshold,
            draws: vec![],
            faces: vec![],
            bump: None,
            successes: 0,
            ones: 0,
        }
    }
}

/// Count successes and 1s in `faces` at `threshold`.
pub fn tally(faces: &[u8], threshold: u8) -> (u32, u32) {
    let successes = faces.iter().filter(|face| **face >= threshold).count();
    let ones = faces.iter().filter(|face| **face == 1).count();
    (u32::try_from(successes).unwrap_or(u32::MAX), u32::try_from(ones).unwrap_or(u32::MAX))
}

/// The die a spent 1 raises: one face short of a success if there is one (a miss becomes a
/// hit), else a 1 (one exposure or fumble die fewer); `None` when raising changes nothing.
pub fn best_bump(faces: &[u8], threshold: u8) -> Option<usize> {
    let short = threshold.saturating_sub(1);
    faces
        .iter()
        .position(|face| *face == short && short >= 1)
        .or_else(|| faces.iter().position(|face| *face == 1 && threshold > 2))
}

/// Apply a bump to `faces`, returning what it did.
pub fn apply_bump(faces: &mut [u8], threshold: u8) -> Option<Bump> {
    let index = best_bump(faces, threshold)?;
    let from = faces[index];
    faces[index] = from + 1;
    Some(Bump { from, to: from + 1 })
}

/// The most dice one roll may take (a service limit well above any pool the rules build).
pub const MAX_DICE: u32 = 60;

/// Roll `dice` d6 for `purpose` at `threshold`, raising one die with a 1 if `bump`.
pub fn roll(tape: &mut DiceTape, dice: u32, threshold: u8, purpose: &str, bump: bool) -> Result<PoolRoll, RuleError> {
    let dice = dice.min(MAX_DICE);
    let mut draws = Vec::new();
    for index in 0..dice {
        let label = if dice == 1 { purpose.to_string() } else { format!("{purpose}, die {}", index + 1) };
        draws.push(tape.roll(6, label)?);
    }
    let mut faces: Vec<u8> = draws.iter().map(|draw| u8::try_from(draw.value).unwrap_or(6)).collect();
    let bump = if bump { apply_bump(&mut faces, threshold) } else { None };
    let (successes, ones) = tally(&faces, threshold);
    Ok(PoolRoll { purpose: purpose.into(), dice, threshold, draws, faces, bump, successes, ones })
}

/// A roll from faces already known (tests and worked examples): the same counting, no tape.
pub fn counted(purpose: &str, faces: &[u8], threshold: u8) -> PoolRoll {
    let (successes, ones) = tally(faces, threshold);
    PoolRoll {
        purpose: purpose.into(),
        dice: u32::try_from(faces.len()).unwrap_or(u32::MAX),
        threshold,
        draws: vec![],
        faces: faces.to_vec(),
        bump: None,
        successes,
        ones,
    }
}

/// Dice left after penalties (never below zero).
pub fn less(dice: u32, penalty: u32) -> u32 {
    dice.saturating_sub(penalty)
}

/// What a roll is for, which decides the injury penalties that apply to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsRollKind)]
pub enum RollKind {
    /// An attack roll.
    Attack,
    /// A Dodge roll.
    Dodge,
    /// A Block roll.
    Block,
    /// A Parry roll.
    Parry,
    /// BODY.
    Body,
    /// DEX (balance, movement, disarm).
    Dex,
    /// Mind.
    Mind,
    /// Will.
    Will,
    /// Soul.
    Soul,
    /// Spirit (fear, panic).
    Spirit,
    /// Another skill.
    Skill,
    /// Casting a spell.
    Casting,
    /// Driving a chariot.
    Driving,
}

impl RollKind {
    /// Whether the roll needs sight ("all visual based rolls (and that means most of them)"):
    /// everything but the inner characteristics.
    pub fn visual(self) -> bool {
        !matches!(self, Self::Body | Self::Mind | Self::Will | Self::Soul | Self::Spirit)
    }
}
