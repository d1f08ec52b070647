//! The dice tape: ChaCha20 output words turned into dice by our own rejection rule.
//!
//! The rule (docs/DICE.md §"Deriving a die") is fixed here rather than borrowed from a library's
//! range sampling, whose algorithm may change between versions and break old replays.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::RuleError;

/// One die drawn from the tape, recorded in the event that used it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Draw {
    /// Index of the first ChaCha20 output word examined for this die (rejected words included).
    pub word: u64,
    /// Number of sides.
    pub sides: u32,
    /// The face rolled, `1..=sides`.
    pub value: u32,
    /// What the die was for ("side A die 3").
    pub purpose: String,
}

/// The die a 32-bit output word gives, or `None` when the rejection rule discards the word.
///
/// A word `w` is rejected while `w >= 2^32 - (2^32 mod n)`, so every face keeps exactly the
/// same number of accepted words; otherwise the face is `1 + w mod n`.
/// A die of 0 sides has no faces: every word is rejected (callers refuse 0 sides before this).
pub fn die_from_word(word: u32, sides: u32) -> Option<u32> {
    if sides == 0 {
        return None;
    }
    let span = 1u64 << 32;
    let limit = span - span % u64::from(sides);
    (u64::from(word) < limit).then(|| 1 + word % sides)
}

/// A stream's dice: a ChaCha20 generator (key = the effective seed, stream 0) and the draws
/// made from it since the tape was positioned.
pub struct DiceTape {
    rng: Option<ChaCha20Rng>,
    draws: Vec<Draw>,
    /// Where a tape without a key stands (a key sealed to a verifier): it refuses to roll but
    /// reports its position, so a command that draws nothing is replayed exactly.
    sealed_at: u64,
}

impl std::fmt::Debug for DiceTape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print key material.
        f.debug_struct("DiceTape")
            .field("seeded", &self.rng.is_some())
            .field("next_word", &self.next_word())
            .field("draws", &self.draws.len())
            .finish()
    }
}

impl DiceTape {
    /// A tape keyed by `effective_seed`, positioned at output word `next_word`.
    pub fn new(effective_seed: [u8; 32], next_word: u64) -> Self {
        let mut rng = ChaCha20Rng::from_seed(effective_seed);
        rng.set_word_pos(u128::from(next_word));
        Self { rng: Some(rng), draws: Vec::new(), sealed_at: 0 }
    }

    /// A tape for a stream without dice: any roll is refused with a rule error.
    pub fn unavailable() -> Self {
        Self::sealed(0)
    }

    /// A tape whose key is sealed to whoever replays it, positioned at `next_word`: any roll is
    /// refused with `dice.no_tape`.
    pub fn sealed(next_word: u64) -> Self {
        Self { rng: None, draws: Vec::new(), sealed_at: next_word }
    }

    /// Index of the next output word the tape will examine.
    pub fn next_word(&self) -> u64 {
        // The word position of a ChaCha20 stream fits in 68 bits; ours never leaves u64.
        self.rng.as_ref().map_or(self.sealed_at, |rng| u64::try_from(rng.get_word_pos()).unwrap_or(u64::MAX))
    }

    /// Draw one die of `sides` sides for `purpose`, recording it.
    pub fn roll(&mut self, sides: u32, purpose: impl Into<String>) -> Result<Draw, RuleError> {
        if sides == 0 {
            return Err(RuleError::new("dice.zero_sides", "a die needs at least one side", "herald: docs/DICE.md"));
        }
        let Some(rng) = self.rng.as_mut() else {
            return Err(RuleError::new(
                "dice.no_tape",
                "this stream has no dice tape to roll from",
                "herald: docs/DICE.md",
            ));
        };
        let word = u64::try_from(rng.get_word_pos()).unwrap_or(u64::MAX);
        let value = loop {
            if let Some(value) = die_from_word(rng.next_u32(), sides) {
                break value;
            }
        };
        let draw = Draw { word, sides, value, purpose: purpose.into() };
        self.draws.push(draw.clone());
        Ok(draw)
    }

    /// Draws made since the tape was positioned, in order.
    pub fn draws(&self) -> &[Draw] {
        &self.draws
    }

    /// Take the recorded draws, leaving the tape's position unchanged.
    pub fn take_draws(&mut self) -> Vec<Draw> {
        std::mem::take(&mut self.draws)
    }
}
