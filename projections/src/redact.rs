//! Hidden information: what each reader may see of a battle's events.
//!
//! Rules (docs/API.md "Hidden information"):
//! - a strategy's text is visible to judges and to its own side's controller, and to everyone
//!   once the battle has ended (seed 003 §4.1.1: strategies are e-mailed to the judge);
//! - the size bonus, the size formula and the modified dice totals (from which the size bonus
//!   could be read back) are visible to judges only (seed 003 §4.2.2: "that formula is secret");
//! - strategy bonuses (and the judge's notes on them) are visible to judges only until the
//!   battle has ended;
//! - the seed itself never appears in an event until it is revealed.
//!
//! Warmachine battles (seed 000) hide nothing: the game is played in the open, so every model's
//! stat card, position and damage and every die rolled are public to all readers, and the seed
//! appears only in `warmachine.SeedRevealed`. Their events pass through unredacted (decided by
//! the envelope's `rules`, see [`crate::EventView::new`]).

use herald_domain::{
    coalition::battle::{BattleState, SideId},
    Actor, Role,
};
use serde_json::Value;

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

    /// Whether this reader controls `side` of `battle`.
    pub fn controls(&self, battle: &BattleState, side: SideId) -> bool {
        self.role == Role::Player
            && battle.army(side).map(|army| Some(army.controller.as_str()) == self.player.as_deref()).unwrap_or(false)
    }

    /// Whether this reader may read `side`'s strategy text now.
    pub fn may_read_strategy(&self, battle: &BattleState, side: SideId) -> bool {
        self.is_judge() || battle.ended() || self.controls(battle, side)
    }
}

impl From<&Actor> for Viewer {
    fn from(actor: &Actor) -> Self {
        Self { role: actor.role.clone(), player: actor.player.clone() }
    }
}

/// Marker put in place of a hidden value.
pub const HIDDEN: &str = "hidden";

/// Remove from a coalition battle event's payload what `viewer` may not see, given the battle's
/// current state.
pub fn redact_battle_event(data: &mut Value, battle: &BattleState, viewer: &Viewer) {
    if viewer.is_judge() {
        return;
    }
    match data.get("type").and_then(Value::as_str) {
        Some("strategy_submitted") => {
            let side = match data.get("side").and_then(Value::as_str) {
                Some("a") => SideId::A,
                _ => SideId::B,
            };
            if !viewer.may_read_strategy(battle, side) {
                data["strategy"] = Value::String(HIDDEN.into());
            }
        }
        // Strategy bonuses are the judge's until the battle is resolved (docs/API.md "Hidden
        // information"), as in the battle view.
        Some("strategy_bonus_assigned") if !battle.ended() => {
            hide(data, &["bonus"]);
            hide(data, &["note"]);
        }
        Some("battle_created") => hide(data, &["options", "size_formula"]),
        Some("battle_resolved") => {
            for side in ["a", "b"] {
                hide(data, &["bonuses", side, "size"]);
                if let Some(dice) = data.pointer_mut(&format!("/dice/{side}")).and_then(Value::as_array_mut) {
                    dice.iter_mut().for_each(|die| hide(die, &["total"]));
                }
            }
            if let Some(rounds) = data.pointer_mut("/tie_break/roll_off").and_then(Value::as_array_mut) {
                for round in rounds {
                    hide(round, &["a", "total"]);
                    hide(round, &["b", "total"]);
                }
            }
            let tie_rule = data.pointer("/tie_break/rule").and_then(Value::as_str).map(str::to_string);
            if let Some(rule) = tie_rule {
                let pairs =
                    |side: &str| data.pointer(&format!("/pairs_won/{side}")).and_then(Value::as_u64).unwrap_or(0);
                let reason = tied_reason(pairs("a"), pairs("b"), &rule);
                data["decided_by"] = Value::String(reason.clone());
                data["tie_break"]["decided_by"] = Value::String(reason);
            }
        }
        _ => {}
    }
}

/// Remove from a campaign event what `viewer` may not see: orders sent privately to the judge
/// are hidden from the other team until the turn is locked (seed 003 §3.1).
pub fn redact_campaign_event(
    data: &mut Value,
    campaign: &herald_domain::coalition::campaign::CampaignState,
    viewer: &Viewer,
) {
    use herald_domain::coalition::campaign::TurnPhase;
    if viewer.is_judge() || data.get("type").and_then(Value::as_str) != Some("orders_posted") {
        return;
    }
    let turn = data.get("turn").and_then(Value::as_u64);
    let still_open = matches!(campaign.phase, TurnPhase::Open { .. }) && turn == Some(u64::from(campaign.turn));
    if !still_open {
        return;
    }
    let team = crate::campaign_view::viewer_team(campaign, viewer);
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

/// Replace the value at `path` (if present) with [`HIDDEN`].
fn hide(data: &mut Value, path: &[&str]) {
    let mut cursor = data;
    for (i, key) in path.iter().enumerate() {
        let Some(next) = cursor.get_mut(*key) else { return };
        if i + 1 == path.len() {
            *next = Value::String(HIDDEN.into());
            return;
        }
        cursor = next;
    }
}

/// The public reason of a battle decided by a tie rule: the judge's own reason quotes the
/// modified totals, which would reveal the size bonus (seed 003 §4.2.2).
pub fn tied_reason(pairs_a: u64, pairs_b: u64, rule: &str) -> String {
    let how = match rule {
        "higher_total" => "the higher total of the four modified dice",
        "defender" => "the defender wins (seed 003 §4.1.2.3)",
        _ => "a roll-off",
    };
    format!("pairs tied {pairs_a} to {pairs_b}; decided by {how}")
}
