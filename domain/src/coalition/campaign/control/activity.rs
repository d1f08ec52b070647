//! Active and inactive players (seed 003 §5.1): "A player who controls at least one army and has
//! posted within the last week and who has not stated that they will be inactive is considered an
//! active player. A team's leaders may declare a player inactive within a shorter period of time
//! ... but the battle judge may reject this declaration."
//!
//! Readings: "posted" is any post Herald sees from the player — orders (their own, or a PM the
//! judge re-posts for them), votes, control requests — and the round's set-up (or the player's
//! joining) counts as their first post; a week is 7 × 24 hours before the moment the question is
//! asked; a later post ends a declaration of inactivity, the player's own or the leaders'.

use chrono::{DateTime, Duration, Utc};

use crate::coalition::{army::Team, campaign::CampaignState, rank::Rank, setup::Player};

/// How long a post keeps a player active (seed 003 §5.1: "within the last week").
pub fn active_window() -> Duration {
    Duration::days(7)
}

/// The roster entry of `name`.
pub fn player<'a>(state: &'a CampaignState, name: &str) -> Option<&'a Player> {
    state.players.iter().find(|player| player.name == name)
}

/// The team `name` plays for: the roster's, else that of the armies they control.
pub fn team_of(state: &CampaignState, name: &str) -> Option<Team> {
    player(state, name)
        .map(|player| player.team)
        .or_else(|| state.armies.values().find(|army| army.controllers.contains(name)).map(|army| army.army.team))
}

/// The armies `name` controls now, by name.
pub fn armies_of<'a>(state: &'a CampaignState, name: &str) -> Vec<&'a str> {
    state.armies.iter().filter(|(_, army)| army.controllers.contains(name)).map(|(army, _)| army.as_str()).collect()
}

/// Whether `name` is an active player at `now` (seed 003 §5.1).
pub fn is_active(state: &CampaignState, name: &str, now: DateTime<Utc>) -> bool {
    !armies_of(state, name).is_empty()
        && state.control.last_posted.get(name).is_some_and(|posted| now - *posted <= active_window())
        && !state.control.inactive.contains_key(name)
}

/// Whether `name` is one of `team`'s three leaders (seed 003 §1.1: General/Admirals, Chief
/// Praetor/Praetors).
pub fn is_leader_of(state: &CampaignState, name: &str, team: Team) -> bool {
    player(state, name).is_some_and(|player| player.team == team && player.rank.is_leader())
}

/// Whether `name` is the team's General or Chief Praetor (seed 003 §5.2.2.1).
pub fn is_head_of(state: &CampaignState, name: &str, team: Team) -> bool {
    player(state, name)
        .is_some_and(|player| player.team == team && matches!(player.rank, Rank::General | Rank::ChiefPraetor))
}

/// The two players who hold a side's authority at the start of a round: "usually the CP/General
/// and one Praetor/Admiral" (seed 003 §5.2.2.1) — the head and the first of the other two leaders
/// on the roster.
pub fn default_holders(players: &[Player], team: Team) -> Vec<String> {
    let head = players.iter().filter(|p| p.team == team && matches!(p.rank, Rank::General | Rank::ChiefPraetor));
    let second = players.iter().filter(|p| p.team == team && matches!(p.rank, Rank::Admiral | Rank::Praetor));
    head.take(1).chain(second.take(1)).map(|player| player.name.clone()).collect()
}
