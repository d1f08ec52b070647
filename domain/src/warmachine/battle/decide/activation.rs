//! Activations (seed 000 "Activation Phase"): activating a model or unit once per turn, "any
//! time" special rules, and ending the activation with at most one end-of-activation advance.

use super::{model_in_play, refuse, require_player, SERVICE_RULES};
use crate::{
    warmachine::{
        battle::{
            command::Movement,
            event::{AdvanceKind, Cost, WarmachineEvent as E},
            state::{Activation, Condition, WarmachineState},
        },
        model::{Mechanic, SpecialRule},
        movement::check_advance,
        table::{within, Point},
    },
    Context, RuleError,
};

const ACTIVATION: &str = "seed 000 \"Activation Phase\"";
const ANY_TIME: &str = "seed 000 \"Use of Any Time Special Rules\"";
const END_OF_ACTIVATION: &str = "seed 000 \"End of activation Movement\"";

/// The activation in progress, or a refusal.
pub(super) fn current(state: &WarmachineState) -> Result<&Activation, RuleError> {
    state.activation.as_ref().ok_or_else(|| refuse("no_activation", "no model or unit is activating", ACTIVATION))
}

/// Activate an independent model or a unit of the player whose turn it is.
pub fn activate(state: &WarmachineState, id: &str, ctx: &Context) -> Result<Vec<E>, RuleError> {
    let player = state.current.clone().unwrap_or_default();
    super::require_turn(state, &player, ctx)?;
    if let Some(open) = &state.activation {
        return Err(refuse("activation_open", format!("{} is still activating", open.id), ACTIVATION));
    }
    super::no_pending_triggers(state)?;
    let members: Vec<&crate::warmachine::battle::state::ModelState> = match state.model(id) {
        Some(model) if model.spec.unit.is_none() => vec![model],
        Some(model) => {
            return Err(refuse(
                "activate_unit",
                format!("{id} is a trooper: activate its unit {}", model.spec.unit.clone().unwrap_or_default()),
                ACTIVATION,
            ))
        }
        None => state.unit_members(id),
    };
    if members.is_empty() {
        return Err(refuse("unknown_activation", format!("there is no model or unit {id}"), SERVICE_RULES));
    }
    if members.iter().any(|m| m.spec.player != player) {
        return Err(refuse("not_your_unit", format!("{id} is not {player}'s, whose turn it is"), ACTIVATION));
    }
    if state.activated.contains(id) {
        return Err(refuse("already_activated", format!("{id} has already activated this turn"), ACTIVATION));
    }
    let ready: Vec<String> = members.iter().filter(|m| m.in_play() && !m.inert).map(|m| m.spec.id.clone()).collect();
    if ready.is_empty() {
        return Err(refuse(
            "cannot_activate",
            format!("{id} is not on the table (or is inert): \"A model must be on the table to activate\""),
            ACTIVATION,
        ));
    }
    let required_charge =
        members.iter().filter(|m| m.in_play()).any(|m| m.has(&Condition::MustCharge) || m.has(&Condition::Frenzied));
    Ok(vec![E::Activated { activation: id.to_string(), models: ready, required_charge }])
}

fn rule_on<'a>(state: &'a WarmachineState, model: &str, rule: &str) -> Result<&'a SpecialRule, RuleError> {
    let found = model_in_play(state, model)?;
    found
        .spec
        .profile
        .special_rules
        .iter()
        .find(|r| r.name == rule)
        .ok_or_else(|| refuse("unknown_rule", format!("{model} has no special rule named {rule}"), SERVICE_RULES))
}

/// Use an "any time" special rule: before or after moving or attacking, never during, and never
/// after running.
pub fn use_special_rule(
    state: &WarmachineState,
    model: &str,
    rule: &str,
    target: Option<&str>,
    ctx: &Context,
) -> Result<Vec<E>, RuleError> {
    let activation = current(state)?;
    let user = model_in_play(state, model)?;
    require_player(state, &user.spec.player, ctx)?;
    let Some(doing) = activation.models.get(model) else {
        return Err(refuse("not_activating", format!("{model} is not activating"), ANY_TIME));
    };
    let special = rule_on(state, model, rule)?;
    if !special.mechanics.contains(&Mechanic::AnyTime) {
        return Err(refuse(
            "not_any_time",
            format!("{rule} cannot be used at any time during the activation"),
            ANY_TIME,
        ));
    }
    if doing.ran {
        return Err(refuse("after_running", "a model cannot use an \"any time\" special rule after running", ANY_TIME));
    }
    if activation.awaiting_placement.is_some() {
        return Err(refuse("during_movement", "a model cannot interrupt movement to use a special rule", ANY_TIME));
    }
    if let Some(pending) = state.pending_triggers.first() {
        return Err(refuse(
            "during_trigger",
            format!("not while resolving another triggered effect ({} is pending)", pending.rule),
            ANY_TIME,
        ));
    }
    let target = match target {
        Some(target) if special.mechanics.contains(&Mechanic::UpkeepSpell) => {
            Some(model_in_play(state, target)?.spec.id.clone())
        }
        Some(_) => {
            return Err(refuse(
                "not_upkeep",
                format!("{rule} is not an upkeep spell and takes no target"),
                SERVICE_RULES,
            ))
        }
        None if special.mechanics.contains(&Mechanic::UpkeepSpell) => {
            return Err(refuse(
                "upkeep_target",
                format!("{rule} is an upkeep spell: name the model it is on"),
                SERVICE_RULES,
            ))
        }
        None => None,
    };
    Ok(vec![E::SpecialRuleUsed { model: model.to_string(), rule: rule.to_string(), target }])
}

