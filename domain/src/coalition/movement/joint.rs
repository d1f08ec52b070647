//! JointEngagement (seed 003 §3.2.5): two armies of one team fight together in one square.
//!
//! Conditions (§3.2.5.2) are read from what armies are ordered to do — "moving to or staying
//! in" — since they are what the players post; whether the enemy really arrives is checked after
//! the pass (an enemy bounced elsewhere makes the engagement a normal move, §3.2.5.3).

use std::collections::{BTreeMap, BTreeSet};

use super::plan::{enemies, team_index, Id, Intent, OrderKey, Why};
use super::types::{ArmyPosition, MoveOutcome};
use crate::coalition::map::Square;

/// What the Joint Engage orders come to in one pass.
#[derive(Debug, Default)]
pub(super) struct JointPlan {
    /// The turn's one joint engagement: its square and its two armies (§3.2.5.4).
    pub winner: Option<(Square, [Id; 2])>,
    /// Orders whose conditions fail: ignored, the army does not move (§3.2.5.3).
    pub ignored: Vec<(Id, Why)>,
    /// Valid joint engagements that came later: partial moves (§3.2.5.4).
    pub later: Vec<(Id, Why)>,
    /// Pairs with no enemy entering: normal moves (§3.2.5.3).
    pub normal: Vec<(Id, Why)>,
}

/// Evaluate every Joint Engage. `forced` armies do not move this pass; `degraded` squares saw no
/// enemy arrive in an earlier pass and are normal moves now.
pub(super) fn evaluate(
    armies: &[&ArmyPosition],
    intents: &[Intent],
    forced: &BTreeSet<Id>,
    degraded: &BTreeSet<Square>,
) -> JointPlan {
    let intended = intended_squares(armies, intents, forced);
    let mut groups: BTreeMap<(Square, u8), Vec<Id>> = BTreeMap::new();
    for (id, intent) in intents.iter().enumerate() {
        if let Some(plan) = intent.plan().filter(|plan| plan.joint && !forced.contains(&id)) {
            groups.entry((plan.dest, team_index(armies[id].team))).or_default().push(id);
        }
    }
    let mut result = JointPlan::default();
    let mut candidates: Vec<(OrderKey, Square, u8, [Id; 2])> = Vec::new();
    for ((square, team), ids) in groups {
        let pair = match ids.as_slice() {
            [a, b] => [*a, *b],
            _ => {
                let reason = format!(
                    "{} armies of the team posted Joint Engage on {square}; exactly 2 are needed, so the order is ignored",
                    ids.len()
                );
                result.ignored.extend(ids.iter().map(|id| (*id, ignored(reason.clone()))));
                continue;
            }
        };
        let here = intended.get(&square).map_or(&[][..], Vec::as_slice);
        let team_of = armies[pair[0]].team;
        if let Some(other) = here.iter().find(|id| !pair.contains(id) && armies[**id].team == team_of) {
            let reason = format!(
                "{} is also moving to or staying in {square}, so the Joint Engage is ignored",
                armies[*other].name
            );
            result.ignored.extend(pair.iter().map(|id| (*id, ignored(reason.clone()))));
            continue;
        }
        let enemy = here.iter().any(|id| enemies(armies[*id].team, team_of));
        if !enemy || degraded.contains(&square) {
            let why = Why::new(
                MoveOutcome::Moved,
                format!("no enemy enters {square}, so the Joint Engage is a normal move"),
                "seed 003 §3.2.5.3",
            );
            result.normal.extend(pair.iter().map(|id| (*id, why.clone())));
            continue;
        }
        candidates.push((second_order(intents, pair), square, team, pair));
    }
    candidates.sort();
    let mut candidates = candidates.into_iter();
    if let Some((_, square, _, pair)) = candidates.next() {
        result.winner = Some((square, pair));
        for (_, other, _, later) in candidates {
            let why = Why::new(
                MoveOutcome::Partial,
                format!(
                    "only one joint engagement is allowed a turn and the one on {square} was completed first \
                     (by its second Joint Engage order); this one on {other} becomes a partial move"
                ),
                "seed 003 §3.2.5.4",
            );
            result.later.extend(later.iter().map(|id| (*id, why.clone())));
        }
    }
    result
}

fn ignored(reason: String) -> Why {
    Why::new(MoveOutcome::JointEngageIgnored, reason, "seed 003 §3.2.5.3")
}

/// The timestamp that ranks a joint engagement: that of its second order (§3.2.5.4).
fn second_order(intents: &[Intent], pair: [Id; 2]) -> OrderKey {
    let keys = pair.map(|id| intents[id].plan().map(|plan| plan.key.clone()));
    match keys {
        [Some(a), Some(b)] => a.max(b),
        [Some(key), None] | [None, Some(key)] => key,
        [None, None] => OrderKey { posted_at: chrono::DateTime::UNIX_EPOCH, post: String::new(), line: 0 },
    }
}

/// Where each army is ordered to end ("moving to or staying in"), by square.
fn intended_squares(armies: &[&ArmyPosition], intents: &[Intent], forced: &BTreeSet<Id>) -> BTreeMap<Square, Vec<Id>> {
    let mut squares: BTreeMap<Square, Vec<Id>> = BTreeMap::new();
    for (id, intent) in intents.iter().enumerate() {
        let square = match intent.plan() {
            Some(plan) if !forced.contains(&id) => plan.dest,
            _ => armies[id].square,
        };
        squares.entry(square).or_default().push(id);
    }
    squares
}
