//! Parse errors that say where and what: "at position 4: expected a number or a dice term such
//! as 2d6, found '+'". A decider turns them into a [`RuleError`] with the `?` operator.

use crate::RuleError;

/// Why a dice expression could not be parsed. `position` is a byte offset from 0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExprError {
    /// Nothing but whitespace.
    #[error("the dice expression is empty")]
    Empty,
    /// Longer than [`MAX_LEN`](super::MAX_LEN) bytes.
    #[error("the dice expression is {length} bytes long; at most {max} are accepted")]
    TooLong {
        /// Length of the text.
        length: usize,
        /// The cap.
        max: usize,
    },
    /// A character (or the end) where something else was required.
    #[error("at position {position}: expected {expected}, found {found}")]
    Unexpected {
        /// Where.
        position: usize,
        /// What the grammar allows there.
        expected: &'static str,
        /// What was there: a quoted character or "the end of the expression".
        found: String,
    },
    /// A number above the cap for its place (count, sides, constant, keep/drop, threshold).
    #[error("at position {position}: the {what} may be at most {max}")]
    NumberTooLarge {
        /// Where the number starts.
        position: usize,
        /// Which number ("number of sides").
        what: &'static str,
        /// The cap.
        max: u32,
    },
    /// More dice written than [`MAX_DICE`](super::MAX_DICE), over all terms.
    #[error("at position {position}: the expression rolls more than {max} dice")]
    TooManyDice {
        /// Where the term that went over the cap starts.
        position: usize,
        /// The cap.
        max: u32,
    },
    /// More terms than [`MAX_TERMS`](super::MAX_TERMS).
    #[error("at position {position}: the expression has more than {max} terms")]
    TooManyTerms {
        /// Where the term over the cap starts.
        position: usize,
        /// The cap.
        max: usize,
    },
    /// Well-formed text that asks for something meaningless (`0d6`, `d0`, `2d6kh3`, `d1!`).
    #[error("at position {position}: {message}")]
    Invalid {
        /// Where.
        position: usize,
        /// What is wrong, for a player.
        message: String,
    },
}

impl ExprError {
    /// The byte offset the error names, if any.
    pub fn position(&self) -> Option<usize> {
        match self {
            ExprError::Empty | ExprError::TooLong { .. } => None,
            ExprError::Unexpected { position, .. }
            | ExprError::NumberTooLarge { position, .. }
            | ExprError::TooManyDice { position, .. }
            | ExprError::TooManyTerms { position, .. }
            | ExprError::Invalid { position, .. } => Some(*position),
        }
    }
}

impl From<ExprError> for RuleError {
    fn from(error: ExprError) -> Self {
        RuleError::new("dice.malformed_expression", error.to_string(), "herald: docs/DICE.md \"Dice expressions\"")
    }
}
