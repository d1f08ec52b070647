//! InClose combat (seed 004 "InClose Combat"): going InClose (prone unless three times the
//! opponent's size, heavy weapons dropped), knock-downs, holds and what holder and victim may do,
//! subdual, standing up.

use super::{
    act::{self, Class, Price},
    damage, heading, refuse, Work,
};
use crate::{
    swift_swords::{
        battle::{
            command::GrappleChoice,
            event::{ProneFlag, SwiftSwordsEvent as E},
            state::{Figure, Hold},
        },
        damage as code,
        figure::Natural,
        ranks::RankSide,
        rolls::RollKind,
    },
    RuleError,
};

const INCLOSE: &str = "InClose Combat";

/// Whether a figure stands InClose against `opponents`: three times the size of each of them,
/// its legs' stability counted.
pub fn stands_against(figure: &Figure, opponents: &[&Figure]) -> bool {
    opponents.iter().all(|other| figure.spec.stable_size() >= 3 * u32::from(other.spec.size))
}

fn heavy_weapons_dropped(work: &mut Work, id: &str) -> Result<(), RuleError> {
    let figure = work.figure(id)?;
    let mut dropped = figure.dropped.clone();
    for weapon in &figure.spec.weapons {
        if !weapon.usable_in_close() {
            dropped.insert(weapon.name.clone());
        }
    }
    if dropped != figure.dropped {
        let broken = figure.broken.iter().cloned().collect();
        work.emit(E::WeaponsChanged {
            figure: id.into(),
            dropped: dropped.into_iter().collect(),
            broken,
            reason: "heavy weapons dropped InClose".into(),
        });
    }
    Ok(())
}

/// Go InClose with an opponent of the same melee group.
pub fn close_in(work: &mut Work, id: &str, target: &str, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Other)?;
    let figure = work.figure(id)?;
    let other = work.figure(target)?;
    let together = figure.group.is_some() && figure.group == other.group;
    if !together
        || !work.state.enemies(id, target)
        || !other.active()
        || figure.close_with.contains(target)
        || figure.flying
        || other.flying
    {
        return Err(refuse(
            "cannot_close",
            format!("{id} can only close with an enemy of its melee group it is not InClose with"),
            heading(INCLOSE),
        ));
    }
    let cost = u32::from(work.state.options.action_costs.close_in);
    if !act::begin(work, id, "close in", Price::Pips(cost, pay.clone()), Class::Other)? {
        return Ok(());
    }
    let mut close_with: Vec<String> = work.figure(id)?.close_with.iter().cloned().collect();
    close_with.push(target.into());
    let mut prone = Vec::new();
    for who in [id, target] {
        let figure = work.figure(who)?;
        let mut opponents: Vec<&Figure> =
            figure.close_with.iter().filter_map(|other| work.state.figure(other)).collect();
        let partner = if who == id { target } else { id };
        if let Some(partner) = work.state.figure(partner) {
            opponents.push(partner);
        }
        let standing = stands_against(figure, &opponents);
        prone.push(ProneFlag { figure: who.into(), prone: figure.prone || !standing });
    }
    work.emit(E::CloseChanged {
        figure: id.into(),
        close_with,
        prone,
        reason: format!("{id} went InClose with {target}"),
    });
    heavy_weapons_dropped(work, id)?;
    heavy_weapons_dropped(work, target)
}

fn in_close_with(work: &Work, id: &str, target: &str) -> Result<(), RuleError> {
    if work.figure(id)?.close_with.contains(target) {
        Ok(())
    } else {
        Err(refuse("not_in_close", format!("{id} is not InClose with {target}"), heading(INCLOSE)))
    }
}

