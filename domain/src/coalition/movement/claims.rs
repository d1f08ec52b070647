//! Who gets a square (seed 003 §3.3.1, §3.3.5): friendly armies never share one, and a battle
//! has two sides.
//!
//! Every army that stays claims its own square; every army entering claims its target. Among
//! friends on one square the closer arrives — an army that stays is at distance 0, so it always
//! keeps its square — then the earlier post, then the earlier line in the same post. The rest
//! make partial moves (§3.3.2). Moves are simultaneous (§3.3.4): only where armies end counts,
//! so armies that swap squares or pass each other never meet.

use std::collections::BTreeMap;

use super::plan::{team_index, Fate, Id, Intent, OrderKey, Turn, Why};
use super::types::{ArmyPosition, MoveOutcome};
use crate::coalition::army::Team;
use crate::coalition::map::Square;

/// The §3.3.1 priority of an army claiming `square`: distance, then post, then line, then name.
pub(super) fn claim_key<'a>(
    armies: &'a [&ArmyPosition],
    intents: &[Intent],
    id: Id,
    square: Square,
) -> (u32, Option<OrderKey>, &'a str) {
    (armies[id].square.distance(square), intents[id].plan().map(|plan| plan.key.clone()), armies[id].name.as_str())
}

/// Settle every claimed square of this pass; losers become partial moves.
pub(super) fn resolve(armies: &[&ArmyPosition], intents: &[Intent], turn: &mut Turn) {
    let mut claims: BTreeMap<Square, Vec<Id>> = BTreeMap::new();
    for (id, fate) in turn.fate.iter().enumerate() {
        match fate {
            Fate::Stay => claims.entry(armies[id].square).or_default().push(id),
            Fate::Enter { target } => claims.entry(*target).or_default().push(id),
            Fate::Partial { .. } => {}
        }
    }
    for (square, ids) in claims {
        if ids.len() < 2 {
            continue;
        }
        let mut by_team: BTreeMap<u8, Vec<Id>> = BTreeMap::new();
        for id in ids {
            by_team.entry(team_index(armies[id].team)).or_default().push(id);
        }
        let mut kept = Vec::new();
        for group in by_team.into_values() {
            kept.extend(friendly_conflict(armies, intents, turn, square, group));
        }
        three_teams(armies, intents, turn, square, &kept);
    }
}

/// §3.3.1 among one team's claims on `square`; returns the armies that keep it.
fn friendly_conflict(
    armies: &[&ArmyPosition],
    intents: &[Intent],
    turn: &mut Turn,
    square: Square,
    group: Vec<Id>,
) -> Vec<Id> {
    let joint_pair =
        turn.joint.filter(|(at, pair)| *at == square && group.len() == 2 && pair.iter().all(|id| group.contains(id)));
    if group.len() < 2 || joint_pair.is_some() {
        return group;
    }
    let (stay, enter): (Vec<Id>, Vec<Id>) = group.into_iter().partition(|id| turn.fate[*id] == Fate::Stay);
    if let Some(&holder) = stay.first() {
        for id in enter {
            let reason = format!(
                "{} stays in {square} and friendly armies never share a square, so this move becomes a partial move",
                armies[holder].name
            );
            bounce(turn, id, square, reason, "seed 003 §3.3.1");
        }
        return stay;
    }
    let Some(winner) = enter.iter().copied().min_by_key(|id| claim_key(armies, intents, *id, square)) else {
        return enter;
    };
    for id in enter.iter().copied().filter(|id| *id != winner) {
        let reason = format!("{}, so this move becomes a partial move", lost_to(armies, intents, winner, id, square));
        bounce(turn, id, square, reason, "seed 003 §3.3.1");
    }
    vec![winner]
}

/// Why `winner` rather than `loser` arrives on `square`, in the seed's order of tests.
fn lost_to(armies: &[&ArmyPosition], intents: &[Intent], winner: Id, loser: Id, square: Square) -> String {
    let (w, l) = (claim_key(armies, intents, winner, square), claim_key(armies, intents, loser, square));
    let name = w.2;
    if w.0 < l.0 {
        return format!("{name} was closer to {square} ({} against {} steps) and arrives", w.0, l.0);
    }
    match (&w.1, &l.1) {
        (Some(a), Some(b)) if a.posted_at < b.posted_at => {
            format!("{name} is as close to {square} and was posted earlier, so it arrives")
        }
        (Some(a), Some(b)) if a.post == b.post => {
            format!("{name} is as close to {square} and its move is written first in the same post, so it arrives")
        }
        _ => format!("{name} is as close to {square}, posted at the same time; the judge's default orders such posts by id, so it arrives"),
    }
}

/// §3.3.5: when a Coalition, a Phyrexian and a Mercenary army would all end in one square, the
/// mercenary makes the partial move. When the mercenary was already there, the later of the
/// entering armies does instead: a battle has two sides (our reading; the seed is silent).
fn three_teams(armies: &[&ArmyPosition], intents: &[Intent], turn: &mut Turn, square: Square, kept: &[Id]) {
    let teams = |ids: &[Id]| {
        let mut teams: Vec<u8> = ids.iter().map(|id| team_index(armies[*id].team)).collect();
        teams.sort_unstable();
        teams.dedup();
        teams.len()
    };
    if teams(kept) < 3 {
        return;
    }
    let entering = |turn: &Turn, id: &Id| matches!(turn.fate[*id], Fate::Enter { .. });
    let mercenaries: Vec<Id> =
        kept.iter().copied().filter(|id| armies[*id].team == Team::Mercenary && entering(turn, id)).collect();
    for id in &mercenaries {
        let reason = format!(
            "a Coalition and a Phyrexian army enter {square} at the same time and fight; the mercenary makes a partial move"
        );
        bounce(turn, *id, square, reason, "seed 003 §3.3.5");
    }
    let rest: Vec<Id> = kept.iter().copied().filter(|id| !mercenaries.contains(id)).collect();
    if teams(&rest) < 3 {
        return;
    }
    let latest =
        rest.iter().copied().filter(|id| entering(turn, id)).max_by_key(|id| claim_key(armies, intents, *id, square));
    if let Some(id) = latest {
        let reason = format!("{square} already holds armies of two other teams and a battle has two sides; this move becomes a partial move");
        bounce(turn, id, square, reason, "seed 003 §3.3.5");
    }
}

fn bounce(turn: &mut Turn, id: Id, square: Square, reason: String, rule: &'static str) {
    turn.fate[id] = Fate::Partial { target: square };
    turn.why[id] = Some(Why::new(MoveOutcome::Partial, reason, rule));
}
