//! Crossing water (seed 002 "CROSSING WATER", "Water walk"): which water stops, slows or bars
//! a mini of each size, and where a path meets it.
//!
//! - "Any non-large mini encountering water of any size, must end its movement for that turn at
//!   the water edge"; "any large mini encountering water larger than 1″" likewise.
//! - "Any small mini encountering water larger than 1″, cannot travel across".
//! - "Any mini travelling through water, which suffers a penalty due to their size, has its
//!   movement reduced by 1/2, for the entire turn" — the same water that stops it is the water
//!   that penalises it.
//!
//! Herald's readings: a mini "encounters" water it was not in or at the edge of when the move
//! began (so a mini stopped at the edge wades in on its next move, at half movement); where a
//! road crosses water the road is a bridge, and the water does not count there; "larger than
//! 1″" is wider than 1″ (exactly 1″ is not).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::percentile_skirmish::{
    mini::Size,
    table::{Point, Table, TerrainFeature, EPSILON},
};

/// How a mini meets water: its size, or what the water walk spell makes of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishWaterSense)]
#[serde(rename_all = "snake_case")]
pub enum WaterSense {
    /// A small mini: stopped and slowed by any water, barred by water wider than 1″.
    Small,
    /// A medium mini: stopped and slowed by any water.
    Medium,
    /// A large mini, or a small or medium one under water walk: stopped and slowed by water
    /// wider than 1″.
    Large,
    /// A large mini under water walk: "treats water like clear terrain".
    Clear,
}

impl WaterSense {
    /// How a mini of `size` meets water, with or without water walk (seed 002 "Water walk": "A
    /// small or medium sized mini treats water as if they were a large mini; a large mini treats
    /// water like clear terrain").
    pub fn of(size: Size, water_walk: bool) -> Self {
        match (size, water_walk) {
            (Size::Small, false) => Self::Small,
            (Size::Medium, false) => Self::Medium,
            (Size::Large, false) | (Size::Small | Size::Medium, true) => Self::Large,
            (Size::Large, true) => Self::Clear,
        }
    }

    /// Whether water `width` inches wide stops and slows this mini.
    pub fn penalised_by(self, width: f64) -> bool {
        match self {
            Self::Small | Self::Medium => true,
            Self::Large => width > 1.0 + EPSILON,
            Self::Clear => false,
        }
    }

    /// Whether this mini cannot cross water `width` inches wide at all.
    pub fn barred_by(self, width: f64) -> bool {
        self == Self::Small && width > 1.0 + EPSILON
    }
}

/// Whether `point` is in water that penalises a mini meeting water as `sense` (off any road,
/// which bridges it): such a mini "can only attack if they do not move for that turn".
pub fn in_penalising_water(table: &Table, point: Point, sense: WaterSense) -> Option<&TerrainFeature> {
    if table.on_road(point) {
        return None;
    }
    table.water().find(|water| sense.penalised_by(water.width()) && water.shape.holds(point))
}

/// Where a path went, and what water did to it.
#[derive(Debug, Clone, PartialEq)]
pub enum Walk {
    /// The path as walked: its points from the start (cut at a water's edge when the mini was
    /// stopped there), the water that stopped it, and whether it travelled through water that
    /// penalises it.
    Walked {
        /// The start and every point reached, in order.
        points: Vec<Point>,
        /// The water whose edge ended the movement.
        stopped_at: Option<String>,
        /// Whether it went through penalising water (its movement is halved for the turn).
        through_water: bool,
    },
    /// The path enters water this mini cannot cross.
    Barred {
        /// The water.
        water: String,
        /// Where the path meets its edge.
        edge: Point,
    },
}

/// Walk a mini meeting water as `sense` from `start` through `waypoints` on `table`.
///
/// Each segment is split where it enters or leaves any water or road; each stretch between
/// those points is judged at its middle, so the first stretch in water the mini encounters is
/// found exactly, bridges included. With `barred_stops`, water the mini cannot cross stops it at
/// the edge instead of refusing the path (a fleeing mini cannot choose another route).
pub fn walk(table: &Table, start: Point, waypoints: &[Point], sense: WaterSense, barred_stops: bool) -> Walk {
    let bridged = |point: Point| table.on_road(point);
    // Water the mini is in or at the edge of as it sets out: it does not "encounter" it.
    let set_out_at: Vec<&str> = table
        .water()
        .filter(|water| water.shape.touches(start) && !bridged(start))
        .map(|water| water.name.as_str())
        .collect();
    let mut points = vec![start];
    let mut through_water = false;
    let mut from = start;
    for &to in waypoints {
        let mut cuts = vec![0.0, 1.0];
        for feature in &table.terrain {
            for (enter, leave) in feature.shape.intervals(from, to) {
                cuts.extend([enter.clamp(0.0, 1.0), leave.clamp(0.0, 1.0)]);
            }
        }
        cuts.sort_by(f64::total_cmp);
        cuts.dedup_by(|a, b| (*a - *b).abs() < EPSILON);
        for stretch in cuts.windows(2) {
            let (enter, leave) = (stretch[0], stretch[1]);
            let middle = from.lerp(to, (enter + leave) / 2.0);
            if leave - enter < EPSILON || bridged(middle) {
                continue;
            }
            for water in table.water().filter(|water| sense.penalised_by(water.width()) && water.shape.holds(middle)) {
                let edge = from.lerp(to, enter);
                let barred = sense.barred_by(water.width()) && !water.shape.holds(start);
                if barred && !barred_stops {
                    return Walk::Barred { water: water.name.clone(), edge };
                }
                if barred || !set_out_at.contains(&water.name.as_str()) {
                    if edge.distance(from) > EPSILON {
                        points.push(edge);
                    }
                    return Walk::Walked { points, stopped_at: Some(water.name.clone()), through_water };
                }
                through_water = true;
            }
        }
        points.push(to);
        from = to;
    }
    Walk::Walked { points, stopped_at: None, through_water }
}
