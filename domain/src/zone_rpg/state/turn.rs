//! The turn in progress: who takes it, how far each has moved, which actions they have spent
//! (seed 001 "Taking a turn": "move their full speed … or move half their speed … and perform a
//! bonus action and a main action (or a second bonus action)").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One character taking the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgTurnMember)]
pub struct TurnMember {
    /// The character.
    pub character: String,
    /// Whether it takes part with its own turn (a rider whose turn was already spent is
    /// only carried).
    pub active: bool,
    /// Half-zones moved so far.
    pub moved: u32,
    /// Sprinting this turn: speed doubled.
    pub sprint: bool,
    /// Main actions spent (at most one).
    pub main: u32,
    /// Bonus actions spent (at most two without a main action, one with).
    pub bonus: u32,
    /// It has done something (moved or acted): its turn is spent at the end.
    pub acted: bool,
    /// Its turn is over (it surrendered, retreated, tried to break free, or its mount moved at
    /// full speed).
    pub done: bool,
}

impl TurnMember {
    /// A member at the start of the turn.
    pub fn new(character: &str, active: bool) -> Self {
        Self {
            character: character.to_string(),
            active,
            moved: 0,
            sprint: false,
            main: 0,
            bonus: 0,
            acted: false,
            done: !active,
        }
    }

    /// Whether it has spent a main or bonus action.
    pub fn has_acted_with_actions(&self) -> bool {
        self.main + self.bonus > 0
    }
}

/// The turn in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgTurn)]
pub struct TurnState {
    /// The faction taking it.
    pub faction: String,
    /// The characters taking it together: a mount or vehicle first, then its riders.
    pub members: Vec<TurnMember>,
}

impl TurnState {
    /// The member `character`.
    pub fn member(&self, character: &str) -> Option<&TurnMember> {
        self.members.iter().find(|member| member.character == character)
    }

    /// The member `character`, mutably.
    pub fn member_mut(&mut self, character: &str) -> Option<&mut TurnMember> {
        self.members.iter_mut().find(|member| member.character == character)
    }
}

/// Half-zones of movement a character has at full speed: twice its speed, doubled again when
/// sprinting.
pub fn full_speed(speed: u32, sprint: bool) -> u32 {
    let half_zones = speed.saturating_mul(2);
    if sprint {
        half_zones.saturating_mul(2)
    } else {
        half_zones
    }
}
