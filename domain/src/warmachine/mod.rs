//! Warmachine (seed 000): stat cards, weapons, damage grids, the table and its geometry,
//! movement, unintentional movement, the turn, the battle decider, its view and its picture.

pub mod battle;
pub mod displacement;
pub mod limits;
pub mod model;
pub mod movement;
pub mod picture;
pub mod rolls;
pub mod ruleset;
pub mod sheet;
pub mod table;
pub mod view;
