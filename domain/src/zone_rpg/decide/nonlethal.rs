//! Non-lethal attacks (seed 001 "Non-lethal attacks"): disarm, shove and grapple, the STR save
//! that resists them, and what size changes (seed 001 "Effects of size in combat").

use super::{refuse, Decision};
use crate::{
    zone_rpg::{
        command::Manoeuvre,
        event::ZoneRpgEvent,
        outcome::{Ability, Save},
        rules,
        state::{character::CharacterState, ZoneRpgState},
    },
    RuleError,
};

/// How far a shove moves its target, in half-zones: half a zone, doubled for each size the
/// shover is larger ("1, 2, 4, or 8 zones if the target is respectively 1, 2, 3, or 4 sizes
/// smaller").
pub fn shove_reach(attacker: &CharacterState, target: &CharacterState) -> u32 {
    let steps = attacker.spec.size.steps_over(target.spec.size).max(0);
    1u32 << steps.unsigned_abs()
}

/// Refuse a non-lethal attack the rules do not allow.
pub fn validate(
    state: &ZoneRpgState,
    attacker: &CharacterState,
    target: &CharacterState,
    manoeuvre: &Manoeuvre,
) -> Result<(), RuleError> {
    if attacker.spec.size < target.spec.size {
        return Err(refuse(
            "too_small",
            format!("{} is larger: it cannot be disarmed, shoved or grabbed by {}", target.id(), attacker.id()),
            rules::SIZE,
        ));
    }
    match manoeuvre {
        Manoeuvre::Disarm { weapon, take } => {
            if !target.weapon(weapon).is_some_and(|w| w.weapon.held && !w.weapon.natural) {
                return Err(refuse(
                    "weapon_not_held",
                    format!("{} does not hold a weapon called {weapon} that can be dropped", target.id()),
                    rules::NON_LETHAL,
                ));
            }
            if *take && !attacker.free_hand() {
                return Err(refuse(
                    "no_free_hand",
                    format!("{} has no free hand to grab it", attacker.id()),
                    rules::NON_LETHAL,
                ));
            }
        }
        Manoeuvre::Shove { to, hazard } => {
            let destination = to.as_deref().unwrap_or(&target.zone);
            if destination != target.zone {
                let reach = shove_reach(attacker, target);
                let distance = state.map.walking_distance(&target.zone, destination);
                let across_own_border = reach == 1 && target.at_border.as_deref() == Some(destination);
                if !across_own_border && distance.is_none_or(|zones| zones * 2 > reach) {
                    return Err(refuse(
                        "shove_too_far",
                        format!("{} can shove {} only {} zones", attacker.id(), target.id(), f64::from(reach) / 2.0),
                        if reach > 1 { rules::SIZE } else { rules::NON_LETHAL },
                    ));
                }
            }
            if let Some(hazard) = hazard {
                if state.map.zone(destination).and_then(|z| z.hazard(hazard)).is_none() {
                    return Err(refuse(
                        "unknown_hazard",
                        format!("{destination} has no hazard {hazard}"),
                        rules::NON_LETHAL,
                    ));
                }
            }
        }
        Manoeuvre::Grapple {} => {
            if attacker.grabbing.is_some() {
                return Err(refuse(
                    "already_grabbing",
                    format!("{} already holds someone", attacker.id()),
                    rules::NON_LETHAL,
                ));
            }
            if target.grabbed_by.is_some() {
                return Err(refuse("already_grabbed", format!("{} is already held", target.id()), rules::NON_LETHAL));
            }
            if !attacker.free_hand() {
                return Err(refuse(
                    "no_free_hand",
                    format!("{} has no free hand to grab with", attacker.id()),
                    rules::NON_LETHAL,
                ));
            }
        }
    }
    Ok(())
}

fn kind(manoeuvre: &Manoeuvre) -> &'static str {
    match manoeuvre {
        Manoeuvre::Disarm { .. } => "the disarm",
        Manoeuvre::Shove { .. } => "the shove",
        Manoeuvre::Grapple {} => "the grab",
    }
}

/// A name for a weapon taken by `taker` that none of its weapons has.
fn free_name(taker: &CharacterState, name: &str) -> String {
    if taker.weapon(name).is_none() {
        return name.to_string();
    }
    (2..).map(|n| format!("{name} ({n})")).find(|candidate| taker.weapon(candidate).is_none()).unwrap_or_default()
}

/// Resolve a non-lethal attack that was not dodged: the STR save (none for a target smaller
/// than the attacker), then the effect.
pub fn resolve(
    d: &mut Decision,
    attack: u32,
    attacker_id: &str,
    target_id: &str,
    manoeuvre: &Manoeuvre,
) -> Result<(), RuleError> {
    let (Some(attacker), Some(target)) =
        (d.state.character(attacker_id).cloned(), d.state.character(target_id).cloned())
    else {
        return Ok(());
    };
    if !attacker.standing() || !target.present() {
        return Ok(());
    }
    let save = if attacker.spec.size > target.spec.size {
        Save {
            character: target_id.to_string(),
            ability: Ability::Str,
            value: target.spec.str,
            roll: None,
            passed: false,
            note: Some(format!("smaller than {attacker_id}: no STR save (seed 001 \"Effects of size in combat\")")),
        }
    } else {
        d.save(target_id, Ability::Str, &format!("to resist {} (attack {attack})", kind(manoeuvre)))?
    };
    let succeeded = !save.passed;
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::NonLethalResolved {
        attack,
        attacker: attacker_id.to_string(),
        target: target_id.to_string(),
        manoeuvre: manoeuvre.clone(),
        save,
        succeeded,
        next_word,
    });
    if !succeeded {
        return Ok(());
    }
    match manoeuvre {
        Manoeuvre::Disarm { weapon, take } => {
            if target.weapon(weapon).is_some_and(|w| w.weapon.held) {
                let taken = *take && attacker.free_hand();
                d.emit(ZoneRpgEvent::WeaponDropped {
                    character: target_id.to_string(),
                    weapon: weapon.clone(),
                    zone: target.zone.clone(),
                    taken_by: taken.then(|| attacker_id.to_string()),
                    taken_as: taken.then(|| free_name(&attacker, weapon)),
                });
            }
        }
        Manoeuvre::Shove { to, hazard } => {
            super::shove::shove(d, &attacker, &target, to.as_deref(), hazard.as_deref())?
        }
        Manoeuvre::Grapple {} => {
            if attacker.grabbing.is_none() && target.grabbed_by.is_none() && target.standing() {
                d.emit(ZoneRpgEvent::Grabbed { grabber: attacker_id.to_string(), character: target_id.to_string() });
            }
        }
    }
    Ok(())
}
