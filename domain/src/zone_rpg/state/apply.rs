//! Folding events into the state. Nothing here rolls or decides: every outcome is in the event.
//! The set-up and the dice tape are folded here; the procedure, combat and gear each fold their
//! own events (`fold_turns`, `fold_combat`, `fold_gear`).

use super::{character::CharacterState, Phase, ZoneRpgState};
use crate::{
    dice::SealedDice,
    zone_rpg::{character::InitiativeSpec, event::ZoneRpgEvent, map::ZoneMap},
};

/// The tape position an event records after its draws, if it can draw.
fn next_word(event: &ZoneRpgEvent) -> Option<u64> {
    use ZoneRpgEvent as E;
    match event {
        E::JudgeRolled(rolled) => Some(rolled.next_word),
        E::InitiativeAssigned { next_word, .. }
        | E::AttackDeclared { next_word, .. }
        | E::Reacted { next_word, .. }
        | E::AttackResolved { next_word, .. }
        | E::CharacterHit { next_word, .. }
        | E::NonLethalResolved { next_word, .. }
        | E::BreakFreeAttempted { next_word, .. }
        | E::Mounted { next_word, .. }
        | E::Dismounted { next_word, .. }
        | E::MoraleChecked { next_word, .. }
        | E::ChaseResolved { next_word, .. }
        | E::DurabilityRolled { next_word, .. } => Some(*next_word),
        _ => None,
    }
}

impl ZoneRpgState {
    /// Apply one event.
    pub fn apply(&mut self, event: &ZoneRpgEvent) {
        use ZoneRpgEvent as E;
        if let Some(word) = next_word(event) {
            self.dice.advance(word);
        }
        match event {
            E::BattleCreated { zones, borders, factions, characters, initiative, options, seed_commitment } => {
                self.map = ZoneMap { zones: zones.clone(), borders: borders.clone() };
                self.factions = factions.clone();
                self.characters = characters.iter().map(CharacterState::new).collect();
                self.options = *options;
                self.dice = SealedDice::committed(seed_commitment);
                self.initiative = match initiative {
                    InitiativeSpec::Faction { faction } => Some(faction.clone()),
                    InitiativeSpec::Random => None,
                };
                self.phase = Phase::Ready;
            }
            E::EntropyContributed(contributed) => self.dice.contributed(contributed),
            E::SeedRevealed(revealed) => self.dice.revealed(revealed),
            E::InitiativeAssigned { faction, .. } => self.initiative = Some(faction.clone()),
            _ => {}
        }
        self.fold_turns(event);
        self.fold_combat(event);
        self.fold_gear(event);
    }
}
