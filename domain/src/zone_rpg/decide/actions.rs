//! Main and bonus actions other than attacks (seed 001 "Taking a turn"), handling gear,
//! breaking free and freeing an ally (seed 001 "Non-lethal attacks"), surrendering (seed 001
//! "Surrendering") and retreating (seed 001 "Morale").

use super::{
    acting_member,
    budget::may_spend,
    character,
    grab::{keeps_hold, let_go_unless},
    moving, nothing_pending, refuse, require_controller, Decision,
};
use crate::{
    zone_rpg::{
        character::gear::Item,
        command::Action,
        event::ZoneRpgEvent,
        outcome::{Ability, Handling},
        rules,
        state::character::{CharacterState, Morale},
    },
    RuleError,
};

/// A main or bonus action other than an attack.
pub fn perform(d: &mut Decision, id: &str, action: &Action, description: &str) -> Result<(), RuleError> {
    let actor = character(&d.state, id)?.clone();
    require_controller(&d.state, &actor, d.ctx)?;
    nothing_pending(&d.state)?;
    may_spend(d, id, action.is_main())?;
    if description.chars().count() > 2000 {
        return Err(refuse("description_too_long", "describe the action in at most 2000 characters", rules::SERVICE));
    }
    let handled = match action {
        Action::PickUp { item } => Some(pick_up(d, &actor, item)?),
        Action::PutDown { item } => Some(put_down(&actor, item)?),
        Action::Equip { item } => Some(equip(&actor, item, true, lets_go(d, &actor))?),
        Action::Unequip { item } => Some(equip(&actor, item, false, lets_go(d, &actor))?),
        _ => None,
    };
    let_go_unless(d, id, |g, h| keeps_hold(g, h, false, false), "did something else");
    match handled {
        Some((item, handling, name)) => {
            let concealed = d.state.character(id).is_some_and(|c| c.concealed);
            d.emit(ZoneRpgEvent::ItemHandled {
                character: id.to_string(),
                item,
                handling,
                name,
                zone: actor.zone.clone(),
                concealed,
            });
        }
        None => d.emit(ZoneRpgEvent::ActionPerformed {
            character: id.to_string(),
            action: action.clone(),
            description: description.to_string(),
        }),
    }
    if action.reveals() && actor.concealed {
        d.emit(ZoneRpgEvent::Revealed { character: id.to_string(), reason: "made itself heard".into() });
    }
    Ok(())
}

fn no_item(actor: &CharacterState, item: &str) -> RuleError {
    refuse("no_such_item", format!("{} has no {item} to do that with", actor.id()), rules::TAKING_A_TURN)
}

fn pick_up(d: &Decision, actor: &CharacterState, item: &str) -> Result<(String, Handling, String), RuleError> {
    let Some(lying) = d.state.items.iter().find(|i| i.zone == actor.zone && i.item.name() == item) else {
        return Err(refuse("no_such_item", format!("no {item} lies in {}", actor.zone), rules::TAKING_A_TURN));
    };
    let name = match &lying.item {
        Item::Shield { .. } if actor.shield.as_ref().is_some_and(|s| !s.destroyed) => {
            return Err(refuse("has_shield", format!("{} already has a shield", actor.id()), rules::TAKING_A_TURN));
        }
        Item::Shield { shield, .. } => shield.name.clone(),
        Item::Weapon { weapon, .. } => {
            let mut name = weapon.name.clone();
            let mut n = 2;
            while actor.weapons.iter().any(|w| w.weapon.name == name) {
                name = format!("{} ({n})", weapon.name);
                n += 1;
            }
            name
        }
    };
    Ok((item.to_string(), Handling::PickedUp, name))
}

fn put_down(actor: &CharacterState, item: &str) -> Result<(String, Handling, String), RuleError> {
    let weapon = actor.weapon(item).is_some_and(|w| !w.weapon.natural);
    let shield = actor.shield.as_ref().is_some_and(|s| s.shield.name == item && !s.destroyed);
    if !(weapon || shield) {
        return Err(no_item(actor, item));
    }
    Ok((item.to_string(), Handling::PutDown, item.to_string()))
}

