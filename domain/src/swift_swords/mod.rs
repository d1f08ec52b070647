//! Swift Swords Tactica (seed 004): zone combat refereed end to end — action dice and the
//! countdown, success counting at the Superiority Level, Dodge, Block and Parry pools, damage
//! codes, States and ranks, injuries, fear, mobs, flyers and chariots.
//!
//! The rules that are pure arithmetic live in their own modules (`action_dice`, `defence`,
//! `damage`, `injury`, `ranks`, `rolls`, `zones`, `flight`, `chariot`, `formation`, `fear`,
//! `healing`, `countdown`) so each can be checked against the seed's worked examples; `battle`
//! is the decider that applies them to an encounter.

pub mod action_dice;
pub mod battle;
pub mod chariot;
pub mod countdown;
pub mod damage;
pub mod defence;
pub mod fear;
pub mod figure;
pub mod flight;
pub mod formation;
pub mod healing;
pub mod injury;
pub mod limits;
pub mod options;
pub mod picture;
pub mod ranks;
pub mod rolls;
pub mod ruleset;
pub mod sheet;
pub mod view;
pub mod zones;
