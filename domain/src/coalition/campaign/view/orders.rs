//! Orders a reader may see: orders sent privately to the judge are hidden from the other team
//! until the turn is locked (seed 003 §3.1), in the orders view and in the event log alike; and
//! the choices of a secret vote, which are the voter's and the judges' alone (§1.4).

use serde_json::Value;

use crate::{
    coalition::{
        army::Team,
        campaign::{CampaignState, TurnPhase},
        orders::PostedOrder,
    },
    viewer::{hide, Viewer},
};

/// The team a reader plays for: from the player list, else from the armies they control.
pub fn viewer_team(state: &CampaignState, viewer: &Viewer) -> Option<Team> {
    let player = viewer.player.as_deref()?;
    state
        .players
        .iter()
        .find(|p| p.name == player)
        .map(|p| p.team)
        .or_else(|| state.armies.values().find(|a| a.controllers.contains(player)).map(|a| a.army.team))
}

/// The current turn's orders `viewer` may see: private ones only by the army's team until the
/// lock, everything by judges (seed 003 §3.1).
pub fn visible_orders(state: &CampaignState, viewer: &Viewer) -> Vec<PostedOrder> {
    let locked = !matches!(state.phase, TurnPhase::Open { .. });
    let team = viewer_team(state, viewer);
    state
        .orders
        .iter()
        .filter(|order| {
            viewer.is_judge()
                || locked
                || !order.private
                || team.is_some() && state.armies.get(&order.army).map(|a| a.army.team) == team
        })
        .cloned()
        .collect()
}

/// Remove from a campaign event what `viewer` may not see: orders sent privately to the judge
/// are hidden from the other team until the turn is locked (seed 003 §3.1); in a secret vote, a
/// ballot's choice is the voter's and the judges' alone (§1.4).
pub fn redact_campaign_event(data: &mut Value, campaign: &CampaignState, viewer: &Viewer) {
    // Entropy is sealed from everyone but its contributor, judges included, until the turn's
    // lock: whoever saw every contribution before the lock could pick a last one to steer the
    // turn's dice (docs/DICE.md "Keys").
    if data.get("type").and_then(Value::as_str) == Some("coalition.TurnEntropyContributed") {
        let turn = data.get("turn").and_then(Value::as_u64);
        let open = matches!(campaign.phase, TurnPhase::Open { .. }) && turn == Some(u64::from(campaign.turn));
        let mine = data.get("by").and_then(Value::as_str).is_some_and(|by| viewer.is_player(by));
        if open && !mine {
            hide(data, &["entropy"]);
        }
        return;
    }
    if viewer.is_judge() {
        return;
    }
    if data.get("type").and_then(Value::as_str) == Some("coalition.VoteCast") {
        let secret = data
            .get("vote")
            .and_then(Value::as_str)
            .and_then(|vote| campaign.votes.get(vote))
            .is_none_or(|vote| vote.called.secret);
        let voter = data.get("player").and_then(Value::as_str).is_some_and(|player| viewer.is_player(player));
        if secret && !voter {
            hide(data, &["option"]);
        }
        return;
    }
    if data.get("type").and_then(Value::as_str) != Some("coalition.OrdersPosted") {
        return;
    }
    let turn = data.get("turn").and_then(Value::as_u64);
    let still_open = matches!(campaign.phase, TurnPhase::Open { .. }) && turn == Some(u64::from(campaign.turn));
    if !still_open {
        return;
    }
    let team = viewer_team(campaign, viewer);
    if let Some(orders) = data.get_mut("orders").and_then(Value::as_array_mut) {
        for order in orders.iter_mut() {
            let private = order.get("private").and_then(Value::as_bool).unwrap_or(false);
            let army_team = order
                .get("army")
                .and_then(Value::as_str)
                .and_then(|army| campaign.armies.get(army))
                .map(|army| army.army.team);
            if private && (team.is_none() || army_team != team) {
                hide(order, &["order"]);
            }
        }
    }
}
