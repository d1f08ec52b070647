//! Caps on how many things a client's command may hold (issue 15): models, zones, slots, sides,
//! terrain, waypoints. Each ruleset lists its caps once, in its `limits` module, as [`Cap`]s; the
//! erased decider ([`crate::ruleset::Registered`]) checks every command against them before the
//! ruleset decides it, and the same list gives the OpenAPI document its `maxItems`
//! ([`annotate_setup`], [`annotate_commands`]), so a client learns a cap before it is refused.
//!
//! A cap is a service limit, not a rule of play: each is generous, well past anything a real
//! table fields, and exists so that no client can make a stream, a view or a picture
//! arbitrarily large or slow. A refusal is a 422 with the cap's stable code, naming where the
//! list is, how many it holds and the most it may.

use serde_json::Value;

use crate::{ruleset::SchemaComponents, RuleError};

/// Where the caps are documented, as the `rule` of a refusal.
pub const CAPS_RULE: &str = "herald: docs/API.md \"Limits\"";

/// At most `max` items in the list (or entries in the map) at `path` of a `command` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cap {
    /// The command's `type` (`create_battle`).
    pub command: &'static str,
    /// Where the list is in the command: field names separated by `.`; `name[]` steps into each
    /// item of the list `name`, `*` into each value of an object (`armies.*.slots`,
    /// `zones[].features`). The last step names the list (or map) that is counted.
    pub path: &'static str,
    /// The most items it may hold.
    pub max: usize,
    /// The code's last part, after the ruleset's prefix (`too_many_models`).
    pub code: &'static str,
    /// What is counted, for the message (`models`).
    pub what: &'static str,
    /// The rule it enforces: [`CAPS_RULE`], or a seed's section where the rules set the cap.
    pub rule: &'static str,
}

impl Cap {
    /// A cap on the list at `path` of `command`.
    pub const fn new(
        command: &'static str,
        path: &'static str,
        max: usize,
        code: &'static str,
        what: &'static str,
    ) -> Self {
        Self { command, path, max, code, what, rule: CAPS_RULE }
    }

    /// The same cap, set by the rules at `rule` (`seed 003 §4.1.2.1`) rather than by the service.
    pub const fn by(self, rule: &'static str) -> Self {
        Self { rule, ..self }
    }
}

/// Refuse `command` if one of `caps` is exceeded (422 `<code_prefix>.<code>`).
pub fn check(caps: &[Cap], code_prefix: &str, command: &Value) -> Result<(), RuleError> {
    let Some(kind) = command.get("type").and_then(Value::as_str) else { return Ok(()) };
    for cap in caps.iter().filter(|cap| cap.command == kind) {
        let steps: Vec<&str> = cap.path.split('.').collect();
        if let Some((at, count)) = over(command, &steps, String::new(), cap.max) {
            let why = if cap.rule == CAPS_RULE { " (a service limit, generous past any real table)" } else { "" };
            return Err(RuleError::new(
                format!("{code_prefix}.{}", cap.code),
                format!(
                    "{at} holds {count} {what}; at most {max} {what} are allowed{why}",
                    what = cap.what,
                    max = cap.max
                ),
                cap.rule,
            ));
        }
    }
    Ok(())
}

/// The first place where the list `steps` lead to from `value` holds more than `max`, and how
/// many it holds.
fn over(value: &Value, steps: &[&str], at: String, max: usize) -> Option<(String, usize)> {
    let (step, rest) = steps.split_first()?;
    let join = |name: &str| if at.is_empty() { name.to_string() } else { format!("{at}.{name}") };
    if *step == "*" {
        let fields = value.as_object()?;
        return fields.iter().find_map(|(name, inner)| {
            if rest.is_empty() {
                count(inner).filter(|n| *n > max).map(|n| (join(name), n))
            } else {
                over(inner, rest, join(name), max)
            }
        });
    }
    let (name, each) = match step.strip_suffix("[]") {
        Some(name) => (name, true),
        None => (*step, false),
    };
    let inner = value.get(name)?;
    if rest.is_empty() {
        return count(inner).filter(|n| *n > max).map(|n| (join(name), n));
    }
    if each {
        inner.as_array()?.iter().enumerate().find_map(|(i, item)| over(item, rest, format!("{}[{i}]", join(name)), max))
    } else {
        over(inner, rest, join(name), max)
    }
}

fn count(value: &Value) -> Option<usize> {
    match value {
        Value::Array(items) => Some(items.len()),
        Value::Object(fields) => Some(fields.len()),
        _ => None,
    }
}

/// Give a set-up's schemas the `maxItems` (or, for maps, `maxProperties`) of the caps on the
/// command that opens a stream (`create_…`), whose fields are the set-up's.
pub fn annotate_setup(components: &mut SchemaComponents, caps: &[Cap]) {
    annotate(components, caps, true);
}

/// Give a command union's variants the `maxItems` (or `maxProperties`) of their caps.
pub fn annotate_commands(components: &mut SchemaComponents, caps: &[Cap]) {
    annotate(components, caps, false);
}

