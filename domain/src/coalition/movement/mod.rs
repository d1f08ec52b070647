//! Movement adjudication (seed 003 ch. 3): from the map, the armies and the turn's orders to
//! where every army ends, why, and which armies meet in battle.
//!
//! [`adjudicate`] is one pure function: no clock, no IO, and its only randomness is the dice tape
//! (random routes §3.2.2.4, equal-distance picks §3.2.3.2), so replaying a turn with the same tape
//! gives the same outcome. It receives orders already validated and selected by the orders module
//! (post-time annotation checks, §3.3.6): at most one per army.
//!
//! The turn is settled in passes. Each pass: Joint Engage conditions (§3.2.5), then intercepts
//! (§3.2.3), then who gets each square (§3.3.1, §3.3.5), then partial moves (§3.3.2). A pass
//! that finds an army with nowhere to go, or a joint engagement no enemy reached (§3.2.5.3),
//! is run again with that fixed; each rerun fixes one more army or square, so passes end.
//! Every choice the seed leaves to the judge (§3.3.3) is a documented default in the submodule
//! that makes it; terrain does not restrict movement (the seed names no impassable terrain).

mod claims;
mod engagement;
mod intent;
mod intercept;
mod joint;
mod partial;
mod plan;
mod report;
pub mod route;
pub mod types;

use std::collections::{BTreeMap, BTreeSet};

pub use route::{shortest_routes, MAX_STEPS};
pub use types::{
    ArmyPosition, Attack, EngagedSide, EngagementReport, LongMove, LongMoveStatus, MoveOutcome, MoveReport,
    MovementOutcome, Position,
};

use crate::coalition::map::{Map, Square};
use crate::coalition::orders::PostedOrder;
use crate::dice::DiceTape;
use crate::RuleError;
use plan::{enemies, Fate, Id, Intent, Turn, Why};

/// Adjudicate one turn's movement (seed 003 §3.1 "update the game map with all legal moves").
///
/// `armies` is every army on the map (any order); `orders` the turn's selected orders, at most
/// one per army. Refuses (as a caller error, not a game outcome) duplicate army names, armies off
/// the map, orders for unknown armies and two orders for one army. Everything else — illegal
/// moves included — is an outcome in the report.
pub fn adjudicate(
    map: &Map,
    armies: &[ArmyPosition],
    orders: &[PostedOrder],
    dice: &mut DiceTape,
) -> Result<MovementOutcome, RuleError> {
    let first_draw = dice.draws().len();
    let armies = sorted_armies(map, armies)?;
    let orders = orders_by_army(&armies, orders)?;
    let intents = intent::intents(map, &armies, &orders, dice)?;
    let turn = settle(map, &armies, &intents, dice)?;
    let engagements = engagement::engagements(&armies, &turn);
    let battle_squares: BTreeSet<Square> = engagements.iter().map(|engagement| engagement.square).collect();
    let engaged: BTreeSet<Id> = (0..armies.len()).filter(|id| battle_squares.contains(&turn.finals[*id])).collect();
    let (report, long_moves) = report::reports(&armies, &intents, &orders, &turn, &engaged);
    let positions = armies
        .iter()
        .zip(&turn.finals)
        .map(|(army, square)| Position { army: army.name.clone(), square: *square })
        .collect();
    let draws = dice.draws().get(first_draw..).unwrap_or_default().to_vec();
    Ok(MovementOutcome { positions, report, engagements, long_moves, draws })
}

/// Run passes until one leaves nothing to fix.
fn settle(map: &Map, armies: &[&ArmyPosition], intents: &[Intent], dice: &mut DiceTape) -> Result<Turn, RuleError> {
    let mut forced: BTreeSet<Id> = BTreeSet::new();
    let mut degraded: BTreeSet<Square> = BTreeSet::new();
    let mut picks = intercept::Picks::new();
    loop {
        let (turn, stuck) = pass(map, armies, intents, (&forced, &degraded), &mut picks, dice)?;
        if !stuck.is_empty() {
            forced.extend(stuck);
            continue;
        }
        match turn.joint {
            Some((square, [a, b]))
                if unopposed(armies, &turn, square, armies[a].team)
                    && [a, b].iter().all(|id| turn.finals[*id] == square) =>
            {
                degraded.insert(square);
            }
            _ => return Ok(turn),
        }
    }
}

