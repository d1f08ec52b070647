//! PartialMove (seed 003 §3.3.2): an army that cannot enter its target gets "as close as
//! possible" to it.
//!
//! The seed leaves the exact steps to the judge; Herald's deterministic default:
//! - every army that stays or enters its target is placed first: "the armies that intentionally
//!   tried to enter a square will be given priority over armies carrying out a partial move";
//! - partial moves are then placed one by one in §3.3.1 order (closer to its target first, then
//!   earlier post, then earlier line);
//! - the candidates are the squares within 3 steps of the start (terrain does not restrict
//!   movement), or, for a routed move, the squares of its route before the target (§3.2.2.4);
//!   never the blocked target itself, never a square a friendly army ends in, and never one that
//!   already holds two other teams;
//! - the best candidate avoids starting a battle the player did not order (a square with no
//!   enemy first), then is nearest the target, then takes fewest steps, then comes first by row
//!   and column;
//! - an army with no candidate cannot move anywhere and stays (the caller then settles the turn
//!   again with that army standing still).

use std::collections::BTreeMap;

use super::plan::{team_index, Fate, Id, Intent, Turn};
use super::route::MAX_STEPS;
use super::types::ArmyPosition;
use crate::coalition::map::{Map, Square};

/// Teams present on a square, indexed by [`team_index`].
type Present = [bool; 3];

/// Place every army of this pass; returns the armies whose partial move found no square.
pub(super) fn place(map: &Map, armies: &[&ArmyPosition], intents: &[Intent], turn: &mut Turn) -> Vec<Id> {
    let mut occupied: BTreeMap<Square, Present> = BTreeMap::new();
    let mut partials = Vec::new();
    for (id, fate) in turn.fate.iter().enumerate() {
        let square = match fate {
            Fate::Stay => armies[id].square,
            Fate::Enter { target } => *target,
            Fate::Partial { target } => {
                partials.push((super::claims::claim_key(armies, intents, id, *target), id, *target));
                continue;
            }
        };
        turn.finals[id] = square;
        occupied.entry(square).or_default()[usize::from(team_index(armies[id].team))] = true;
    }
    partials.sort();
    let mut stuck = Vec::new();
    for (_, id, target) in partials {
        let team = usize::from(team_index(armies[id].team));
        match best_square(
            map,
            armies[id].square,
            target,
            intents[id].plan().filter(|plan| plan.routed).map(|plan| plan.route.as_slice()),
            team,
            &occupied,
        ) {
            Some(square) => {
                turn.finals[id] = square;
                occupied.entry(square).or_default()[team] = true;
            }
            None => {
                turn.finals[id] = armies[id].square;
                stuck.push(id);
            }
        }
    }
    stuck
}

/// The square a partial move ends in, by the default above.
fn best_square(
    map: &Map,
    start: Square,
    target: Square,
    route: Option<&[Square]>,
    team: usize,
    occupied: &BTreeMap<Square, Present>,
) -> Option<Square> {
    candidates(map, start, target, route)
        .into_iter()
        .filter(|(square, _)| *square != target)
        .filter_map(|(square, steps)| {
            let present = occupied.get(&square).copied().unwrap_or_default();
            let others = present.iter().enumerate().filter(|(index, here)| **here && *index != team).count();
            (!present[team] && others < 2).then_some(((others > 0, square.distance(target), steps, square), square))
        })
        .min()
        .map(|(_, square)| square)
}

/// Squares the army could stop on, with the steps to reach them.
fn candidates(map: &Map, start: Square, target: Square, route: Option<&[Square]>) -> Vec<(Square, u32)> {
    if let Some(route) = route {
        let before = route.iter().position(|square| *square == target).unwrap_or(route.len());
        return route.iter().take(before).zip(0u32..).map(|(square, steps)| (*square, steps)).collect();
    }
    within_reach(map, start)
}

/// Every square on the map within [`MAX_STEPS`] orthogonal steps of `start`, with its distance.
pub(super) fn within_reach(map: &Map, start: Square) -> Vec<(Square, u32)> {
    let reach = i16::try_from(MAX_STEPS).unwrap_or(3);
    let mut squares = Vec::new();
    for dr in -reach..=reach {
        let spare = reach - dr.abs();
        for dc in -spare..=spare {
            let (row, column) = (i16::from(start.row) + dr, i16::from(start.column) + dc);
            let (Ok(row), Ok(column)) = (u8::try_from(row), u8::try_from(column)) else { continue };
            let square = Square { row, column };
            if map.contains(square) {
                squares.push((square, start.distance(square)));
            }
        }
    }
    squares
}
