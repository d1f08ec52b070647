//! Rounds (seed 004 "Sequence of Play", "Actions & Refresh", "Surprise"): action dice for
//! everyone, holding, the refresh and everyone's last option, carrying a die over, and the
//! bleeders' BODY rolls at the start of each round.

use super::{damage, forbid, heading, refuse, Work, SERVICE_RULES};
use crate::{
    swift_swords::{
        action_dice,
        battle::{event::SwiftSwordsEvent as E, state::Phase},
        countdown,
        figure::ActionDiceSpec,
        ranks::RankSide,
        rolls::RollKind,
    },
    RuleError,
};

const ACTIONS: &str = "Actions & Refresh";
const INITIATIVE: &str = "Initiative, ActionDice(AD) & Actions";

/// The judge begins the encounter, deciding surprise.
pub fn begin(work: &mut Work, surprised: &[String], surprise_dice: u8) -> Result<(), RuleError> {
    if !work.ctx.actor.is_judge() {
        return Err(forbid("judge_only", "only the judge (the GM) begins the encounter"));
    }
    if work.state.phase != Phase::Setup {
        return Err(refuse("already_begun", "the encounter has already begun", heading("Sequence of Play")));
    }
    for side in surprised {
        if !work.state.sides.iter().any(|known| known.name == *side) {
            return Err(refuse("unknown_side", format!("{side} is not a side"), SERVICE_RULES));
        }
    }
    if !surprised.is_empty() && work.state.sides.iter().all(|side| surprised.contains(&side.name)) {
        return Err(refuse("everyone_surprised", "someone has to do the surprising", heading("Surprise")));
    }
    if surprise_dice > 6 {
        return Err(refuse("surprise_dice", "at most 6 extra dice for a severe surprise", heading("Surprise")));
    }
    new_round(work, surprised, surprise_dice)
}

/// Start a round: RoundStarted, the bleeders' rolls, everyone's action dice.
pub fn new_round(work: &mut Work, surprised: &[String], surprise_dice: u8) -> Result<(), RuleError> {
    let round = if work.state.phase == Phase::Setup && !surprised.is_empty() { 0 } else { work.state.round + 1 };
    work.emit(E::RoundStarted { round, surprised: surprised.to_vec() });
    bleeders(work)?;
    if work.state.ended() {
        return Ok(());
    }
    let ids: Vec<String> = work.state.figures.keys().cloned().collect();
    for id in ids {
        let Some(figure) = work.state.figure(&id) else { continue };
        if !figure.active() || surprised.contains(&figure.spec.side) {
            continue;
        }
        let extra = if surprised.is_empty() { 0 } else { surprise_dice };
        roll_action_dice(work, &id, extra)?;
    }
    Ok(())
}

/// A figure's action dice for the round (seed 004 "Initiative, ActionDice(AD) & Actions").
fn roll_action_dice(work: &mut Work, id: &str, extra: u8) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    let (spec, modifier, carried, burn) =
        (figure.spec.action_dice.clone(), figure.ad_modifier, figure.carried, figure.burn());
    let name = figure.spec.display_name().to_string();
    let mut draws = Vec::new();
    let mut hand: Vec<u8> = Vec::new();
    let (mut dice, mut extra_dice, mut minimum) = (0, 0, false);
    let set_values = matches!(spec, ActionDiceSpec::Set { .. });
    match &spec {
        ActionDiceSpec::Set { values } => {
            hand = values.clone();
            hand.sort_unstable_by(|a, b| b.cmp(a));
            let drop = usize::try_from((-modifier).max(0)).unwrap_or(0);
            hand.truncate(hand.len().saturating_sub(drop).max(1));
            let rolled = u32::from(extra) + u32::from(carried) + u32::try_from(modifier.max(0)).unwrap_or(0);
            for index in 0..rolled {
                let draw =
                    work.ctx.dice.roll(6, format!("action die {} of {name}", hand.len() + 1 + index as usize))?;
                hand.push(u8::try_from(draw.value).unwrap_or(6));
                draws.push(draw);
            }
            dice = rolled;
        }
        ActionDiceSpec::Roll { dice: base } => {
            match action_dice::dice_to_roll(u32::from(*base) + u32::from(extra), modifier, carried) {
                None => {
                    minimum = true;
                    hand.push(action_dice::MINIMUM_FACE);
                }
                Some(count) => {
                    dice = count;
                    for index in 0..count {
                        let draw = work.ctx.dice.roll(6, format!("action die {} of {name}", index + 1))?;
                        hand.push(u8::try_from(draw.value).unwrap_or(6));
                        draws.push(draw);
                    }
                    extra_dice = action_dice::extra_dice(&hand);
                    for index in 0..extra_dice {
                        let draw = work.ctx.dice.roll(6, format!("extra action die {} of {name} (a 6)", index + 1))?;
                        hand.push(u8::try_from(draw.value).unwrap_or(6));
                        draws.push(draw);
                    }
                }
            }
        }
    }
    let burnt = action_dice::burn(&mut hand, burn);
    let next_word = work.next_word();
    work.emit(E::ActionDiceRolled {
        figure: id.to_string(),
        dice,
        draws,
        extra: extra_dice,
        set_values,
        minimum,
        carried,
        burnt,
        hand,
        next_word,
    });
    Ok(())
}