/// Whether no enemy of `team` ends on `square` (a joint engagement nobody came to, §3.2.5.3).
fn unopposed(armies: &[&ArmyPosition], turn: &Turn, square: Square, team: crate::coalition::army::Team) -> bool {
    !turn.finals.iter().zip(armies).any(|(at, army)| *at == square && enemies(army.team, team))
}

/// One pass: `forced` armies stand still; `degraded` squares' Joint Engages are normal moves.
fn pass(
    map: &Map,
    armies: &[&ArmyPosition],
    intents: &[Intent],
    (forced, degraded): (&BTreeSet<Id>, &BTreeSet<Square>),
    picks: &mut intercept::Picks,
    dice: &mut DiceTape,
) -> Result<(Turn, Vec<Id>), RuleError> {
    let joint = joint::evaluate(armies, intents, forced, degraded);
    let mut turn = Turn {
        fate: vec![Fate::Stay; armies.len()],
        why: vec![None; armies.len()],
        joint: joint.winner,
        caught: Vec::new(),
        finals: armies.iter().map(|army| army.square).collect(),
    };
    for (id, intent) in intents.iter().enumerate() {
        if forced.contains(&id) {
            turn.why[id] = Some(Why::new(
                MoveOutcome::Stayed,
                "could not move anywhere: every square within reach ends with a friendly army, so it stays",
                "seed 003 §3.3.2",
            ));
        } else if let Some(plan) = intent.plan().filter(|plan| plan.dest != armies[id].square) {
            turn.fate[id] = Fate::Enter { target: plan.dest };
        }
    }
    for (id, why) in joint.ignored {
        turn.fate[id] = Fate::Stay;
        turn.why[id] = Some(why);
    }
    for (id, mut why) in joint.later.into_iter().chain(joint.normal) {
        match turn.fate[id] {
            Fate::Enter { target } if why.outcome == MoveOutcome::Partial => turn.fate[id] = Fate::Partial { target },
            Fate::Stay => why.outcome = MoveOutcome::Stayed,
            _ => {}
        }
        turn.why[id] = Some(why);
    }
    if let Some((square, pair)) = joint.winner {
        for (id, partner) in [(pair[0], pair[1]), (pair[1], pair[0])] {
            let reason = format!("joint engagement on {square} with {}", armies[partner].name);
            turn.why[id] = Some(Why::new(MoveOutcome::JointEngagement, reason, "seed 003 §3.2.5.2"));
        }
    }
    intercept::apply(armies, intents, &mut turn, picks, dice)?;
    claims::resolve(armies, intents, &mut turn);
    let stuck = partial::place(map, armies, intents, &mut turn);
    Ok((turn, stuck))
}

/// Armies sorted by name: every loop and every draw follows this order (replay determinism).
fn sorted_armies<'a>(map: &Map, armies: &'a [ArmyPosition]) -> Result<Vec<&'a ArmyPosition>, RuleError> {
    let mut sorted: Vec<&ArmyPosition> = armies.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(pair) = sorted.windows(2).find(|pair| pair[0].name == pair[1].name) {
        let message = format!("two armies are named {}", pair[0].name);
        return Err(RuleError::new("coalition.movement.duplicate_army", message, "seed 003 §2.1"));
    }
    if let Some(army) = sorted.iter().find(|army| !map.contains(army.square)) {
        let message = format!("{} stands on {}, which is off the map", army.name, army.square);
        return Err(RuleError::new("coalition.movement.army_off_map", message, "seed 003 §1.2"));
    }
    Ok(sorted)
}

/// Each army's order, aligned with the sorted armies.
fn orders_by_army<'a>(
    armies: &[&ArmyPosition],
    orders: &'a [PostedOrder],
) -> Result<Vec<Option<&'a PostedOrder>>, RuleError> {
    let ids: BTreeMap<&str, Id> = armies.iter().enumerate().map(|(id, army)| (army.name.as_str(), id)).collect();
    let mut by_army: Vec<Option<&PostedOrder>> = vec![None; armies.len()];
    for order in orders {
        let Some(&id) = ids.get(order.army.as_str()) else {
            let message = format!("an order names {}, which is not on the map", order.army);
            return Err(RuleError::new("coalition.movement.unknown_army", message, "seed 003 §3.2.2.5"));
        };
        if by_army[id].replace(order).is_some() {
            let message = format!("{} has more than one order; select one per army first", order.army);
            return Err(RuleError::new("coalition.movement.several_orders", message, "seed 003 §3.3.6"));
        }
    }
    Ok(by_army)
}
