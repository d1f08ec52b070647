//! What the GM decides: conditions (hiding, unawareness), health from powers and consumables,
//! placing characters, chases (seed 001 "Chases"), and ending the fight with its durability
//! rolls (seed 001 "Combat gear degradation").

use super::{character, refuse, require_gm, Decision};
use crate::{
    zone_rpg::{
        command::{ChaseEdge, Condition},
        event::ZoneRpgEvent,
        outcome::{Ability, GearKind, Wear},
        rules,
        state::character::CharacterState,
    },
    RuleError,
};

fn check_reason(reason: &str) -> Result<(), RuleError> {
    if reason.trim().is_empty() || reason.chars().count() > 2000 {
        return Err(refuse("reason_required", "say why (1 to 2000 characters)", rules::SERVICE));
    }
    Ok(())
}

fn present<'s>(d: &'s Decision, id: &str) -> Result<&'s CharacterState, RuleError> {
    let found = character(&d.state, id)?;
    if found.present() {
        Ok(found)
    } else {
        Err(refuse("target_gone", format!("{id} is dead or gone from the fight"), rules::SERVICE))
    }
}

/// The GM sets or clears a condition.
pub fn set_condition(
    d: &mut Decision,
    id: &str,
    condition: Condition,
    active: bool,
    reason: &str,
) -> Result<(), RuleError> {
    require_gm(d.ctx, "set conditions")?;
    check_reason(reason)?;
    present(d, id)?;
    d.emit(ZoneRpgEvent::ConditionChanged { character: id.to_string(), condition, active, reason: reason.to_string() });
    if active && condition == Condition::Incapacitated {
        d.release_if_down(id);
    }
    Ok(())
}

/// The GM changes a character's health, never above its maximum; health 0 kills.
pub fn adjust_health(d: &mut Decision, id: &str, change: i32, reason: &str) -> Result<(), RuleError> {
    require_gm(d.ctx, "adjust health")?;
    check_reason(reason)?;
    let target = present(d, id)?.clone();
    let health = i64::from(target.health) + i64::from(change);
    let health = u32::try_from(health.clamp(0, i64::from(target.max_health))).unwrap_or(0);
    d.emit(ZoneRpgEvent::HealthAdjusted {
        character: id.to_string(),
        change,
        health,
        killed: health == 0,
        reason: reason.to_string(),
    });
    d.release_if_down(id);
    Ok(())
}

/// The GM puts a character (with its riders) in a zone.
pub fn place(d: &mut Decision, id: &str, zone: &str, reason: &str) -> Result<(), RuleError> {
    require_gm(d.ctx, "place characters")?;
    check_reason(reason)?;
    let placed = present(d, id)?.clone();
    if d.state.map.zone(zone).is_none() {
        return Err(refuse("unknown_zone", format!("there is no zone {zone}"), rules::SERVICE));
    }
    let mut moving = vec![placed.id().to_string()];
    moving.extend(d.state.riders_of(id).iter().map(|r| r.id().to_string()));
    for (grabber, held) in
        [(placed.grabbed_by.clone(), Some(id.to_string())), (Some(id.to_string()), placed.grabbing.clone())]
    {
        if let (Some(grabber), Some(held)) = (grabber, held) {
            d.emit(ZoneRpgEvent::GrabReleased { grabber, character: held, reason: "placed apart".into() });
        }
    }
    for character in moving {
        let concealed = d.state.character(&character).is_some_and(|c| c.concealed);
        d.emit(ZoneRpgEvent::Placed { character, zone: zone.to_string(), reason: reason.to_string(), concealed });
    }
    // Riders stay on their mount.
    Ok(())
}

