//! Rolling on the General Injury Table and applying its effects (seed 004 "General Injury
//! Table"): "Anyone reduced to OoA or KIA, or who suffers a Trauma effect from damage, must roll
//! on the injury table".

use super::{damage, Work};
use crate::{
    swift_swords::{
        action_dice,
        battle::event::SwiftSwordsEvent as E,
        battle::state::StateKind,
        figure::Natural,
        injury::{self, InjuryEffect, Location},
        ranks::RankSide,
        rolls::RollKind,
    },
    RuleError,
};

/// Roll 4d6 for the location (shifted toward `aim` on a triple or quadruple) and 1d6 (+1 for a
/// Killing Blow or Massive damage) for the effect, then apply it.
pub fn roll_injury(
    work: &mut Work,
    id: &str,
    plus_one: bool,
    aim: Option<Location>,
    why: &str,
) -> Result<(), RuleError> {
    let mut location_draws = Vec::new();
    for index in 1..=4 {
        location_draws.push(work.ctx.dice.roll(6, format!("injury location die {index} of {id} ({why})"))?);
    }
    let faces: Vec<u8> = location_draws.iter().map(|draw| u8::try_from(draw.value).unwrap_or(6)).collect();
    let (table, neck_and_groin) = (work.state.options.location_table.clone(), work.state.options.neck_and_groin);
    let mut location = injury::locate(&faces, &table);
    injury::shift_toward(&mut location, aim, neck_and_groin);
    let effect_draw = work.ctx.dice.roll(6, format!("injury effect die of {id}"))?;
    let modifier = u32::from(plus_one);
    let (effect, roll_penalty) = injury::effect(location.location, effect_draw.value + modifier);
    let figure = work.figure(id)?;
    let repeated_bleeder = effect == InjuryEffect::Bleeder
        && figure.injuries.iter().any(|injury| injury.bleeding && injury.location == location.location);
    let at = location.location;
    let next_word = work.next_word();
    work.emit(E::InjuryRolled {
        figure: id.into(),
        location_draws,
        location,
        effect_draw,
        modifier,
        effect,
        roll_penalty,
        repeated_bleeder,
        next_word,
    });
    if !repeated_bleeder {
        apply_effect(work, id, effect, at, roll_penalty)?;
    }
    damage::check_battle_end(work);
    Ok(())
}

fn resist(work: &mut Work, id: &str, effect: InjuryEffect, kind: RollKind, penalty: u32) -> Result<bool, RuleError> {
    let chars = work.figure(id)?.spec.characteristics.clone();
    let dice = match kind {
        RollKind::Will => chars.will,
        RollKind::Dex => chars.dex,
        _ => chars.body,
    };
    let purpose = format!("{kind:?} roll of {id} against {effect:?}");
    let roll = work.roll_for(id, kind, u32::from(dice), penalty, &purpose, false)?;
    let passed = roll.passed();
    let next_word = work.next_word();
    work.emit(E::Resisted { figure: id.into(), against: format!("{effect:?}"), roll, next_word });
    Ok(passed)
}

/// What an effect does at once (its standing penalties and burns are read from the injury).
fn apply_effect(work: &mut Work, id: &str, effect: InjuryEffect, at: Location, penalty: u32) -> Result<(), RuleError> {
    use InjuryEffect::*;
    let mechanics = injury::mechanics(effect);
    let cause = format!("injury: {effect:?} ({at:?})").to_lowercase();
    damage::lose_ranks(work, id, RankSide::Physical, mechanics.physical, false, &cause)?;
    damage::lose_ranks(work, id, RankSide::Mental, mechanics.mental, false, &cause)?;
    burn(work, id, mechanics.burn, &cause)?;
    let active = work.figure(id)?.active();
    match effect {
        Stun => {
            let figure = work.figure(id)?;
            if active && !figure.spec.stateless && !figure.states.contains(&StateKind::Stun) {
                work.emit(E::StateTaken { figure: id.into(), state: StateKind::Stun, cause });
            }
        }
        Unconscious if active && !resist(work, id, effect, RollKind::Will, penalty)? => {
            work.emit(E::OutOfAction { figure: id.into(), cause: "knocked unconscious".into() });
        }
        Paralysed if active && !resist(work, id, effect, RollKind::Body, penalty)? => {
            work.emit(E::OutOfAction { figure: id.into(), cause: "paralysed".into() });
        }
        Kill => {
            if active && !resist(work, id, effect, RollKind::Body, penalty + 2)? {
                work.emit(E::OutOfAction { figure: id.into(), cause: "a mortal wound".into() });
            }
            if !work.figure(id)?.hand.is_empty() {
                work.emit(E::HandChanged { figure: id.into(), hand: Vec::new(), reason: cause.clone() });
            }
        }
        Foot if active && !work.figure(id)?.prone && !resist(work, id, effect, RollKind::Dex, penalty)? => {
            work.emit(E::ProneChanged { figure: id.into(), prone: true, reason: cause.clone() });
        }
        Hand | Broken | Sever if at.arm() => drop_held(work, id, &cause)?,
        _ => {}
    }
    Ok(())
}

/// Burn `count` of a figure's dice into 1s now ("that effect occurs immediately").
pub fn burn(work: &mut Work, id: &str, count: u32, reason: &str) -> Result<(), RuleError> {
    let mut hand = work.figure(id)?.hand.clone();
    if action_dice::burn(&mut hand, count) > 0 {
        work.emit(E::HandChanged { figure: id.into(), hand, reason: reason.into() });
    }
    Ok(())
}

/// Drop every carried weapon that is not strapped on.
pub fn drop_held(work: &mut Work, id: &str, reason: &str) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    let mut dropped = figure.dropped.clone();
    for weapon in &figure.spec.weapons {
        if weapon.natural == Natural::No && !weapon.strapped {
            dropped.insert(weapon.name.clone());
        }
    }
    if dropped != figure.dropped {
        let broken = figure.broken.iter().cloned().collect();
        work.emit(E::WeaponsChanged {
            figure: id.into(),
            dropped: dropped.into_iter().collect(),
            broken,
            reason: reason.into(),
        });
    }
    Ok(())
}
