//! Deciding swift-swords commands. Each refusal names its rule: a heading of seed 004, or
//! [`SERVICE_RULES`] for what Herald adds as a service (authority, ordering of commands).
//!
//! A decision works on a copy of the state ([`Work`]) and applies each event to it as it emits
//! it, so later steps see the effects of earlier ones exactly as `evolve` will; after every
//! accepted command [`settle`] carries the battle forward: attacks whose target cannot defend
//! are resolved, a move nobody may strike completes, the action in progress ends (calling the
//! refresh when the actor has spent its last die), and a new round starts when everyone has had
//! their last option.

mod act;
mod attack;
mod close;
mod damage;
mod defend;
mod flying;
mod injuries;
mod judge;
mod movement;
mod pools;
mod resolve;
mod round;
mod setup;
mod special;

use super::{
    command::SwiftSwordsCommand as C,
    event::SwiftSwordsEvent,
    pending::Pending,
    state::{Figure, Phase, SwiftSwordsState},
};
use crate::{
    swift_swords::rolls::{self, PoolRoll, RollKind},
    Context, RuleError,
};

/// Where Herald's own rules for swift-swords battles are written down.
pub const SERVICE_RULES: &str = "herald: docs/rulesets/swift-swords.md";

/// The citation of a heading of seed 004.
pub(crate) fn heading(name: &str) -> String {
    format!("seed 004 \"{name}\"")
}

/// A refusal with a `swift-swords.` code.
pub(crate) fn refuse(code: &str, message: impl Into<String>, rule: impl Into<String>) -> RuleError {
    RuleError::new(format!("swift-swords.{code}"), message, rule)
}

/// A refusal for lack of authority (403).
pub(crate) fn forbid(code: &str, message: impl Into<String>) -> RuleError {
    RuleError::forbidden(format!("swift-swords.{code}"), message, SERVICE_RULES)
}

/// A decision in progress: the working state, the events so far, the context.
pub(crate) struct Work<'a> {
    /// The state with every event so far applied.
    pub state: SwiftSwordsState,
    /// The events so far.
    pub events: Vec<SwiftSwordsEvent>,
    /// The command's context (actor, dice).
    pub ctx: &'a mut Context,
}

impl<'a> Work<'a> {
    fn new(state: &SwiftSwordsState, ctx: &'a mut Context) -> Self {
        Self { state: state.clone(), events: Vec::new(), ctx }
    }

    /// Apply and record an event.
    pub fn emit(&mut self, event: SwiftSwordsEvent) {
        self.state.apply(&event);
        self.events.push(event);
    }

    /// The tape's position now.
    pub fn next_word(&self) -> u64 {
        self.ctx.dice.next_word()
    }

    /// A figure of the working state.
    pub fn figure(&self, id: &str) -> Result<&Figure, RuleError> {
        self.state.figure(id).ok_or_else(|| refuse("unknown_figure", format!("there is no figure {id}"), SERVICE_RULES))
    }

    /// Roll `dice` of `kind` for `figure` at the standard Superiority Level, less its injury
    /// penalties and `penalty`.
    pub fn roll_for(
        &mut self,
        figure: &str,
        kind: RollKind,
        dice: u32,
        penalty: u32,
        purpose: &str,
        bump: bool,
    ) -> Result<PoolRoll, RuleError> {
        let injured = self.state.figure(figure).map_or(0, |found| injury_penalty(found, kind));
        let threshold = rolls::threshold(self.state.options.superiority, 0);
        let dice = dice.saturating_sub(injured + penalty);
        if dice == 0 {
            return Ok(PoolRoll::empty(purpose, threshold));
        }
        rolls::roll(&mut self.ctx.dice, dice, threshold, purpose, bump)
    }
}

/// Dice a figure's injuries take off a roll of `kind`.
pub(crate) fn injury_penalty(figure: &Figure, kind: RollKind) -> u32 {
    figure
        .injuries
        .iter()
        .map(|injury| crate::swift_swords::injury::penalty(injury.effect, injury.location, kind))
        .sum()
}

/// Decide a command.
pub fn decide(state: &SwiftSwordsState, command: &C, ctx: &mut Context) -> Result<Vec<SwiftSwordsEvent>, RuleError> {
    if let C::CreateBattle { map, sides, figures, chariots, options, seed_commitment } = command {
        let request = setup::Request { map, sides, figures, chariots, options, seed_commitment };
        return setup::create(state, &request, ctx);
    }
    if !state.created() {
        return Err(refuse("not_found", "there is no swift-swords battle on this stream yet", SERVICE_RULES));
    }
    match command {
        C::CreateBattle { .. } => Err(refuse("already_exists", "this stream already holds a battle", SERVICE_RULES)),
        C::ContributeEntropy { entropy } => setup::contribute_entropy(state, entropy, ctx),
        C::RevealSeed { seed, next_commitment } => {
            let revealed = state.dice.reveal(seed, next_commitment.as_deref(), state.ended(), ctx, "swift-swords")?;
            Ok(vec![SwiftSwordsEvent::SeedRevealed(revealed)])
        }
        C::JudgeRoll(roll) => {
            Ok(vec![SwiftSwordsEvent::JudgeRolled(state.dice.judge_roll(roll, ctx, "swift-swords")?)])
        }
        C::EndBattle { winner, reason } => judge::end_battle(state, winner.as_deref(), reason, ctx),
        _ => {
            if state.ended() {
                return Err(refuse("ended", "the battle has ended", SERVICE_RULES));
            }
            let mut work = Work::new(state, ctx);
            act_on(&mut work, command)?;
            settle(&mut work)?;
            Ok(work.events)
        }
    }
}

