//! The rule of least disturbance (seed 000 "Rule of Least Disturbance"): after a model stops
//! overlapping other bases, the fewest models are moved the least total distance so that no bases
//! overlap.
//!
//! Who moves. "The model that was moving stays in its final position, other models are moved out
//! of the way"; but "If the model that was moving overlaps the base of a model that cannot be
//! moved or if the model that was moving is smaller than the base it overlaps, the moving model is
//! repositioned". So either every model it overlaps must move, or it alone must. The model that was
//! moving is repositioned whatever its `movable` flag says: it has just moved.
//!
//! The discretisation. A model that moves goes in a straight line in one of [`DIRECTIONS`]
//! directions (every 5°, from the table's +x axis counter-clockwise), exactly as far as needed to
//! clear every base that stays put and every base already placed, keeping its base on the table.
//! Models are placed one after another; for up to three moving models every order is tried,
//! beyond that the overlapped models are placed in `bodies` order and extra models after them.
//! The search is exhaustive over those choices with branch and bound on the total distance, within
//! [`SEARCH_BUDGET`] placements per call: past the budget the best options found so far are the
//! answer. What 5° steps cost: clearing one base in open space, the best 5° direction is at most
//! 2.5° off the straight line of centres, which lengthens the move by at most 0.1% of the distance
//! between the two centres (w·(1 − cos 2.5°)).
//!
//! The fewest models. First only the models that must move are tried. If they cannot all be
//! cleared, one more movable model is added, then two ([`MAX_EXTRA_MODELS`]), chosen from the
//! [`MAX_NEIGHBOURS`] movable models nearest to those that must move (never one the moving model
//! overlaps and gave way to). An added model must actually move: one already clear is no help.
//!
//! Ties. Options whose total distance is within [`TIE_INCHES`] of the least are all returned, in
//! a fixed order (by model in `bodies` order, then direction): "randomly determine the option"
//! is the caller's recorded die. Terrain is not considered: the seed only forbids overlapping
//! bases and leaving the table.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::clearance::{directions, forbidden, least_clear, table_reach, ALONG};
use super::{any_overlap, check_bodies, find, Body, LEAST_DISTURBANCE_RULE};
use crate::warmachine::table::{edge_distance, overlaps, Circle, Point, Table};
use crate::RuleError;

/// How many straight-line directions a model may be moved in: every 5 degrees.
pub const DIRECTIONS: usize = 72;
/// At most this many models beyond those that must move may be moved to make room.
pub const MAX_EXTRA_MODELS: usize = 2;
/// The extra models are chosen from this many movable models nearest those that must move.
pub const MAX_NEIGHBOURS: usize = 6;
/// At most this many placements are tried in one call, so the search is bounded.
pub const SEARCH_BUDGET: usize = 50_000;
/// Options whose total distance is within this many inches of the least tie.
pub const TIE_INCHES: f64 = 1e-6;

/// Up to this many moving models, every placement order is tried.
const PERMUTE_UP_TO: usize = 3;
/// A model moved less than this has not moved.
const NO_MOVE: f64 = 1e-9;

/// One model moved to make room (seed 000 "Rule of Least Disturbance").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Relocation {
    /// The model's id.
    pub model: String,
    /// Its base's new centre.
    pub to: Point,
    /// Inches moved, in a straight line.
    pub distance: f64,
}

