//! The rule of least disturbance (seed 000 "Rule of Least Disturbance"): after a model stops
//! overlapping other bases, the fewest models are moved the least total distance so that no bases
//! overlap, no base ends off the table and none ends inside an obstruction.
//!
//! Who moves. "The model that was moving stays in its final position, other models are moved out
//! of the way"; but "If the model that was moving overlaps the base of a model that cannot be
//! moved or if the model that was moving is smaller than the base it overlaps, the moving model is
//! repositioned". So either every model it overlaps must move, or it alone must. The model that was
//! moving is repositioned whatever its `movable` flag says: it has just moved.
//!
//! Where a model may end. Wholly on the table (seed 000 "Beyond the Play Area"), overlapping no
//! base and no obstruction: "models must be positioned so that no bases overlap", in "a legal
//! position" (seed 000 "Falling"), and a base never stands inside an obstruction (seed 000
//! "Movement": it cannot move through one). Obstacles, hazards and elevated surfaces may be ended
//! on, as an advance may end on them; the model then stands on the surface under its centre.
//!
//! Where a model goes: the exact least distance. One model moving alone goes to the nearest place
//! it may stand, found exactly (no direction grid): straight away from the one base it overlaps
//! (by r1 + r2 − d), or against two things at once (a crossing of two grown outlines), or against
//! an obstruction or the table edge — see [`super::clearance`] for why those spots contain the
//! nearest one. Several models are placed one after another, each given those placed before it:
//! the last one at one of its exact nearest spots, the ones before it at those or at the first
//! clear spot in each of [`DIRECTIONS`] directions (to leave room for the rest). For up to three
//! moving models every order is tried, beyond that the overlapped models are placed in `bodies`
//! order and extra models after them. The search is a branch and bound on the total distance over
//! those spots, within [`SEARCH_BUDGET`] tests of a spot against a base or obstruction per call:
//! past the budget the best options found so far are the answer. Exact when one model moves, and
//! when the models moved end clear of each other; when they end pressed against each other the
//! least total is the least over those one-by-one placements (a joint move that shifts every
//! model a little is not searched) — never more than straight moves on a 5° grid would give,
//! since every such move is among them or bettered by the last model's exact spot.
//!
//! The fewest models. First only the models that must move are tried. If they cannot all be
//! cleared, one more movable model is added, then two ([`MAX_EXTRA_MODELS`]), chosen from the
//! [`MAX_NEIGHBOURS`] movable models nearest to those that must move (never one the moving model
//! overlaps and gave way to). An added model must actually move: one already clear is no help.
//!
//! Ties. Options whose total distance is within [`TIE_INCHES`] of the least (an exact tie, up to
//! rounding) are all returned, in a fixed order (by model in `bodies` order, then the direction
//! moved counter-clockwise from +x, then distance): "randomly determine the option" is the
//! caller's recorded die. A model centred exactly over the one it must clear can go any way:
//! [`DIRECTIONS`] of those ways, every 5°, are offered (with any that touch the table edge or an
//! obstruction at the same distance).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::clearance::{Clearance, Region, Room, Spot};
use super::{any_overlap, check_bodies, find, Body, LEAST_DISTURBANCE_RULE};
use crate::warmachine::table::{edge_distance, overlaps, Circle, Point, Table, TerrainKind};
use crate::RuleError;

/// How many ways are offered when a model is centred exactly over the one it must clear (every
/// direction ties): every 5 degrees.
pub const DIRECTIONS: usize = 72;
/// At most this many models beyond those that must move may be moved to make room.
pub const MAX_EXTRA_MODELS: usize = 2;
/// The extra models are chosen from this many movable models nearest those that must move.
pub const MAX_NEIGHBOURS: usize = 6;
/// For each model placed, the spots are found among this many outlines (of bases, obstructions,
/// the table edges) nearest it: exact while fewer come within its least distance.
pub const MAX_NEAR_CURVES: usize = 48;
/// At most about this many steps of work (a spot tested against a base or an obstruction, two
/// outlines crossed, a spot listed) are done in one call, so the search is bounded in time (a few
/// tenths of a second at worst in a release build).
pub const SEARCH_BUDGET: usize = 10_000_000;
/// Options whose total distance is within this many inches of the least tie: exact ties, up to
/// floating-point rounding.
pub const TIE_INCHES: f64 = 1e-9;

