//! Test fixtures that more than one crate's tests use, written once: a dev-dependency of
//! `herald-domain` and `herald-projections`, never of production code.
//!
//! It depends on the domain only (and `chrono` for the fixed command time), so it is as pure as
//! the domain: what a crate's tests need beyond that (a store, envelopes) stays in that crate's
//! `tests/`.

pub mod harness;
pub mod warmachine;
