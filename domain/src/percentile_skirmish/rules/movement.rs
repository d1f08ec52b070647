//! How far a mini may move in a turn (seed 002 "RUNNING", "ROAD BONUS", "CROSSING WATER",
//! "Speed", "Slow").
//!
//! Herald's order: the movement value with the speed and slow spells' ±1″ (never below 0),
//! × 1.5 when running, ÷ 2 for a turn in penalising water, + 1″ for a movement that begins and
//! ends on a road. Movement may be split within the mini's round (seed 002 "TURN"), so the
//! allowance bounds everything the mini moved this turn.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// "When running, the mini can move 1.5 times its normal movement value" (seed 002 "RUNNING").
pub const RUNNING_FACTOR: f64 = 1.5;
/// "Can add 1″ to its movement" (seed 002 "ROAD BONUS").
pub const ROAD_BONUS_INCHES: f64 = 1.0;

/// A turn's movement allowance as worked out, recorded with each move.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishAllowance)]
#[schema(example = json!({"movement": 5.0, "running": false, "in_water": false, "road_bonus": true, "inches": 6.0}))]
pub struct Allowance {
    /// The movement value with the speed and slow spells applied.
    pub movement: f64,
    /// Running: × 1.5.
    pub running: bool,
    /// Travelled through penalising water this turn: ÷ 2.
    pub in_water: bool,
    /// Began and ends its movement on a road: + 1″.
    pub road_bonus: bool,
    /// The inches the mini may move this turn in all.
    pub inches: f64,
}

/// The allowance for a movement value of `movement` (spells applied).
pub fn allowance(movement: f64, running: bool, in_water: bool, road_bonus: bool) -> Allowance {
    let mut inches = movement.max(0.0);
    if running {
        inches *= RUNNING_FACTOR;
    }
    if in_water {
        inches /= 2.0;
    }
    if road_bonus {
        inches += ROAD_BONUS_INCHES;
    }
    Allowance { movement: movement.max(0.0), running, in_water, road_bonus, inches }
}
