//! Herald's HTTP API, its application service and the `herald` command line.
//!
//! Only this crate knows HTTP, JSON DTOs, the clock and OS randomness. Handlers are thin: they
//! authenticate, parse, and hand a command to [`app::Service`], which loads the stream, folds
//! it, decides with the dice tape, appends with the expected version and updates projections.

pub mod allocator;
pub mod app;
pub mod archive;
pub mod auth;
pub mod cli;
pub mod config;
pub mod http;
pub mod limits;
pub mod live;
pub mod metrics;
pub mod openapi;
pub mod problem;
pub mod router;
pub mod routes;
pub mod snapshots;
pub mod startup;
pub mod state;
pub mod store;
pub mod telemetry;
pub mod unknown_fields;
pub mod views;
pub mod webhooks;
