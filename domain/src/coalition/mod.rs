//! The Coalition Wargame (seed 003): the strategic campaign and its battles.
//!
//! This release holds the battle decided by the Battle Judge (seed 003 §4.2–4.3); the campaign
//! map, turns and movement follow in their own modules.

pub mod army;
pub mod battle;
pub mod campaign;
pub mod days;
pub mod map;
pub mod movement;
pub mod orders;
pub mod rank;
pub mod setup;
