//! The ruleset registry: ids, rules names and event type names are unique, every event payload
//! is tagged by its full type, and payloads of schema 1 are upcast to the current schema.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

use std::collections::{BTreeMap, BTreeSet};

use herald_domain::{
    coalition::campaign::CampaignState, registry, ruleset::EVENT_SCHEMA, warmachine::battle::WarmachineState,
    AnyRuleset, StreamKind,
};
use serde_json::{json, Value};

fn ruleset(kind: StreamKind, id: &str) -> &'static dyn AnyRuleset {
    registry::find(kind, id).unwrap()
}

/// The `type` tags of a ruleset's event union, with each variant's schema.
fn event_tags(ruleset: &dyn AnyRuleset) -> BTreeMap<String, Value> {
    let events = ruleset.schemas().event;
    let (_, union) = events.components.iter().find(|(name, _)| *name == events.name).unwrap();
    let union = serde_json::to_value(union).unwrap();
    let mut tags = BTreeMap::new();
    for variant in union["oneOf"].as_array().unwrap() {
        // A newtype variant is an allOf of the payload's schema and the tag.
        let parts: Vec<&Value> = match variant["allOf"].as_array() {
            Some(parts) => parts.iter().collect(),
            None => vec![variant],
        };
        let tag = parts.iter().find_map(|part| part.pointer("/properties/type/enum/0")).unwrap();
        tags.insert(tag.as_str().unwrap().to_string(), variant.clone());
    }
    tags
}

#[test]
fn rulesets_are_unique_by_kind_and_id_and_by_rules_name() {
    let mut ids = BTreeSet::new();
    let mut rules = BTreeSet::new();
    for ruleset in registry::all() {
        assert!(ids.insert((ruleset.kind(), ruleset.id())), "{} registered twice", ruleset.id());
        let name = ruleset.rules().split_once('@').unwrap().0;
        assert!(rules.insert(name), "two rulesets write {name}");
        assert!(registry::by_rules(ruleset.rules()).is_some_and(|found| found.rules() == ruleset.rules()));
        assert!(ruleset.docs().starts_with("docs/rulesets/"), "{}", ruleset.docs());
    }
    assert_eq!(registry::default_for(StreamKind::Battle).unwrap().id(), "coalition");
    assert_eq!(registry::default_for(StreamKind::Campaign).unwrap().id(), "coalition");
}

/// `schema` with every `description` removed.
fn without_descriptions(schema: &Value) -> Value {
    match schema {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .filter(|(key, _)| key.as_str() != "description")
                .map(|(key, value)| (key.clone(), without_descriptions(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_descriptions).collect()),
        other => other.clone(),
    }
}

#[test]
fn every_event_is_tagged_by_its_full_type_and_one_name_means_one_payload() {
    let mut seen: BTreeMap<String, (String, Value)> = BTreeMap::new();
    for ruleset in registry::all() {
        for (tag, schema) in event_tags(ruleset) {
            let (prefix, name) = tag.split_once('.').unwrap_or_else(|| panic!("{tag} has no namespace"));
            assert!(!prefix.is_empty() && name.chars().next().unwrap().is_ascii_uppercase(), "{tag}");
            if let Some((other, earlier)) = seen.get(&tag) {
                // Only the shared dice events appear in several rulesets, with one payload.
                assert!(tag.starts_with("dice."), "{tag} is written by {} and {}", other, ruleset.id());
                // Each ruleset documents the variant in its own words; the payload is what counts.
                assert_eq!(without_descriptions(earlier), without_descriptions(&schema), "{tag} has two payloads");
            }
            seen.insert(tag, (ruleset.id().to_string(), schema));
        }
    }
    assert!(seen.contains_key("dice.JudgeRolled"));
}

#[test]
fn schema_1_campaign_payloads_are_upcast_nested_days_and_loss_pairs_included() {
    let campaign = ruleset(StreamKind::Campaign, "coalition");
    let nested = json!({"type": "days", "event": {"type": "day_counted", "army": "Rag", "square": "14H",
        "site": {"kind": "portal"}, "days": 2}});
    assert_eq!(
        campaign.upcast("coalition.DayCounted", 1, &nested.to_string()).unwrap(),
        json!({"type": "coalition.DayCounted", "army": "Rag", "square": "14H", "site": {"kind": "portal"}, "days": 2})
    );
    let pairs = json!({"type": "battle_result_applied", "battle": "battle-x", "winners": ["A"],
        "losses": [["A", [10, 0]], ["B", [500]]]});
    assert_eq!(
        campaign.upcast("coalition.BattleResultApplied", 1, &pairs.to_string()).unwrap()["losses"],
        json!([{"army": "A", "losses": [10, 0]}, {"army": "B", "losses": [500]}])
    );
    // A current payload is read as it is.
    let current = json!({"type": "coalition.TurnOpened", "turn": 1, "deadline": "2030-01-01T00:00:00Z"});
    assert_eq!(campaign.upcast("coalition.TurnOpened", EVENT_SCHEMA, &current.to_string()).unwrap(), current);
    let mut state = campaign.new_state();
    let folding = std::sync::Arc::get_mut(&mut state).unwrap();
    campaign
        .evolve(
            folding,
            "coalition.TurnOpened",
            1,
            &json!({"type": "turn_opened", "turn": 1, "deadline": "2030-01-01T00:00:00Z"}).to_string(),
        )
        .unwrap();
    assert_eq!(state.as_any().downcast_ref::<CampaignState>().unwrap().turn, 1);
}

#[test]
fn schema_1_warmachine_payloads_are_upcast_marker_and_trigger_pairs_included() {
    let warmachine = registry::by_rules("warmachine@1").unwrap();
    let markers = json!({"type": "markers_expired", "removed": [["red-jack", {"kind": "knocked_down"}]]});
    assert_eq!(
        warmachine.upcast("warmachine.MarkersExpired", 1, &markers.to_string()).unwrap(),
        json!({"type": "warmachine.MarkersExpired", "removed": [{"model": "red-jack", "condition": {"kind": "knocked_down"}}]})
    );
    let mut state = warmachine.new_state();
    let folding = std::sync::Arc::get_mut(&mut state).unwrap();
    warmachine.evolve(folding, "warmachine.MarkersExpired", 1, &markers.to_string()).unwrap();
    assert!(state.as_any().downcast_ref::<WarmachineState>().is_some());
    let refused = warmachine.evolve(
        std::sync::Arc::get_mut(&mut state).unwrap(),
        "warmachine.MarkersExpired",
        EVENT_SCHEMA,
        &markers.to_string(),
    );
    assert!(refused.is_err(), "a schema-2 payload with a schema-1 tag is not an event");
}

#[test]
fn no_two_rulesets_give_one_schema_name_two_different_schemas() {
    // The OpenAPI document has one namespace of component names: a `Table` of one ruleset
    // must not silently replace another's (name a ruleset's types `#[schema(as = …)]`).
    let mut seen: BTreeMap<String, (&str, Value)> = BTreeMap::new();
    let mut clashes = BTreeSet::new();
    for ruleset in registry::all() {
        let schemas = ruleset.schemas();
        for part in [&schemas.setup, &schemas.command, &schemas.event, &schemas.view] {
            for (name, schema) in &part.components {
                match seen.get(name) {
                    Some((other, earlier)) if earlier != schema => {
                        clashes.insert(format!("{name} ({other} and {})", ruleset.id()));
                    }
                    _ => {
                        seen.insert(name.clone(), (ruleset.id(), schema.clone()));
                    }
                }
            }
        }
    }
    assert!(clashes.is_empty(), "schema names meaning different things to different rulesets: {clashes:?}");
}
