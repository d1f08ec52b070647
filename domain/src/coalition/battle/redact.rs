//! Hidden information in a coalition battle: what each reader may see of its events and state.
//!
//! Rules (docs/API.md "Hidden information"):
//! - a strategy's text is visible to judges and to its own side's controller, and to everyone
//!   once the battle has ended (seed 003 §4.1.1: strategies are e-mailed to the judge);
//! - the size bonus, the size formula and the modified dice totals (from which the size bonus
//!   could be read back) are visible to judges only (seed 003 §4.2.2: "that formula is secret");
//! - strategy bonuses (and the judge's notes on them) are visible to judges only until the
//!   battle has ended;
//! - the seed itself never appears in an event until it is revealed.

use serde_json::Value;

use super::{BattleState, SideId};
use crate::viewer::{hide, Viewer};

impl BattleState {
    /// Whether `viewer` is the player controlling `side`.
    pub fn controlled_by(&self, viewer: &Viewer, side: SideId) -> bool {
        self.army(side).is_some_and(|army| viewer.is_player(&army.controller))
    }

    /// Whether `viewer` may read `side`'s strategy text now (seed 003 §4.1.1).
    pub fn strategy_visible_to(&self, viewer: &Viewer, side: SideId) -> bool {
        viewer.is_judge() || self.ended() || self.controlled_by(viewer, side)
    }
}

/// Remove from a coalition battle event's payload what `viewer` may not see, given the battle's
/// current state.
pub fn redact_battle_event(data: &mut Value, battle: &BattleState, viewer: &Viewer) {
    if viewer.is_judge() {
        return;
    }
    match data.get("type").and_then(Value::as_str) {
        Some("coalition.StrategySubmitted") => {
            let side = match data.get("side").and_then(Value::as_str) {
                Some("a") => SideId::A,
                _ => SideId::B,
            };
            if !battle.strategy_visible_to(viewer, side) {
                hide(data, &["strategy"]);
            }
        }
        // Strategy bonuses are the judge's until the battle is resolved (docs/API.md "Hidden
        // information"), as in the battle view.
        Some("coalition.StrategyBonusAssigned") if !battle.ended() => {
            hide(data, &["bonus"]);
            hide(data, &["note"]);
        }
        Some("coalition.BattleCreated") => hide(data, &["options", "size_formula"]),
        Some("coalition.BattleResolved") => {
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
