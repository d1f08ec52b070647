//! Deciding zone-rpg commands. Each refusal names its rule: a heading of seed 001, or
//! [`rules::SERVICE`] for what Herald adds as a service (authority, the order of commands).
//!
//! A decision works on a copy of the state and applies each event to it as it is emitted, so
//! later steps see earlier effects exactly as `evolve` will (a bandit incapacitated by the
//! counter does not hit back). After every command the fight is settled: a pending attack whose
//! targets have all decided is resolved, an interrupted move whose threats have all decided
//! resumes, and a faction with nobody left to act passes.

mod actions;
mod attack;
mod authority;
mod budget;
mod damage;
mod declare;
mod grab;
mod judge;
mod morale;
mod mounts;
mod moving;
mod nonlethal;
mod reaction;
mod resolve;
mod rolls;
mod round;
mod setup;
mod shove;
mod stunt;
mod targeting;
mod windows;

use super::{
    command::ZoneRpgCommand,
    event::ZoneRpgEvent,
    outcome::{Ability, Save},
    rules,
    state::{character::CharacterState, turn::TurnMember, Phase, ZoneRpgState},
};
use crate::{dice::Draw, Context, RuleError};

pub(crate) use authority::{acts_for, forbid, require_controller, require_faction, require_gm};
pub(crate) use setup::{check_name, MAX_CHARACTERS, MAX_NUMBER, MAX_WEAPONS};

/// The error-code namespace.
pub const CODE_PREFIX: &str = "zone-rpg";

/// Decide a command.
pub fn decide(
    state: &ZoneRpgState,
    command: &ZoneRpgCommand,
    ctx: &mut Context,
) -> Result<Vec<ZoneRpgEvent>, RuleError> {
    use ZoneRpgCommand as C;
    if let C::CreateBattle { zones, borders, factions, characters, initiative, options, seed_commitment } = command {
        let setup = setup::Setup { zones, borders, factions, characters, initiative, options, seed_commitment };
        return setup::create(state, &setup, ctx);
    }
    if !state.created() {
        return Err(refuse("not_found", "there is no zone-rpg fight on this stream yet", rules::SERVICE));
    }
    match command {
        C::ContributeEntropy { entropy } => return setup::contribute_entropy(state, entropy, ctx),
        C::RevealSeed { seed, next_commitment } => {
            return setup::reveal_seed(state, seed, next_commitment.as_deref(), ctx)
        }
        C::JudgeRoll(roll) => {
            return Ok(vec![ZoneRpgEvent::JudgeRolled(state.dice.judge_roll(roll, ctx, CODE_PREFIX)?)]);
        }
        _ => {}
    }
    if state.ended() {
        return Err(refuse("ended", "the fight is over", rules::SERVICE));
    }
    let mut decision = Decision { state: state.clone(), events: Vec::new(), ctx };
    let d = &mut decision;
    match command {
        C::RollInitiative {} => setup::roll_initiative(d)?,
        C::StartRound { first_faction } => round::start_round(d, first_faction)?,
        C::TakeTurn { character } => round::take_turn(d, character)?,
        C::Pass { faction } => round::pass(d, faction)?,
        C::EndTurn {} => round::end_turn(d)?,
        C::Move { character, path, sprint, sneak, at_border, behind } => {
            let request = moving::MoveRequest { path, sprint: *sprint, sneak: *sneak, at_border, behind };
            moving::move_character(d, character, &request)?;
        }
        C::Mount { character, mount } => mounts::mount(d, character, mount)?,
        C::Dismount { character } => mounts::dismount(d, character)?,
        C::Attack { attacker, weapon, target, impaired, death_blow, stunt } => {
            let request = attack::AttackRequest {
                attacker,
                weapon: weapon.as_deref(),
                target,
                impaired: *impaired,
                death_blow: *death_blow,
                stunt: stunt.as_ref(),
            };
            attack::attack(d, &request)?;
        }
        C::NonLethalAttack { attacker, target, manoeuvre } => attack::non_lethal(d, attacker, target, manoeuvre)?,
        C::ApproveStunt { approved } => stunt::approve(d, *approved)?,
        C::AnswerStunt { accept } => stunt::answer(d, *accept)?,
        C::React { character, reaction } => reaction::react(d, character, reaction)?,
        C::Decline { character } => windows::decline(d, character)?,
        C::CloseWindow {} => windows::close_window(d)?,
        C::OpportunityAttack { attacker, target, weapon, impaired, manoeuvre } => {
            let request = declare::Opportunity {
                attacker,
                target,
                weapon: weapon.as_deref(),
                impaired: *impaired,
                manoeuvre: manoeuvre.as_ref(),
            };
            declare::opportunity(d, &request)?;
        }
        C::Perform { character, action, description } => actions::perform(d, character, action, description)?,
        C::BreakFree { character } => actions::break_free(d, character)?,
        C::FreeAlly { character, ally } => actions::free_ally(d, character, ally)?,
        C::Surrender { character } => actions::surrender(d, character)?,
        C::Retreat { character } => actions::retreat(d, character)?,
        C::SetCondition { character, condition, active, reason } => {
            judge::set_condition(d, character, *condition, *active, reason)?;
        }
        C::AdjustHealth { character, change, reason } => judge::adjust_health(d, character, *change, reason)?,
        C::Place { character, zone, reason } => judge::place(d, character, zone, reason)?,
        C::ResolveChase { fleeing, pursuers, edge } => judge::resolve_chase(d, fleeing, pursuers, *edge)?,
        C::EndFight { winner, reason } => judge::end_fight(d, winner.as_deref(), reason)?,
        C::CreateBattle { .. } | C::ContributeEntropy { .. } | C::RevealSeed { .. } | C::JudgeRoll(_) => {}
    }
    decision.settle()?;
    Ok(decision.events)
}

