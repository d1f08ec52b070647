//! Deciding warmachine commands. Each refusal names its rule: a heading of seed 000, or
//! [`SERVICE_RULES`] for what Herald adds as a service (authority, ordering of commands).

mod activation;
mod attack;
mod damage;
mod effects;
mod moving;
mod setup;
mod turn;

use super::{
    command::WarmachineCommand,
    event::WarmachineEvent,
    state::{ModelState, Phase, WarmachineState},
};
use crate::{Context, RuleError};

/// Where Herald's own rules for warmachine battles are written down.
pub const SERVICE_RULES: &str = "herald: docs/rulesets/warmachine.md";

/// Decide a command.
pub fn decide(
    state: &WarmachineState,
    command: &WarmachineCommand,
    ctx: &mut Context,
) -> Result<Vec<WarmachineEvent>, RuleError> {
    use WarmachineCommand as C;
    if let C::CreateBattle { table, players, models, seed_commitment } = command {
        return setup::create(state, table, players, models, seed_commitment, ctx);
    }
    if !state.created() {
        return Err(refuse("not_found", "there is no warmachine battle on this stream yet", SERVICE_RULES));
    }
    match command {
        C::CreateBattle { .. } => Err(refuse("already_exists", "this stream already holds a battle", SERVICE_RULES)),
        C::ContributeEntropy { entropy } => setup::contribute_entropy(state, entropy, ctx),
        C::RevealSeed { seed, next_commitment } => setup::reveal_seed(state, seed, next_commitment.as_deref(), ctx),
        C::JudgeRoll(roll) => {
            let revealed = crate::dice::sealed::key_revealed(state.revealed_seed.as_ref(), &state.reseals);
            Ok(vec![WarmachineEvent::JudgeRolled(roll.roll(ctx, "warmachine", revealed)?)])
        }
        C::EndBattle { winner, reason } => setup::end_battle(state, winner.as_deref(), reason, ctx),
        C::SetCondition { model, condition, active, expires_at_start_of, reason } => {
            not_ended(state)?;
            effects::set_condition(state, model, condition, *active, expires_at_start_of.as_deref(), reason, ctx)
        }
        C::Displace { model, kind, origin, distance, pow, collateral_pow, reason } => {
            not_ended(state)?;
            let request = effects::DisplaceRequest {
                model,
                kind: *kind,
                origin: *origin,
                distance: *distance,
                pow: *pow,
                collateral_pow: *collateral_pow,
                reason,
            };
            effects::displace(state, &request, ctx)
        }
        C::StartTurn { control } => {
            not_ended(state)?;
            turn::start_turn(state, control, ctx)
        }
        C::EndTurn {} => {
            not_ended(state)?;
            turn::end_turn(state, ctx)
        }
        C::ResolveTrigger { model, rule, decline_optional } => {
            not_ended(state)?;
            effects::resolve_trigger(state, model, rule, *decline_optional, ctx)
        }
        C::Activate { activation } => {
            in_activation_phase(state)?;
            activation::activate(state, activation, ctx)
        }
        C::Move { model, movement, placement } => {
            in_activation_phase(state)?;
            no_pending_triggers(state)?;
            moving::normal_movement(state, model, movement, placement.as_ref(), ctx)
        }
        C::PlaceTroopers { placement } => {
            in_activation_phase(state)?;
            no_pending_triggers(state)?;
            moving::place_troopers(state, placement, ctx)
        }
        C::Attack { attacker, weapon, target, boost_attack, boost_damage } => {
            in_activation_phase(state)?;
            no_pending_triggers(state)?;
            let request = attack::AttackRequest {
                attacker,
                weapon,
                target,
                boost_attack: *boost_attack,
                boost_damage: *boost_damage,
            };
            attack::attack(state, &request, ctx)
        }
        C::UseSpecialRule { model, rule, target } => {
            in_activation_phase(state)?;
            activation::use_special_rule(state, model, rule, target.as_deref(), ctx)
        }
        C::EndActivation { advance_model, advance_rule, advance_path } => {
            in_activation_phase(state)?;
            no_pending_triggers(state)?;
            activation::end_activation(state, advance_model.as_deref(), advance_rule.as_deref(), advance_path, ctx)
        }
    }
}

/// A refusal with a `warmachine.` code.
pub(crate) fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("warmachine.{code}"), message, rule)
}

/// A refusal for lack of authority (403).
pub(crate) fn forbid(code: &str, message: impl Into<String>) -> RuleError {
    RuleError::forbidden(format!("warmachine.{code}"), message, SERVICE_RULES)
}

fn not_ended(state: &WarmachineState) -> Result<(), RuleError> {
    if state.ended() {
        Err(refuse("ended", "the battle has ended", SERVICE_RULES))
    } else {
        Ok(())
    }
}

fn in_activation_phase(state: &WarmachineState) -> Result<(), RuleError> {
    not_ended(state)?;
    if state.phase != Phase::Activation {
        return Err(refuse(
            "not_activation_phase",
            "no turn is in its activation phase: start the turn first",
            "seed 000 \"Gameplay, Turn Sequence, Movement & Actions\"",
        ));
    }
    Ok(())
}

fn no_pending_triggers(state: &WarmachineState) -> Result<(), RuleError> {
    match state.pending_triggers.first() {
        Some(pending) => Err(refuse(
            "triggers_pending",
            format!("resolve the triggered effects first ({} on {} is next)", pending.rule, pending.model),
            "seed 000 \"Triggers\"",
        )),
        None => Ok(()),
    }
}

/// The model `id`, or a 422 naming it.
pub(crate) fn model<'a>(state: &'a WarmachineState, id: &str) -> Result<&'a ModelState, RuleError> {
    state.model(id).ok_or_else(|| refuse("unknown_model", format!("there is no model {id}"), SERVICE_RULES))
}

/// A model that is on the table.
pub(crate) fn model_in_play<'a>(state: &'a WarmachineState, id: &str) -> Result<&'a ModelState, RuleError> {
    let found = model(state, id)?;
    if found.in_play() {
        Ok(found)
    } else {
        Err(refuse("model_destroyed", format!("{id} has been destroyed or removed from play"), SERVICE_RULES))
    }
}

/// Whether the actor acts for `player`: its controller, or a judge.
pub(crate) fn acts_for(state: &WarmachineState, player: &str, ctx: &Context) -> bool {
    ctx.actor.is_judge() || state.player(player).is_some_and(|p| ctx.actor.is_player(&p.controller))
}

/// Refuse unless the actor acts for `player`.
pub(crate) fn require_player(state: &WarmachineState, player: &str, ctx: &Context) -> Result<(), RuleError> {
    if acts_for(state, player, ctx) {
        Ok(())
    } else {
        Err(forbid("not_your_model", format!("only {player}'s controller or a judge may do this")))
    }
}

/// Refuse unless the actor acts for `player`, whose turn it is: a player sending a turn's
/// action on another player's turn is told whose turn it is.
pub(crate) fn require_turn(state: &WarmachineState, player: &str, ctx: &Context) -> Result<(), RuleError> {
    if acts_for(state, player, ctx) {
        Ok(())
    } else {
        Err(forbid("not_your_turn", format!("it is {player}'s turn; only their controller or a judge may do this")))
    }
}

/// Refuse unless the actor is a judge.
pub(crate) fn require_judge(ctx: &Context, action: &str) -> Result<(), RuleError> {
    if ctx.actor.is_judge() {
        Ok(())
    } else {
        Err(forbid("judge_only", format!("only a judge may {action}")))
    }
}
