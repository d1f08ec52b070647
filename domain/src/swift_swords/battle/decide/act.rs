//! Taking an action (seed 004 "Actions & Refresh", "State", "Mental Damage", "Fear"): who may,
//! paying its cost, and what stands between paying and acting — a State to shake off, a panic
//! or a fear to master.

use super::{damage, forbid, heading, refuse, round, Work, SERVICE_RULES};
use crate::{
    swift_swords::{
        action_dice::{self, PaymentRefusal},
        battle::{
            event::SwiftSwordsEvent as E,
            state::{Morale, Phase, StateKind},
        },
        countdown, fear,
        figure::FearLevel,
        ranks::RankSide,
        rolls::RollKind,
    },
    RuleError,
};

/// What an action costs.
#[derive(Debug, Clone)]
pub enum Price {
    /// Pips, paid with the dice named or chosen.
    Pips(u32, Option<Vec<u8>>),
    /// One die of any value but 1.
    Die(Option<u8>),
}

/// What kind of action it is, for the restrictions of panic, crush and holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Anything else.
    Other,
    /// Moving away (Move, Withdraw, Fly): what a panicked figure must do.
    Flight,
    /// The Spirit roll of a crushed or panicked figure.
    Rally,
    /// Expending a die to remove a State.
    Recover,
    /// A held victim's Break, Reverse or Yield.
    Victim,
    /// The holder using its hold.
    Holder,
    /// A Pool action (keeps the pools).
    Pool,
}

/// Refuse unless the actor is the figure's controller or a judge.
pub fn authorize(work: &Work, id: &str) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    let allowed = work.ctx.actor.is_judge()
        || figure.spec.controller.as_deref().is_some_and(|controller| work.ctx.actor.is_player(controller));
    if allowed {
        Ok(())
    } else {
        let who = figure.spec.controller.as_deref().unwrap_or("the GM");
        Err(forbid("not_your_figure", format!("{id} is played by {who}; only they or a judge may act for it")))
    }
}

/// Refuse while an attack's defence or a move's opportunity attacks are awaited.
pub fn nothing_awaited(work: &Work) -> Result<(), RuleError> {
    match work.state.pending.last() {
        None => Ok(()),
        Some(super::super::pending::Pending::Attack(attack)) => Err(refuse(
            "awaiting_defence",
            format!("{} must first declare a defence against {}'s attack (defend)", attack.target, attack.attacker),
            heading("Defences."),
        )),
        Some(super::super::pending::Pending::Move(waiting)) => Err(refuse(
            "awaiting_opportunity",
            format!(
                "{} is moving out of contact: {} may first strike it (opportunity_attack) or let it go (let_go)",
                waiting.mover,
                waiting.waiting.join(", ")
            ),
            heading("Status"),
        )),
    }
}

/// Refuse unless the countdown gives `id` the next action (or it holds its action).
pub fn in_turn(work: &Work, id: &str) -> Result<(), RuleError> {
    if countdown::may_act(&work.state, id) {
        return Ok(());
    }
    let figure = work.figure(id)?;
    if !figure.active() {
        return Err(refuse("out_of_action", format!("{id} is out of action"), heading("OoA and KIA")));
    }
    if figure.done || figure.hand.is_empty() {
        return Err(refuse(
            "no_dice",
            format!("{id} has no action dice left this round"),
            heading("Actions & Refresh"),
        ));
    }
    if work.state.phase == Phase::Countdown && figure.usable() == 0 {
        return Err(refuse(
            "only_ones",
            format!("{id} holds only 1s, which pay for no action"),
            heading("AD = 1 (1-AD)"),
        ));
    }
    let next = countdown::next_to_act(&work.state);
    Err(refuse(
        "not_in_turn",
        format!("the countdown gives the next action to {} (most dice, players before NPCs)", next.join(" or ")),
        heading("The Countdown"),
    ))
}

fn payment_error(refusal: PaymentRefusal, id: &str, cost: u32) -> RuleError {
    let rule = round::initiative_rule();
    match refusal {
        PaymentRefusal::NotInHand(face) => refuse("die_not_in_hand", format!("{id} holds no {face}"), rule),
        PaymentRefusal::One => refuse(
            "ones_cannot_pay",
            "dice showing 1 cannot be combined to pay for an action",
            heading("Actions & Refresh"),
        ),
        PaymentRefusal::Short { pips, cost } => {
            refuse("cost_not_met", format!("{pips} pips do not meet the cost of {cost}"), heading("Action Costs."))
        }
        PaymentRefusal::NotNeeded(face) => refuse(
            "die_not_needed",
            format!("the {face} is not needed to meet the cost of {cost}: discard only the dice that pay"),
            heading("Action Costs."),
        ),
        PaymentRefusal::CannotAfford => refuse(
            "cannot_afford",
            format!("{id}'s dice cannot pay {cost} pips: call the refresh (call_refresh) or do something cheaper"),
            heading("Actions & Refresh"),
        ),
    }
}

