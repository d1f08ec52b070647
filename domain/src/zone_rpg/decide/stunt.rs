//! Attack stunts (seed 001 "Attack stunts"): an alternative effect proposed before the target
//! reacts, approved by the GM, accepted (no reaction, no damage) or refused (the attack is
//! resolved as normal) by the target.

use super::{character, refuse, require_controller, require_gm, Decision};
use crate::{
    zone_rpg::{event::ZoneRpgEvent, rules, state::pending::AttackStage},
    RuleError,
};

/// The GM approves or refuses the proposed stunt (a refused stunt leaves a normal attack).
pub fn approve(d: &mut Decision, approved: bool) -> Result<(), RuleError> {
    require_gm(d.ctx, "approve a stunt")?;
    let Some(pending) = d.state.pending_attack.clone().filter(|p| p.stage == AttackStage::StuntApproval) else {
        return Err(refuse("no_stunt", "no stunt waits for approval", rules::STUNTS));
    };
    d.emit(ZoneRpgEvent::StuntApproved { attack: pending.attack, approved });
    Ok(())
}

/// The target accepts the stunt's effect instead of the attack, or refuses it and the attack is
/// resolved as normal.
pub fn answer(d: &mut Decision, accept: bool) -> Result<(), RuleError> {
    let Some(pending) = d.state.pending_attack.clone().filter(|p| p.stage == AttackStage::StuntAnswer) else {
        return Err(refuse("no_stunt", "no approved stunt waits for an answer", rules::STUNTS));
    };
    let (Some(stunt), Some(target)) = (pending.stunt.clone(), pending.targets.first().cloned()) else {
        return Err(refuse("no_stunt", "no approved stunt waits for an answer", rules::STUNTS));
    };
    let target = character(&d.state, &target.target.character)?.clone();
    require_controller(&d.state, &target, d.ctx)?;
    d.emit(ZoneRpgEvent::StuntAnswered {
        attack: pending.attack,
        character: target.id().to_string(),
        accepted: accept,
    });
    if accept {
        let dropped = stunt.disarm.clone().filter(|w| target.weapon(w).is_some_and(|w| w.weapon.held));
        d.emit(ZoneRpgEvent::StuntApplied {
            attack: pending.attack,
            character: target.id().to_string(),
            effect: stunt.effect.clone(),
            incapacitated: stunt.incapacitate,
            surrendered: stunt.surrender,
            dropped,
            zone: target.zone.clone(),
        });
        d.release_if_down(target.id());
    }
    Ok(())
}
