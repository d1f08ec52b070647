//! Herald's read models: state folded from the event log, filtered by who is reading.
//!
//! Projections never roll dice and never decide: they fold events the deciders produced.
//! Hidden information (sealed strategies, the secret size formula, unrevealed seeds) is
//! filtered here, by the reader's role, before anything leaves the service. Warmachine battles
//! hide nothing: their view ([`WarmachineView`]) and table drawing ([`table_svg()`]) are the same
//! for every reader.
#![deny(missing_docs)]
// The `json!` schema examples of whole views (a warmachine battle with a model) nest deeper
// than the default limit of the macro that expands them.
#![recursion_limit = "256"]

pub mod battle_view;
pub mod campaign_view;
pub mod catalog;
pub mod events;
pub mod map_svg;
pub mod redact;
pub mod table_svg;
pub mod warmachine_view;
mod xml;

pub use battle_view::BattleView;
pub use catalog::{Catalog, Current, StreamKind, WarmachineEntry};
pub use events::{EventFilter, EventView};
pub use redact::Viewer;
pub use table_svg::table_svg;
pub use warmachine_view::WarmachineView;