/// Every minimal way to resolve overlaps after `moved` stopped at its final centre (seed 000
/// "Rule of Least Disturbance"). `bodies` hold current positions, including the moved model's.
///
/// Returns the options that tie for least disturbance (fewest models moved, then least total
/// distance), in a deterministic order; the caller picks one with a recorded die when there is
/// more than one ("randomly determine the option"). With no overlaps the answer is one option
/// with no relocations. See the module documentation for the discretisation.
///
/// Refused: an unknown or duplicated id, a position that is not finite, a base not wholly on the
/// table, two bases other than the moved model's overlapping (only the move may have caused an
/// overlap), and `warmachine.displacement.no_room` when no option is found.
pub fn least_disturbance(table: &Table, bodies: &[Body], moved: &str) -> Result<Vec<Vec<Relocation>>, RuleError> {
    table.validate()?;
    check_bodies(bodies)?;
    let moved_index = find(bodies, moved)?;
    let circles: Vec<Circle> = bodies.iter().map(Body::circle).collect();
    if let Some(body) = bodies.iter().zip(&circles).find(|(_, circle)| !table.contains(circle)).map(|(body, _)| body) {
        return Err(RuleError::new(
            "warmachine.displacement.off_table",
            format!("{} must be wholly on the table", body.id),
            LEAST_DISTURBANCE_RULE,
        ));
    }
    let others: Vec<Circle> =
        circles.iter().enumerate().filter(|(index, _)| *index != moved_index).map(|(_, circle)| *circle).collect();
    if any_overlap(&others) {
        return Err(RuleError::new(
            "warmachine.displacement.overlapping_bases",
            "only the model that was moving may overlap other bases",
            LEAST_DISTURBANCE_RULE,
        ));
    }
    let overlapped: Vec<usize> = (0..bodies.len())
        .filter(|&index| index != moved_index && overlaps(&circles[moved_index], &circles[index]))
        .collect();
    if overlapped.is_empty() {
        return Ok(vec![Vec::new()]);
    }
    let mover = &bodies[moved_index];
    let gives_way = overlapped.iter().any(|&index| !bodies[index].movable || bodies[index].base > mover.base);
    let must = if gives_way { vec![moved_index] } else { overlapped.clone() };
    let pool = neighbours(bodies, &circles, &must, moved_index, &overlapped);

    let directions = directions();
    let mut search = Search { directions: &directions, best: f64::INFINITY, found: Vec::new(), budget: SEARCH_BUDGET };
    for extra in 0..=MAX_EXTRA_MODELS.min(pool.len()) {
        for subset in combinations(pool.len(), extra) {
            let mut moving = must.clone();
            moving.extend(subset.iter().map(|&choice| pool[choice]));
            search.run(table, bodies, &circles, &moving, must.len());
        }
        if !search.found.is_empty() || search.budget == 0 {
            break;
        }
    }
    let options = search.options(bodies, &circles, table);
    if options.is_empty() {
        return Err(RuleError::new(
            "warmachine.displacement.no_room",
            format!("there is no room to clear the bases {moved} overlaps within herald's search bounds"),
            LEAST_DISTURBANCE_RULE,
        ));
    }
    Ok(options)
}

/// The movable models that may be moved as well, nearest (edge to edge) to those that must move
/// first; never the moved model nor a model it overlaps.
fn neighbours(bodies: &[Body], circles: &[Circle], must: &[usize], moved: usize, overlapped: &[usize]) -> Vec<usize> {
    let mut ranked: Vec<(f64, usize)> = (0..bodies.len())
        .filter(|index| {
            *index != moved && bodies[*index].movable && !overlapped.contains(index) && !must.contains(index)
        })
        .map(|index| {
            let near = must.iter().map(|&m| edge_distance(&circles[index], &circles[m])).fold(f64::INFINITY, f64::min);
            (near, index)
        })
        .collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    ranked.into_iter().take(MAX_NEIGHBOURS).map(|(_, index)| index).collect()
}