/// A decision in progress: the working state, the events so far, the context.
pub(crate) struct Decision<'c> {
    /// The state with every event so far applied.
    pub state: ZoneRpgState,
    /// The events so far.
    pub events: Vec<ZoneRpgEvent>,
    /// Who acts, and the dice.
    pub ctx: &'c mut Context,
}

impl Decision<'_> {
    /// Record `event` and apply it to the working state.
    pub fn emit(&mut self, event: ZoneRpgEvent) {
        self.state.apply(&event);
        self.events.push(event);
    }

    /// The tape's position after the draws so far.
    pub fn next_word(&self) -> u64 {
        self.ctx.dice.next_word()
    }

    /// Draw one die.
    pub fn roll(&mut self, sides: u32, purpose: impl Into<String>) -> Result<Draw, RuleError> {
        self.ctx.dice.roll(sides, purpose)
    }

    /// A d20 save of `character` against its `ability` (seed 001: a pass is a roll lower than
    /// the value; see [`crate::zone_rpg::options::SavePasses`]).
    pub fn save(&mut self, character: &str, ability: Ability, why: &str) -> Result<Save, RuleError> {
        let value = self.state.character(character).map_or(0, |c| match ability {
            Ability::Wit => c.spec.wit,
            Ability::Agi => c.spec.agi,
            Ability::Str => c.spec.str,
        });
        let roll = self.roll(20, format!("{} save of {character} {why}", ability.label()))?;
        let passed = self.state.options.save_passes.passes(roll.value, value);
        Ok(Save { character: character.to_string(), ability, value, roll: Some(roll), passed, note: None })
    }

    /// Settle the fight after a command: resolve an attack every target has decided on, resume
    /// a move every threat has decided on, pass for a faction with nobody left to act.
    fn settle(&mut self) -> Result<(), RuleError> {
        loop {
            if self.state.ended() {
                return Ok(());
            }
            if let Some(pending) = &self.state.pending_attack {
                if pending.stage == super::state::pending::AttackStage::Reactions && pending.all_decided() {
                    resolve::resolve(self)?;
                    continue;
                }
                return Ok(());
            }
            if let Some(interrupted) = &self.state.interrupted_move {
                if interrupted.threats.iter().all(|threat| threat.decided) {
                    moving::resume(self)?;
                    continue;
                }
                return Ok(());
            }
            return round::advance(self);
        }
    }
}

/// A refusal with a `zone-rpg.` code.
pub(crate) fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("{CODE_PREFIX}.{code}"), message, rule)
}

/// The character `id`.
pub(crate) fn character<'s>(state: &'s ZoneRpgState, id: &str) -> Result<&'s CharacterState, RuleError> {
    state
        .character(id)
        .ok_or_else(|| refuse("unknown_character", format!("there is no character {id}"), rules::SERVICE))
}

/// Refuse while an attack or an interrupted move waits.
pub(crate) fn nothing_pending(state: &ZoneRpgState) -> Result<(), RuleError> {
    if let Some(pending) = &state.pending_attack {
        return Err(refuse(
            "attack_pending",
            format!("attack {} by {} waits for {}", pending.attack, pending.attacker, waiting_for(pending)),
            rules::REACTING,
        ));
    }
    if let Some(interrupted) = &state.interrupted_move {
        let waiting: Vec<&str> =
            interrupted.threats.iter().filter(|t| !t.decided).map(|t| t.character.as_str()).collect();
        return Err(refuse(
            "opportunity_pending",
            format!("{}'s move waits for opportunity attacks by {}", interrupted.character, waiting.join(", ")),
            rules::OPPORTUNITY,
        ));
    }
    Ok(())
}

fn waiting_for(pending: &super::state::pending::PendingAttack) -> String {
    use super::state::pending::AttackStage;
    match pending.stage {
        AttackStage::StuntApproval => "the GM to approve the stunt".to_string(),
        AttackStage::StuntAnswer => "the target to answer the stunt".to_string(),
        AttackStage::Reactions => {
            let waiting: Vec<&str> =
                pending.targets.iter().filter(|t| !t.decided).map(|t| t.target.character.as_str()).collect();
            format!("reactions of {}", waiting.join(", "))
        }
    }
}

/// The member of the turn in progress that `id` is, able to act: the turn is its, it is not
/// over, it is not carried by a mount at full speed.
pub(crate) fn acting_member<'s>(state: &'s ZoneRpgState, id: &str) -> Result<&'s TurnMember, RuleError> {
    if state.phase != Phase::Round {
        return Err(refuse("not_in_round", "no round is being played: start one first", rules::COMBAT_PROCEDURE));
    }
    let turn = state.turn.as_ref().ok_or_else(|| {
        refuse("no_turn", "no turn is in progress: take a turn with a character first", rules::COMBAT_PROCEDURE)
    })?;
    let member = turn
        .member(id)
        .ok_or_else(|| refuse("not_its_turn", format!("it is not {id}'s turn"), rules::COMBAT_PROCEDURE))?;
    if !member.active {
        return Err(refuse(
            "turn_already_taken",
            format!("{id} has already taken its turn this round and is only carried along"),
            rules::COMBAT_PROCEDURE,
        ));
    }
    if member.done {
        return Err(refuse("turn_over", format!("{id}'s turn is spent"), rules::TAKING_A_TURN));
    }
    if !state.character(id).is_some_and(CharacterState::standing) {
        return Err(refuse(
            "incapacitated",
            format!("{id} is incapacitated or dead: its turn is over"),
            rules::OPPORTUNITY,
        ));
    }
    Ok(member)
}
