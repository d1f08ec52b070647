//! Who is acting: the principal a command runs for and the role its token grants.

use serde::{Deserialize, Serialize};

/// The authority a bearer token carries (DESIGN.md "The API").
///
/// The rules' own authority (which player controls which side) is checked by the deciders; the
/// role only says what kind of participant the actor is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Sets up campaigns and battles, issues tokens, audits everything.
    Admin,
    /// A judge (battle, movement, mercenary or assistant): decides what the rules leave to a judge.
    Judge,
    /// A player, bound to a player name; acts for the sides and armies that player controls.
    Player,
    /// Reads what is public.
    Observer,
    /// The service itself, acting on a rule (for example revealing a seed when a battle ends).
    System,
}

/// The acting principal of a command: recorded in every event it produces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Actor {
    /// Stable identifier of the principal (a token's subject, for example `judge:alice`).
    pub id: String,
    /// What the principal may do.
    pub role: Role,
    /// For players: the player name the token is bound to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

impl Actor {
    /// An actor with the given id and role, bound to no player.
    pub fn new(id: impl Into<String>, role: Role) -> Self {
        Self { id: id.into(), role, player: None }
    }

    /// A player actor bound to `player`.
    pub fn player(id: impl Into<String>, player: impl Into<String>) -> Self {
        Self { id: id.into(), role: Role::Player, player: Some(player.into()) }
    }

    /// The service acting on a rule of its own.
    pub fn system() -> Self {
        Self::new("system", Role::System)
    }

    /// Whether this actor may make a judge's decisions (admins may stand in for a judge).
    pub fn is_judge(&self) -> bool {
        matches!(self.role, Role::Judge | Role::Admin)
    }

    /// Whether this actor is the player `name`.
    pub fn is_player(&self, name: &str) -> bool {
        self.role == Role::Player && self.player.as_deref() == Some(name)
    }
}