fn annotate(components: &mut SchemaComponents, caps: &[Cap], setup: bool) {
    for cap in caps {
        if setup && !cap.command.starts_with("create_") {
            continue;
        }
        let steps: Vec<&str> = cap.path.split('.').collect();
        let Some(mut schema) = components.component(&components.name).cloned() else { return };
        let mut edits = Vec::new();
        if setup {
            mark(&components.components, &mut schema, &steps, cap.max, &mut edits);
        } else if let Some(variants) = schema.get_mut("oneOf").and_then(Value::as_array_mut) {
            for variant in variants.iter_mut() {
                if is_variant(&components.components, variant, cap.command) {
                    mark(&components.components, variant, &steps, cap.max, &mut edits);
                }
            }
        }
        if let Some(slot) = components.schema_mut() {
            *slot = schema;
        }
        for (name, edited) in edits {
            if let Some(slot) = components.components.iter_mut().find(|(component, _)| *component == name) {
                slot.1 = edited;
            }
        }
    }
}

fn resolve<'a>(components: &'a [(String, Value)], reference: &str) -> Option<&'a (String, Value)> {
    let name = reference.strip_prefix("#/components/schemas/")?;
    components.iter().find(|(component, _)| component == name)
}

/// Whether `variant` (inline, or a reference) is the command `command`.
fn is_variant(components: &[(String, Value)], variant: &Value, command: &str) -> bool {
    let schema = match variant.get("$ref").and_then(Value::as_str) {
        Some(reference) => match resolve(components, reference) {
            Some((_, schema)) => schema,
            None => return false,
        },
        None => variant,
    };
    let tag = |schema: &Value| {
        schema.pointer("/properties/type/enum/0").and_then(Value::as_str) == Some(command)
            || schema.pointer("/properties/type/const").and_then(Value::as_str) == Some(command)
    };
    tag(schema) || schema.get("allOf").and_then(Value::as_array).is_some_and(|parts| parts.iter().any(tag))
}

/// Follow `steps` from `schema`, setting the cap at the end; schemas reached through a `$ref`
/// are edited as copies, returned in `edits` by component name.
fn mark(
    components: &[(String, Value)],
    schema: &mut Value,
    steps: &[&str],
    max: usize,
    edits: &mut Vec<(String, Value)>,
) {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str).map(String::from) {
        let Some((name, target)) = resolve(components, &reference) else { return };
        let mut copy =
            edits.iter().find(|(edited, _)| edited == name).map_or_else(|| target.clone(), |(_, s)| s.clone());
        mark(components, &mut copy, steps, max, edits);
        edits.retain(|(edited, _)| edited != name);
        edits.push((name.clone(), copy));
        return;
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(parts) = schema.get_mut(key).and_then(Value::as_array_mut) {
            for part in parts.iter_mut() {
                mark(components, part, steps, max, edits);
            }
        }
    }
    let Some((step, rest)) = steps.split_first() else {
        let Some(object) = schema.as_object_mut() else { return };
        let is = |kind: &str| match object.get("type") {
            Some(Value::String(t)) => t == kind,
            Some(Value::Array(types)) => types.iter().any(|t| t == kind),
            _ => false,
        };
        if is("array") {
            object.insert("maxItems".into(), max.into());
        } else if is("object") && object.contains_key("additionalProperties") {
            object.insert("maxProperties".into(), max.into());
        }
        return;
    };
    if *step == "*" {
        if let Some(inner) = schema.get_mut("additionalProperties").filter(|inner| inner.is_object()) {
            mark(components, inner, rest, max, edits);
        }
        if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            for inner in properties.values_mut() {
                mark(components, inner, rest, max, edits);
            }
        }
        return;
    }
    let (name, each) = match step.strip_suffix("[]") {
        Some(name) => (name, true),
        None => (*step, false),
    };
    let Some(inner) = schema.pointer_mut(&format!("/properties/{name}")) else { return };
    if each {
        items(components, inner, rest, max, edits);
    } else {
        mark(components, inner, rest, max, edits);
    }
}

