//! Folding attacks and their consequences: declarations, stunts, reactions, resolutions, hits,
//! grabs, reveals, conditions and health (seed 001 "Attacking", "Reacting to an attack",
//! "Attack stunts", "Non-lethal attacks", "Sneaking in combat", "Surrendering").

use super::{character::Morale, pending::AttackStage, ZoneRpgState};
use crate::zone_rpg::{command::Condition, event::ZoneRpgEvent};

impl ZoneRpgState {
    /// Fold the combat events; others are left to the other folds.
    pub(super) fn fold_combat(&mut self, event: &ZoneRpgEvent) {
        use ZoneRpgEvent as E;
        match event {
            E::AttackDeclared { .. } => self.attack_declared(event),
            E::StuntApproved { approved, .. } => {
                if let Some(pending) = &mut self.pending_attack {
                    if *approved {
                        pending.stage = AttackStage::StuntAnswer;
                    } else {
                        pending.stunt = None;
                        pending.stage = AttackStage::Reactions;
                    }
                }
            }
            E::StuntAnswered { accepted, .. } => {
                if let Some(pending) = &mut self.pending_attack {
                    if !*accepted {
                        pending.stunt = None;
                        pending.stage = AttackStage::Reactions;
                    }
                }
            }
            E::StuntApplied { character, incapacitated, surrendered, dropped, zone, .. } => {
                if let Some(weapon) = dropped {
                    self.drop_weapon(character, weapon, zone, None, None);
                }
                if let Some(target) = self.character_mut(character) {
                    target.incapacitated |= *incapacitated;
                    target.surrendered |= *surrendered;
                }
                self.pending_attack = None;
                self.after_harm(character);
            }
            E::Reacted { .. } => self.reacted(event),
            E::Declined { characters, attack, .. } => {
                for id in characters {
                    match (attack, &mut self.pending_attack, &mut self.interrupted_move) {
                        (Some(_), Some(pending), _) => {
                            if let Some(target) = pending.targets.iter_mut().find(|t| t.target.character == *id) {
                                target.decided = true;
                            }
                        }
                        (None, _, Some(interrupted)) => {
                            if let Some(threat) = interrupted.threats.iter_mut().find(|t| t.character == *id) {
                                threat.decided = true;
                            }
                        }
                        _ => {}
                    }
                }
            }
            E::AttackResolved { .. } => {
                if let Some(pending) = self.pending_attack.take() {
                    for target in &pending.targets {
                        if let Some(character) = self.character_mut(&target.target.character) {
                            character.unaware = false;
                        }
                    }
                }
            }
            E::CharacterHit { character, health, incapacitated, killed, armour_used, surrender_ended, .. } => {
                if let Some(hit) = self.character_mut(character) {
                    hit.health = *health;
                    hit.incapacitated |= *incapacitated;
                    hit.dead |= *killed;
                    if *armour_used {
                        if let Some(armour) = &mut hit.armour {
                            armour.used = true;
                        }
                        if let Some(shield) = hit.shield.as_mut().filter(|s| s.shield.held) {
                            shield.used = true;
                        }
                    }
                    if *surrender_ended {
                        hit.surrendered = false;
                        hit.morale = Morale::Untested;
                    }
                }
                self.after_harm(character);
            }
            E::DeathBlowDelivered { character, .. } => {
                if let Some(killed) = self.character_mut(character) {
                    killed.dead = true;
                }
                self.after_harm(character);
            }
            E::Shoved { character, zone, .. } => {
                if let Some(shoved) = self.character_mut(character) {
                    shoved.zone = zone.clone();
                    shoved.at_border = None;
                    shoved.behind = None;
                    shoved.riding = None;
                }
            }
            E::HazardStruck { character, kills: true, .. } => {
                if let Some(struck) = self.character_mut(character) {
                    struck.dead = true;
                }
                self.after_harm(character);
            }
            E::Grabbed { grabber, character } => {
                if let Some(holder) = self.character_mut(grabber) {
                    holder.grabbing = Some(character.clone());
                }
                if let Some(held) = self.character_mut(character) {
                    held.grabbed_by = Some(grabber.clone());
                }
            }
            E::GrabReleased { grabber, character, .. } => self.release(grabber, character),
            E::BreakFreeAttempted { character, helper, freed, .. } => {
                match helper {
                    Some(helper) => self.spend_action(helper, true),
                    None => self.spend_whole_turn(character),
                }
                if *freed {
                    let grabber = self.character(character).and_then(|c| c.grabbed_by.clone());
                    if let Some(grabber) = grabber {
                        self.release(&grabber, character);
                    }
                }
            }
            E::Revealed { character, .. } => self.reveal(character),
            E::Surrendered { character, dropped, zone, as_turn } => {
                for item in dropped {
                    self.put_down(character, item, zone, false);
                }
                if let Some(surrendering) = self.character_mut(character) {
                    surrendering.surrendered = true;
                    surrendering.morale = Morale::Untested;
                }
                if *as_turn {
                    self.spend_whole_turn(character);
                }
            }
            E::ConditionChanged { character, condition, active, .. } => {
                if *condition == Condition::Concealed && !*active {
                    self.reveal(character);
                }
                if let Some(target) = self.character_mut(character) {
                    match condition {
                        Condition::Unaware => target.unaware = *active,
                        Condition::Concealed => target.concealed = *active,
                        Condition::Incapacitated => target.incapacitated = *active,
                        Condition::Surrendered => target.surrendered = *active,
                    }
                }
                if *active && matches!(condition, Condition::Incapacitated) {
                    self.after_harm(character);
                }
            }
            E::HealthAdjusted { character, health, killed, .. } => {
                if let Some(target) = self.character_mut(character) {
                    target.health = *health;
                    target.dead |= *killed;
                }
                self.after_harm(character);
            }
            _ => {}
        }
    }

    pub(super) fn release(&mut self, grabber: &str, character: &str) {
        if let Some(holder) = self.character_mut(grabber) {
            if holder.grabbing.as_deref() == Some(character) {
                holder.grabbing = None;
            }
        }
        if let Some(held) = self.character_mut(character) {
            if held.grabbed_by.as_deref() == Some(grabber) {
                held.grabbed_by = None;
            }
        }
    }

    /// A character who goes down lets go of whoever it holds, is let go of, and its riders are
    /// on foot.
    pub(super) fn after_harm(&mut self, id: &str) {
        let Some(character) = self.character(id) else { return };
        if character.standing() {
            return;
        }
        let (grabbing, grabbed_by) = (character.grabbing.clone(), character.grabbed_by.clone());
        if let Some(held) = grabbing {
            self.release(id, &held);
        }
        if let Some(holder) = grabbed_by {
            self.release(&holder, id);
        }
        for rider in self.characters.iter_mut().filter(|c| c.riding.as_deref() == Some(id)) {
            rider.riding = None;
        }
    }

    pub(super) fn reveal(&mut self, id: &str) {
        if let Some(character) = self.character_mut(id) {
            character.concealed = false;
        }
        for item in self.items.iter_mut().filter(|item| item.left_by == id) {
            item.concealed = false;
        }
    }
}
