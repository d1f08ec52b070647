//! Who is reading: the role and player a view or an event is shaped for.
//!
//! Hidden information is a rules concern (seed 003 §4.2.2 keeps the size formula secret; sealed
//! strategies, concealed characters and unrevealed seeds likewise): each ruleset's view and event
//! redaction take a [`Viewer`] and show it what the rules let it see, nothing more.

use crate::{Actor, Role};

/// Who is reading: an actor, or an anonymous observer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    /// The reader's role.
    pub role: Role,
    /// For players: the player name.
    pub player: Option<String>,
}

impl Viewer {
    /// An anonymous reader: sees what is public.
    pub fn public() -> Self {
        Self { role: Role::Observer, player: None }
    }

    /// A judge's (or admin's, or the service's) view: sees everything.
    pub fn is_judge(&self) -> bool {
        matches!(self.role, Role::Judge | Role::Admin | Role::System)
    }

    /// Whether this reader is the player `name`.
    pub fn is_player(&self, name: &str) -> bool {
        self.role == Role::Player && self.player.as_deref() == Some(name)
    }
}

impl From<&Actor> for Viewer {
    fn from(actor: &Actor) -> Self {
        Self { role: actor.role.clone(), player: actor.player.clone() }
    }
}

/// Marker put in place of a hidden value.
pub const HIDDEN: &str = "hidden";

/// Replace the value at `path` (if present) with [`HIDDEN`].
pub fn hide(data: &mut serde_json::Value, path: &[&str]) {
    let mut cursor = data;
    for (i, key) in path.iter().enumerate() {
        let Some(next) = cursor.get_mut(*key) else { return };
        if i + 1 == path.len() {
            *next = serde_json::Value::String(HIDDEN.into());
            return;
        }
        cursor = next;
    }
}