/// An opposed BODY roll, each side with its size advantage as extra dice.
fn contest(
    work: &mut Work,
    name: &str,
    id: &str,
    other: &str,
    sized: bool,
    damage_of: Option<code::DamageCode>,
) -> Result<bool, RuleError> {
    let (figure, opponent) = (work.figure(id)?.clone(), work.figure(other)?.clone());
    let (size, opposing) = (figure.spec.stable_size(), opponent.spec.stable_size());
    let (bonus, opposing_bonus) =
        if sized { (size.saturating_sub(opposing), opposing.saturating_sub(size)) } else { (0, 0) };
    let dice = match &damage_of {
        Some(code) => u32::from(figure.spec.weapon(&code.weapon).map_or(0, |weapon| weapon.dice)),
        None => u32::from(figure.spec.characteristics.body) + bonus,
    };
    let kind = if damage_of.is_some() { RollKind::Attack } else { RollKind::Body };
    let roll = work.roll_for(id, kind, dice, 0, &format!("{name}: roll of {id}"), false)?;
    let body = u32::from(opponent.spec.characteristics.body) + opposing_bonus;
    let opponent_roll =
        work.roll_for(other, RollKind::Body, body, 0, &format!("{name}: BODY roll of {other}"), false)?;
    let damage = damage_of.as_ref().map(|code| code::damage(code.level, roll.successes));
    let won = match damage {
        Some(points) => points > opponent_roll.successes,
        None => roll.successes > opponent_roll.successes,
    };
    let next_word = work.next_word();
    work.emit(E::ContestRolled {
        contest: name.into(),
        figure: id.into(),
        roll,
        damage,
        opponent: other.into(),
        opponent_roll,
        won,
        next_word,
    });
    Ok(won)
}

/// Knock down an opponent standing InClose thanks to its size.
pub fn knock_down(work: &mut Work, id: &str, target: &str, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Other)?;
    in_close_with(work, id, target)?;
    if work.figure(target)?.prone {
        return Err(refuse("already_prone", format!("{target} is already down"), heading(INCLOSE)));
    }
    let cost = u32::from(work.state.options.action_costs.knock_down);
    if !act::begin(work, id, "knock down", Price::Pips(cost, pay.clone()), Class::Other)? {
        return Ok(());
    }
    if contest(work, "knock-down", id, target, true, None)? {
        work.emit(E::ProneChanged { figure: target.into(), prone: true, reason: format!("knocked down by {id}") });
    }
    Ok(())
}

/// The holder uses its hold: damage, improve, or subdue.
pub fn grapple(work: &mut Work, id: &str, choice: GrappleChoice, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    let cost = u32::from(work.state.options.action_costs.grapple);
    if !act::begin(work, id, "grapple", Price::Pips(cost, pay.clone()), Class::Holder)? {
        return Ok(());
    }
    let Some(hold) = work.state.hold_by(id).cloned() else { return Ok(()) };
    let victim = hold.victim.clone();
    match choice {
        GrappleChoice::Subdue => {
            let code = code::DamageCode { weapon: hold.weapon.clone(), level: hold.level };
            if contest(work, "subdual", id, &victim, true, Some(code))? {
                work.emit(E::OutOfAction { figure: victim.clone(), cause: format!("subdued by {id}") });
                damage::check_battle_end(work);
            }
        }
        GrappleChoice::Damage | GrappleChoice::Improve => {
            let dice = u32::from(work.figure(id)?.spec.weapon(&hold.weapon).map_or(0, |weapon| weapon.dice));
            let roll = work.roll_for(
                id,
                RollKind::Attack,
                dice,
                0,
                &format!("{choice:?} hold of {id} on {victim}").to_lowercase(),
                false,
            )?;
            let points = if choice == GrappleChoice::Damage { code::damage(hold.level, roll.successes) } else { 0 };
            let improved = choice == GrappleChoice::Improve && roll.passed();
            let next_word = work.next_word();
            work.emit(E::GrappleRolled {
                figure: id.into(),
                victim: victim.clone(),
                level: hold.level,
                roll,
                damage: points,
                next_word,
            });
            if improved {
                let better = Hold { level: hold.level.heavier(), ..hold.clone() };
                work.emit(E::HoldChanged {
                    victim: victim.clone(),
                    hold: Some(better),
                    reason: "the hold improved".into(),
                });
            }
            if points > 0 {
                let hit = damage::Hit {
                    target: &victim,
                    damage: points,
                    side: RankSide::Physical,
                    magic: false,
                    massive_weapon: false,
                    bane: false,
                    take_rank: false,
                    aim: None,
                    cause: format!("{id}'s hold"),
                };
                damage::apply(work, &hit)?;
            }
        }
    }
    Ok(())
}

