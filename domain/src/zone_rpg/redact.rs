//! Hidden information (seed 001 "Sneaking in combat": "The GM should keep the position of
//! concealed characters hidden from the Players"): where a concealed character is stays with
//! the GM and the players of its own faction, in the view, the picture and every event, until
//! it is revealed.

use serde_json::Value;

use super::state::{character::CharacterState, ZoneRpgState};
use crate::viewer::{hide, Viewer, HIDDEN};

/// The factions `viewer` plays: those whose controller it is or one of whose characters it
/// controls.
pub fn viewer_factions<'s>(state: &'s ZoneRpgState, viewer: &Viewer) -> Vec<&'s str> {
    state
        .factions
        .iter()
        .map(|faction| faction.name.as_str())
        .filter(|faction| state.players_of(faction).iter().any(|player| viewer.is_player(player)))
        .collect()
}

/// Whether `viewer` may know where `character` is.
pub fn sees_position(state: &ZoneRpgState, character: &CharacterState, viewer: &Viewer) -> bool {
    !character.concealed || viewer.is_judge() || viewer_factions(state, viewer).contains(&character.faction())
}

fn hidden_from(current: &ZoneRpgState, id: &str, viewer: &Viewer) -> bool {
    current.character(id).is_some_and(|character| !sees_position(current, character, viewer))
}

/// Hide from an event payload the positions of characters still concealed from `viewer`.
pub fn redact_event(event: &mut Value, current: &ZoneRpgState, viewer: &Viewer) {
    if viewer.is_judge() {
        return;
    }
    let kind = event.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
    if kind == "zone-rpg.BattleCreated" {
        if let Some(characters) = event.get_mut("characters").and_then(Value::as_array_mut) {
            for character in characters {
                let id = character.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
                if hidden_from(current, &id, viewer) {
                    for field in ["zone", "at_border", "behind", "riding"] {
                        hide(character, &[field]);
                    }
                }
            }
        }
        return;
    }
    let made_concealed = event.get("concealed").and_then(Value::as_bool).unwrap_or(false);
    let id = event.get("character").and_then(Value::as_str).unwrap_or_default().to_string();
    if made_concealed && hidden_from(current, &id, viewer) {
        for field in ["zone", "at_border", "behind"] {
            hide(event, &[field]);
        }
        // A path stays a list of zone names, so typed clients still read it.
        if let Some(path) = event.get_mut("path") {
            *path = Value::Array(vec![Value::String(HIDDEN.into())]);
        }
    }
}