/// A chase over a long distance (seed 001 "Chases"): the fleeing make a group AGI save unless
/// speed decides it (faster fleeing characters escape, slower ones cannot).
pub fn resolve_chase(
    d: &mut Decision,
    fleeing: &[String],
    pursuers: &[String],
    edge: Option<ChaseEdge>,
) -> Result<(), RuleError> {
    require_gm(d.ctx, "resolve a chase")?;
    if fleeing.is_empty() || pursuers.is_empty() || fleeing.iter().any(|f| pursuers.contains(f)) {
        return Err(refuse("chase_sides", "a chase needs fleeing characters and different pursuers", rules::CHASES));
    }
    let mut speeds = (Vec::new(), Vec::new());
    for id in fleeing {
        let runner = character(&d.state, id)?;
        if runner.dead || !(runner.standing() || runner.left.is_some()) {
            return Err(refuse("chase_sides", format!("{id} cannot flee"), rules::CHASES));
        }
        speeds.0.push(runner.spec.speed);
    }
    let mut zone = None;
    for id in pursuers {
        let chaser = present(d, id)?;
        if !chaser.fighting() {
            return Err(refuse("chase_sides", format!("{id} cannot give chase"), rules::CHASES));
        }
        zone.get_or_insert_with(|| chaser.zone.clone());
        speeds.1.push(chaser.spec.speed);
    }
    let edge = edge.unwrap_or_else(|| {
        let (slowest_runner, fastest_runner) = (speeds.0.iter().min(), speeds.0.iter().max());
        let (slowest_chaser, fastest_chaser) = (speeds.1.iter().min(), speeds.1.iter().max());
        if slowest_runner > fastest_chaser {
            ChaseEdge::Fleeing
        } else if fastest_runner < slowest_chaser {
            ChaseEdge::Pursuers
        } else {
            ChaseEdge::Even
        }
    });
    let mut saves = Vec::new();
    let (mut escaped, mut caught) = (Vec::new(), Vec::new());
    for id in fleeing {
        let gets_away = match edge {
            ChaseEdge::Fleeing => true,
            ChaseEdge::Pursuers => false,
            ChaseEdge::Even => {
                let save = d.save(id, Ability::Agi, "to escape the chase")?;
                let passed = save.passed;
                saves.push(save);
                passed
            }
        };
        if gets_away {
            escaped.push(id.clone());
        } else {
            caught.push(id.clone());
        }
    }
    let next_word = d.next_word();
    d.emit(ZoneRpgEvent::ChaseResolved {
        fleeing: fleeing.to_vec(),
        pursuers: pursuers.to_vec(),
        edge,
        saves,
        escaped,
        caught,
        zone: zone.unwrap_or_default(),
        next_word,
    });
    Ok(())
}

/// The GM ends the fight; every weapon, shield and armour used at least once gets a durability
/// roll (seed 001 "Combat gear degradation").
pub fn end_fight(d: &mut Decision, winner: Option<&str>, reason: &str) -> Result<(), RuleError> {
    require_gm(d.ctx, "end the fight")?;
    check_reason(reason)?;
    if let Some(winner) = winner {
        if d.state.faction(winner).is_none() {
            return Err(refuse("unknown_faction", format!("{winner} is not a faction"), rules::SERVICE));
        }
    }
    d.emit(ZoneRpgEvent::FightEnded { winner: winner.map(str::to_string), reason: reason.to_string() });
    let mut items: Vec<(String, GearKind, String, bool)> = Vec::new();
    for character in &d.state.characters {
        let id = character.id().to_string();
        for weapon in character.weapons.iter().filter(|w| w.used && !w.destroyed && !w.weapon.natural) {
            items.push((id.clone(), GearKind::Weapon, weapon.weapon.name.clone(), weapon.weapon.damaged));
        }
        if let Some(shield) = character.shield.as_ref().filter(|s| s.used && !s.destroyed) {
            items.push((id.clone(), GearKind::Shield, shield.shield.name.clone(), shield.shield.damaged));
        }
        if let Some(armour) = character.armour.as_ref().filter(|a| a.used && !a.destroyed && !a.armour.natural) {
            items.push((id.clone(), GearKind::Armour, armour.armour.name.clone(), armour.armour.damaged));
        }
    }
    let durability = d.state.options.durability;
    for (character, kind, item, damaged) in items {
        let roll = d.roll(durability.die, format!("durability of {character}'s {item}"))?;
        let wear = match (roll.value <= durability.fails_at_or_below, damaged) {
            (false, _) => Wear::Intact,
            (true, false) => Wear::Damaged,
            (true, true) => Wear::Destroyed,
        };
        let next_word = d.next_word();
        d.emit(ZoneRpgEvent::DurabilityRolled { character, kind, item, roll, wear, next_word });
    }
    Ok(())
}
