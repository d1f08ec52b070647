//! The movement update's words (seed 003 §3.1): every army's line — what happened, why, and the
//! rule — and what is left of each long move (§3.2.2.3).

use std::collections::BTreeSet;

use super::plan::{Fate, Id, Intent, Turn, Why};
use super::types::{ArmyPosition, LongMove, LongMoveStatus, MoveOutcome, MoveReport};
use crate::coalition::orders::{Order, PostedOrder};

/// One report line per army (in name order) and the long moves that go on.
pub(super) fn reports(
    armies: &[&ArmyPosition],
    intents: &[Intent],
    orders: &[Option<&PostedOrder>],
    turn: &Turn,
    engaged: &BTreeSet<Id>,
) -> (Vec<MoveReport>, Vec<LongMove>) {
    let mut lines = Vec::with_capacity(armies.len());
    let mut long_moves = Vec::new();
    for (id, army) in armies.iter().enumerate() {
        let why = line(intents, turn, id);
        let (long_move, goes_on) = long_move(orders[id], &why, engaged.contains(&id), turn.finals[id]);
        if let Some(legs) = goes_on {
            long_moves.push(LongMove { army: army.name.clone(), legs });
        }
        lines.push(MoveReport {
            army: army.name.clone(),
            team: army.team,
            from: army.square,
            to: turn.finals[id],
            intended: intents[id].plan().map(|plan| plan.dest),
            route: route_taken(armies, intents, turn, id),
            outcome: why.outcome,
            reason: why.reason,
            rule: why.rule.to_string(),
            long_move,
        });
    }
    (lines, long_moves)
}

/// The line decided during resolution, or the plain one for an army that did as ordered.
fn line(intents: &[Intent], turn: &Turn, id: Id) -> Why {
    if let Some(why) = &turn.why[id] {
        return why.clone();
    }
    match (&intents[id], turn.fate[id]) {
        (Intent::Stay(why), _) => why.clone(),
        (Intent::Move(plan), Fate::Enter { .. }) => {
            Why::new(MoveOutcome::Moved, format!("moved to {}", plan.dest), "seed 003 §3.2.2")
        }
        (Intent::Move(plan), Fate::Partial { .. }) => Why::new(
            MoveOutcome::Partial,
            format!("could not enter {}; moved as close as possible", plan.dest),
            "seed 003 §3.3.2",
        ),
        (_, _) => Why::new(MoveOutcome::Stayed, "did not move", "seed 003 §3.2.1"),
    }
}

/// The squares passed, start first, when the path is known: the route of a move that entered
/// its target, or the part of a player's route that a partial move kept to.
fn route_taken(
    armies: &[&ArmyPosition],
    intents: &[Intent],
    turn: &Turn,
    id: Id,
) -> Vec<crate::coalition::map::Square> {
    let Some(plan) = intents[id].plan() else { return Vec::new() };
    let end = turn.finals[id];
    let known = matches!(turn.fate[id], Fate::Enter { .. }) || plan.routed;
    if end == armies[id].square || !known {
        return Vec::new();
    }
    match plan.route.iter().position(|square| *square == end) {
        Some(index) => plan.route[..=index].to_vec(),
        None => Vec::new(),
    }
}

/// What becomes of the legs after this one: they go on only when this leg was completed and the
/// army is not engaged (§3.2.2.3; the next leg starts where this one ends, so a leg not completed
/// leaves the rest unable to start).
fn long_move(
    order: Option<&PostedOrder>,
    why: &Why,
    engaged: bool,
    end: crate::coalition::map::Square,
) -> (Option<LongMoveStatus>, Option<Vec<crate::coalition::orders::Leg>>) {
    let Some(Order::Move { legs }) = order.map(|posted| &posted.order) else { return (None, None) };
    let Some((first, rest)) = legs.split_first().filter(|(_, rest)| !rest.is_empty()) else {
        return (None, None);
    };
    let count = u32::try_from(rest.len()).unwrap_or(u32::MAX);
    let cancelled = |reason: String| (Some(LongMoveStatus::Cancelled { legs: count, reason }), None);
    if engaged || why.outcome == MoveOutcome::InBattle {
        return cancelled(format!(
            "engaged in battle on {end}: the rest of the long move is cancelled (seed 003 §3.2.2.3)"
        ));
    }
    if why.outcome != MoveOutcome::Moved || end != first.to {
        return cancelled(format!(
            "this turn's leg did not reach {}, where the next leg starts: the rest of the long move is cancelled \
             and must be posted again (seed 003 §3.2.2.3)",
            first.to
        ));
    }
    (Some(LongMoveStatus::Continues { legs: count }), Some(rest.to_vec()))
}
