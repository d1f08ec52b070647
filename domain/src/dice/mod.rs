//! Dice that anyone can check: a seeded ChaCha20 tape, a documented die derivation, recorded
//! draws, and dice expressions parsed from text. `docs/DICE.md` is the specification.

pub mod expr;
pub mod judge;
pub mod sealed;
pub mod seed;
pub mod tape;

pub use expr::{DiceExpr, DieSource, ExprError, RollOptions, RollOutcome, RolledDie};
pub use judge::{Halving, JudgeRoll, JudgeRolled};
pub use sealed::{
    check_contribution_caps, EntropyContributed, SealedDice, SeedRevealed, MAX_CONTRIBUTIONS, MAX_CONTRIBUTIONS_EACH,
};
pub use tape::{die_from_word, DiceTape, Draw};
