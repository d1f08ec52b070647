//! Checking the characters the GM sets up: every name, number, zone, weapon, mount and rider
//! must make sense before the fight starts, so nothing later has to guess.

use std::collections::BTreeSet;

use super::{
    character::{CharacterSpec, FactionSpec},
    decide::{check_name, refuse, MAX_CHARACTERS, MAX_NUMBER, MAX_WEAPONS},
    map::ZoneMap,
    rules,
};
use crate::RuleError;

/// Check every character against the map and the factions.
pub fn characters(map: &ZoneMap, factions: &[FactionSpec], characters: &[CharacterSpec]) -> Result<(), RuleError> {
    if characters.is_empty() || characters.len() > MAX_CHARACTERS {
        return Err(refuse(
            "character_count",
            format!("a fight needs 1 to {MAX_CHARACTERS} characters"),
            rules::SERVICE,
        ));
    }
    let mut ids = BTreeSet::new();
    for character in characters {
        check_name("character", &character.id)?;
        if !ids.insert(character.id.as_str()) {
            return Err(refuse(
                "duplicate_character",
                format!("two characters are called {}", character.id),
                rules::SERVICE,
            ));
        }
        if !factions.iter().any(|f| f.name == character.faction) {
            return Err(refuse(
                "unknown_faction",
                format!("{} fights for {}, which is not a faction", character.id, character.faction),
                rules::SERVICE,
            ));
        }
        for name in [&character.controller, &character.group].into_iter().flatten() {
            check_name("controller or group", name)?;
        }
        numbers(character)?;
        gear(character)?;
        position(map, character)?;
    }
    for character in characters {
        riding(characters, character)?;
    }
    Ok(())
}

fn numbers(character: &CharacterSpec) -> Result<(), RuleError> {
    let id = &character.id;
    let maximum = character.maximum_health();
    if maximum == 0 || maximum > MAX_NUMBER || character.health > maximum {
        return Err(refuse(
            "health",
            format!("{id} needs a maximum health of 1 to {MAX_NUMBER} and health no higher"),
            rules::SERVICE,
        ));
    }
    if [character.wit, character.agi, character.str].iter().any(|value| *value > 20) {
        return Err(refuse(
            "save_value",
            format!("{id}'s WIT, AGI and STR are 0 to 20 (saves roll a d20)"),
            rules::SERVICE,
        ));
    }
    if character.speed > 100 || character.carries > 100 || character.extra_reactions > 10 {
        return Err(refuse(
            "limit",
            format!("{id}: speed and carrying are at most 100, extra reactions at most 10"),
            rules::SERVICE,
        ));
    }
    Ok(())
}

fn gear(character: &CharacterSpec) -> Result<(), RuleError> {
    let id = &character.id;
    if character.weapons.len() > MAX_WEAPONS {
        return Err(refuse("weapon_count", format!("{id} lists more than {MAX_WEAPONS} weapons"), rules::SERVICE));
    }
    let mut names = BTreeSet::new();
    for weapon in &character.weapons {
        check_name("weapon", &weapon.name)?;
        if !names.insert(weapon.name.as_str()) {
            return Err(refuse(
                "duplicate_weapon",
                format!("{id} has two weapons called {}", weapon.name),
                rules::SERVICE,
            ));
        }
        if weapon.range > MAX_NUMBER {
            return Err(refuse("limit", format!("{}'s range is at most {MAX_NUMBER}", weapon.name), rules::SERVICE));
        }
    }
    if let Some(shield) = &character.shield {
        check_name("shield", &shield.name)?;
    }
    if let Some(armour) = &character.armour {
        check_name("armour", &armour.name)?;
        if !(1..=3).contains(&armour.value) {
            return Err(refuse("armour_value", format!("{id}'s armour value is 1 to 3"), rules::COVER));
        }
    }
    let hands: u32 = character.weapons.iter().map(|w| w.hands_held()).sum::<u32>()
        + u32::from(character.shield.as_ref().is_some_and(|s| s.held));
    if hands > 2 {
        return Err(refuse(
            "hands",
            format!("{id} holds more than two hands can: mark the rest \"held\": false (carried)"),
            rules::TAKING_A_TURN,
        ));
    }
    Ok(())
}

fn position(map: &ZoneMap, character: &CharacterSpec) -> Result<(), RuleError> {
    let id = &character.id;
    let Some(zone) = map.zone(&character.zone) else {
        return Err(refuse(
            "unknown_zone",
            format!("{id} stands in {}, which is not a zone", character.zone),
            rules::SERVICE,
        ));
    };
    if let Some(border) = &character.at_border {
        if map.border(&zone.name, border).is_none() {
            return Err(refuse("not_a_border", format!("{} does not border {}", border, zone.name), rules::SERVICE));
        }
    }
    if let Some(feature) = &character.behind {
        if zone.feature(feature).is_none() {
            return Err(refuse("unknown_feature", format!("{} has no feature {feature}", zone.name), rules::COVER));
        }
    }
    Ok(())
}

fn riding(characters: &[CharacterSpec], character: &CharacterSpec) -> Result<(), RuleError> {
    let Some(mount_id) = &character.riding else { return Ok(()) };
    let id = &character.id;
    let Some(mount) = characters.iter().find(|c| c.id == *mount_id) else {
        return Err(refuse(
            "unknown_character",
            format!("{id} rides {mount_id}, who is not in the fight"),
            rules::SERVICE,
        ));
    };
    let riders = characters.iter().filter(|c| c.riding.as_deref() == Some(mount_id.as_str())).count();
    let ok = mount.riding.is_none()
        && mount.id != *id
        && mount.faction == character.faction
        && mount.zone == character.zone
        && u32::try_from(riders).unwrap_or(u32::MAX) <= mount.carries
        && !characters.iter().any(|c| c.riding.as_deref() == Some(id.as_str()));
    if ok {
        Ok(())
    } else {
        Err(refuse(
            "cannot_ride",
            format!(
                "{id} cannot ride {mount_id}: a mount of its faction in its zone, not itself riding, with room \
                 ({} carries {})",
                mount_id, mount.carries
            ),
            rules::MOUNTS,
        ))
    }
}
