//! Engagements: enemy armies that end in one square battle (seed 003 §3.3.1), and who attacks
//! whom (§4.1.2.3).
//!
//! A side that was already in the square when the other side moved in is the defender; when
//! both sides moved in, or both were already there, the battle has no attacker. An intercepted
//! army moved onto its interceptor's square, so it is the attacker by this rule. Armies that were
//! all fighting there last turn are not a new engagement (their battle is the judge's, §3.1).

use std::collections::{BTreeMap, BTreeSet};

use super::plan::{team_index, Id, Turn};
use super::types::{ArmyPosition, Attack, EngagedSide, EngagementReport};
use crate::coalition::map::Square;

/// Every square where enemies end the turn together and at least one of them is new there.
pub(super) fn engagements(armies: &[&ArmyPosition], turn: &Turn) -> Vec<EngagementReport> {
    let mut squares: BTreeMap<Square, Vec<Id>> = BTreeMap::new();
    for (id, square) in turn.finals.iter().enumerate() {
        squares.entry(*square).or_default().push(id);
    }
    squares
        .into_iter()
        .filter(|(_, ids)| {
            let teams: BTreeSet<u8> = ids.iter().map(|id| team_index(armies[*id].team)).collect();
            teams.len() > 1 && ids.iter().any(|id| !armies[*id].in_battle)
        })
        .map(|(square, ids)| engagement(armies, turn, square, &ids))
        .collect()
}

fn engagement(armies: &[&ArmyPosition], turn: &Turn, square: Square, ids: &[Id]) -> EngagementReport {
    let mut by_team: BTreeMap<u8, Vec<Id>> = BTreeMap::new();
    for id in ids {
        by_team.entry(team_index(armies[*id].team)).or_default().push(*id);
    }
    let names = |ids: &[Id]| ids.iter().map(|id| armies[*id].name.clone()).collect::<Vec<_>>();
    let sides: Vec<EngagedSide> =
        by_team.values().map(|ids| EngagedSide { team: armies[ids[0]].team, armies: names(ids) }).collect();
    let was_there = |id: &Id| armies[*id].square == square;
    let holding: Vec<&Vec<Id>> = by_team.values().filter(|ids| ids.iter().any(was_there)).collect();
    let attack = match holding.as_slice() {
        [defenders] if by_team.len() == 2 => {
            let attackers: Vec<Id> = ids.iter().copied().filter(|id| !defenders.contains(id)).collect();
            Attack::Attacks { attackers: names(&attackers), defenders: names(defenders) }
        }
        _ => Attack::NoAttacker,
    };
    let joint = turn.joint.is_some_and(|(at, pair)| at == square && pair.iter().all(|id| ids.contains(id)));
    EngagementReport { square, sides, attack, joint }
}
