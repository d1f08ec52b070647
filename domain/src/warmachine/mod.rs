//! Warmachine (seed 000): stat cards, weapons, damage grids, the table and its geometry,
//! movement, unintentional movement, the turn, and the battle decider.

pub mod battle;
pub mod displacement;
pub mod model;
pub mod movement;
pub mod rolls;
pub mod table;
