//! A battle's result applied to the round (seed 003 §4.2.5, §4.3, §4.4, §4.5): casualties, kills
//! (and the theme armies that go At War when a Town Defender dies, §6.2.2), captures and
//! liberations, then who leaves the battle square and where.
//!
//! Order of the retreats (§4.4): the second winner of a pair first — to the square its strategy
//! named when that square is on the map and empty, else by the die — then stratless partners that
//! did not take part, then the losers, each to a random empty square of the 8 around the battle
//! (§4.2.5). A chosen retreat is decided before the losers', so a loser's random retreat never
//! takes it. A capture that finds no base or town leaves the captured army on the square and
//! bumps the winners out instead (§4.5).

use std::collections::{BTreeMap, BTreeSet};

use super::{
    capture::{captured_colors, destination, ArmyCaptured, ArmyLiberated, CaptureDestination, Conversion},
    command::BattleResult,
    control::decide::owed_after_kill,
    event::{ArmyLosses, CampaignEvent},
    mercenaries::abilities::go_to_war,
    state::CampaignState,
};
use crate::{
    coalition::{days::Fight, map::Square, setup::MercenaryFaction},
    Context, RuleError,
};

/// What each army went through in the battles applied this adjudication.
pub type Fights = BTreeMap<String, (Fight, Vec<u32>)>;

fn emit(working: &mut CampaignState, events: &mut Vec<CampaignEvent>, event: CampaignEvent) {
    working.apply(&event);
    events.push(event);
}

/// Apply one battle's result to `working`, appending the events.
pub fn apply_result(
    working: &mut CampaignState,
    result: &BattleResult,
    fights: &mut Fights,
    ctx: &mut Context,
    events: &mut Vec<CampaignEvent>,
) -> Result<(), RuleError> {
    let winners: Vec<String> =
        result.sides.iter().filter(|s| Some(s.side) == result.winner).map(|s| s.army.clone()).collect();
    let square = working.battles.get(&result.battle).map(|link| link.square);
    let applied = CampaignEvent::BattleResultApplied {
        battle: result.battle.clone(),
        winners: winners.clone(),
        losses: result.sides.iter().map(|s| ArmyLosses { army: s.army.clone(), losses: s.losses.clone() }).collect(),
    };
    emit(working, events, applied);
    for side in &result.sides {
        let won = winners.contains(&side.army);
        fights.insert(side.army.clone(), (if won { Fight::Won } else { Fight::Lost }, side.losses.clone()));
    }
    kills(working, result, ctx, events)?;
    let Some(square) = square.filter(|_| result.winner.is_some()) else { return Ok(()) };
    let mut bump_winners = false;
    let mut captured = BTreeSet::new();
    for side in result.sides.iter().filter(|side| side.captured_by.is_some()) {
        let captor = side.captured_by.clone().unwrap_or_default();
        let (Some(army), Some(by)) = (working.armies.get(&side.army), working.armies.get(&captor)) else { continue };
        let occupied: BTreeSet<Square> =
            working.armies.iter().filter(|(name, _)| **name != side.army).map(|(_, a)| a.square).collect();
        let (to, how) = destination(working, by.army.team, square, &occupied);
        let original = working.origins.get(&side.army).map(|(team, colors)| (*team, colors.as_slice()));
        let capture = ArmyCaptured {
            army: side.army.clone(),
            battle: result.battle.clone(),
            captor: captor.clone(),
            team: by.army.team,
            colors: captured_colors(&army.army, &by.army, original),
            controllers: by.controllers.iter().cloned().collect(),
            from: square,
            to,
            destination: how,
            conversion: Conversion {
                square: to,
                days: 0,
                captured_turn: working.turn,
                from_team: army.army.team,
                from_colors: army.army.colors.clone(),
                from_controllers: army.controllers.iter().cloned().collect(),
            },
        };
        bump_winners |= how == CaptureDestination::Stays;
        captured.insert(side.army.clone());
        emit(working, events, CampaignEvent::ArmyCaptured(capture));
    }
    for side in result.sides.iter().filter(|side| !winners.contains(&side.army) && !captured.contains(&side.army)) {
        if let Some(conversion) = working.conversions.get(&side.army).cloned() {
            let liberated = ArmyLiberated {
                army: side.army.clone(),
                battle: result.battle.clone(),
                team: conversion.from_team,
                colors: conversion.from_colors,
                controllers: conversion.from_controllers,
            };
            emit(working, events, CampaignEvent::ArmyLiberated(liberated));
        }
    }
    let here = |working: &CampaignState, army: &str| working.armies.get(army).is_some_and(|a| a.square == square);
    let staying: Vec<String> = winners.iter().filter(|army| here(working, army)).cloned().collect();
    if bump_winners {
        for army in &staying {
            let bumped = bump(working, &[army.as_str()], square, ctx)?;
            emit(working, events, bumped);
        }
    } else if staying.len() > 1 {
        let chosen = result.departure.as_ref().filter(|d| staying.contains(&d.army)).and_then(|departure| {
            let to = departure.direction.from(square, working.map.bounds)?;
            let empty = !working.armies.values().any(|a| a.square == to);
            empty.then(|| CampaignEvent::ArmyBumped {
                army: departure.army.clone(),
                from: square,
                to,
                pushed: false,
                draw: None,
            })
        });
        let event = match chosen {
            Some(event) => event,
            None => bump(working, &staying.iter().map(String::as_str).collect::<Vec<_>>(), square, ctx)?,
        };
        emit(working, events, event);
    }
    let leaving: Vec<String> = result
        .withdrawn
        .iter()
        .chain(result.sides.iter().filter(|s| !winners.contains(&s.army)).map(|s| &s.army))
        .filter(|army| !captured.contains(*army) && here(working, army))
        .cloned()
        .collect();
    for army in leaving {
        let bumped = bump(working, &[army.as_str()], square, ctx)?;
        emit(working, events, bumped);
    }
    Ok(())
}

