//! The catalog folds every stream with the ruleset its events' `rules` name: a warmachine battle
//! and a coalition battle side by side, each in its own ruleset's state; a rebuilt catalog equals
//! the live one; events are redacted by their own ruleset; payloads of schema 1 are upcast.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

#[path = "warmachine_support.rs"]
mod support;

use herald_domain::{
    coalition::battle::BattleState,
    registry,
    warmachine::battle::{Warmachine, WarmachineEvent, WarmachineState},
    Decider, StreamKind,
};
use herald_projections::{Catalog, EventView, Viewer};
use herald_store::SledStore;
use serde_json::json;
use support::*;

fn store() -> (SledStore, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    (SledStore::open(dir.path()).unwrap(), dir)
}

/// A coalition event whose payload (schema 1) would decode as a warmachine event too: only the
/// envelope's `rules` tells them apart.
fn coalition_entropy() -> herald_store::NewEvent {
    new_event(
        "coalition.EntropyContributed",
        "coalition-battle@1",
        json!({"type": "entropy_contributed", "by": "token:alice", "entropy": "dice please"}),
    )
}

/// The skirmish and a coalition battle appended command by command, the live catalog caught up
/// after each append as the service does.
fn populated() -> (SledStore, tempfile::TempDir, Catalog, Battle) {
    let (store, dir) = store();
    let live = Catalog::new();
    let battle = Battle::skirmish();
    for (index, batch) in battle.batches.iter().enumerate() {
        append(&store, STREAM, batch.iter().map(warmachine_event).collect());
        if index == 1 {
            append(&store, COALITION_STREAM, vec![coalition_entropy()]);
        }
        live.catch_up(&store).unwrap();
    }
    (store, dir, live, battle)
}

#[test]
fn each_battle_folds_with_the_ruleset_its_events_were_written_under() {
    let (_store, _dir, live, battle) = populated();
    let entry = live.entry(STREAM).expect("the warmachine battle is in the catalog");
    assert_eq!(entry.ruleset.id(), "warmachine");
    assert_eq!(entry.state_as::<WarmachineState>(), Some(&Warmachine::fold(&battle.events())));
    assert_eq!(entry.version, battle.version());
    assert!(entry.state_as::<BattleState>().is_none(), "a warmachine battle is not a coalition battle");

    let coalition = live.entry(COALITION_STREAM).expect("the coalition battle is in the catalog");
    assert_eq!(coalition.ruleset.id(), "coalition");
    assert_eq!(coalition.state_as::<BattleState>().unwrap().contributions, vec!["dice please".to_string()]);

    let battles: Vec<String> = live.entries(StreamKind::Battle).into_iter().map(|(name, _)| name).collect();
    assert_eq!(battles.len(), 2);
    assert!(live.entries(StreamKind::Campaign).is_empty());
    assert_eq!(live.ruleset_of(STREAM).map(|r| r.id()), Some("warmachine"));
    assert!(live.ruleset_of("battle-0190f0a4-3333-7000-8000-00000000ffff").is_none());
    assert!(live.ruleset_of("campaign-0190f0a4-3333-7000-8000-000000000001").is_none());
    assert!(live.undecodable().is_empty());
    assert_eq!(live.streams().get(STREAM), Some(&battle.version()));
}

#[test]
fn a_rebuilt_catalog_equals_the_live_one() {
    let (store, _dir, live, _) = populated();
    let rebuilt = Catalog::rebuild(&store).unwrap();
    assert!(rebuilt.same_as(&live));
    // A catalog missing the last event is not the same.
    let (other_store, _other_dir) = self::store();
    let battle = Battle::skirmish();
    for batch in &battle.batches[..battle.batches.len() - 1] {
        append(&other_store, STREAM, batch.iter().map(warmachine_event).collect());
    }
    append(&other_store, COALITION_STREAM, vec![coalition_entropy()]);
    assert!(!Catalog::rebuild(&other_store).unwrap().same_as(&live));
}

#[test]
fn undecodable_and_mixed_ruleset_events_are_reported_not_folded() {
    let (store, _dir, live, battle) = populated();
    let garbage_stream = "battle-0190f0a4-3333-7000-8000-000000000003";
    let garbage = append(
        &store,
        garbage_stream,
        vec![current_event("warmachine.Nonsense", Warmachine::RULES, json!({"type": "warmachine.Nonsense"}))],
    );
    // A coalition event on the warmachine stream, and a warmachine event on the coalition one.
    let stray_coalition = append(&store, STREAM, vec![coalition_entropy()]);
    let stray_warmachine = append(
        &store,
        COALITION_STREAM,
        vec![warmachine_event(&WarmachineEvent::EntropyContributed { entropy: "x".into(), by: "y".into() })],
    );
    // An event of no registered ruleset.
    let unknown = append(&store, garbage_stream, vec![current_event("chess.Moved", "chess@1", json!({}))]);
    live.catch_up(&store).unwrap();
    let positions: Vec<u64> =
        [&garbage, &stray_coalition, &stray_warmachine, &unknown].iter().map(|events| events[0].position).collect();
    assert_eq!(live.undecodable(), positions);
    assert!(live.ruleset_of(garbage_stream).is_none());
    assert_eq!(live.entry(STREAM).unwrap().version, battle.version(), "the stray event is not folded");
    assert_eq!(live.entry(COALITION_STREAM).unwrap().state_as::<BattleState>().unwrap().contributions.len(), 1);
    assert!(Catalog::rebuild(&store).unwrap().same_as(&live));
}

