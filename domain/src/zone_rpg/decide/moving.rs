//! Movement (seed 001 "Taking a turn"): full speed, or half speed with actions, sprinting,
//! split around actions; sneaking (seed 001 "Sneaking in combat"); moves interrupted by
//! opportunity attacks and resumed (seed 001 "Opportunity attacks"); a mount carrying its
//! riders (seed 001 "Mounts and vehicles in combat"); retreating from the fight.

use super::{acting_member, character, nothing_pending, refuse, require_controller, Decision};
use crate::{
    zone_rpg::{
        event::ZoneRpgEvent,
        rules,
        state::{character::Morale, turn::full_speed},
    },
    RuleError,
};

/// A move as asked for.
pub struct MoveRequest<'a> {
    /// The zones entered.
    pub path: &'a [String],
    /// Sprinting.
    pub sprint: bool,
    /// Sneaking.
    pub sneak: bool,
    /// The border to stand on at the end.
    pub at_border: &'a Option<String>,
    /// The feature to get behind at the end.
    pub behind: &'a Option<String>,
}

/// A walk in progress: where it goes and how it ends.
struct Walk {
    character: String,
    from: String,
    path: Vec<String>,
    sprint: bool,
    sneak: bool,
    at_border: Option<String>,
    behind: Option<String>,
    retreating: bool,
    /// The enemies in the starting zone have already had their chance.
    skip_first: bool,
}

/// Move a character taking its turn.
pub fn move_character(d: &mut Decision, id: &str, request: &MoveRequest) -> Result<(), RuleError> {
    let mover = character(&d.state, id)?.clone();
    require_controller(&d.state, &mover, d.ctx)?;
    nothing_pending(&d.state)?;
    let member = acting_member(&d.state, id)?.clone();
    if mover.riding.is_some() {
        return Err(refuse(
            "mounted",
            format!("{id} rides: it moves with its mount, or dismounts first"),
            rules::MOUNTS,
        ));
    }
    if mover.grabbed_by.is_some() {
        return Err(refuse("grabbed", format!("{id} is grabbed and cannot move"), rules::NON_LETHAL));
    }
    if mover.morale == Morale::Broken {
        return Err(refuse(
            "morale_broken",
            format!("{id} failed its morale check: it must surrender or retreat"),
            rules::MORALE,
        ));
    }
    let length =
        d.state.map.walk(&mover.zone, request.path).map_err(|why| refuse("cannot_walk", why, rules::TAKING_A_TURN))?;
    let half_zones = length.saturating_mul(2);
    let sprint = member.sprint || request.sprint;
    let full = full_speed(mover.spec.speed, sprint);
    let limit = if member.has_acted_with_actions() { full / 2 } else { full };
    if member.moved + half_zones > limit {
        return Err(refuse(
            "too_far",
            format!(
                "{id} can move {} more zones this turn (full speed {}, half speed with actions)",
                f64::from(limit.saturating_sub(member.moved)) / 2.0,
                f64::from(full) / 2.0
            ),
            rules::TAKING_A_TURN,
        ));
    }
    let riders_acted = d
        .state
        .turn
        .iter()
        .flat_map(|turn| turn.members.iter())
        .filter(|m| m.character != id && m.active && m.acted)
        .any(|m| d.state.character(&m.character).is_some_and(|c| c.riding.as_deref() == Some(id)));
    if riders_acted && (member.moved + half_zones) * 2 > full {
        return Err(refuse(
            "riders_acted",
            "a rider or passenger has acted: the mount cannot move at full speed this turn",
            rules::MOUNTS,
        ));
    }
    let end = request.path.last().unwrap_or(&mover.zone).clone();
    if let Some(border) = request.at_border {
        if d.state.map.border(&end, border).is_none() {
            return Err(refuse("not_a_border", format!("{border} does not border {end}"), rules::TAKING_A_TURN));
        }
    }
    if let Some(feature) = request.behind {
        if d.state.map.zone(&end).and_then(|zone| zone.feature(feature)).is_none() {
            return Err(refuse("unknown_feature", format!("{end} has no feature {feature}"), rules::COVER));
        }
    }
    if mover.concealed && !request.sneak && !request.path.is_empty() {
        d.emit(ZoneRpgEvent::Revealed { character: id.to_string(), reason: "moved without sneaking".into() });
    }
    let walk = Walk {
        character: id.to_string(),
        from: mover.zone.clone(),
        path: request.path.to_vec(),
        sprint,
        sneak: request.sneak,
        at_border: request.at_border.clone(),
        behind: request.behind.clone(),
        retreating: false,
        skip_first: false,
    };
    walk_on(d, walk)
}

/// Everyone moving with `id`: its riders and whoever it holds.
fn movers(d: &Decision, id: &str) -> Vec<String> {
    let mut movers = vec![id.to_string()];
    movers.extend(d.state.riders_of(id).iter().map(|r| r.id().to_string()));
    if let Some(held) = d.state.character(id).and_then(|c| c.grabbing.clone()) {
        movers.push(held);
    }
    movers
}