/// Whether `actor` lets go of the character it grabs by doing anything but moving, disarming
/// it, hiding behind it or attacking one-handed (seed 001 "Non-lethal attacks": "Any other
/// action frees the grabbed character"); a larger grabber keeps hold.
fn lets_go(d: &Decision, actor: &CharacterState) -> bool {
    actor
        .grabbing
        .as_deref()
        .and_then(|held| d.state.character(held))
        .is_some_and(|held| !keeps_hold(actor, held, false, false))
}

/// Take an item in hand or put it away. The hand that held a grabbed character is free for it
/// when the action lets the grab go (`releases_grab`): equipping a two-handed weapon while
/// grabbing is such an action, it frees the grabbed character (seed 001 "Non-lethal attacks").
fn equip(
    actor: &CharacterState,
    item: &str,
    take_in_hand: bool,
    releases_grab: bool,
) -> Result<(String, Handling, String), RuleError> {
    let (held, hands) = if let Some(weapon) = actor.weapon(item).filter(|w| !w.weapon.natural) {
        (weapon.weapon.held, weapon.weapon.hands.count())
    } else if let Some(shield) = actor.shield.as_ref().filter(|s| s.shield.name == item && !s.destroyed) {
        (shield.shield.held, 1)
    } else {
        return Err(no_item(actor, item));
    };
    if held == take_in_hand {
        let state = if held { "already holds" } else { "does not hold" };
        return Err(refuse("no_such_item", format!("{} {state} {item}", actor.id()), rules::TAKING_A_TURN));
    }
    let busy = actor.hands_busy().saturating_sub(u32::from(releases_grab));
    if take_in_hand && busy + hands > 2 {
        return Err(refuse(
            "no_free_hand",
            format!("{} has no hand free for {item}", actor.id()),
            rules::TAKING_A_TURN,
        ));
    }
    let handling = if take_in_hand { Handling::Equipped } else { Handling::Unequipped };
    Ok((item.to_string(), handling, item.to_string()))
}

/// A grabbed character spends its turn trying to break free with a STR save; a smaller character
/// held by a larger one cannot (seed 001 "Effects of size in combat").
pub fn break_free(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let held = character(&d.state, id)?.clone();
    require_controller(&d.state, &held, d.ctx)?;
    nothing_pending(&d.state)?;
    let member = acting_member(&d.state, id)?;
    if member.acted {
        return Err(refuse("turn_partly_spent", format!("breaking free takes {id}'s whole turn"), rules::NON_LETHAL));
    }
    let Some(grabber) = held.grabbed_by.as_deref().and_then(|g| d.state.character(g)).cloned() else {
        return Err(refuse("not_grabbed", format!("{id} is not grabbed"), rules::NON_LETHAL));
    };
    if grabber.spec.size > held.spec.size {
        return Err(refuse(
            "too_small",
            format!("{id} is smaller than {}: it cannot break free with a STR save", grabber.id()),
            rules::SIZE,
        ));
    }
    let save = d.save(id, Ability::Str, &format!("to break free of {}", grabber.id()))?;
    let freed = save.passed;
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::BreakFreeAttempted { character: id.to_string(), helper: None, save, freed, next_word });
    Ok(())
}

/// An ally spends a main action trying to free a grabbed character with a STR save.
pub fn free_ally(d: &mut Decision, id: &str, ally: &str) -> Result<(), RuleError> {
    let helper = character(&d.state, id)?.clone();
    require_controller(&d.state, &helper, d.ctx)?;
    nothing_pending(&d.state)?;
    may_spend(d, id, true)?;
    let held = character(&d.state, ally)?.clone();
    if held.grabbed_by.is_none() {
        return Err(refuse("not_grabbed", format!("{ally} is not grabbed"), rules::NON_LETHAL));
    }
    if held.faction() != helper.faction() || held.zone != helper.zone {
        return Err(refuse("not_nearby", format!("{ally} is not a nearby ally of {id}"), rules::NON_LETHAL));
    }
    let_go_unless(d, id, |g, h| keeps_hold(g, h, false, false), "helped an ally");
    let save = d.save(id, Ability::Str, &format!("to free {ally}"))?;
    let freed = save.passed;
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::BreakFreeAttempted {
        character: ally.to_string(),
        helper: Some(id.to_string()),
        save,
        freed,
        next_word,
    });
    Ok(())
}

