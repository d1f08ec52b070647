//! Herald's read models: state folded from the event log, filtered by who is reading.
//!
//! Projections never roll dice and never decide: they fold events the deciders produced.
//! Hidden information (sealed strategies, the secret size formula, unrevealed seeds) is
//! filtered here, by the reader's role, before anything leaves the service.
#![deny(missing_docs)]

pub mod battle_view;
pub mod campaign_view;
pub mod catalog;
pub mod events;
pub mod map_svg;
pub mod redact;

pub use battle_view::BattleView;
pub use catalog::{Catalog, Current, StreamKind};
pub use events::{EventFilter, EventView};
pub use redact::Viewer;
