//! Warmachine (seed 000): stat cards, weapons, damage grids, the table and its geometry.
//!
//! This is the pure-domain foundation; the decider and API come later.

pub mod model;
pub mod rolls;
pub mod table;