#[test]
fn rulesets_are_recognised_by_name_of_any_rules_version() {
    assert_eq!(registry::by_rules(Warmachine::RULES).map(|r| r.id()), Some("warmachine"));
    assert_eq!(registry::by_rules("warmachine@2").map(|r| r.id()), Some("warmachine"));
    assert_eq!(registry::by_rules("coalition-battle@1").map(|r| r.kind()), Some(StreamKind::Battle));
    assert_eq!(registry::by_rules("coalition-campaign@7").map(|r| r.kind()), Some(StreamKind::Campaign));
    for other in ["coalition@1", "warmachine-x@1", "", "@1", "chess@1"] {
        assert!(registry::by_rules(other).is_none(), "{other}");
    }
}

#[test]
fn warmachine_events_are_served_whole_to_every_reader() {
    let (_store, _dir, live, battle) = populated();
    let entry = live.entry(STREAM);
    for event in battle.events() {
        let stored = recorded(STREAM, warmachine_event(&event));
        for current in [entry.as_ref(), None] {
            let view = EventView::new(&stored, current, &Viewer::public());
            assert_eq!(view.data, stored.data.to_value(), "{} hides nothing", stored.event_type);
        }
    }
}

#[test]
fn redaction_follows_the_event_rules_not_the_payload_shape() {
    // The same payload: a coalition strategy is sealed from the public, a warmachine event that
    // happens to look like one is not touched.
    let data = json!({
        "type": "coalition.StrategySubmitted", "side": "a", "strategy": "flank left", "by": "x", "at": "2025-01-01T00:00:00Z"
    });
    let coalition = recorded(STREAM, current_event("coalition.StrategySubmitted", "coalition-battle@1", data.clone()));
    let public = Viewer::public();
    let sealed = EventView::new(&coalition, None, &public);
    assert_eq!(sealed.data["strategy"], "hidden");
    // A coalition event on a stream the catalog holds as warmachine is still sealed.
    let (_store, _dir, live, _) = populated();
    let warmachine_entry = live.entry(STREAM);
    assert_eq!(EventView::new(&coalition, warmachine_entry.as_ref(), &public).data["strategy"], "hidden");

    let warmachine = recorded(STREAM, current_event("warmachine.Whatever", Warmachine::RULES, data.clone()));
    assert_eq!(EventView::new(&warmachine, None, &public).data, data);
    assert_eq!(EventView::new(&warmachine, warmachine_entry.as_ref(), &public).data, data);
}

#[test]
fn payloads_of_schema_1_are_served_and_folded_upcast_to_the_current_schema() {
    // Schema 1 tagged a payload by its variant's own name; it is read as schema 2 (tagged by the
    // event's full type), never rewritten.
    let old = recorded(COALITION_STREAM, coalition_entropy());
    assert_eq!(old.schema, 1);
    let view = EventView::new(&old, None, &Viewer::public());
    assert_eq!(view.data["type"], "coalition.EntropyContributed");
    assert_eq!(view.data["entropy"], "dice please");
    let (_store, _dir, live, _) = populated();
    assert_eq!(live.entry(COALITION_STREAM).unwrap().state_as::<BattleState>().unwrap().contributions.len(), 1);
}

#[test]
fn a_catch_up_through_a_position_folds_up_to_it_and_no_further_work_once_past() {
    let (store, _dir) = store();
    let live = Catalog::new();
    append(&store, COALITION_STREAM, vec![coalition_entropy()]);
    append(&store, COALITION_STREAM, vec![coalition_entropy()]);
    // Behind: it folds (everything there is, as a catch-up does).
    live.catch_up_through(&store, 0).unwrap();
    assert_eq!(live.folded(), 2);
    assert_eq!(live.entry(COALITION_STREAM).map(|entry| entry.version), Some(1));
    // Already past position 1: nothing is read, so an event appended since stays unfolded
    // until someone asks for it.
    append(&store, COALITION_STREAM, vec![coalition_entropy()]);
    live.catch_up_through(&store, 1).unwrap();
    assert_eq!(live.folded(), 2, "folded past 1 already: no catch-up");
    live.catch_up_through(&store, 2).unwrap();
    assert_eq!(live.folded(), 3);
    assert_eq!(live.entry(COALITION_STREAM).map(|entry| entry.version), Some(2));
}

#[test]
fn a_commands_own_events_are_folded_as_appended_and_a_gap_is_caught_up_from_the_log() {
    let (store, _dir) = store();
    let live = Catalog::new();
    let first = append(&store, COALITION_STREAM, vec![coalition_entropy()]);
    let second = append(&store, COALITION_STREAM, vec![coalition_entropy()]);
    // Next in `$all`: folded from what the append returned, the log is not read (the second
    // event, already in the store, stays unfolded).
    live.fold_appended(&store, &first).unwrap();
    assert_eq!(live.folded(), 1);
    assert_eq!(live.entry(COALITION_STREAM).map(|entry| entry.version), Some(0));
    live.fold_appended(&store, &second).unwrap();
    assert_eq!(live.folded(), 2);
    // Another writer's event came between: caught up from the log, in commit order.
    let theirs = append(&store, COALITION_STREAM, vec![coalition_entropy()]);
    let mine = append(&store, COALITION_STREAM, vec![coalition_entropy()]);
    live.fold_appended(&store, &mine).unwrap();
    assert_eq!(live.folded(), 4);
    // Folded already: nothing happens.
    live.fold_appended(&store, &theirs).unwrap();
    assert_eq!(live.folded(), 4);
    assert!(Catalog::rebuild(&store).unwrap().same_as(&live));
}
