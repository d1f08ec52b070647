//! Closing what the fight waits for: a target letting an attack through, an enemy letting a
//! mover go, or the GM closing the window for everyone still undecided (seed 001 "Reacting to an
//! attack", "Opportunity attacks").

use super::{character, refuse, require_controller, require_gm, Decision};
use crate::{
    zone_rpg::{event::ZoneRpgEvent, rules, state::pending::AttackStage},
    RuleError,
};

/// A target lets the attack through, or an enemy lets a mover go.
pub fn decline(d: &mut Decision, id: &str) -> Result<(), RuleError> {
    let declining = character(&d.state, id)?.clone();
    require_controller(&d.state, &declining, d.ctx)?;
    if let Some(pending) = d.state.pending_attack.clone() {
        if pending.stage != AttackStage::Reactions {
            return Err(refuse("stunt_pending", "the stunt must be answered first", rules::STUNTS));
        }
        if pending.target(id).is_none_or(|t| t.decided) {
            return Err(refuse(
                "nothing_to_decline",
                format!("{id} has nothing to decide on this attack"),
                rules::REACTING,
            ));
        }
        d.emit(ZoneRpgEvent::Declined { characters: vec![id.to_string()], attack: Some(pending.attack), by_gm: false });
        return Ok(());
    }
    if let Some(interrupted) = d.state.interrupted_move.clone() {
        if !interrupted.threats.iter().any(|t| t.character == id && !t.decided) {
            return Err(refuse(
                "nothing_to_decline",
                format!("{id} has nothing to decide on this move"),
                rules::OPPORTUNITY,
            ));
        }
        d.emit(ZoneRpgEvent::Declined { characters: vec![id.to_string()], attack: None, by_gm: false });
        return Ok(());
    }
    Err(refuse("nothing_to_decline", "no attack or move is waiting", rules::REACTING))
}

/// The GM closes the pending attack's reactions (or a move's opportunity attacks): whoever has
/// not decided does not react.
pub fn close_window(d: &mut Decision) -> Result<(), RuleError> {
    require_gm(d.ctx, "close a reaction window")?;
    if let Some(pending) = d.state.pending_attack.clone() {
        if pending.stage != AttackStage::Reactions {
            return Err(refuse("stunt_pending", "approve and answer the stunt first", rules::STUNTS));
        }
        let waiting: Vec<String> =
            pending.targets.iter().filter(|t| !t.decided).map(|t| t.target.character.clone()).collect();
        d.emit(ZoneRpgEvent::Declined { characters: waiting, attack: Some(pending.attack), by_gm: true });
        return Ok(());
    }
    if let Some(interrupted) = d.state.interrupted_move.clone() {
        let waiting: Vec<String> =
            interrupted.threats.iter().filter(|t| !t.decided).map(|t| t.character.clone()).collect();
        d.emit(ZoneRpgEvent::Declined { characters: waiting, attack: None, by_gm: true });
        return Ok(());
    }
    Err(refuse("nothing_to_decline", "no attack or move is waiting", rules::REACTING))
}
