//! The countdown (seed 004 "The Countdown"): who acts next.
//!
//! "The order of action is: the most AD (actual dice, not scores), players, NPCs." Herald reads
//! the countdown as it runs: at any moment the next action goes to the figure holding the most
//! dice, a player's figure before an NPC with as many (any of the tied players, then any of the
//! GM's); a figure holding its action steps out of the order and may act at any moment nothing
//! is awaited. In a refresh the same order gives everyone else their last option.

use super::battle::state::{Figure, Phase, SwiftSwordsState};

/// Whether a figure can still take an action this round.
fn in_the_running(state: &SwiftSwordsState, figure: &Figure) -> bool {
    figure.active()
        && !figure.done
        && match state.phase {
            Phase::Countdown => figure.usable() > 0,
            Phase::Refresh => !figure.hand.is_empty(),
            _ => false,
        }
}

/// The figures the countdown gives the next action to.
pub fn next_to_act(state: &SwiftSwordsState) -> Vec<String> {
    let running: Vec<&Figure> =
        state.figures.values().filter(|figure| !figure.holding && in_the_running(state, figure)).collect();
    let Some(most) = running.iter().map(|figure| figure.hand.len()).max() else { return Vec::new() };
    let top: Vec<&&Figure> = running.iter().filter(|figure| figure.hand.len() == most).collect();
    let players: Vec<String> =
        top.iter().filter(|figure| figure.spec.controller.is_some()).map(|figure| figure.spec.id.clone()).collect();
    if players.is_empty() {
        top.iter().map(|figure| figure.spec.id.clone()).collect()
    } else {
        players
    }
}

/// Whether `id` may take an action now: it is next in the countdown, or holding its action.
pub fn may_act(state: &SwiftSwordsState, id: &str) -> bool {
    let Some(figure) = state.figure(id) else { return false };
    in_the_running(state, figure) && (figure.holding || next_to_act(state).iter().any(|next| next == id))
}

/// Whether anyone can still act in the countdown (holding figures included).
pub fn anyone_can_act(state: &SwiftSwordsState) -> bool {
    state.figures.values().any(|figure| in_the_running(state, figure))
}

/// Whether everyone has had their last option of a refresh.
pub fn everyone_done(state: &SwiftSwordsState) -> bool {
    state.figures.values().all(|figure| !figure.active() || figure.done || figure.hand.is_empty())
}
