//! Herald's read models: state folded from the event log, filtered by who is reading.
//!
//! Projections never roll dice and never decide: they fold events the deciders produced, with
//! each stream's registered ruleset ([`herald_domain::registry`]). What a reader may see of a
//! stream or an event is the ruleset's to say (its view and its event redaction take a
//! [`Viewer`]); this crate applies it to every event it serves.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod catalog;
pub mod events;
pub mod snapshot;

pub use catalog::{Catalog, Entry};
pub use events::{label_visible, ActorView, EventFilter, EventView, TokenFacts, TokenState, SYSTEM_ACTOR};
pub use herald_domain::Viewer;
pub use snapshot::{Snapshot, SnapshotError};
