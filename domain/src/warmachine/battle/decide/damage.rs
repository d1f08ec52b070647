//! Applying damage: boxes, warjack grids and their crippled systems, destruction, warjacks left
//! inert, and the end of the battle when only one player has models left.

use crate::{
    dice::{DiceExpr, DiceTape},
    warmachine::{
        battle::{
            event::{DamageDealt, WarmachineEvent},
            state::WarmachineState,
        },
        model::ModelType,
        rolls::DamageRoll,
    },
    RuleError,
};

/// Apply `event` to the working state and record it: the decider sees its own events' effects
/// (a model destroyed by the first blast is not damaged by the second) exactly as `evolve` will.
pub fn emit(state: &mut WarmachineState, events: &mut Vec<WarmachineEvent>, event: WarmachineEvent) {
    state.apply(&event);
    events.push(event);
}

/// The damage a roll does to `model`: boxes marked in order, or on a warjack's grid from the
/// column a d6 picks (herald's grid model, docs/rulesets/warmachine.md).
pub fn damage_dealt(
    state: &WarmachineState,
    tape: &mut DiceTape,
    model: &str,
    source: &str,
    roll: DamageRoll,
) -> Result<DamageDealt, RuleError> {
    let Some(target) = state.model(model) else {
        return Err(super::refuse("unknown_model", format!("there is no model {model}"), super::SERVICE_RULES));
    };
    let points = u16::try_from(roll.damage).unwrap_or(u16::MAX);
    let mut dealt = DamageDealt {
        model: model.to_string(),
        source: source.to_string(),
        roll,
        column: None,
        marked: 0,
        crippled: vec![],
        destroyed: false,
    };
    if points == 0 || !target.in_play() {
        return Ok(dealt);
    }
    match &target.grid {
        Some(grid) => {
            let column =
                DiceExpr::parse("1d6")?.roll(tape, &format!("damage grid column for {model}"), &Default::default())?;
            let mut marked = grid.clone();
            let result = marked.mark(u8::try_from(column.total).unwrap_or(1), points)?;
            dealt.column = Some(column);
            dealt.marked = result.marked;
            dealt.crippled = result.newly_crippled;
            dealt.destroyed = result.destroyed;
        }
        None => {
            let left = u16::try_from(target.boxes_left()).unwrap_or(u16::MAX);
            dealt.marked = points.min(left);
            dealt.destroyed = points >= left;
        }
    }
    Ok(dealt)
}

/// After damage was applied: destroyed models leave the table (seed 000 "Warjacks": a
/// warcaster's warjacks become inert), and the battle ends when one player (or none) has models
/// left that can act (herald's rule: the seed has no victory condition).
pub fn after_damage(
    state: &mut WarmachineState,
    events: &mut Vec<WarmachineEvent>,
    dealt: &[DamageDealt],
    cause: &str,
) {
    for hit in dealt.iter().filter(|d| d.destroyed) {
        destroy(state, events, &hit.model, cause);
    }
    check_battle_end(state, events);
}

/// Remove a model from play, with what follows from it.
pub fn destroy(state: &mut WarmachineState, events: &mut Vec<WarmachineEvent>, model: &str, cause: &str) {
    let Some(found) = state.model(model) else { return };
    let is_caster = found.spec.profile.model_type == ModelType::Warcaster;
    if !found.destroyed {
        emit(state, events, WarmachineEvent::ModelDestroyed { model: model.to_string(), cause: cause.to_string() });
    }
    if is_caster {
        let warjacks: Vec<String> = state
            .models
            .values()
            .filter(|m| m.spec.battlegroup.as_deref() == Some(model) && m.in_play() && !m.inert)
            .filter(|m| m.spec.profile.model_type == ModelType::Warjack)
            .map(|m| m.spec.id.clone())
            .collect();
        if !warjacks.is_empty() {
            emit(state, events, WarmachineEvent::WarjacksInert { warcaster: model.to_string(), warjacks });
        }
    }
}

/// End the battle when at most one player has a model that can still act.
pub fn check_battle_end(state: &mut WarmachineState, events: &mut Vec<WarmachineEvent>) {
    if state.ended() {
        return;
    }
    let standing: Vec<String> = state
        .players
        .iter()
        .filter(|p| state.models.values().any(|m| m.spec.player == p.name && m.in_play() && !m.inert))
        .map(|p| p.name.clone())
        .collect();
    if standing.len() <= 1 {
        let winner = standing.first().cloned();
        let reason = match &winner {
            Some(name) => format!("only {name} has models left on the table"),
            None => "no player has models left on the table".to_string(),
        };
        emit(state, events, WarmachineEvent::BattleEnded { winner, reason });
    }
}
