//! Deciding percentile-skirmish commands. Each refusal names its rule: a heading of seed 002
//! (`headings`), or `SERVICE_RULES` for what Herald adds as a service (authority, the order of
//! commands, set-up limits).

mod aftermath;
mod combat;
mod declare;
mod flow;
mod moving;
mod open_combat;
mod opportunity;
mod setup;
mod spell_effects;
mod spells;

pub use flow::LOWEST_ROUND;

use super::{
    command::SkirmishCommand,
    event::SkirmishEvent,
    state::{MiniState, Phase, SkirmishState},
};
use crate::{
    percentile_skirmish::{headings, SERVICE_RULES},
    Context, RuleError,
};

/// Decide a command.
pub fn decide(
    state: &SkirmishState,
    command: &SkirmishCommand,
    ctx: &mut Context,
) -> Result<Vec<SkirmishEvent>, RuleError> {
    use SkirmishCommand as C;
    if let C::CreateBattle { table, participants, minis, options, summons, seed_commitment } = command {
        let setup = setup::Setup { table, participants, minis, options, summons, seed_commitment };
        return setup::create(state, &setup, ctx);
    }
    if !state.created() {
        return Err(refuse("not_found", "there is no percentile-skirmish battle on this stream yet", SERVICE_RULES));
    }
    match command {
        C::CreateBattle { .. } => Err(refuse("already_exists", "this stream already holds a battle", SERVICE_RULES)),
        C::ContributeEntropy { entropy } => setup::contribute_entropy(state, entropy, ctx),
        C::RevealSeed { seed, next_commitment } => {
            let next = next_commitment.as_deref();
            Ok(vec![SkirmishEvent::SeedRevealed(state.dice.reveal(
                seed,
                next,
                state.ended(),
                ctx,
                "percentile-skirmish",
            )?)])
        }
        C::JudgeRoll(roll) => {
            Ok(vec![SkirmishEvent::JudgeRolled(state.dice.judge_roll(roll, ctx, "percentile-skirmish")?)])
        }
        C::EndBattle { winner, reason } => setup::end_battle(state, winner.as_deref(), reason, ctx),
        C::SetLifePoints { mini, life, reason } => {
            not_ended(state)?;
            setup::set_life_points(state, mini, *life, reason, ctx)
        }
        C::Declare { participant, minis } => {
            not_ended(state)?;
            declare::declare(state, participant, minis, ctx)
        }
        C::ChooseCombatOption { mini, choice, weapon } => {
            not_ended(state)?;
            open_combat::choose_option(state, mini, *choice, weapon.as_deref(), ctx)
        }
        C::AttackOfOpportunity { attacker, target, weapon } => {
            not_ended(state)?;
            opportunity::attack_of_opportunity(state, attacker, target, weapon.as_deref(), ctx)
        }
        C::DeclineOpportunity { attacker, target } => {
            not_ended(state)?;
            opportunity::decline_opportunity(state, attacker, target, ctx)
        }
        C::Move { mini, path, run, facing } => {
            let acting = require_acting(state, mini, ctx)?;
            moving::move_mini(state, acting, path, *run, *facing, ctx)
        }
        C::Flee { mini } => {
            let acting = require_acting(state, mini, ctx)?;
            moving::flee(state, acting, ctx)
        }
        C::MeleeAttack { attacker, target, weapon } => {
            let acting = require_acting(state, attacker, ctx)?;
            combat::melee_attack(state, acting, target, weapon, ctx)
        }
        C::RangedAttack { attacker, target, weapon } => {
            let acting = require_acting(state, attacker, ctx)?;
            combat::ranged_attack(state, acting, target, weapon, ctx)
        }
        C::CastSpell { caster, spell, target, at, command } => {
            let acting = require_acting(state, caster, ctx)?;
            let request =
                spells::Casting { spell: *spell, target: target.as_deref(), at: *at, command: command.as_deref() };
            spells::cast(state, acting, &request, ctx)
        }
        C::IssueCommand { caster, mini, command } => {
            let acting = require_acting(state, caster, ctx)?;
            spells::issue_command(state, acting, mini, command, ctx)
        }
        C::EndActions { mini } => {
            let acting = require_acting(state, mini, ctx)?;
            moving::must_have_fled(state, acting)?;
            let mut working = state.clone();
            let mut events = Vec::new();
            flow::finish_actions(&mut working, &mut events, mini, "done", ctx)?;
            Ok(events)
        }
    }
}

