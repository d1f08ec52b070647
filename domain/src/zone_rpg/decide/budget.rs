//! What a turn still allows (seed 001 "Taking a turn": "move half their speed … and perform a
//! bonus action and a main action (or a second bonus action)").

use super::{acting_member, character, refuse, Decision};
use crate::{
    zone_rpg::{
        rules,
        state::{character::Morale, turn::full_speed},
    },
    RuleError,
};

/// Refuse unless `member` may spend an action now (seed 001 "Taking a turn": a main action and a
/// bonus action, or two bonus actions, and only with half speed of movement).
pub fn may_spend(d: &Decision, id: &str, main: bool) -> Result<(), RuleError> {
    let member = acting_member(&d.state, id)?;
    let character = character(&d.state, id)?;
    if character.grabbed_by.is_some() {
        return Err(refuse(
            "grabbed",
            format!("{id} is grabbed: it can only spend its turn trying to break free"),
            rules::NON_LETHAL,
        ));
    }
    if character.morale == Morale::Broken {
        return Err(refuse(
            "morale_broken",
            format!("{id} failed its morale check: it must surrender or retreat"),
            rules::MORALE,
        ));
    }
    if member.moved * 2 > full_speed(character.spec.speed, member.sprint) {
        return Err(refuse(
            "moved_too_far",
            format!("{id} moved more than half its speed: no actions this turn"),
            rules::TAKING_A_TURN,
        ));
    }
    if main && member.main > 0 {
        return Err(refuse(
            "main_action_spent",
            format!("{id} has already spent its main action"),
            rules::TAKING_A_TURN,
        ));
    }
    if member.main + member.bonus >= 2 {
        return Err(refuse(
            "actions_spent",
            format!("{id} has spent its actions this turn (a main and a bonus action, or two bonus actions)"),
            rules::TAKING_A_TURN,
        ));
    }
    Ok(())
}