/// Step into the items of the list schema `schema`, then follow `steps`.
fn items(
    components: &[(String, Value)],
    schema: &mut Value,
    steps: &[&str],
    max: usize,
    edits: &mut Vec<(String, Value)>,
) {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str).map(String::from) {
        let Some((name, target)) = resolve(components, &reference) else { return };
        let mut copy =
            edits.iter().find(|(edited, _)| edited == name).map_or_else(|| target.clone(), |(_, s)| s.clone());
        items(components, &mut copy, steps, max, edits);
        edits.retain(|(edited, _)| edited != name);
        edits.push((name.clone(), copy));
        return;
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(parts) = schema.get_mut(key).and_then(Value::as_array_mut) {
            for part in parts.iter_mut() {
                items(components, part, steps, max, edits);
            }
        }
    }
    if let Some(inner) = schema.get_mut("items") {
        mark(components, inner, steps, max, edits);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const CAPS: &[Cap] = &[
        Cap::new("create_battle", "models", 3, "too_many_models", "models"),
        Cap::new("create_battle", "zones[].features", 2, "too_many_features", "features"),
        Cap::new("create_battle", "armies.*.slots", 2, "too_many_slots", "slots"),
        Cap::new("create_battle", "map.sites", 2, "too_many_sites", "sites"),
        Cap::new("move", "path", 2, "path_too_long", "waypoints"),
    ];

    fn refused(command: Value) -> Option<RuleError> {
        check(CAPS, "test", &command).err()
    }

    #[test]
    fn a_list_at_its_cap_passes_and_one_more_is_refused_naming_where_and_how_many() {
        assert!(refused(json!({"type": "create_battle", "models": [1, 2, 3]})).is_none());
        let error = refused(json!({"type": "create_battle", "models": [1, 2, 3, 4]})).expect("refused");
        assert_eq!(error.code, "test.too_many_models");
        assert_eq!(error.rule, CAPS_RULE);
        assert!(error.message.starts_with("models holds 4 models; at most 3 models"), "{}", error.message);
    }

    #[test]
    fn nested_lists_maps_and_object_values_are_counted_where_they_are() {
        let zones = json!({"type": "create_battle", "zones": [{"features": [1]}, {"features": [1, 2, 3]}]});
        let error = refused(zones).expect("refused");
        assert_eq!(error.code, "test.too_many_features");
        assert!(error.message.starts_with("zones[1].features holds 3"), "{}", error.message);
        let armies = json!({"type": "create_battle", "armies": {"a": {"slots": [1, 2]}, "b": {"slots": [1, 2, 3]}}});
        assert!(refused(armies).expect("refused").message.starts_with("armies.b.slots holds 3"));
        let sites = json!({"type": "create_battle", "map": {"sites": {"1A": 1, "2A": 2, "3A": 3}}});
        assert_eq!(refused(sites).expect("refused").code, "test.too_many_sites");
        assert!(refused(json!({"type": "create_battle", "map": {"sites": {"1A": 1, "2A": 2}}})).is_none());
    }

    #[test]
    fn caps_apply_to_their_command_only_and_absent_lists_pass() {
        assert!(refused(json!({"type": "move", "models": [1, 2, 3, 4]})).is_none());
        assert_eq!(refused(json!({"type": "move", "path": [1, 2, 3]})).expect("refused").code, "test.path_too_long");
        assert!(refused(json!({"type": "create_battle"})).is_none());
        assert!(refused(json!({"models": [1, 2, 3, 4]})).is_none());
    }

    #[test]
    fn annotate_sets_max_items_through_references_and_on_the_commands_variant() {
        let mut setup = SchemaComponents {
            name: "Setup".into(),
            components: vec![
                (
                    "Setup".into(),
                    json!({"type": "object", "properties": {
                        "models": {"type": "array", "items": {}},
                        "zones": {"type": "array", "items": {"$ref": "#/components/schemas/Zone"}},
                        "armies": {"$ref": "#/components/schemas/Sides"},
                        "map": {"type": "object", "properties": {"sites": {"type": "object", "additionalProperties": {}}}}
                    }}),
                ),
                ("Zone".into(), json!({"type": "object", "properties": {"features": {"type": ["array", "null"]}}})),
                (
                    "Sides".into(),
                    json!({"type": "object", "properties": {"a": {"$ref": "#/components/schemas/Army"}, "b": {"$ref": "#/components/schemas/Army"}}}),
                ),
                ("Army".into(), json!({"type": "object", "properties": {"slots": {"type": "array"}}})),
            ],
        };
        annotate_setup(&mut setup, CAPS);
        assert_eq!(setup.component("Setup").and_then(|s| s.pointer("/properties/models/maxItems")), Some(&json!(3)));
        assert_eq!(setup.component("Zone").and_then(|s| s.pointer("/properties/features/maxItems")), Some(&json!(2)));
        assert_eq!(setup.component("Army").and_then(|s| s.pointer("/properties/slots/maxItems")), Some(&json!(2)));
        assert_eq!(
            setup.component("Setup").and_then(|s| s.pointer("/properties/map/properties/sites/maxProperties")),
            Some(&json!(2))
        );
        let mut command = SchemaComponents {
            name: "Command".into(),
            components: vec![(
                "Command".into(),
                json!({"oneOf": [
                    {"type": "object", "properties": {"type": {"type": "string", "enum": ["move"]}, "path": {"type": "array"}}},
                    {"type": "object", "properties": {"type": {"type": "string", "enum": ["stop"]}, "path": {"type": "array"}}}
                ]}),
            )],
        };
        annotate_commands(&mut command, CAPS);
        let union = command.component("Command").expect("the union");
        assert_eq!(union.pointer("/oneOf/0/properties/path/maxItems"), Some(&json!(2)));
        assert_eq!(union.pointer("/oneOf/1/properties/path/maxItems"), None);
    }
}
