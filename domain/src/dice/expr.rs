//! Dice expressions parsed from text (placeholder until the parser lands).

/// A parsed dice expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceExpr;
/// Why an expression could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid dice expression")]
pub struct ExprError;
/// Options declared before rolling.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RollOptions;
/// The result of a roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollOutcome;