/// End the activation. Models that never resolved their normal movement forfeit it; one model
/// may make the single end-of-activation advance a rule grants it.
pub fn end_activation(
    state: &WarmachineState,
    advance_model: Option<&str>,
    advance_rule: Option<&str>,
    path: &[Point],
    ctx: &Context,
) -> Result<Vec<E>, RuleError> {
    let activation = current(state)?;
    let player = state.current.clone().unwrap_or_default();
    require_player(state, &player, ctx)?;
    // A trooper that moved and was then destroyed leaves nobody to place the others around: the
    // player "can select another model to move" (seed 000 "Unit Movement") but need not, so the
    // activation may end (the others forfeit their movement below).
    if let Some(mover) =
        activation.awaiting_placement.as_ref().filter(|id| state.model(id).is_some_and(|m| m.in_play()))
    {
        return Err(refuse(
            "troopers_unplaced",
            format!("place the other troopers of {} after {mover} moved first", activation.id),
            "seed 000 \"Unit Movement\"",
        ));
    }
    // "With a successful charge the model must use its combat action to make ... initial melee
    // attacks" (seed 000 "Charge"): it may not end its activation before its first attack while
    // the charged model can still be attacked.
    for (id, doing) in &activation.models {
        let (Some(charger), Some(charged)) = (state.model(id), doing.charge_target.as_deref()) else { continue };
        let attackable = state.model(charged).is_some_and(|target| {
            target.in_play()
                && charger.melee_range().is_some_and(|reach| within(&charger.circle(), &target.circle(), reach))
        });
        if charger.in_play() && !doing.combat_forfeited && attackable {
            return Err(refuse(
                "charge_attack_required",
                format!("{id} charged {charged} and must make its initial melee attacks before its activation ends"),
                "seed 000 \"Charge\"",
            ));
        }
    }
    let mut events = Vec::new();
    for (id, doing) in &activation.models {
        if !doing.moved && state.model(id).is_some_and(|m| m.in_play()) && !activation.movement_done {
            // Ending the activation forfeits the normal movement, which a required charge or run
            // forbids as much as an explicit forfeit does (seed 000 "Required Charges", "Run"):
            // without this check ending the activation escaped them.
            if let Some(mover) = state.model(id) {
                super::moving::check_required(state, activation, mover, &Movement::Forfeit)?;
            }
            events.push(E::MovementForfeited {
                model: id.clone(),
                combat_forfeited: false,
                rule: "seed 000 \"Forfeiting Normal Movement or Combat Actions\"".into(),
            });
        }
    }
    match (advance_model, advance_rule) {
        (None, None) => {}
        (Some(model), Some(rule)) => events.push(end_of_activation_advance(state, activation, model, rule, path)?),
        _ => {
            return Err(refuse(
                "advance_incomplete",
                "an end-of-activation advance names both the model and the rule granting it",
                END_OF_ACTIVATION,
            ))
        }
    }
    events.push(E::ActivationEnded { activation: activation.id.clone(), reason: "declared".into() });
    Ok(events)
}

fn end_of_activation_advance(
    state: &WarmachineState,
    activation: &Activation,
    model: &str,
    rule: &str,
    path: &[Point],
) -> Result<E, RuleError> {
    let mover = model_in_play(state, model)?;
    if !activation.models.contains_key(model) {
        return Err(refuse("not_activating", format!("{model} is not activating"), END_OF_ACTIVATION));
    }
    let inches = rule_on(state, model, rule)?
        .mechanics
        .iter()
        .find_map(|m| match m {
            Mechanic::EndOfActivationAdvance { inches } => Some(*inches),
            _ => None,
        })
        .ok_or_else(|| {
            refuse("not_end_of_activation", format!("{rule} grants no end-of-activation advance"), END_OF_ACTIVATION)
        })?;
    if mover.has(&Condition::CannotAdvance) {
        return Err(refuse(
            "cannot_advance",
            format!("{model} cannot advance: \"cannot\" beats \"can\""),
            "seed 000 \"Rule Priority\"",
        ));
    }
    let others: Vec<_> = state.other_bases(&[model]).into_iter().map(|(_, c)| c).collect();
    super::moving::check_restrictions(state, mover, path)?;
    let advance = check_advance(&state.table, &mover.circle(), path, inches, &others)?;
    Ok(E::Advanced {
        model: model.to_string(),
        kind: AdvanceKind::EndOfActivation,
        from: mover.position.centre(),
        path: path.to_vec(),
        distance: advance.distance,
        cost: Cost::Free,
        hazards: advance.hazards_entered,
    })
}
