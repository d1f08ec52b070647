//! Shoves and hazards (seed 001 "Non-lethal attacks": "the attacker can force them to move by
//! half a zone, and eventually push them into a hazard (pits, traps, lava, etc.)"; seed 001
//! "Effects of size in combat": larger shovers "inflict d4 direct damage").

use super::{damage::Damage, Decision};
use crate::{
    dice::RollOptions,
    zone_rpg::{die::Die, event::ZoneRpgEvent, map::HazardSpec, outcome::DamageRoll, state::character::CharacterState},
    RuleError,
};

pub fn shove(
    d: &mut Decision,
    attacker: &CharacterState,
    target: &CharacterState,
    to: Option<&str>,
    hazard: Option<&str>,
) -> Result<(), RuleError> {
    if attacker.spec.size > target.spec.size {
        // seed 001 "Effects of size in combat": "Larger characters shoving a smaller one
        // inflict d4 direct damage".
        let damage = Damage {
            by: attacker.id().to_string(),
            against: target.id().to_string(),
            weapon: None,
            die: Die::D4,
            impaired: false,
            dice: 1,
            halvings: 0,
            direct: true,
            armour: 0,
            cover: false,
            label: Some("shove".into()),
        };
        let roll = d.roll_damage(&damage)?;
        d.hit(&roll, None, true);
    }
    if !d.state.character(target.id()).is_some_and(|t| t.present()) {
        return Ok(());
    }
    let zone = to.unwrap_or(&target.zone).to_string();
    if zone != target.zone {
        for (grabber, held) in [
            (target.grabbed_by.clone(), Some(target.id().to_string())),
            (Some(target.id().to_string()), target.grabbing.clone()),
        ] {
            if let (Some(grabber), Some(held)) = (grabber, held) {
                d.emit(ZoneRpgEvent::GrabReleased { grabber, character: held, reason: "shoved apart".into() });
            }
        }
    }
    d.emit(ZoneRpgEvent::Shoved {
        character: target.id().to_string(),
        by: attacker.id().to_string(),
        zone: zone.clone(),
        hazard: hazard.map(str::to_string),
    });
    if let Some(hazard) = hazard.and_then(|h| d.state.map.zone(&zone)?.hazard(h).cloned()) {
        struck(d, target.id(), &zone, &hazard)?;
    }
    Ok(())
}

/// A character falls into a hazard: its direct damage, or death.
pub fn struck(d: &mut Decision, id: &str, zone: &str, hazard: &HazardSpec) -> Result<(), RuleError> {
    d.emit(ZoneRpgEvent::HazardStruck {
        character: id.to_string(),
        hazard: hazard.name.clone(),
        zone: zone.to_string(),
        kills: hazard.kills,
    });
    if hazard.kills {
        d.release_if_down(id);
        return Ok(());
    }
    if let Some(expression) = &hazard.damage {
        let purpose = format!("damage {expression} of {} against {id}", hazard.name);
        let outcome = expression.roll(&mut d.ctx.dice, &purpose, &RollOptions::default())?;
        let damage = u32::try_from(outcome.total.max(0)).unwrap_or(u32::MAX);
        let roll = DamageRoll {
            by: hazard.name.clone(),
            against: id.to_string(),
            weapon: None,
            die: expression.to_string(),
            draws: outcome.draws,
            faces: outcome.dice.iter().map(|die| die.value).collect(),
            impaired: false,
            halvings: 0,
            damage,
            direct: true,
            armour: 0,
            cover: false,
            suffered: damage,
        };
        d.hit(&roll, None, true);
    }
    Ok(())
}
