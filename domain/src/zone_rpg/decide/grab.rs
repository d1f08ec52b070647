//! Keeping hold of a grabbed character (seed 001 "Non-lethal attacks": "The grabbing character
//! can keep hold while moving …, attempting to disarm them, hiding behind them …, or attacking
//! with a one-handed weapon or an unarmed attack. Any other action frees the grabbed
//! character"; seed 001 "Effects of size in combat": a larger grabber "can perform any action
//! while keeping hold").

use super::Decision;
use crate::zone_rpg::{
    character::gear::{Hands, WeaponSpec},
    event::ZoneRpgEvent,
    state::character::CharacterState,
};

/// Whether holding on to a grabbed character allows this action: a larger grabber can do
/// anything; otherwise moving, disarming the grabbed, hiding behind it, and attacking with a
/// one-handed weapon or unarmed (seed 001 "Non-lethal attacks": "Any other action frees the
/// grabbed character").
pub fn keeps_hold(
    grabber: &CharacterState,
    held: &CharacterState,
    one_handed_attack: bool,
    disarms_held: bool,
) -> bool {
    grabber.spec.size > held.spec.size || one_handed_attack || disarms_held
}

/// Let go of a grabbed character when the action does not allow keeping hold.
pub fn let_go_unless(d: &mut Decision, id: &str, keeps: impl Fn(&CharacterState, &CharacterState) -> bool, why: &str) {
    let Some(grabber) = d.state.character(id).cloned() else { return };
    let Some(held) = grabber.grabbing.as_deref().and_then(|h| d.state.character(h)).cloned() else { return };
    if !keeps(&grabber, &held) {
        d.emit(ZoneRpgEvent::GrabReleased {
            grabber: id.to_string(),
            character: held.id().to_string(),
            reason: format!("{id} {why}"),
        });
    }
}

pub fn one_handed(weapon: Option<&WeaponSpec>) -> bool {
    weapon.is_none_or(|w| w.natural || w.hands == Hands::One)
}
