//! What follows a death or a move: commands and golems out of their caster's range (seed 002
//! "Command", "Golem"), the end of the battle when one participant is left, and a killed or
//! stalled acting mini's actions ending.

use super::{emit, flow::finish_actions};
use crate::{
    percentile_skirmish::{
        battle::{
            event::SkirmishEvent,
            state::{MiniState, SkirmishState},
        },
        table::EPSILON,
    },
    Context, RuleError,
};

/// After minis were killed: commands of a killed caster end and its golem goes inactive; the
/// battle ends when at most one participant has minis of its own left; a killed acting mini's
/// actions are over.
pub fn after_kills(
    state: &mut SkirmishState,
    events: &mut Vec<SkirmishEvent>,
    killed: &[String],
    ctx: &mut Context,
) -> Result<(), RuleError> {
    if killed.is_empty() {
        return Ok(());
    }
    check_control(state, events);
    let standing: Vec<String> = state
        .participants
        .iter()
        .filter(|p| state.minis.values().any(|m| m.spec.participant == p.name && m.in_play() && m.summoned.is_none()))
        .map(|p| p.name.clone())
        .collect();
    if standing.len() <= 1 {
        let winner = standing.first().cloned();
        let reason = match &winner {
            Some(name) => format!("only {name} has minis left on the table"),
            None => "no participant has minis left on the table".to_string(),
        };
        emit(state, events, SkirmishEvent::BattleEnded { winner, reason });
        return Ok(());
    }
    if let Some(acting) = state.acting().filter(|mini| !mini.in_play()).map(|mini| mini.id().to_string()) {
        finish_actions(state, events, &acting, "killed", ctx)?;
    }
    Ok(())
}

/// Commands and golems out of their caster's range, or whose caster is gone, lose control
/// (seed 002 "Command": "the spell is considered terminated"; "Golem": "the golem becomes
/// inactive until the spell caster regains control").
pub fn check_control(state: &mut SkirmishState, events: &mut Vec<SkirmishEvent>) {
    let lost = |state: &SkirmishState, mini: &MiniState, caster: &str| -> Option<String> {
        match state.mini(caster) {
            Some(caster) if caster.in_play() => {
                let distance = caster.position.distance(mini.position);
                (distance > caster.spell_range() + EPSILON).then(|| {
                    format!(
                        "{} is {distance:.2}″ from {}, beyond its spell range of {}″",
                        mini.id(),
                        caster.id(),
                        caster.spell_range()
                    )
                })
            }
            _ => Some(format!("{caster} is no longer on the table")),
        }
    };
    let mut changes = Vec::new();
    for mini in state.minis.values().filter(|mini| mini.in_play()) {
        if let Some(caster) = &mini.commanded_by {
            if let Some(reason) = lost(state, mini, caster) {
                changes.push(SkirmishEvent::CommandEnded { mini: mini.id().into(), caster: caster.clone(), reason });
            }
        }
        if let (true, true, Some(summoning)) = (mini.is_golem(), mini.golem_active, &mini.summoned) {
            if let Some(reason) = lost(state, mini, &summoning.caster) {
                changes.push(SkirmishEvent::GolemInactive {
                    golem: mini.id().into(),
                    caster: summoning.caster.clone(),
                    reason,
                });
            }
        }
    }
    for change in changes {
        emit(state, events, change);
    }
}

/// After minis changed places: control is checked, and a golem that went inactive while acting
/// stops acting.
pub fn after_moves(
    state: &mut SkirmishState,
    events: &mut Vec<SkirmishEvent>,
    ctx: &mut Context,
) -> Result<(), RuleError> {
    check_control(state, events);
    let stalled = state.acting().filter(|mini| mini.is_golem() && !mini.golem_active).map(|mini| mini.id().to_string());
    match stalled {
        Some(golem) => finish_actions(state, events, &golem, "inactive", ctx),
        None => Ok(()),
    }
}