/// All `k`-element subsets of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn extend(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for next in start..n {
            current.push(next);
            extend(next + 1, n, k, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    extend(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// All orderings of `0..n`, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn extend(n: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == n {
            out.push(current.clone());
            return;
        }
        for next in 0..n {
            if !current.contains(&next) {
                current.push(next);
                extend(n, current, out);
                current.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

/// A model being moved in one search: what blocks it along each direction.
struct Member {
    body: usize,
    centre: Point,
    radius: f64,
    /// Must move (rather than being an extra model moved to make room).
    must: bool,
    /// Per direction, the stretches blocked by bases that stay put, sorted by start.
    blocked: Vec<Vec<(f64, f64)>>,
    /// Per direction, how far it can go and stay on the table.
    reach: Vec<f64>,
    /// No placement of it is shorter than this.
    lower_bound: f64,
}

/// A member placed: where, in which direction, how far.
#[derive(Debug, Clone, Copy)]
struct Placed {
    body: usize,
    radius: f64,
    direction: usize,
    at: Point,
    distance: f64,
}

struct Search<'a> {
    directions: &'a [(f64, f64)],
    best: f64,
    found: Vec<(f64, Vec<Placed>)>,
    budget: usize,
}

impl Search<'_> {
    /// Search the placements of `moving` (the first `must` of them must move) against every other
    /// base staying put.
    fn run(&mut self, table: &Table, bodies: &[Body], circles: &[Circle], moving: &[usize], must: usize) {
        let mut members = Vec::with_capacity(moving.len());
        for (position, &body) in moving.iter().enumerate() {
            let circle = circles[body];
            let mut blocked = Vec::with_capacity(self.directions.len());
            let mut reach = Vec::with_capacity(self.directions.len());
            let mut lower_bound = f64::INFINITY;
            for &direction in self.directions {
                let mut stretches: Vec<(f64, f64)> = (0..bodies.len())
                    .filter(|index| !moving.contains(index))
                    .filter_map(|index| {
                        forbidden(
                            circle.centre,
                            direction,
                            circle.radius + circles[index].radius,
                            circles[index].centre,
                        )
                    })
                    .collect();
                stretches.sort_by(|a, b| a.0.total_cmp(&b.0));
                let limit = table_reach(table, circle.centre, circle.radius, direction);
                let least = least_clear(&stretches);
                if least <= limit + ALONG {
                    lower_bound = lower_bound.min(least);
                }
                blocked.push(stretches);
                reach.push(limit);
            }
            if !lower_bound.is_finite() {
                return; // it cannot be cleared even if nothing else moves
            }
            let must_move = position < must;
            let lower_bound = if must_move { lower_bound } else { 0.0 };
            members.push(Member {
                body,
                centre: circle.centre,
                radius: circle.radius,
                must: must_move,
                blocked,
                reach,
                lower_bound,
            });
        }
        let orders = if members.len() <= PERMUTE_UP_TO {
            permutations(members.len())
        } else {
            vec![(0..members.len()).collect()]
        };
        for order in orders {
            let ordered: Vec<&Member> = order.iter().map(|&index| &members[index]).collect();
            let mut rest = vec![0.0; ordered.len() + 1];
            for level in (0..ordered.len()).rev() {
                rest[level] = rest[level + 1] + ordered[level].lower_bound;
            }
            self.place(&ordered, &rest, &mut Vec::with_capacity(ordered.len()), 0.0);
        }
    }

    /// Place `ordered[placed.len()..]` after `placed`, depth first, shortest candidates first.
    fn place(&mut self, ordered: &[&Member], rest: &[f64], placed: &mut Vec<Placed>, partial: f64) {
        let level = placed.len();
        if level == ordered.len() {
            if partial <= self.best + TIE_INCHES {
                if partial < self.best - TIE_INCHES {
                    let best = partial;
                    self.found.retain(|(total, _)| *total <= best + TIE_INCHES);
                }
                self.best = self.best.min(partial);
                self.found.push((partial, placed.clone()));
            }
            return;
        }
        if partial + rest[level] > self.best + TIE_INCHES || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let member = ordered[level];
        let candidates = self.candidates(member, placed);
        for (direction, distance) in candidates {
            if partial + distance + rest[level + 1] > self.best + TIE_INCHES {
                break;
            }
            let (ux, uy) = self.directions[direction];
            let at = Point::new(member.centre.x + ux * distance, member.centre.y + uy * distance);
            placed.push(Placed { body: member.body, radius: member.radius, direction, at, distance });
            self.place(ordered, rest, placed, partial + distance);
            placed.pop();
        }
    }

    /// Per direction, the least distance that clears the bases staying put and those placed and
    /// stays on the table; shortest first (then by direction). An extra model must really move.
    fn candidates(&self, member: &Member, placed: &[Placed]) -> Vec<(usize, f64)> {
        let mut out = Vec::with_capacity(self.directions.len());
        for (k, &direction) in self.directions.iter().enumerate() {
            let mut stretches = member.blocked[k].clone();
            stretches.extend(
                placed
                    .iter()
                    .filter_map(|other| forbidden(member.centre, direction, member.radius + other.radius, other.at)),
            );
            stretches.sort_by(|a, b| a.0.total_cmp(&b.0));
            let distance = least_clear(&stretches);
            if distance <= member.reach[k] + ALONG && (member.must || distance > NO_MOVE) {
                out.push((k, distance));
            }
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        out
    }

    /// The options tying for least total distance, each sorted by body, in a fixed order and
    /// without duplicates; checked once more against the table and every base.
    fn options(&self, bodies: &[Body], circles: &[Circle], table: &Table) -> Vec<Vec<Relocation>> {
        let key = |moves: &[Placed]| moves.iter().map(|p| (p.body, p.direction)).collect::<Vec<_>>();
        let total = |moves: &[Placed]| moves.iter().map(|p| p.distance).sum::<f64>();
        let mut chosen: Vec<Vec<Placed>> = self
            .found
            .iter()
            .filter(|(total, _)| *total <= self.best + TIE_INCHES)
            .map(|(_, placed)| {
                let mut moves: Vec<Placed> = placed.iter().copied().filter(|p| p.distance > NO_MOVE).collect();
                moves.sort_by_key(|p| p.body);
                moves
            })
            .collect();
        chosen.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| total(a).total_cmp(&total(b))));
        let mut seen = BTreeSet::new();
        let mut options = Vec::new();
        for moves in chosen {
            let spots: Vec<(usize, i64, i64)> =
                moves.iter().map(|p| (p.body, (p.at.x * 1e8).round() as i64, (p.at.y * 1e8).round() as i64)).collect();
            if !seen.insert(spots) {
                continue;
            }
            let mut after = circles.to_vec();
            for p in &moves {
                after[p.body].centre = p.at;
            }
            if any_overlap(&after) || !after.iter().all(|circle| table.contains(circle)) {
                continue;
            }
            options.push(
                moves
                    .iter()
                    .map(|p| Relocation { model: bodies[p.body].id.clone(), to: p.at, distance: p.distance })
                    .collect(),
            );
        }
        options
    }
}
