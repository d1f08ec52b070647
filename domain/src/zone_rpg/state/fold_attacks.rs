//! Folding an attack's declaration and the reactions to it: the pending attack, its targets,
//! who has reacted, spent turns and used weapons (seed 001 "Attacking", "Reacting to an
//! attack", "Attack stunts").

use super::{
    pending::{AttackStage, PendingAttack, PendingTarget},
    ZoneRpgState,
};
use crate::zone_rpg::{command::ReactionChoice, event::ZoneRpgEvent};

impl ZoneRpgState {
    pub(super) fn attack_declared(&mut self, event: &ZoneRpgEvent) {
        let ZoneRpgEvent::AttackDeclared {
            attack,
            attacker,
            weapon,
            form,
            targets,
            zone,
            impaired,
            ranged,
            blast,
            opportunity,
            surprise,
            hit,
            stunt,
            stunt_approved,
            next_word,
            ..
        } = event
        else {
            return;
        };
        self.attacks = self.attacks.max(*attack);
        self.dice.advance(*next_word);
        if *opportunity {
            self.spend_reaction(attacker);
            if let Some(interrupted) = &mut self.interrupted_move {
                if let Some(threat) = interrupted.threats.iter_mut().find(|t| t.character == *attacker) {
                    threat.decided = true;
                }
            }
        } else {
            self.spend_action(attacker, true);
        }
        if let (Some(name), Some(owner)) = (weapon, self.character_mut(attacker)) {
            if let Some(used) = owner.weapons.iter_mut().find(|w| w.weapon.name == *name && !w.destroyed) {
                used.used = true;
            }
        }
        if !*hit || targets.is_empty() {
            self.pending_attack = None;
            return;
        }
        let stage = match (stunt, stunt_approved) {
            (Some(_), false) => AttackStage::StuntApproval,
            (Some(_), true) => AttackStage::StuntAnswer,
            (None, _) => AttackStage::Reactions,
        };
        self.pending_attack = Some(PendingAttack {
            attack: *attack,
            attacker: attacker.clone(),
            weapon: weapon.clone(),
            form: form.clone(),
            ranged: *ranged,
            blast: *blast,
            zone: zone.clone(),
            impaired: *impaired,
            opportunity: *opportunity,
            surprise: *surprise,
            targets: targets
                .iter()
                .map(|target| PendingTarget {
                    target: target.clone(),
                    decided: !target.can_react,
                    reaction: None,
                    save: None,
                    counter_hits: None,
                })
                .collect(),
            stage,
            stunt: stunt.clone(),
            reacted: Vec::new(),
        });
    }

    pub(super) fn reacted(&mut self, event: &ZoneRpgEvent) {
        let ZoneRpgEvent::Reacted { character, reaction, save, counter_hits, new_target, replaces, next_word, .. } =
            event
        else {
            return;
        };
        self.dice.advance(*next_word);
        self.spend_reaction(character);
        if let (ReactionChoice::Counter { weapon: Some(name), .. }, Some(counterer)) =
            (reaction, self.character_mut(character))
        {
            if let Some(used) = counterer.weapons.iter_mut().find(|w| w.weapon.name == *name && !w.destroyed) {
                used.used = true;
            }
        }
        if let (ReactionChoice::HideBehind { character: shield }, Some(_)) = (reaction, new_target) {
            // "swapping position with the original target": where each stands in the zone.
            self.swap_places(character, shield);
        }
        let Some(pending) = &mut self.pending_attack else { return };
        pending.reacted.push(character.clone());
        match (reaction, new_target, replaces) {
            (ReactionChoice::HideBehind { .. } | ReactionChoice::Guard { .. }, Some(new), Some(replaced)) => {
                let guard = matches!(reaction, ReactionChoice::Guard { .. });
                if let Some(entry) = pending.targets.iter_mut().find(|t| t.target.character == *replaced) {
                    *entry = PendingTarget {
                        target: new.clone(),
                        decided: guard || !new.can_react,
                        reaction: guard.then(|| reaction.clone()),
                        save: None,
                        counter_hits: None,
                    };
                }
            }
            _ => {
                if let Some(entry) = pending.targets.iter_mut().find(|t| t.target.character == *character) {
                    entry.decided = true;
                    entry.reaction = Some(reaction.clone());
                    entry.save = save.clone();
                    entry.counter_hits = *counter_hits;
                }
            }
        }
    }

    pub(super) fn swap_places(&mut self, one: &str, other: &str) {
        let place = |state: &Self, id: &str| state.character(id).map(|c| (c.at_border.clone(), c.behind.clone()));
        let (Some(first), Some(second)) = (place(self, one), place(self, other)) else { return };
        for (id, (at_border, behind)) in [(one, second), (other, first)] {
            if let Some(character) = self.character_mut(id) {
                character.at_border = at_border;
                character.behind = behind;
            }
        }
    }
}
