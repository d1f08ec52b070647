//! The catalog files `battle-` streams by the rules that wrote their events: warmachine battles
//! in their own read model, coalition battles where they always were; a rebuilt catalog equals
//! the live one; warmachine events are served unredacted.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

#[path = "warmachine_support.rs"]
mod support;

use herald_domain::warmachine::battle::{Warmachine, WarmachineEvent};
use herald_domain::Decider;
use herald_projections::{
    catalog::{is_warmachine_rules, COALITION, WARMACHINE},
    Catalog, Current, EventView, Viewer,
};
use herald_store::SledStore;
use serde_json::json;
use support::*;

fn store() -> (SledStore, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    (SledStore::open(dir.path()).unwrap(), dir)
}

/// A coalition event whose payload would decode as a warmachine event too: only the envelope's
/// `rules` tells them apart.
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
fn warmachine_events_fold_into_their_own_read_model_and_coalition_battles_stay_battles() {
    let (_store, _dir, live, battle) = populated();
    let entry = live.warmachine(STREAM).expect("the warmachine battle is in the catalog");
    assert_eq!(entry.state, Warmachine::fold(&battle.events()));
    assert_eq!(entry.version, battle.version());
    assert!(live.battle(STREAM).is_none(), "a warmachine battle is not a coalition battle");

    let coalition = live.battle(COALITION_STREAM).expect("the coalition battle is still a battle");
    assert_eq!(coalition.state.contributions, vec!["dice please".to_string()]);
    assert!(live.warmachine(COALITION_STREAM).is_none());

    assert_eq!(live.warmachines().iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(), [STREAM]);
    assert_eq!(live.battles().iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>(), [COALITION_STREAM]);
    assert_eq!(live.ruleset_of(STREAM), Some(WARMACHINE));
    assert_eq!(live.ruleset_of(COALITION_STREAM), Some(COALITION));
    assert_eq!(live.ruleset_of("battle-0190f0a4-3333-7000-8000-00000000ffff"), None);
    assert_eq!(live.ruleset_of("campaign-0190f0a4-3333-7000-8000-000000000001"), None);
    assert!(live.undecodable().is_empty());
    assert_eq!(live.streams().get(STREAM), Some(&battle.version()));

    match live.current(STREAM) {
        Current::Warmachine(state) => assert_eq!(*state, battle.state),
        other => panic!("a warmachine stream's current state is {other:?}"),
    }
    assert!(matches!(live.current(COALITION_STREAM), Current::Battle(_)));
}

#[test]
fn a_rebuilt_catalog_equals_the_live_one_with_warmachine_battles() {
    let (store, _dir, live, _) = populated();
    let rebuilt = Catalog::rebuild(&store).unwrap();
    assert!(rebuilt.same_as(&live));
    assert_eq!(rebuilt.warmachine(STREAM), live.warmachine(STREAM));
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
        vec![new_event("warmachine.Nonsense", Warmachine::RULES, json!({"type": "no_such_event"}))],
    );
    // A coalition event on the warmachine stream, and a warmachine event on the coalition one.
    let stray_coalition = append(&store, STREAM, vec![coalition_entropy()]);
    let stray_warmachine = append(
        &store,
        COALITION_STREAM,
        vec![warmachine_event(&WarmachineEvent::EntropyContributed { entropy: "x".into(), by: "y".into() })],
    );
    live.catch_up(&store).unwrap();
    let positions: Vec<u64> =
        [&garbage, &stray_coalition, &stray_warmachine].iter().map(|events| events[0].position).collect();
    assert_eq!(live.undecodable(), positions);
    assert_eq!(live.ruleset_of(garbage_stream), None);
    assert!(matches!(live.current(garbage_stream), Current::Unknown));
    assert_eq!(live.warmachine(STREAM).unwrap().version, battle.version(), "the stray event is not folded");
    assert!(live.battle(STREAM).is_none());
    assert_eq!(live.battle(COALITION_STREAM).unwrap().state.contributions.len(), 1);
    assert!(live.warmachine(COALITION_STREAM).is_none());
    assert!(Catalog::rebuild(&store).unwrap().same_as(&live));
}

#[test]
fn warmachine_rules_are_recognised_by_ruleset_name_of_any_version() {
    assert!(is_warmachine_rules(Warmachine::RULES));
    assert!(is_warmachine_rules("warmachine@2"));
    for other in ["coalition-battle@1", "coalition@1", "warmachine", "warmachine-x@1", "", "@1"] {
        assert!(!is_warmachine_rules(other), "{other}");
    }
}

#[test]
fn warmachine_events_are_served_whole_to_every_reader() {
    let battle = Battle::skirmish();
    let current = Current::Warmachine(Box::new(battle.state.clone()));
    for event in battle.events() {
        let stored = recorded(STREAM, warmachine_event(&event));
        for state in [&current, &Current::Unknown] {
            let view = EventView::new(&stored, state, &Viewer::public());
            assert_eq!(view.data, stored.data, "{} hides nothing", stored.event_type);
        }
    }
}

#[test]
fn redaction_follows_the_event_rules_not_the_payload_shape() {
    // The same payload: a coalition strategy is sealed from the public, a warmachine event that
    // happens to look like one is not touched.
    let data = json!({
        "type": "strategy_submitted", "side": "a", "strategy": "flank left", "by": "x", "at": "2025-01-01T00:00:00Z"
    });
    let coalition = recorded(STREAM, new_event("coalition.StrategySubmitted", "coalition-battle@1", data.clone()));
    let public = Viewer::public();
    let sealed = EventView::new(&coalition, &Current::Unknown, &public);
    assert_eq!(sealed.data["strategy"], "hidden");
    // A coalition event on a stream the catalog holds as warmachine is still sealed.
    let wm_current = Current::Warmachine(Box::new(Battle::created().state));
    assert_eq!(EventView::new(&coalition, &wm_current, &public).data["strategy"], "hidden");

    let warmachine = recorded(STREAM, new_event("warmachine.Whatever", Warmachine::RULES, data.clone()));
    assert_eq!(EventView::new(&warmachine, &Current::Unknown, &public).data, data);
    assert_eq!(EventView::new(&warmachine, &wm_current, &public).data, data);
}