/// Whether `character` acts out of turn because it failed a morale check (seed 001 "Morale":
/// "those who fail must surrender or retreat"); otherwise it must be its turn.
fn as_turn(d: &Decision, character: &CharacterState) -> Result<bool, RuleError> {
    let in_turn = d.state.turn.as_ref().and_then(|t| t.member(character.id())).is_some_and(|m| m.active && !m.done);
    if in_turn {
        acting_member(&d.state, character.id())?;
        return Ok(true);
    }
    if character.morale == Morale::Broken {
        return Ok(false);
    }
    acting_member(&d.state, character.id()).map(|_| true)
}

/// Spend the turn surrendering: weapons thrown away, hands up (seed 001 "Surrendering").
pub fn surrender(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let surrendering = character(&d.state, id)?.clone();
    require_controller(&d.state, &surrendering, d.ctx)?;
    nothing_pending(&d.state)?;
    if !surrendering.fighting() {
        return Err(refuse("cannot_act", format!("{id} is not fighting"), rules::SURRENDERING));
    }
    let as_turn = as_turn(d, &surrendering)?;
    if let Some(held) = &surrendering.grabbing {
        d.emit(ZoneRpgEvent::GrabReleased {
            grabber: id.to_string(),
            character: held.clone(),
            reason: format!("{id} surrendered"),
        });
    }
    let mut dropped: Vec<String> = surrendering
        .weapons
        .iter()
        .filter(|w| w.weapon.held && !w.weapon.natural && !w.destroyed)
        .map(|w| w.weapon.name.clone())
        .collect();
    dropped.extend(surrendering.shield.iter().filter(|s| s.shield.held && !s.destroyed).map(|s| s.shield.name.clone()));
    d.emit(ZoneRpgEvent::Surrendered { character: id.to_string(), dropped, zone: surrendering.zone.clone(), as_turn });
    Ok(())
}

/// Leave the fight as the turn, or at once after a failed morale check. Enemies nearby may
/// strike as the character moves away; a mount takes its riders along.
pub fn retreat(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let leaving = character(&d.state, id)?.clone();
    require_controller(&d.state, &leaving, d.ctx)?;
    nothing_pending(&d.state)?;
    if !leaving.fighting() {
        return Err(refuse("cannot_act", format!("{id} is not fighting"), rules::MORALE));
    }
    if leaving.riding.is_some() {
        return Err(refuse("mounted", format!("{id} rides: its mount retreats, or it dismounts first"), rules::MOUNTS));
    }
    if leaving.grabbed_by.is_some() {
        return Err(refuse("grabbed", format!("{id} is grabbed and cannot leave"), rules::NON_LETHAL));
    }
    as_turn(d, &leaving)?;
    if let Some(held) = &leaving.grabbing {
        d.emit(ZoneRpgEvent::GrabReleased {
            grabber: id.to_string(),
            character: held.clone(),
            reason: format!("{id} retreated"),
        });
    }
    moving::retreat_from(d, id)
}

/// The retreating character (and its riders) leave the fight.
pub fn leave(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let in_turn = d.state.turn.as_ref().and_then(|t| t.member(id)).is_some_and(|m| m.active && !m.done);
    let riders: Vec<String> = d.state.riders_of(id).iter().map(|r| r.id().to_string()).collect();
    d.emit(ZoneRpgEvent::Retreated { character: id.to_string(), as_turn: in_turn });
    for rider in riders {
        let rider_in_turn = d.state.turn.as_ref().and_then(|t| t.member(&rider)).is_some_and(|m| m.active && !m.done);
        d.emit(ZoneRpgEvent::Retreated { character: rider, as_turn: rider_in_turn });
    }
    Ok(())
}