/// A refusal with a `percentile-skirmish.` code.
pub(crate) fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("percentile-skirmish.{code}"), message, rule)
}

/// A refusal for lack of authority (403).
pub(crate) fn forbid(code: &str, message: impl Into<String>) -> RuleError {
    RuleError::forbidden(format!("percentile-skirmish.{code}"), message, SERVICE_RULES)
}

/// Apply `event` to the working state and record it: later events of the same decision see
/// its effects exactly as `evolve` will.
pub(crate) fn emit(state: &mut SkirmishState, events: &mut Vec<SkirmishEvent>, event: SkirmishEvent) {
    state.apply(&event);
    events.push(event);
}

fn not_ended(state: &SkirmishState) -> Result<(), RuleError> {
    if state.ended() {
        Err(refuse("ended", "the battle has ended", SERVICE_RULES))
    } else {
        Ok(())
    }
}

/// The mini `id`, or a 422 naming it.
pub(crate) fn mini<'a>(state: &'a SkirmishState, id: &str) -> Result<&'a MiniState, RuleError> {
    state.mini(id).ok_or_else(|| refuse("unknown_mini", format!("there is no mini {id}"), SERVICE_RULES))
}

/// A mini that is on the table.
pub(crate) fn mini_in_play<'a>(state: &'a SkirmishState, id: &str) -> Result<&'a MiniState, RuleError> {
    let found = mini(state, id)?;
    if found.in_play() {
        Ok(found)
    } else {
        Err(refuse("mini_out_of_play", format!("{id} has been killed or has left the table"), SERVICE_RULES))
    }
}

/// Whether the actor acts for `participant`: its controller, or a judge.
pub(crate) fn acts_for(state: &SkirmishState, participant: &str, ctx: &Context) -> bool {
    ctx.actor.is_judge() || state.participant(participant).is_some_and(|p| ctx.actor.is_player(&p.controller))
}

/// Refuse unless the actor acts for the participant acting for `mini`.
pub(crate) fn require_control(state: &SkirmishState, mini: &MiniState, ctx: &Context) -> Result<(), RuleError> {
    let participant = state.acting_participant(mini);
    if acts_for(state, participant, ctx) {
        Ok(())
    } else {
        Err(forbid(
            "not_your_mini",
            format!("{} acts for {participant}: only its controller or a judge may", mini.id()),
        ))
    }
}

/// The mini `id`, when it is the one acting now, nothing waits on anyone, and the actor acts
/// for it (seed 002 "TURN": minis act in their round, one after the other).
fn require_acting<'a>(state: &'a SkirmishState, id: &str, ctx: &Context) -> Result<&'a MiniState, RuleError> {
    not_ended(state)?;
    let mini = mini_in_play(state, id)?;
    require_control(state, mini, ctx)?;
    match state.phase {
        Phase::Acting => {}
        _ => {
            return Err(refuse(
                "not_acting",
                "the round is waiting for declarations: no mini acts until every participant has declared",
                headings::TURN,
            ))
        }
    }
    let acting = state.acting().map(MiniState::id).unwrap_or_default();
    if acting != id {
        return Err(refuse(
            "not_acting",
            format!("{id} is not acting now: {acting} is (minis act in their round, in order)"),
            headings::TURN,
        ));
    }
    if let Some(combat) = &state.combat {
        return Err(refuse(
            "combat_pending",
            format!("the open combat of {} and {} waits for both options first", combat.attacker, combat.defender),
            headings::OPEN_COMBAT,
        ));
    }
    if let Some(opportunity) = state.opportunities.first() {
        return Err(refuse(
            "opportunity_pending",
            format!(
                "{} may make an attack of opportunity on {} first (attack_of_opportunity or decline_opportunity)",
                opportunity.attacker, opportunity.target
            ),
            headings::ATTACK_OF_OPPORTUNITY,
        ));
    }
    Ok(mini)
}

/// Whether `mini` could attack now (for the view): on the table, not a statue, not run, not
/// hindered in water after moving.
pub fn can_attack(state: &SkirmishState, mini: &MiniState) -> bool {
    mini.in_play() && combat::attack_refusal(state, mini, false).is_none()
}