/// The victim tries to break the hold (one level per success it wins by), or to reverse it
/// (winning by two or more).
pub fn break_hold(work: &mut Work, id: &str, reverse: bool, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Victim)?;
    let Some(hold) = work.state.hold_on(id).cloned() else {
        return Err(refuse("not_held", format!("{id} is not held"), heading(INCLOSE)));
    };
    let cost = u32::from(work.state.options.action_costs.break_hold);
    let name = if reverse { "reverse the hold" } else { "break the hold" };
    if !act::begin(work, id, name, Price::Pips(cost, pay.clone()), Class::Victim)? {
        return Ok(());
    }
    let contest_name = if reverse { "reversing a hold" } else { "breaking a hold" };
    contest(work, contest_name, id, &hold.holder, false, None)?;
    let margin = match work.events.last() {
        Some(E::ContestRolled { roll, opponent_roll, .. }) => roll.successes.saturating_sub(opponent_roll.successes),
        _ => 0,
    };
    if reverse {
        if margin >= 2 {
            let figure = work.figure(id)?;
            let weapon = figure
                .spec
                .weapons
                .iter()
                .find(|weapon| weapon.grapple)
                .or_else(|| figure.spec.weapons.iter().find(|weapon| weapon.natural != Natural::No))
                .or_else(|| figure.spec.weapons.first())
                .map(|weapon| weapon.name.clone());
            work.emit(E::HoldChanged { victim: id.into(), hold: None, reason: "reversed".into() });
            if let Some(weapon) = weapon {
                let reversed = Hold { holder: id.into(), victim: hold.holder.clone(), level: hold.level, weapon };
                work.emit(E::HoldChanged {
                    victim: hold.holder.clone(),
                    hold: Some(reversed),
                    reason: format!("{id} reversed the hold"),
                });
            }
        }
        return Ok(());
    }
    if margin > 0 {
        let mut level = Some(hold.level);
        for _ in 0..margin {
            level = level.and_then(|level| level.lighter());
        }
        let hold = level.map(|level| Hold { level, ..hold.clone() });
        let reason = if hold.is_some() { "the hold weakened" } else { "the hold broken" };
        work.emit(E::HoldChanged { victim: id.into(), hold, reason: reason.into() });
    }
    Ok(())
}

/// The victim yields: Out of Action.
pub fn yield_hold(work: &mut Work, id: &str) -> Result<(), RuleError> {
    act::authorize(work, id)?;
    act::nothing_awaited(work)?;
    if work.state.hold_on(id).is_none() || !work.figure(id)?.active() {
        return Err(refuse("not_held", format!("{id} is not held"), heading(INCLOSE)));
    }
    work.emit(E::OutOfAction { figure: id.into(), cause: "yielded".into() });
    damage::check_battle_end(work);
    Ok(())
}

/// Stand up (outside InClose: InClose, a figure stands up by withdrawing).
pub fn stand_up(work: &mut Work, id: &str, pay: &Option<Vec<u8>>) -> Result<(), RuleError> {
    act::ready(work, id, Class::Other)?;
    let figure = work.figure(id)?;
    if !figure.prone {
        return Err(refuse("not_prone", format!("{id} is on its feet"), heading(INCLOSE)));
    }
    if !figure.close_with.is_empty() {
        return Err(refuse(
            "withdraw_to_stand",
            format!("{id} is InClose: to stand up it must Withdraw"),
            heading(INCLOSE),
        ));
    }
    let cost = u32::from(work.state.options.action_costs.stand_up);
    if !act::begin(work, id, "stand up", Price::Pips(cost, pay.clone()), Class::Other)? {
        return Ok(());
    }
    work.emit(E::ProneChanged { figure: id.into(), prone: false, reason: "stood up".into() });
    Ok(())
}
