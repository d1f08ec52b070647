//! Morale checks at the end of the round (seed 001 "Morale"): groups reduced to half or less
//! their original numbers in the past round, and characters fighting alone reduced to half or
//! less their maximum health in the past round, make a group WIT save.

use super::Decision;
use crate::{
    zone_rpg::{
        event::ZoneRpgEvent,
        options::MoraleFor,
        outcome::{Ability, MoraleReason},
        state::character::{CharacterState, Morale},
    },
    RuleError,
};

/// Whether `character` is subject to morale now: fighting, not immune to fear, not already
/// tested this stretch, and of the kind the fight's reading checks.
fn subject(d: &Decision, character: &CharacterState) -> bool {
    character.fighting()
        && !character.spec.fearless
        && character.morale == Morale::Untested
        && match d.state.options.morale_for {
            MoraleFor::AllCharacters => true,
            MoraleFor::GmCharacters => d.state.controller_of(character).is_none(),
        }
}

/// Reduced to half or less its maximum health in the past round.
fn fell_to_half_health(character: &CharacterState) -> bool {
    character.health_at_round_start * 2 > character.max_health && character.health * 2 <= character.max_health
}

/// Make every morale check due at the end of the round.
pub fn check(d: &mut Decision) -> Result<(), RuleError> {
    let mut checks: Vec<(String, Option<String>, MoraleReason, Vec<String>)> = Vec::new();
    for faction in d.state.factions.iter().map(|f| f.name.clone()) {
        let mut groups: Vec<String> = Vec::new();
        for character in d.state.characters.iter().filter(|c| c.faction() == faction) {
            match &character.spec.group {
                Some(group) if !groups.contains(group) => groups.push(group.clone()),
                Some(_) => {}
                None => {
                    if fell_to_half_health(character) && subject(d, character) {
                        let alone = vec![character.id().to_string()];
                        checks.push((faction.clone(), None, MoraleReason::AloneAtHalfHealth, alone));
                    }
                }
            }
        }
        for group in groups {
            let members: Vec<&CharacterState> = d
                .state
                .characters
                .iter()
                .filter(|c| c.faction() == faction && c.spec.group.as_deref() == Some(group.as_str()))
                .collect();
            let original = members.len();
            let before = members.iter().filter(|c| c.fighting_at_round_start).count();
            let now: Vec<&&CharacterState> = members.iter().filter(|c| c.fighting()).collect();
            let subjects: Vec<String> = now.iter().filter(|c| subject(d, c)).map(|c| c.id().to_string()).collect();
            if before * 2 > original && now.len() * 2 <= original {
                if !subjects.is_empty() {
                    checks.push((faction.clone(), Some(group.clone()), MoraleReason::GroupHalved, subjects));
                }
            } else if now.len() == 1 && now.iter().all(|c| fell_to_half_health(c)) && !subjects.is_empty() {
                // The last of a group fights alone.
                checks.push((faction.clone(), Some(group.clone()), MoraleReason::AloneAtHalfHealth, subjects));
            }
        }
    }
    for (faction, group, reason, members) in checks {
        let mut saves = Vec::new();
        for member in &members {
            saves.push(d.save(member, Ability::Wit, "for morale")?);
        }
        let broken = saves.iter().filter(|s| !s.passed).map(|s| s.character.clone()).collect();
        let steady = saves.iter().filter(|s| s.passed).map(|s| s.character.clone()).collect();
        let next_word = d.next_word();
        d.emit(ZoneRpgEvent::MoraleChecked { faction, group, reason, saves, broken, steady, next_word });
    }
    Ok(())
}
