//! Intercept (seed 003 §3.2.3): an army that stays and stops an enemy whose route crosses it.
//!
//! "Crosses" means the interceptor's square is strictly inside the target's route: an army that
//! ends its move on the interceptor's square simply engages it. When a target passes several of
//! its interceptors, the first on its route stops it. The closer-of-two rule (§3.2.3.2) settles an
//! interceptor that is also being engaged: the army closer to its square fights it.

use std::collections::BTreeMap;

use super::plan::{enemies, Fate, Id, Intent, Turn, Why};
use super::types::{ArmyPosition, MoveOutcome};
use crate::coalition::map::Square;
use crate::dice::DiceTape;
use crate::RuleError;

/// Random picks of §3.2.3.2 made in earlier passes, by (interceptor, target, engager), so a later
/// pass reuses the die instead of rolling again.
pub(super) type Picks = BTreeMap<(Id, Id, Id), bool>;

/// Apply every Intercept order to this pass's fates.
pub(super) fn apply(
    armies: &[&ArmyPosition],
    intents: &[Intent],
    turn: &mut Turn,
    picks: &mut Picks,
    dice: &mut DiceTape,
) -> Result<(), RuleError> {
    let names: BTreeMap<&str, Id> = armies.iter().enumerate().map(|(id, army)| (army.name.as_str(), id)).collect();
    // target → (index on its route, interceptor): the first interceptor along the route.
    let mut first: BTreeMap<Id, (usize, Id)> = BTreeMap::new();
    for (interceptor, intent) in intents.iter().enumerate() {
        let Intent::Intercept { target } = intent else { continue };
        match crossing(armies, intents, turn, &names, interceptor, target) {
            Ok((target, index)) => {
                let entry = first.entry(target).or_insert((index, interceptor));
                if index < entry.0 {
                    *entry = (index, interceptor);
                }
            }
            Err(reason) => turn.why[interceptor] = Some(Why::new(MoveOutcome::Stayed, reason, "seed 003 §3.2.3.1")),
        }
    }
    let mut engagers: BTreeMap<Square, Vec<Id>> = BTreeMap::new();
    for (id, fate) in turn.fate.iter().enumerate() {
        if let Fate::Enter { target } = fate {
            if !first.contains_key(&id) {
                engagers.entry(*target).or_default().push(id);
            }
        }
    }
    for (target, (_, interceptor)) in &first {
        let square = armies[*interceptor].square;
        let engaging: Vec<Id> = engagers
            .get(&square)
            .map(|ids| ids.iter().copied().filter(|id| enemies(armies[*id].team, armies[*interceptor].team)).collect())
            .unwrap_or_default();
        intercept(armies, intents, turn, picks, dice, (*interceptor, *target), &engaging)?;
    }
    for (interceptor, intent) in intents.iter().enumerate() {
        if let Intent::Intercept { target } = intent {
            let caught = turn.caught.iter().any(|(by, _)| *by == interceptor);
            if !caught && turn.why[interceptor].is_none() {
                let reason =
                    format!("{target}'s route met another of its interceptors before {}", armies[interceptor].square);
                turn.why[interceptor] = Some(Why::new(MoveOutcome::Stayed, reason, "seed 003 §3.2.3.1"));
            }
        }
    }
    Ok(())
}

/// Where the named target's route crosses the interceptor's square, or why it does not.
fn crossing(
    armies: &[&ArmyPosition],
    intents: &[Intent],
    turn: &Turn,
    names: &BTreeMap<&str, Id>,
    interceptor: Id,
    target: &str,
) -> Result<(Id, usize), String> {
    let square = armies[interceptor].square;
    let Some(&target_id) = names.get(target) else {
        return Err(format!("there is no army named {target} to intercept"));
    };
    if !enemies(armies[target_id].team, armies[interceptor].team) {
        return Err(format!("{target} is not an enemy army; nothing to intercept"));
    }
    let route = match (&intents[target_id], turn.fate[target_id]) {
        (Intent::Move(plan), Fate::Enter { target: entering }) if entering == plan.dest => &plan.route,
        _ => return Err(format!("{target} did not move over {square}; the intercept caught nothing")),
    };
    let inner = route.get(1..route.len().saturating_sub(1)).unwrap_or(&[]);
    match inner.iter().position(|step| *step == square) {
        Some(index) => Ok((target_id, index + 1)),
        None => Err(format!("{target}'s route did not cross {square}; the intercept caught nothing")),
    }
}

/// One interceptor whose target crosses it, against the armies engaging it (§3.2.3.2).
fn intercept(
    armies: &[&ArmyPosition],
    intents: &[Intent],
    turn: &mut Turn,
    picks: &mut Picks,
    dice: &mut DiceTape,
    (interceptor, target): (Id, Id),
    engaging: &[Id],
) -> Result<(), RuleError> {
    let square = armies[interceptor].square;
    let closest = engaging.iter().copied().min_by_key(|id| {
        (
            armies[*id].square.distance(square),
            intents[*id].plan().map(|plan| plan.key.clone()),
            armies[*id].name.clone(),
        )
    });
    let (target_fights, how) = match closest {
        None => (true, String::new()),
        Some(engager) => {
            let (a, b) = (armies[target].square.distance(square), armies[engager].square.distance(square));
            if a != b {
                (
                    a < b,
                    format!(
                        "{} against {}'s {}",
                        steps(a.min(b)),
                        armies[if a < b { engager } else { target }].name,
                        a.max(b)
                    ),
                )
            } else {
                let pick = match picks.get(&(interceptor, target, engager)) {
                    Some(pick) => *pick,
                    None => {
                        let purpose = format!(
                            "closer of two at {square}: 1 = {}, 2 = {}",
                            armies[target].name, armies[engager].name
                        );
                        let pick = dice.roll(2, purpose)?.value == 1;
                        picks.insert((interceptor, target, engager), pick);
                        pick
                    }
                };
                (pick, format!("both {} away, picked at random", steps(a)))
            }
        }
    };
    let (name, by) = (&armies[target].name, &armies[interceptor].name);
    if !target_fights {
        let engager = closest.map_or(String::new(), |id| armies[id].name.clone());
        let reason = format!("{name} crossed {square}, but {engager}, engaging, was closer ({how}) and fights instead");
        turn.why[interceptor] = Some(Why::new(MoveOutcome::Stayed, reason, "seed 003 §3.2.3.2"));
        return Ok(());
    }
    turn.fate[target] = Fate::Enter { target: square };
    turn.caught.push((interceptor, target));
    let reason = format!("its route crossed {square}, where {by} intercepted it; it stops there to fight");
    turn.why[target] = Some(Why::new(MoveOutcome::Intercepted { by: by.clone() }, reason, "seed 003 §3.2.3.1"));
    let reason = format!("{name}'s route crossed {square}; {name} stops to fight {by}");
    turn.why[interceptor] =
        Some(Why::new(MoveOutcome::Intercepts { target: name.clone() }, reason, "seed 003 §3.2.3.1"));
    for engager in engaging {
        turn.fate[*engager] = Fate::Partial { target: square };
        let reason = if closest == Some(*engager) {
            format!(
                "{by} intercepted {name}, which was closer ({how}), so this move to {square} becomes a partial move"
            )
        } else {
            format!("{by} intercepted {name} on {square}, so this move becomes a partial move")
        };
        turn.why[*engager] = Some(Why::new(MoveOutcome::Partial, reason, "seed 003 §3.2.3.2"));
    }
    Ok(())
}

fn steps(count: u32) -> String {
    if count == 1 {
        "1 step away".to_string()
    } else {
        format!("{count} steps away")
    }
}
