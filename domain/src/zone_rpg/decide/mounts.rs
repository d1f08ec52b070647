//! Getting on and off mounts and vehicles (seed 001 "Mounts and vehicles in combat": "Mounting
//! or dismounting … counts as moving half a zone. If the mount or vehicle is moving, an AGI save
//! is required to avoid falling, suffering d4 direct damage").

use super::{
    acting_member, character, damage::Damage, grab::let_go_unless, nothing_pending, refuse, require_controller,
    Decision,
};
use crate::{
    zone_rpg::{
        die::Die,
        event::ZoneRpgEvent,
        outcome::{Ability, Save},
        rules,
        state::turn::full_speed,
    },
    RuleError,
};

/// Spend half a zone of movement getting on or off; refuse when there is none left.
fn half_zone_left(d: &Decision, id: &str) -> Result<(), RuleError> {
    let member = acting_member(&d.state, id)?;
    let character = character(&d.state, id)?;
    let full = full_speed(character.spec.speed, member.sprint);
    let limit = if member.has_acted_with_actions() { full / 2 } else { full };
    if member.moved + 1 > limit {
        return Err(refuse(
            "too_far",
            format!("{id} has no movement left: getting on or off counts as moving half a zone"),
            rules::MOUNTS,
        ));
    }
    Ok(())
}

/// The AGI save against falling when the mount or vehicle is moving (it has moved during the
/// turn in progress), and the fall's d4 direct damage.
fn fall_save(d: &mut Decision, id: &str, mount: &str, why: &str) -> Result<(Option<Save>, bool), RuleError> {
    let moving = d.state.turn.as_ref().and_then(|turn| turn.member(mount)).is_some_and(|m| m.moved > 0);
    if !moving {
        return Ok((None, false));
    }
    let save = d.save(id, Ability::Agi, why)?;
    let fell = !save.passed;
    Ok((Some(save), fell))
}

fn fall(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let damage = Damage {
        by: "a fall".into(),
        against: id.to_string(),
        weapon: None,
        die: Die::D4,
        impaired: false,
        dice: 1,
        halvings: 0,
        direct: true,
        armour: 0,
        cover: false,
        label: None,
    };
    let roll = d.roll_damage(&damage)?;
    d.hit(&roll, None, true);
    Ok(())
}

/// Get on a mount or vehicle in the zone.
pub fn mount(d: &mut Decision, id: &str, mount_id: &str) -> Result<(), RuleError> {
    let rider = character(&d.state, id)?.clone();
    require_controller(&d.state, &rider, d.ctx)?;
    nothing_pending(&d.state)?;
    acting_member(&d.state, id)?;
    let mount = character(&d.state, mount_id)?.clone();
    let riders = d.state.riders_of(mount_id).len();
    let fits = rider.riding.is_none()
        && rider.grabbed_by.is_none()
        && d.state.riders_of(id).is_empty()
        && mount.id() != id
        && mount.standing()
        && mount.riding.is_none()
        && mount.zone == rider.zone
        && mount.faction() == rider.faction()
        && u32::try_from(riders).unwrap_or(u32::MAX) < mount.spec.carries;
    if !fits {
        return Err(refuse(
            "cannot_ride",
            format!("{id} cannot get on {mount_id}: a standing mount of its faction in its zone with room is needed"),
            rules::MOUNTS,
        ));
    }
    half_zone_left(d, id)?;
    let_go_unless(d, id, |g, h| g.spec.size > h.spec.size, "got on a mount");
    let (save, fell) = fall_save(d, id, mount_id, &format!("to get on {mount_id} while it moves"))?;
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::Mounted { character: id.to_string(), mount: mount_id.to_string(), save, fell, next_word });
    if fell {
        fall(d, id)?;
    }
    Ok(())
}

/// Get off a mount or vehicle.
pub fn dismount(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let rider = character(&d.state, id)?.clone();
    require_controller(&d.state, &rider, d.ctx)?;
    nothing_pending(&d.state)?;
    acting_member(&d.state, id)?;
    let Some(mount) = rider.riding.clone() else {
        return Err(refuse("not_mounted", format!("{id} is not riding anything"), rules::MOUNTS));
    };
    half_zone_left(d, id)?;
    let_go_unless(d, id, |g, h| g.spec.size > h.spec.size, "got off a mount");
    let (save, fell) = fall_save(d, id, &mount, &format!("to get off {mount} while it moves"))?;
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::Dismounted { character: id.to_string(), mount, save, fell, next_word });
    if fell {
        fall(d, id)?;
    }
    Ok(())
}
