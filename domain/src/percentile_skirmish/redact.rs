//! Hidden information in a percentile-skirmish battle's events (docs/API.md "Hidden
//! information"): a declaration is sealed from the other participants until every participant
//! has declared for the round (seed 002 "TURN", unless the battle's `declarations` option is
//! `open`), and an open-combat pick from the other side until both sides have picked (seed 002
//! "Open combat"). Judges see everything; the service's own reveal (`RoundDeclared`,
//! `OpenCombatResolved`) makes both public.

use serde_json::Value;

use crate::{
    percentile_skirmish::{
        battle::state::{Phase, SkirmishState},
        rules::Declarations,
    },
    viewer::{hide, Viewer},
};

/// Whether `viewer` acts for `participant` (or is a judge).
fn sees(current: &SkirmishState, viewer: &Viewer, participant: &str) -> bool {
    viewer.is_judge() || current.participant(participant).is_some_and(|p| viewer.is_player(&p.controller))
}

/// Remove from an event's payload what `viewer` may not see yet, given the battle's current
/// state.
pub fn redact_event(data: &mut Value, current: &SkirmishState, viewer: &Viewer) {
    if viewer.is_judge() {
        return;
    }
    match data.get("type").and_then(Value::as_str) {
        Some("percentile-skirmish.Declared") => {
            let turn = data.get("turn").and_then(Value::as_u64);
            let round = data.get("round").and_then(Value::as_i64);
            let participant = data.get("participant").and_then(Value::as_str).unwrap_or_default();
            let unrevealed = current.options.declarations == Declarations::Sealed
                && current.phase == Phase::Declaring
                && turn == Some(u64::from(current.turn))
                && current.round.as_ref().map(|r| i64::from(r.value)) == round;
            if unrevealed && !sees(current, viewer, participant) {
                hide(data, &["minis"]);
            }
        }
        Some("percentile-skirmish.CombatOptionChosen") => {
            let combat = data.get("combat").and_then(Value::as_u64);
            let pending = current.combat.as_ref().is_some_and(|c| Some(u64::from(c.combat)) == combat);
            let mini = data.get("mini").and_then(Value::as_str).unwrap_or_default();
            let side = current.mini(mini).map(|m| current.acting_participant(m).to_string()).unwrap_or_default();
            if pending && !sees(current, viewer, &side) {
                hide(data, &["choice"]);
                hide(data, &["weapon"]);
            }
        }
        _ => {}
    }
}