/// Kills (seed 003 §4.3.1, §4.3.3): the players who lose their last army are owed a new one
/// (§5.3.4); a Town Defender killed by a team sends a theme army to war (§6.2.2).
fn kills(
    working: &mut CampaignState,
    result: &BattleResult,
    ctx: &mut Context,
    events: &mut Vec<CampaignEvent>,
) -> Result<(), RuleError> {
    for side in result.sides.iter().filter(|side| side.killed) {
        if !working.armies.contains_key(&side.army) {
            continue;
        }
        let killer = result
            .sides
            .iter()
            .filter(|other| other.side != side.side)
            .find_map(|other| working.armies.get(&other.army).map(|a| a.army.team));
        let town_defender =
            working.mercenaries.get(&side.army).is_some_and(|m| m.faction == MercenaryFaction::TownDefender);
        for owed in owed_after_kill(working, &side.army, ctx.recorded_at) {
            emit(working, events, owed);
        }
        let rule = if side.killed_by_attempt { "seed 003 §4.3.3" } else { "seed 003 §4.3.1" };
        let killed =
            CampaignEvent::ArmyKilled { army: side.army.clone(), battle: result.battle.clone(), rule: rule.into() };
        emit(working, events, killed);
        if let (true, Some(team)) = (town_defender, killer) {
            if let Some(war) = go_to_war(working, &side.army, team, &mut ctx.dice)? {
                emit(working, events, CampaignEvent::ThemeArmyWentToWar(war));
            }
        }
    }
    Ok(())
}

/// One of `armies` (one loser, or the two winners of a joint engagement of whom one must leave)
/// goes to a random empty square of the 8 around the battle; if all are occupied it is pushed
/// into one holding an enemy (or any, if none does) and fights again (seed 003 §4.2.5, §4.4).
/// With several armies one die picks the army and the square together, so the event records both.
pub fn bump(
    state: &CampaignState,
    armies: &[&str],
    from: Square,
    ctx: &mut Context,
) -> Result<CampaignEvent, RuleError> {
    let first = armies.first().copied().unwrap_or_default();
    let occupied: BTreeSet<Square> = state.armies.values().map(|a| a.square).collect();
    let around = from.surrounding(state.map.bounds);
    let empty: Vec<Square> = around.iter().copied().filter(|s| !occupied.contains(s)).collect();
    let team = state.armies.get(first).map(|a| a.army.team);
    let (candidates, pushed) = if empty.is_empty() {
        let enemy_held: Vec<Square> = around
            .iter()
            .copied()
            .filter(|s| state.armies.values().any(|a| a.square == *s && Some(a.army.team) != team))
            .collect();
        (if enemy_held.is_empty() { around } else { enemy_held }, true)
    } else {
        (empty, false)
    };
    let squares = u32::try_from(candidates.len()).unwrap_or(u32::MAX);
    let count = squares.saturating_mul(u32::try_from(armies.len()).unwrap_or(u32::MAX));
    if count == 0 {
        return Ok(CampaignEvent::ArmyBumped { army: first.into(), from, to: from, pushed: false, draw: None });
    }
    let purpose = match armies {
        [army] => format!("bump {army} from {from}"),
        _ => format!("bump one of {} from {from} ({} armies × {squares} squares)", armies.join(", "), armies.len()),
    };
    let draw = ctx.dice.roll(count, purpose)?;
    let index = draw.value.saturating_sub(1);
    let army = usize::try_from(index / squares).ok().and_then(|i| armies.get(i)).copied().unwrap_or(first);
    let square = usize::try_from(index % squares).unwrap_or(0);
    let to = candidates.get(square).copied().unwrap_or(from);
    Ok(CampaignEvent::ArmyBumped { army: army.into(), from, to, pushed, draw: Some(draw) })
}