/// The dice a price takes from `hand`.
fn pay(hand: &[u8], price: &Price, id: &str) -> Result<Vec<u8>, RuleError> {
    match price {
        Price::Pips(cost, Some(dice)) => {
            action_dice::check(hand, dice, *cost).map_err(|refusal| payment_error(refusal, id, *cost))?;
            Ok(dice.clone())
        }
        Price::Pips(cost, None) => {
            action_dice::choose(hand, *cost).map_err(|refusal| payment_error(refusal, id, *cost))
        }
        Price::Die(Some(face)) => {
            if *face == 1 {
                return Err(payment_error(PaymentRefusal::One, id, 1));
            }
            if !hand.contains(face) {
                return Err(payment_error(PaymentRefusal::NotInHand(*face), id, 1));
            }
            Ok(vec![*face])
        }
        Price::Die(None) => action_dice::lowest_usable(hand)
            .map(|face| vec![face])
            .ok_or_else(|| payment_error(PaymentRefusal::CannotAfford, id, 2)),
    }
}

/// Refuse actions a panic, a crush or a hold forbid.
fn restricted(work: &Work, id: &str, class: Class) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    match figure.morale {
        Morale::Crushed { .. } if class != Class::Rally => {
            return Err(refuse(
                "crushed",
                format!("{id} is crushed and may do nothing but try to rally (rally)"),
                heading("Mental Damage"),
            ));
        }
        Morale::Panicked { fled: false } if class != Class::Flight => {
            return Err(refuse(
                "panicked",
                format!("{id} is panicked: its first action is to flee (move, withdraw or fly)"),
                heading("Mental Damage"),
            ));
        }
        _ => {}
    }
    if work.state.hold_on(id).is_some() && !matches!(class, Class::Victim | Class::Rally | Class::Recover) {
        return Err(refuse(
            "held",
            format!("{id} is held: it may only break or reverse the hold, or yield"),
            heading("InClose Combat"),
        ));
    }
    if class == Class::Holder && work.state.hold_by(id).is_none() {
        return Err(refuse("no_hold", format!("{id} holds nobody"), heading("InClose Combat")));
    }
    Ok(())
}

/// Refuse unless `id` may take an action of `class` now: its controller or the GM asks, the
/// encounter is under way, nothing is awaited, the countdown gives it the action, and no panic,
/// crush or hold forbids it. Checked before anything about the action itself, so a figure out of
/// turn hears that first.
pub fn ready(work: &Work, id: &str, class: Class) -> Result<(), RuleError> {
    authorize(work, id)?;
    if !matches!(work.state.phase, Phase::Countdown | Phase::Refresh) {
        return Err(refuse("not_begun", "the encounter has not begun: the judge begins it (begin)", SERVICE_RULES));
    }
    nothing_awaited(work)?;
    in_turn(work, id)?;
    restricted(work, id, class)
}

/// Begin an action: check who may act, pay, clear what lasts "until that creatures next
/// action", then the State, panic and fear rolls. Returns whether the action goes ahead (a
/// failed roll loses it, its cost spent).
pub fn begin(work: &mut Work, id: &str, action: &str, price: Price, class: Class) -> Result<bool, RuleError> {
    ready(work, id, class)?;
    let figure = work.figure(id)?;
    let paid = pay(&figure.hand, &price, id)?;
    let pools = figure.dodge_pool > 0 || figure.block_pool > 0 || figure.action_pool.is_some();
    let (cleared_exposures, cleared_fumble) = (figure.exposures, figure.fumbled);
    let released_hold =
        (class != Class::Holder).then(|| work.state.hold_by(id).map(|hold| hold.victim.clone())).flatten();
    work.emit(E::ActionBegun {
        figure: id.to_string(),
        action: action.to_string(),
        paid,
        cleared_exposures,
        cleared_fumble,
        pools_lost: pools && class != Class::Pool,
        released_hold,
    });
    if !matches!(class, Class::Recover | Class::Rally) && !shake_off_states(work, id)? {
        return Ok(false);
    }
    if class != Class::Rally && !master_panic(work, id, class)? {
        return Ok(false);
    }
    face_fear(work, id)
}

/// The characteristic that removes a State.
pub fn state_roll(figure: &super::super::state::Figure, state: StateKind) -> (RollKind, u32) {
    let chars = &figure.spec.characteristics;
    match state {
        StateKind::Stun => (RollKind::Body, u32::from(chars.body)),
        StateKind::Shock => (RollKind::Mind, u32::from(chars.mind)),
        StateKind::Doubt => (RollKind::Soul, u32::from(chars.soul)),
    }
}

/// Roll to remove every State before acting ("If they fail the roll then they may do nothing
/// that action and remain in that STATE, the cost of the attempted action is lost").
fn shake_off_states(work: &mut Work, id: &str) -> Result<bool, RuleError> {
    let states: Vec<StateKind> = work.figure(id)?.states.iter().copied().collect();
    for state in states {
        let (kind, dice) = state_roll(work.figure(id)?, state);
        let roll = work.roll_for(id, kind, dice, 0, &format!("{kind:?} roll of {id} to remove {state:?}"), false)?;
        let passed = roll.passed();
        let next_word = work.next_word();
        work.emit(E::StateRolled { figure: id.into(), state, roll, next_word });
        if !passed {
            work.emit(E::ActionLost { figure: id.into(), reason: format!("still in {state:?}") });
            return Ok(false);
        }
        work.emit(E::StateRemoved { figure: id.into(), state, how: "rolled".into() });
    }
    Ok(true)
}

