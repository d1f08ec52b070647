//! Herald's rules: the pure core every ruleset is written in.
//!
//! Nothing in this crate does IO, reads a clock, draws OS randomness or awaits. What a decision
//! needs from the outside world (who acts, when, which dice) arrives in a [`Context`]; what it
//! decides leaves as events. See `ARCHITECTURE.md` for the invariants this crate keeps.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// The `json!` schema examples of whole views (a battle with its figures) nest deeper than
// the default limit of the macro that expands them.
#![recursion_limit = "256"]

pub mod actor;
pub mod caps;
pub mod coalition;
pub mod decider;
pub mod dice;
pub mod dispute;
pub mod error;
pub mod percentile_skirmish;
pub mod registry;
pub mod ruleset;
pub mod svg;
pub mod swift_swords;
pub mod viewer;
pub mod warmachine;
pub mod zone_rpg;

pub use actor::{Actor, Role};
pub use decider::{event_type_of, CommittedKey, Context, Decider, DiceCursor, DiceKey, EventType};
pub use error::RuleError;
pub use ruleset::{in_api_words, AnyRuleset, AnyState, FieldMismatch, Ruleset, StreamKind};
pub use viewer::Viewer;
