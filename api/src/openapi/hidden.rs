//! Fields a reader may find `"hidden"`: what the rulesets' redaction replaces in an event's
//! payload for a reader who may not see it (docs/API.md "Hidden information"), so that every
//! event served validates against the document (issue 15: "response not matching its schema").
//!
//! Each such property becomes `anyOf: [<its schema>, Hidden]`, `Hidden` being the string
//! `"hidden"`. The table follows the redaction code of each ruleset (`redact.rs`, the campaign's
//! `view/orders.rs`); a test checks that every entry still names a property of the document.

use serde_json::{json, Value};

/// `(event payload component, path)`: `/` between properties, `*` for an array's items.
const HIDDEN_FIELDS: &[(&str, &str)] = &[
    // coalition/battle/redact.rs
    ("CoalitionStrategySubmitted", "strategy"),
    ("CoalitionStrategySubmitted", "attempt"),
    ("CoalitionStrategySubmitted", "departure"),
    ("CoalitionStrategyBonusAssigned", "bonus"),
    ("CoalitionStrategyBonusAssigned", "note"),
    ("CoalitionBattleCreated", "options/size_formula"),
    ("CoalitionBattleCreated", "options/kill_formula"),
    ("CoalitionBattleCreated", "options/joint_formula"),
    ("CoalitionBattleCreated", "formula_salt"),
    ("CoalitionFormulasSet", "options"),
    ("CoalitionFormulasSet", "formula_salt"),
    ("CoalitionBattleResolved", "bonuses/a/size"),
    ("CoalitionBattleResolved", "bonuses/b/size"),
    ("CoalitionBattleResolved", "dice/a/*/total"),
    ("CoalitionBattleResolved", "dice/b/*/total"),
    ("CoalitionBattleResolved", "tie_break/roll_off/*/a/total"),
    ("CoalitionBattleResolved", "tie_break/roll_off/*/b/total"),
    ("CoalitionKillAttempted", "attacker_roll/modifier"),
    ("CoalitionKillAttempted", "attacker_roll/total"),
    ("CoalitionKillAttempted", "target_roll/modifier"),
    ("CoalitionKillAttempted", "target_roll/total"),
    ("CoalitionCaptureAttempted", "attacker_roll/modifier"),
    ("CoalitionCaptureAttempted", "attacker_roll/total"),
    ("CoalitionCaptureAttempted", "target_roll/modifier"),
    ("CoalitionCaptureAttempted", "target_roll/total"),
    // coalition/campaign/view/orders.rs
    ("CoalitionVoteCast", "option"),
    ("CoalitionOrdersPosted", "orders/*/order"),
    // percentile_skirmish/redact.rs
    ("PercentileSkirmishDeclared", "minis"),
    ("PercentileSkirmishCombatOptionChosen", "choice"),
    ("PercentileSkirmishCombatOptionChosen", "weapon"),
    // zone_rpg/redact.rs
    ("ZoneRpgBattleCreated", "characters/*/zone"),
    ("ZoneRpgBattleCreated", "characters/*/at_border"),
    ("ZoneRpgBattleCreated", "characters/*/behind"),
    ("ZoneRpgBattleCreated", "characters/*/riding"),
    ("ZoneRpgMoved", "zone"),
    ("ZoneRpgMoved", "at_border"),
    ("ZoneRpgMoved", "behind"),
    ("ZoneRpgMoved", "path/*"),
    ("ZoneRpgItemHandled", "zone"),
    ("ZoneRpgPlaced", "zone"),
];

const HIDDEN_REF: &str = "#/components/schemas/Hidden";

/// Let every field of [`HIDDEN_FIELDS`] be `"hidden"`; the entries that name nothing.
pub fn hidden_fields(document: &mut Value) -> Vec<String> {
    document["components"]["schemas"]["Hidden"] = json!({
        "type": "string",
        "enum": ["hidden"],
        "description": "In place of a value hidden from this reader (docs/API.md \"Hidden information\")."
    });
    let mut missing = Vec::new();
    for (component, path) in HIDDEN_FIELDS {
        let segments: Vec<&str> = path.split('/').collect();
        if !widen(document, &format!("/components/schemas/{component}"), &segments) {
            missing.push(format!("{component}: {path}"));
        }
    }
    missing
}

/// Walk `segments` from the schema at `pointer` (through `$ref`s, `allOf`/`anyOf`/`oneOf`
/// branches, `properties` and array `items`) and widen what they end at.
fn widen(document: &mut Value, pointer: &str, segments: &[&str]) -> bool {
    let Some(node) = document.pointer(pointer).cloned() else { return false };
    let Some((first, rest)) = segments.split_first() else {
        if let Some(target) = document.pointer_mut(pointer) {
            make_hideable(target);
        }
        return true;
    };
    if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
        return reference.strip_prefix('#').is_some_and(|target| widen(document, &target.replace("~1", "/"), segments));
    }
    let mut found = false;
    for key in ["allOf", "anyOf", "oneOf"] {
        let branches = node.get(key).and_then(Value::as_array).map_or(0, Vec::len);
        for index in 0..branches {
            found |= widen(document, &format!("{pointer}/{key}/{index}"), segments);
        }
    }
    let next = if *first == "*" {
        node.get("items").map(|_| format!("{pointer}/items"))
    } else {
        node.get("properties").and_then(|p| p.get(*first)).map(|_| format!("{pointer}/properties/{first}"))
    };
    if let Some(next) = next {
        found |= widen(document, &next, rest);
    }
    found
}

/// `schema` → `anyOf: [schema, Hidden]`, keeping its description outside; once only.
fn make_hideable(schema: &mut Value) {
    let already = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(|b| b.get("$ref").and_then(Value::as_str) == Some(HIDDEN_REF)));
    if already {
        return;
    }
    let mut inner = schema.clone();
    let description = inner.as_object_mut().and_then(|object| object.remove("description"));
    let mut widened = json!({"anyOf": [inner, {"$ref": HIDDEN_REF}]});
    if let Some(description) = description {
        widened["description"] = description;
    }
    *schema = widened;
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_hidden_field_names_a_property_of_the_document() {
        // spec_value() runs hidden_fields; run it again on the result to see what it misses.
        let mut document = crate::openapi::spec_value();
        let missing = super::hidden_fields(&mut document);
        assert!(missing.is_empty(), "entries of HIDDEN_FIELDS that name no property: {missing:?}");
    }

    #[test]
    fn a_field_is_widened_once() {
        let mut schema = serde_json::json!({"type": "integer", "description": "a total"});
        super::make_hideable(&mut schema);
        let once = schema.clone();
        super::make_hideable(&mut schema);
        assert_eq!(schema, once);
        assert_eq!(schema["description"], "a total");
    }
}