/// Up to this many moving models, every placement order is tried.
const PERMUTE_UP_TO: usize = 3;
/// A model moved less than this has not moved.
const NO_MOVE: f64 = 1e-9;
/// Two options placing the same models within this of each other are the same option.
const SAME_OPTION: f64 = 1e-9;

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
/// with no relocations. No option leaves a base off the table or overlapping an obstruction of
/// `table`. See the module documentation for the search.
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

    let mut search = Search { best: f64::INFINITY, found: Vec::new(), budget: SEARCH_BUDGET };
    for extra in 0..=MAX_EXTRA_MODELS.min(pool.len()) {
        for subset in combinations(pool.len(), extra) {
            let mut moving = must.clone();
            moving.extend(subset.iter().map(|&choice| pool[choice]));
            search.run(table, &circles, &moving, must.len());
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

/// A model being moved in one search.
struct Member {
    body: usize,
    start: Point,
    radius: f64,
    /// Must move (rather than being an extra model moved to make room).
    must: bool,
    /// The table room and what stays put (other bases, obstructions), seen from its start.
    clearance: Clearance,
    /// No placement of it is shorter than this.
    lower_bound: f64,
}

/// A member placed: where and how far.
#[derive(Debug, Clone, Copy)]
struct Placed {
    body: usize,
    radius: f64,
    at: Point,
    distance: f64,
    /// The direction moved, counter-clockwise from +x in [0, 2π): the order of tied options.
    angle: f64,
}

struct Search {
    best: f64,
    found: Vec<(f64, Vec<Placed>)>,
    budget: usize,
}

/// What a base of `radius` must keep clear of besides the bases in `bodies` that stay put: every
/// obstruction on the table (seed 000 "Movement": a base never stands inside one).
fn obstructions(table: &Table, radius: f64) -> impl Iterator<Item = Region> + '_ {
    table
        .terrain
        .iter()
        .filter(|feature| feature.kind == TerrainKind::Obstruction)
        .map(move |feature| Region::obstruction(&feature.shape, radius))
}

impl Search {
    /// Search the placements of `moving` (the first `must` of them must move) against every other
    /// base staying put, the obstructions and the table edges.
    fn run(&mut self, table: &Table, circles: &[Circle], moving: &[usize], must: usize) {
        let mut members = Vec::with_capacity(moving.len());
        for (position, &body) in moving.iter().enumerate() {
            let circle = circles[body];
            let staying = (0..circles.len())
                .filter(|index| !moving.contains(index))
                .map(|index| Region::base(&circles[index], circle.radius));
            let regions: Vec<Region> = staying.chain(obstructions(table, circle.radius)).collect();
            let clearance = Clearance::new(circle.centre, Room::new(table, circle.radius), regions);
            let must_move = position < must;
            let lower_bound = if must_move {
                match clearance.spots(&[], f64::INFINITY, false, &mut self.budget).first() {
                    Some(nearest) => nearest.distance,
                    None => return, // it cannot be cleared even if nothing else moves
                }
            } else {
                0.0
            };
            members.push(Member {
                body,
                start: circle.centre,
                radius: circle.radius,
                must: must_move,
                clearance,
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

    /// Place `ordered[placed.len()..]` after `placed`, depth first, nearest spots first.
    fn place(&mut self, ordered: &[&Member], rest: &[f64], placed: &mut Vec<Placed>, partial: f64) {
        let level = placed.len();
        if level == ordered.len() {
            self.record(partial, placed);
            return;
        }
        if partial + rest[level] > self.best + TIE_INCHES || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let member = ordered[level];
        let last = level + 1 == ordered.len();
        for spot in self.spots(member, placed, partial + rest[level + 1], !last) {
            if partial + spot.distance + rest[level + 1] > self.best + TIE_INCHES {
                break;
            }
            let angle = direction(member.start, spot.at);
            placed.push(Placed {
                body: member.body,
                radius: member.radius,
                at: spot.at,
                distance: spot.distance,
                angle,
            });
            self.place(ordered, rest, placed, partial + spot.distance);
            placed.pop();
        }
    }

    /// The spots `member` may take after `placed`, nearest first, no farther than could still tie
    /// the best total (`committed` is the distance already spent or bound to be spent by others).
    /// A model placed before others also tries the first clear spot in each of [`DIRECTIONS`]
    /// directions (`sweep`), which may leave them more room; the last one placed goes to one of
    /// its exact nearest spots. An extra model must really move.
    fn spots(&mut self, member: &Member, placed: &[Placed], committed: f64, sweep: bool) -> Vec<Spot> {
        let extra: Vec<Region> = placed
            .iter()
            .map(|other| Region::base(&Circle { centre: other.at, radius: other.radius }, member.radius))
            .collect();
        let limit = if self.best.is_finite() { self.best + TIE_INCHES - committed } else { f64::INFINITY };
        let mut spots = member.clearance.spots(&extra, limit, sweep, &mut self.budget);
        if !member.must {
            spots.retain(|spot| spot.distance > NO_MOVE);
        }
        spots
    }

    /// Keep a complete placement if it ties or beats the best so far.
    fn record(&mut self, total: f64, placed: &[Placed]) {
        if total > self.best + TIE_INCHES {
            return;
        }
        if total < self.best - TIE_INCHES {
            self.found.retain(|(kept, _)| *kept <= total + TIE_INCHES);
        }
        self.best = self.best.min(total);
        self.found.push((total, placed.to_vec()));
    }

    /// The options tying for least total distance, each sorted by body, in a fixed order and
    /// without duplicates; checked once more against the table, every base and every obstruction.
    fn options(&self, bodies: &[Body], circles: &[Circle], table: &Table) -> Vec<Vec<Relocation>> {
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
        chosen.sort_by(|a, b| order_of(a, b));
        let mut kept: Vec<Vec<Placed>> = Vec::new();
        for moves in chosen {
            if kept.iter().any(|other| same_option(other, &moves)) || !legal(&moves, circles, table) {
                continue;
            }
            kept.push(moves);
        }
        kept.iter()
            .map(|moves| {
                moves
                    .iter()
                    .map(|p| Relocation {
                        model: bodies[p.body].id.clone(),
                        to: p.at,
                        distance: circles[p.body].centre.distance(p.at),
                    })
                    .collect()
            })
            .collect()
    }
}

/// The direction from `from` to `to`, counter-clockwise from +x, in [0, 2π).
fn direction(from: Point, to: Point) -> f64 {
    let angle = (to.y - from.y).atan2(to.x - from.x);
    if angle < 0.0 {
        angle + std::f64::consts::TAU
    } else {
        angle
    }
}

/// The fixed order of options: by the models moved (in `bodies` order), then the direction each
/// moved, then how far.
fn order_of(a: &[Placed], b: &[Placed]) -> std::cmp::Ordering {
    let key = |moves: &[Placed]| moves.iter().map(|p| (p.body, p.angle, p.distance)).collect::<Vec<_>>();
    let (ka, kb) = (key(a), key(b));
    for (x, y) in ka.iter().zip(&kb) {
        let order = x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(x.2.total_cmp(&y.2));
        if order.is_ne() {
            return order;
        }
    }
    ka.len().cmp(&kb.len())
}

/// Whether two options move the same models to the same places (reached in different orders).
fn same_option(a: &[Placed], b: &[Placed]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.body == y.body && x.at.distance(y.at) <= SAME_OPTION)
}

/// Whether the bases stand legally after `moves`: on the table, no two overlapping, and no moved
/// base overlapping an obstruction.
fn legal(moves: &[Placed], circles: &[Circle], table: &Table) -> bool {
    let mut after = circles.to_vec();
    for p in moves {
        after[p.body].centre = p.at;
    }
    let inside_obstruction =
        |circle: &Circle| table.terrain.iter().any(|f| f.kind == TerrainKind::Obstruction && f.overlaps_base(circle));
    !any_overlap(&after)
        && after.iter().all(|circle| table.contains(circle))
        && moves.iter().all(|p| !inside_obstruction(&after[p.body]))
}
