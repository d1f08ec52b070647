//! Herald's rules: the pure core every ruleset is written in.
//!
//! Nothing in this crate does IO, reads a clock, draws OS randomness or awaits. What a decision
//! needs from the outside world (who acts, when, which dice) arrives in a [`Context`]; what it
//! decides leaves as events. See `ARCHITECTURE.md` for the invariants this crate keeps.
#![deny(missing_docs)]

pub mod actor;
pub mod coalition;
pub mod decider;
pub mod dice;
pub mod error;
pub mod warmachine;

pub use actor::{Actor, Role};
pub use decider::{Context, Decider, DiceCursor, EventType};
pub use error::RuleError;
