//! Caps on how many things a command may hold (issue 15 item 4), for every registered ruleset:
//! every cap is refused one past it with its code and let through at it, through the same erased
//! decider the service calls; the caps are in the rulesets' schemas as `maxItems`; and a real
//! warmachine battle of exactly 200 models opens while 201 do not.
#![allow(clippy::unwrap_used)] // a test that unwraps fails loudly, which is what it is for

#[path = "warmachine_battle_support.rs"]
mod warmachine;

use herald_domain::{
    caps::{Cap, CAPS_RULE},
    registry,
    ruleset::Refusal,
    AnyRuleset, RuleError, StreamKind,
};
use serde_json::{json, Map, Value};

/// A command of `cap.command` whose list at `cap.path` holds `n` items (one item on the way).
fn command_with(cap: &Cap, n: usize) -> Value {
    fn build(steps: &[&str], n: usize) -> Value {
        let Some((step, rest)) = steps.split_first() else {
            return Value::Array(vec![json!({}); n]);
        };
        if *step == "*" {
            return json!({"a": build(rest, n), "b": build(rest, n)});
        }
        let (name, each) = step.strip_suffix("[]").map_or((*step, false), |name| (name, true));
        let inner = if rest.is_empty() {
            Value::Array(vec![json!({}); n])
        } else if each {
            Value::Array(vec![build(rest, n)])
        } else {
            build(rest, n)
        };
        let mut object = Map::new();
        object.insert(name.to_string(), inner);
        Value::Object(object)
    }
    let steps: Vec<&str> = cap.path.split('.').collect();
    let mut command = build(&steps, n);
    command["type"] = json!(cap.command);
    command
}

fn decide(ruleset: &dyn AnyRuleset, command: &Value) -> Result<Vec<Value>, Refusal> {
    let state = ruleset.new_state();
    let mut ctx = warmachine::context(&Default::default(), warmachine::judge(), 0);
    ruleset.decide(state.as_ref(), command, &mut ctx)
}

fn cap_refusal(ruleset: &dyn AnyRuleset, cap: &Cap, n: usize) -> Option<RuleError> {
    match decide(ruleset, &command_with(cap, n)) {
        Err(Refusal::Rule(error)) if error.rule == CAPS_RULE => Some(error),
        _ => None,
    }
}

#[test]
fn every_cap_of_every_ruleset_refuses_one_past_it_with_its_code_and_lets_the_cap_itself_through() {
    let mut checked = 0;
    for ruleset in registry::all() {
        assert!(!ruleset.caps().is_empty(), "{} has no caps", ruleset.id());
        for cap in ruleset.caps() {
            let name = format!("{} {} {}", ruleset.id(), cap.command, cap.path);
            assert!(cap.max > 0, "{name}: a cap of zero");
            let code = format!("{}.{}", ruleset.code_prefix(), cap.code);
            let error = cap_refusal(ruleset, cap, cap.max + 1).unwrap_or_else(|| panic!("{name}: one past is refused"));
            assert_eq!(error.code, code, "{name}");
            assert!(
                error.message.contains(&format!("holds {} {}", cap.max + 1, cap.what)),
                "{name}: {}",
                error.message
            );
            assert!(error.message.contains(&format!("at most {} {}", cap.max, cap.what)), "{name}: {}", error.message);
            assert_eq!(cap_refusal(ruleset, cap, cap.max), None, "{name}: the cap itself is allowed");
            checked += 1;
        }
    }
    assert!(checked >= 80, "{checked} caps");
}

#[test]
fn every_cap_of_a_set_up_is_in_its_schema_as_max_items() {
    for ruleset in registry::all() {
        let setup = ruleset.schemas().setup;
        let text = serde_json::to_string(&setup.components).unwrap();
        for cap in ruleset.caps().iter().filter(|cap| cap.command.starts_with("create_")) {
            let (field, limit) = if ruleset.kind() == StreamKind::Campaign && cap.path.starts_with("map.") {
                (cap.path.rsplit('.').next().unwrap(), format!("\"maxProperties\":{}", cap.max))
            } else {
                (cap.path.rsplit('.').next().unwrap(), format!("\"maxItems\":{}", cap.max))
            };
            assert!(
                text.contains(&limit),
                "{} {}: no {limit} for {field} in its set-up schema",
                ruleset.id(),
                cap.path
            );
        }
        let root = setup.component(&setup.name).unwrap();
        if let Some(cap) =
            ruleset.caps().iter().find(|cap| cap.command.starts_with("create_") && !cap.path.contains('.'))
        {
            assert_eq!(
                root.pointer(&format!("/properties/{}/maxItems", cap.path)),
                Some(&json!(cap.max)),
                "{}: {}",
                ruleset.id(),
                cap.path
            );
        }
    }
}

/// `n` solos of two players in rows two inches apart on the default 48″ table.
fn solos(n: usize) -> Vec<herald_domain::warmachine::battle::command::ModelSpec> {
    (0..n)
        .map(|i| {
            let (column, row) = (i % 20, i / 20);
            let player = if row < 5 { warmachine::RED } else { warmachine::BLUE };
            let y = if row < 5 { 2.0 + 2.0 * row as f64 } else { 46.0 - 2.0 * (row - 5) as f64 };
            warmachine::model(&format!("solo-{i}"), player, warmachine::solo(), 2.0 + 2.0 * column as f64, y)
        })
        .collect()
}

#[test]
fn a_warmachine_battle_of_exactly_200_models_opens_and_201_do_not() {
    let ruleset = registry::find(StreamKind::Battle, "warmachine").unwrap();
    let create = |n: usize| {
        serde_json::to_value(warmachine::create_command(
            herald_domain::warmachine::table::Table::default(),
            solos(n),
            0,
        ))
        .unwrap()
    };
    let opened = decide(ruleset, &create(200)).expect("200 models open a battle");
    assert_eq!(opened.len(), 1);
    assert_eq!(opened[0]["models"].as_array().map(Vec::len), Some(200));
    let Err(Refusal::Rule(error)) = decide(ruleset, &create(201)) else { panic!("201 models are refused") };
    assert_eq!(error.code, "warmachine.model_count");
    assert_eq!(error.rule, CAPS_RULE);
    assert!(error.message.starts_with("models holds 201 models; at most 200 models"), "{}", error.message);
}