/// Bleeders: a BODY roll per bleeding location at the start of each round, or a physical rank
/// (seed 004 "General Injury Table", Bleeder).
fn bleeders(work: &mut Work) -> Result<(), RuleError> {
    let bleeding: Vec<(String, crate::swift_swords::injury::Location, u32, u32)> = work
        .state
        .figures
        .values()
        .filter(|figure| figure.active())
        .flat_map(|figure| {
            figure.injuries.iter().filter(|injury| injury.bleeding).map(|injury| {
                (
                    figure.spec.id.clone(),
                    injury.location,
                    injury.roll_penalty,
                    u32::from(figure.spec.characteristics.body),
                )
            })
        })
        .collect();
    for (id, location, penalty, body) in bleeding {
        if !work.figure(&id)?.active() {
            continue;
        }
        let purpose = format!("BODY roll of {id} against the bleeder ({location:?})");
        let roll = work.roll_for(&id, RollKind::Body, body, penalty, &purpose, false)?;
        let passed = roll.passed();
        let next_word = work.next_word();
        work.emit(E::BleederChecked { figure: id.clone(), location, roll, next_word });
        if !passed {
            let out = damage::lose_ranks(work, &id, RankSide::Physical, 1, false, "bleeding")?;
            if out {
                super::injuries::roll_injury(work, &id, false, None, "reduced to Out of Action by bleeding")?;
            }
        }
    }
    damage::check_battle_end(work);
    Ok(())
}

/// A figure holds its action (seed 004 "Held Actions").
pub fn hold(work: &mut Work, id: &str) -> Result<(), RuleError> {
    super::act::authorize(work, id)?;
    if work.state.phase != Phase::Countdown {
        return Err(refuse(
            "not_countdown",
            "actions are held in the countdown; in a refresh act, carry a die over or pass",
            heading(ACTIONS),
        ));
    }
    super::act::nothing_awaited(work)?;
    super::act::in_turn(work, id)?;
    if work.figure(id)?.holding {
        return Err(refuse("already_holding", format!("{id} is already holding its action"), heading("Held Actions")));
    }
    work.emit(E::ActionHeld { figure: id.to_string() });
    Ok(())
}

/// A figure, or the judge, calls the refresh.
pub fn call_refresh(work: &mut Work, id: Option<&str>) -> Result<(), RuleError> {
    if work.state.phase != Phase::Countdown {
        return Err(refuse("not_countdown", "a refresh is called during the countdown", heading(ACTIONS)));
    }
    super::act::nothing_awaited(work)?;
    match id {
        None => {
            if !work.ctx.actor.is_judge() {
                return Err(forbid("judge_only", "only the judge calls a refresh for nobody in particular"));
            }
            work.emit(E::RefreshCalled { by: None, discarded: Vec::new() });
        }
        Some(id) => {
            super::act::authorize(work, id)?;
            super::act::in_turn(work, id)?;
            let discarded = work.figure(id)?.hand.clone();
            work.emit(E::RefreshCalled { by: Some(id.to_string()), discarded });
        }
    }
    Ok(())
}

fn last_option(work: &mut Work, id: &str) -> Result<(), RuleError> {
    super::act::authorize(work, id)?;
    if work.state.phase != Phase::Refresh {
        return Err(refuse(
            "not_refresh",
            "a die is carried over, or the last option passed, only in a refresh",
            heading(ACTIONS),
        ));
    }
    super::act::nothing_awaited(work)?;
    let figure = work.figure(id)?;
    if figure.done || figure.hand.is_empty() || !figure.active() {
        return Err(refuse("no_option_left", format!("{id} has had its last option this round"), heading(ACTIONS)));
    }
    Ok(())
}

/// Keep one die for the next round.
pub fn carry_over(work: &mut Work, id: &str) -> Result<(), RuleError> {
    last_option(work, id)?;
    let mut discarded = work.figure(id)?.hand.clone();
    discarded.pop();
    work.emit(E::DieCarried { figure: id.to_string(), discarded });
    Ok(())
}

/// Neither act nor keep a die.
pub fn pass(work: &mut Work, id: &str) -> Result<(), RuleError> {
    last_option(work, id)?;
    let discarded = work.figure(id)?.hand.clone();
    work.emit(E::OptionPassed { figure: id.to_string(), discarded });
    Ok(())
}

/// The action in progress is over: a last option ends the figure's round; spending the last
/// usable die in the countdown calls the refresh.
pub fn end_action(work: &mut Work, id: &str) {
    let Some(figure) = work.state.figure(id) else {
        work.state.acting = None;
        return;
    };
    let event = match work.state.phase {
        Phase::Refresh => {
            E::ActionEnded { figure: id.into(), discarded: figure.hand.clone(), refresh: false, last_option: true }
        }
        _ if figure.active() && figure.usable() == 0 => {
            E::ActionEnded { figure: id.into(), discarded: figure.hand.clone(), refresh: true, last_option: false }
        }
        _ => E::ActionEnded { figure: id.into(), discarded: Vec::new(), refresh: false, last_option: false },
    };
    work.emit(event);
}

/// With nothing awaited: call the refresh when nobody can act, start the next round when
/// everyone has had their last option. Returns whether anything happened.
pub fn advance(work: &mut Work) -> Result<bool, RuleError> {
    match work.state.phase {
        Phase::Countdown if !countdown::anyone_can_act(&work.state) => {
            work.emit(E::RefreshCalled { by: None, discarded: Vec::new() });
            Ok(true)
        }
        Phase::Refresh if countdown::everyone_done(&work.state) => {
            new_round(work, &[], 0)?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// The rule cited when a figure cannot pay.
pub fn initiative_rule() -> String {
    heading(INITIATIVE)
}