/// The enemies in `zone` who may make an opportunity attack on movers leaving it: standing,
/// aware, able to react, not concealed (Herald's reading: a concealed character keeps its
/// position to itself and strikes on its own turn).
fn threats(d: &Decision, zone: &str, movers: &[String]) -> Vec<String> {
    let Some(mover) = movers.first().and_then(|m| d.state.character(m)) else { return Vec::new() };
    if mover.concealed {
        return Vec::new();
    }
    d.state
        .characters
        .iter()
        .filter(|c| c.zone == zone && c.faction() != mover.faction() && !movers.iter().any(|m| m == c.id()))
        .filter(|c| c.can_react() && !c.concealed)
        .map(|c| c.id().to_string())
        .collect()
}

/// Walk along the path; stop when leaving a zone with enemies who may attack.
fn walk_on(d: &mut Decision, walk: Walk) -> Result<(), RuleError> {
    let movers = movers(d, &walk.character);
    let mut here = walk.from.clone();
    for (index, step) in walk.path.iter().enumerate() {
        let threatened = if index == 0 && walk.skip_first { Vec::new() } else { threats(d, &here, &movers) };
        if !threatened.is_empty() {
            let walked = &walk.path[..index];
            if !walked.is_empty() {
                moved(d, &walk, walked, &movers, None, None)?;
            }
            d.emit(ZoneRpgEvent::MoveInterrupted {
                character: walk.character.clone(),
                movers: movers.clone(),
                zone: here.clone(),
                remaining: walk.path[index..].to_vec(),
                retreating: walk.retreating,
                threatened_by: threatened,
                sprint: walk.sprint,
                sneak: walk.sneak,
                at_border: walk.at_border.clone(),
                behind: walk.behind.clone(),
            });
            return Ok(());
        }
        here.clone_from(step);
    }
    if walk.retreating {
        let threatened = if walk.path.is_empty() && walk.skip_first { Vec::new() } else { threats(d, &here, &movers) };
        if !threatened.is_empty() && !walk.skip_first {
            d.emit(ZoneRpgEvent::MoveInterrupted {
                character: walk.character.clone(),
                movers: movers.clone(),
                zone: here.clone(),
                remaining: Vec::new(),
                retreating: true,
                threatened_by: threatened,
                sprint: walk.sprint,
                sneak: walk.sneak,
                at_border: None,
                behind: None,
            });
            return Ok(());
        }
        return super::actions::leave(d, &walk.character);
    }
    moved(d, &walk, &walk.path, &movers, walk.at_border.clone(), walk.behind.clone())
}

fn moved(
    d: &mut Decision,
    walk: &Walk,
    path: &[String],
    movers: &[String],
    at_border: Option<String>,
    behind: Option<String>,
) -> Result<(), RuleError> {
    let from = d.state.character(&walk.character).map(|c| c.zone.clone()).unwrap_or_default();
    let length = d.state.map.walk(&from, path).map_err(|why| refuse("cannot_walk", why, rules::TAKING_A_TURN))?;
    let concealed = d.state.character(&walk.character).is_some_and(|c| c.concealed);
    d.emit(ZoneRpgEvent::Moved {
        character: walk.character.clone(),
        path: path.to_vec(),
        zone: path.last().cloned().unwrap_or(from),
        half_zones: length.saturating_mul(2),
        sprint: walk.sprint,
        sneaking: walk.sneak && concealed,
        with: movers.iter().skip(1).cloned().collect(),
        at_border,
        behind,
        concealed,
    });
    Ok(())
}

/// Resume a move whose opportunity attacks are over, if the mover is still up to it (seed 001
/// "Opportunity attacks": "their turn resumes if they are still alive and conscious"). A mover
/// that is down (or gone) does not resume at all: its turn is over, and with nobody else in the
/// turn still standing the turn ends here.
pub fn resume(d: &mut Decision) -> Result<(), RuleError> {
    let Some(interrupted) = d.state.interrupted_move.clone() else { return Ok(()) };
    let mover = d.state.character(&interrupted.character).cloned();
    let stopped = match &mover {
        None => Some("it is gone".to_string()),
        Some(m) if !m.standing() => Some(format!("{} is down", m.id())),
        Some(m) if m.grabbed_by.is_some() => Some(format!("{} is grabbed", m.id())),
        Some(m) if m.zone != interrupted.zone => Some(format!("{} was moved away", m.id())),
        _ => None,
    };
    if let Some(reason) = stopped {
        d.emit(ZoneRpgEvent::MoveAbandoned { character: interrupted.character.clone(), reason });
        if !mover.as_ref().is_some_and(|m| m.standing()) {
            super::round::end_turn_of_the_fallen(d);
        }
        return Ok(());
    }
    let walk = Walk {
        character: interrupted.character.clone(),
        from: interrupted.zone.clone(),
        path: interrupted.remaining.clone(),
        sprint: interrupted.sprint,
        sneak: interrupted.sneak,
        at_border: interrupted.at_border.clone(),
        behind: interrupted.behind.clone(),
        retreating: interrupted.retreating,
        skip_first: true,
    };
    walk_on(d, walk)
}

/// A retreat leaves from the character's zone: enemies there may strike first.
pub fn retreat_from(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let zone = d.state.character(id).map(|c| c.zone.clone()).unwrap_or_default();
    let walk = Walk {
        character: id.to_string(),
        from: zone,
        path: Vec::new(),
        sprint: false,
        sneak: false,
        at_border: None,
        behind: None,
        retreating: true,
        skip_first: false,
    };
    walk_on(d, walk)
}
