//! Rule violations: stable codes clients branch on, a message a player understands, and the rule.

use serde::{Deserialize, Serialize};

/// A command the rules refuse (DESIGN.md "The decider").
///
/// `code` is stable (`coalition.battle.strategy_after_deadline`) and never reworded; `message`
/// is for people; `rule` names the source (`seed 003 §4.1.1`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error, utoipa::ToSchema)]
#[error("{message} ({rule})")]
pub struct RuleError {
    /// Stable, dotted error code.
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
    /// Where the rule comes from, as `seed NNN §x.y` or `herald: <doc>` for service rules.
    pub rule: String,
    /// Whether the actor lacked the authority, rather than the command breaking a game rule.
    #[serde(default)]
    pub forbidden: bool,
}

impl RuleError {
    /// A rule violation with its code, message and rule reference.
    pub fn new(code: impl Into<String>, message: impl Into<String>, rule: impl Into<String>) -> Self {
        Self { code: code.into(), message: message.into(), rule: rule.into(), forbidden: false }
    }

    /// The actor may not do this (the API answers 403, not 422).
    pub fn forbidden(code: impl Into<String>, message: impl Into<String>, rule: impl Into<String>) -> Self {
        Self { forbidden: true, ..Self::new(code, message, rule) }
    }
}