/// A panicked figure's first action is its flight; later ones begin with a Spirit roll.
fn master_panic(work: &mut Work, id: &str, class: Class) -> Result<bool, RuleError> {
    match work.figure(id)?.morale {
        Morale::Panicked { fled: false } => {
            let next_word = work.next_word();
            work.emit(E::MoraleChanged {
                figure: id.into(),
                morale: Morale::Panicked { fled: true },
                roll: None,
                cause: "its compulsory flight".into(),
                next_word,
            });
            Ok(true)
        }
        Morale::Panicked { fled: true } => {
            let rallied = rally_roll(work, id, "at the start of its action")?;
            if rallied || class == Class::Flight {
                Ok(true)
            } else {
                work.emit(E::ActionLost { figure: id.into(), reason: "still panicked: it may only flee".into() });
                Ok(false)
            }
        }
        _ => Ok(true),
    }
}

/// A Spirit roll to end a panic or a crush.
pub fn rally_roll(work: &mut Work, id: &str, when: &str) -> Result<bool, RuleError> {
    let figure = work.figure(id)?;
    let (dice, morale) = (u32::from(figure.spec.characteristics.spirit), figure.morale);
    let roll = work.roll_for(id, RollKind::Spirit, dice, 0, &format!("Spirit roll of {id} to rally"), false)?;
    let passed = roll.passed();
    let next_word = work.next_word();
    let (morale, cause) =
        if passed { (Morale::Steady, format!("rallied {when}")) } else { (morale, format!("failed to rally {when}")) };
    work.emit(E::MoraleChanged { figure: id.into(), morale, roll: Some(roll), cause, next_word });
    Ok(passed)
}

/// The worst fear reaching a figure, and its cause.
pub fn fear_present(work: &Work, id: &str) -> Option<(FearLevel, String)> {
    let figure = work.state.figure(id)?;
    if figure.spec.fearless || !figure.active() {
        return None;
    }
    let dread_reaches = work.state.options.dread_reaches_adjacent;
    work.state
        .figures
        .values()
        .filter(|other| other.active() && other.spec.side != figure.spec.side)
        .filter_map(|other| {
            let level = other.spec.fear?;
            let reaches = other.zone == figure.zone
                || (fear::reaches_adjacent(level, dread_reaches) && work.state.map.adjacent(&other.zone, &figure.zone));
            reaches.then(|| (level, other.spec.id.clone()))
        })
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)))
}

/// The Spirit roll against fear each time a fearful figure has an action, until it passes
/// (seed 004 "Fear"). Returns whether the action goes ahead.
pub fn face_fear(work: &mut Work, id: &str) -> Result<bool, RuleError> {
    let Some((level, source)) = fear_present(work, id) else { return Ok(true) };
    if work.figure(id)?.fear_passed.is_some_and(|passed| passed >= level) {
        return Ok(true);
    }
    resist_fear(work, id, level, &source, true)
}

/// One fear roll and its consequences. Returns whether the figure may still act. Outside an
/// action (a judge's fear attack) a Scary fear takes the figure's lowest die instead.
pub fn resist_fear(work: &mut Work, id: &str, level: FearLevel, source: &str, acting: bool) -> Result<bool, RuleError> {
    for _ in 0..30 {
        let spirit = u32::from(work.figure(id)?.spec.characteristics.spirit);
        let purpose = format!("Spirit roll of {id} against the {level:?} fear of {source}").to_lowercase();
        let roll = work.roll_for(id, RollKind::Spirit, spirit, fear::spirit_penalty(level), &purpose, false)?;
        let passed = roll.passed();
        let next_word = work.next_word();
        work.emit(E::FearChecked { figure: id.into(), level, source: source.into(), roll, next_word });
        if passed {
            return Ok(true);
        }
        if level == FearLevel::Scary {
            if acting {
                work.emit(E::ActionLost {
                    figure: id.into(),
                    reason: format!("frightened by {source}: the action die is lost"),
                });
            } else {
                let mut hand = work.figure(id)?.hand.clone();
                if let Some(face) = hand.iter().copied().min() {
                    action_dice::remove(&mut hand, &[face]);
                    work.emit(E::HandChanged { figure: id.into(), hand, reason: format!("frightened by {source}") });
                }
            }
            return Ok(false);
        }
        let out = damage::lose_ranks(work, id, RankSide::Mental, 1, false, &format!("fear of {source}"))?;
        damage::check_battle_end(work);
        if out || !work.figure(id)?.active() {
            return Ok(false);
        }
        if level != FearLevel::Fell {
            return Ok(true);
        }
    }
    Ok(true)
}
