//! Hidden information in a coalition battle: what each reader may see of its events and state.
//!
//! Rules (docs/API.md "Hidden information"):
//! - a strategy's text is visible to judges and to its own side's controller, and to everyone
//!   once the battle has ended (seed 003 §4.1.1: strategies are e-mailed to the judge);
//! - the size bonus, the size formula and the modified dice totals (from which the size bonus
//!   could be read back) are visible to judges only (seed 003 §4.2.2: "that formula is secret");
//! - strategy bonuses (and the judge's notes on them) are visible to judges only until the
//!   battle has ended;
//! - the kill, capture and joint formulas, and the modifiers and totals of a kill or capture's
//!   pair of rolls, are visible to judges only (seed 003 §4.3.3: "another secret formula");
//! - all of the above that is hidden only because of the formulas (the formulas, their salt, the
//!   size bonuses, the modified totals, the pair of rolls' modifiers) is visible to everyone once
//!   the battle has ended under `formula_opening: open_at_end`; the formulas' commitment is
//!   always public (docs/DICE.md "Commitments to hidden formulas");
//! - a strategy's kill or capture declaration and its named departure are sealed with its text;
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
        self.army(side).map_or(viewer.is_judge() || self.ended(), |army| self.army_strategy_visible_to(viewer, army))
    }

    /// Whether `viewer` may read the strategy of `army` now: judges, its controller and its
    /// contingency (seed 003 §4.1.1, §5.2.3), everyone once the battle has ended.
    pub fn army_strategy_visible_to(&self, viewer: &Viewer, army: &crate::coalition::army::ArmySpec) -> bool {
        viewer.is_judge()
            || self.ended()
            || viewer.is_player(&army.controller)
            || army.contingency.as_deref().is_some_and(|player| viewer.is_player(player))
    }
}

/// Put [`HIDDEN`](crate::viewer::HIDDEN) at `key` of the object at `pointer`, present or not: a
/// formula left out while it is the default must not show that it is.
fn conceal(data: &mut Value, pointer: &str, key: &str) {
    if let Some(object) = data.pointer_mut(pointer).and_then(Value::as_object_mut) {
        object.insert(key.to_string(), Value::String(crate::viewer::HIDDEN.into()));
    }
}

/// Hide the size bonuses and modified totals of a resolution, and the reason quoting them.
fn hide_resolution_numbers(data: &mut Value) {
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
        let pairs = |side: &str| data.pointer(&format!("/pairs_won/{side}")).and_then(Value::as_u64).unwrap_or(0);
        let reason = tied_reason(pairs("a"), pairs("b"), &rule);
        data["decided_by"] = Value::String(reason.clone());
        data["tie_break"]["decided_by"] = Value::String(reason);
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
            let army = match data.get("army").and_then(Value::as_str) {
                Some(name) => battle.army_named(name),
                None => battle.army(side),
            };
            let visible = army.map_or(battle.ended(), |army| battle.army_strategy_visible_to(viewer, army));
            if !visible {
                hide(data, &["strategy"]);
                // Present or not: that no attempt was declared is sealed too.
                conceal(data, "", "attempt");
                conceal(data, "", "departure");
            }
        }
        // Strategy bonuses are the judge's until the battle is resolved (docs/API.md "Hidden
        // information"), as in the battle view.
        Some("coalition.StrategyBonusAssigned") if !battle.ended() => {
            hide(data, &["bonus"]);
            hide(data, &["note"]);
        }
        // Once open, what hid only the formulas is everyone's (seed 003 §4.2.2 as opened by the
        // battle's own public choice); strategies keep their own rule above.
        Some(
            "coalition.BattleCreated"
            | "coalition.FormulasSet"
            | "coalition.BattleResolved"
            | "coalition.JointBattleResolved"
            | "coalition.KillAttempted"
            | "coalition.CaptureAttempted",
        ) if battle.formulas_open() => {}
        Some("coalition.BattleCreated") => {
            hide(data, &["options", "size_formula"]);
            conceal(data, "/options", "kill_formula");
            conceal(data, "/options", "joint_formula");
            hide(data, &["formula_salt"]);
        }
        Some("coalition.FormulasSet") => {
            hide(data, &["options"]);
            hide(data, &["formula_salt"]);
        }
        Some("coalition.BattleResolved" | "coalition.JointBattleResolved") => hide_resolution_numbers(data),
        Some("coalition.KillAttempted" | "coalition.CaptureAttempted") => {
            for roll in ["attacker_roll", "target_roll"] {
                hide(data, &[roll, "modifier"]);
                hide(data, &[roll, "total"]);
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