fn act_on(work: &mut Work, command: &C) -> Result<(), RuleError> {
    match command {
        C::Begin { surprised, surprise_dice } => round::begin(work, surprised, *surprise_dice),
        C::Attack { figure, weapon, targets, charge, tactic, options, pay } => {
            let request = attack::Request { figure, weapon, targets, charge: *charge, tactic: *tactic, options, pay };
            attack::attack(work, &request)
        }
        C::BreakPool { figure, weapon, target, pay } => attack::break_pool(work, figure, weapon, target, pay),
        C::Defend { figure, defence, pay, effort, bump, counter, counter_weapon, take_rank } => {
            let declared = defend::Declared {
                choice: *defence,
                pay: *pay,
                effort: *effort,
                bump: *bump,
                counter: *counter,
                counter_weapon: counter_weapon.clone(),
                take_rank: *take_rank,
            };
            defend::defend(work, figure, &declared)
        }
        C::Move { figure, to, pay } => movement::move_figure(work, figure, to, pay),
        C::Withdraw { figure, pay } => movement::withdraw(work, figure, pay),
        C::OpportunityAttack { figure, weapon, pay } => movement::opportunity_attack(work, figure, weapon, *pay),
        C::LetGo { figure } => movement::let_go(work, figure),
        C::CloseIn { figure, target, pay } => close::close_in(work, figure, target, pay),
        C::KnockDown { figure, target, pay } => close::knock_down(work, figure, target, pay),
        C::Grapple { figure, choice, pay } => close::grapple(work, figure, *choice, pay),
        C::BreakHold { figure, reverse, pay } => close::break_hold(work, figure, *reverse, pay),
        C::Yield { figure } => close::yield_hold(work, figure),
        C::StandUp { figure, pay } => close::stand_up(work, figure, pay),
        C::ReadyWeapon { figure, weapon, pay } => pools::ready_weapon(work, figure, weapon, pay),
        C::Pool { figure, into, pay } => pools::pool(work, figure, *into, *pay),
        C::StartPool { figure, name, cost, pay } => pools::start_pool(work, figure, name, *cost, pay),
        C::SkillRoll { figure, skill, cost, purpose, casting, from_pool, effort, bump, pay } => {
            let request = pools::SkillRequest {
                figure,
                skill,
                cost: *cost,
                purpose,
                casting: *casting,
                from_pool: *from_pool,
                effort: *effort,
                bump: *bump,
                pay,
            };
            pools::skill_roll(work, &request)
        }
        C::Recover { figure, pay } => pools::recover(work, figure, *pay),
        C::Rally { figure, pay } => pools::rally(work, figure, *pay),
        C::UseOne { figure, on } => pools::use_one(work, figure, *on),
        C::Hold { figure } => round::hold(work, figure),
        C::CallRefresh { figure } => round::call_refresh(work, figure.as_deref()),
        C::CarryOver { figure } => round::carry_over(work, figure),
        C::Pass { figure } => round::pass(work, figure),
        C::Fly { figure, steps, dive, circle, pay } => flying::fly(work, figure, steps, *dive, *circle, pay),
        C::Drive { chariot, steps, dash, pay } => flying::drive(work, chariot, steps, *dash, pay),
        C::Inflict { figure, damage, ranks, magic, massive, reason } => {
            judge::inflict(work, figure, *damage, *ranks, *magic, *massive, reason)
        }
        C::FearAttack { figure, level, reason } => judge::fear_attack(work, figure, *level, reason),
        C::SetBonusRanks { figure, physical, mental, reason } => {
            judge::set_bonus_ranks(work, figure, *physical, *mental, reason)
        }
        C::SetActionDice { figure, modifier, reason } => judge::set_action_dice(work, figure, *modifier, reason),
        C::Fatigue { figure, ranks, roll, reason } => judge::fatigue(work, figure, *ranks, *roll, reason),
        C::Heal { figure, physical, mental, states, injuries, bleeders, reason } => {
            let request = judge::HealRequest {
                physical: *physical,
                mental: *mental,
                states: *states,
                injuries,
                bleeders: *bleeders,
                reason,
            };
            judge::heal(work, figure, &request)
        }
        C::FirstAid { figure } => judge::first_aid(work, figure),
        C::HealWeek { figure, good_food_and_water, no_travel, healer } => {
            judge::heal_week(work, figure, *good_food_and_water, *no_travel, healer.as_deref())
        }
        C::CreateBattle { .. }
        | C::ContributeEntropy { .. }
        | C::RevealSeed { .. }
        | C::JudgeRoll(_)
        | C::EndBattle { .. } => Ok(()),
    }
}

/// Carry the battle forward after an accepted command.
fn settle(work: &mut Work) -> Result<(), RuleError> {
    for _ in 0..200 {
        if work.state.ended() || matches!(work.state.phase, Phase::Setup | Phase::Empty) {
            return Ok(());
        }
        match work.state.pending.last().cloned() {
            Some(Pending::Attack(attack)) => {
                if !work.state.figure(&attack.attacker).is_some_and(|attacker| attacker.active()) {
                    let reason = format!("{} is out of action", attack.attacker);
                    work.emit(SwiftSwordsEvent::AttackCancelled { attack: attack.id, reason });
                    continue;
                }
                if defend::awaits_defence(&work.state, &attack) {
                    return Ok(());
                }
                resolve::resolve(work, &attack, None)?;
                continue;
            }
            Some(Pending::Move(waiting)) => {
                if movement::settle_move(work, &waiting)? {
                    continue;
                }
                return Ok(());
            }
            None => {}
        }
        if let Some(actor) = work.state.acting.clone() {
            round::end_action(work, &actor);
            continue;
        }
        if round::advance(work)? {
            continue;
        }
        return Ok(());
    }
    Ok(())
}
