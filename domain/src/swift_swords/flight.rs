//! Flying (seed 004 "Flying"): speed, turn rate and dive, facing on the zone grid, circling and
//! landing.
//!
//! "~2/2/3" is a flyer of speed 2 (zones per action, at least one or it is on the ground), turn
//! rate 2 (45° facing changes per action) and dive 3. The seed says the dive is "a value to be
//! added to the base Speed" and, of the same flyer, that "it can go to a maximum speed of 3
//! zones during a dive": Herald reads the dive as the total (the example), and the battle option
//! `dive_adds_to_speed` takes the other reading.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::zones::{Direction, ZoneMap};

/// A flyer's extra values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsFlight)]
pub struct FlightSpec {
    /// Zones it flies per action (at least 1 to stay flying).
    pub speed: u8,
    /// 45° turns per action.
    pub turn_rate: u8,
    /// Its dive.
    pub dive: u8,
}

/// One step of a flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = SwiftSwordsFlightStep)]
pub enum FlightStep {
    /// Turn to a new facing (each 45° is one turn).
    Turn {
        /// The new facing.
        to: Direction,
    },
    /// Fly one zone ahead.
    Forward,
}

/// The turns a flyer needs to circle its zone and stay flying ("A turn rate of 6 means the
/// flyer is able to circle the zone it is in without leaving and still count as flying").
pub const CIRCLE_TURNS: u32 = 6;

/// Where a flight ends and what it spent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightPlan {
    /// Every zone entered, in order.
    pub zones: Vec<String>,
    /// The final facing.
    pub facing: Direction,
    /// 45° turns made.
    pub turns: u32,
    /// Whether it is still flying afterwards.
    pub flying: bool,
}

/// Why a flight cannot be flown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlightRefusal {
    /// More zones than the speed (or dive) allows.
    TooFar {
        /// Zones asked.
        zones: u32,
        /// Zones allowed.
        allowed: u32,
    },
    /// More turns than the turn rate.
    TooManyTurns {
        /// Turns asked.
        turns: u32,
        /// The turn rate.
        allowed: u32,
    },
    /// A step leaves the battlefield.
    OffTheMap,
    /// Circling needs a turn rate of 6.
    CannotCircle,
}

/// A flight as asked.
#[derive(Debug, Clone, Copy)]
pub struct Flight<'a> {
    /// Turns and forward steps, in order.
    pub steps: &'a [FlightStep],
    /// A dive.
    pub dive: bool,
    /// Circling the zone.
    pub circle: bool,
    /// The battle reads the dive as added to the speed.
    pub dive_adds_to_speed: bool,
}

/// Plan `flight` from `zone` facing `facing`.
///
/// Circling keeps a flyer in the air without leaving its zone; a flight that moves no zone and
/// does not circle lands (or hovers: either way it counts as on the ground).
pub fn plan(
    map: &ZoneMap,
    spec: &FlightSpec,
    zone: &str,
    facing: Direction,
    flight: Flight,
) -> Result<FlightPlan, FlightRefusal> {
    let Flight { steps, dive, circle, dive_adds_to_speed } = flight;
    let mut turns = 0;
    let mut facing_now = facing;
    for step in steps {
        if let FlightStep::Turn { to } = step {
            turns += facing_now.turns_to(*to);
            facing_now = *to;
        }
    }
    let moved =
        u32::try_from(steps.iter().filter(|step| matches!(step, FlightStep::Forward)).count()).unwrap_or(u32::MAX);
    let allowed = match (dive, dive_adds_to_speed) {
        (false, _) => u32::from(spec.speed),
        (true, false) => u32::from(spec.speed.max(spec.dive)),
        (true, true) => u32::from(spec.speed) + u32::from(spec.dive),
    };
    if moved > allowed {
        return Err(FlightRefusal::TooFar { zones: moved, allowed });
    }
    if circle {
        if u32::from(spec.turn_rate) < CIRCLE_TURNS {
            return Err(FlightRefusal::CannotCircle);
        }
        turns += CIRCLE_TURNS;
    }
    if turns > u32::from(spec.turn_rate) {
        return Err(FlightRefusal::TooManyTurns { turns, allowed: u32::from(spec.turn_rate) });
    }
    let mut here = zone.to_string();
    let mut facing_now = facing;
    let mut zones = Vec::new();
    for step in steps {
        match step {
            FlightStep::Turn { to } => facing_now = *to,
            FlightStep::Forward => {
                let next = map.step(&here, facing_now).ok_or(FlightRefusal::OffTheMap)?;
                here = next.id.clone();
                zones.push(here.clone());
            }
        }
    }
    Ok(FlightPlan { zones, facing: facing_now, turns, flying: moved > 0 || circle })
}
