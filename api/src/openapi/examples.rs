//! An example for every request body and every error body, and a description for every
//! operation (issue 17 item 1: "every operation with a description … correct examples for every
//! request and error body").
//!
//! Request examples: a schema's own `example` where it has one (the request types that declare
//! one), otherwise an instance built from the schema itself — its required properties, the first
//! of an enum, the least a bound allows, a value matching each pattern — so it cannot disagree
//! with the schema; a union gets one named example per variant. The black-box test
//! `every_request_example_is_read_by_the_server` posts each one to a real server and checks that
//! none is refused as malformed, so an example cannot disagree with the server either.
//!
//! Error examples: the problem document the route answers with that status — the generic code
//! and title of [`crate::problem::CODES`], or the specific code a route's description names in
//! backquotes (`token.configured`), the rule it cites, and the description as the detail.

use serde_json::{json, Map, Value};

/// Fill in what `document` lacks.
pub fn examples(document: &mut Value) {
    let schemas = document.pointer("/components/schemas").cloned().unwrap_or(Value::Null);
    for (_, operation) in super::operations_mut(document) {
        describe(operation);
        if let Some(content) = operation.pointer_mut("/requestBody/content").and_then(Value::as_object_mut) {
            for (media, body) in content.iter_mut() {
                if media.ends_with("json") {
                    request_example(body, &schemas);
                }
            }
        }
        if let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) {
            for (status, response) in responses.iter_mut() {
                problem_example(status, response);
            }
        }
    }
}

/// An operation without a description gets its summary as one (utoipa takes a one-paragraph
/// doc comment as the summary only).
fn describe(operation: &mut Value) {
    let has = operation.get("description").and_then(Value::as_str).is_some_and(|text| !text.is_empty());
    if let (false, Some(summary)) = (has, operation.get("summary").and_then(Value::as_str).map(str::to_owned)) {
        operation["description"] = Value::String(summary);
    }
}

/// Give a JSON request body an example, or one per variant of a union.
fn request_example(body: &mut Value, schemas: &Value) {
    if body.get("example").is_some() || body.get("examples").is_some() {
        return;
    }
    let Some(schema) = body.get("schema").cloned() else { return };
    let resolved = resolve(&schema, schemas);
    if let Some(variants) = resolved.get("oneOf").and_then(Value::as_array) {
        let mut named = Map::new();
        for (index, variant) in variants.iter().enumerate() {
            let name = variant
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|reference| reference.rsplit('/').next())
                .map_or_else(|| format!("variant{}", index + 1), str::to_owned);
            // A union of unions (every ruleset's commands): show a command only this variant
            // has, so that the example matches exactly one branch of the body's `oneOf`.
            let others: Vec<String> = variants
                .iter()
                .enumerate()
                .filter(|(other, _)| *other != index)
                .flat_map(|(_, other)| tags(other, schemas))
                .collect();
            named.insert(name, json!({"value": distinct_instance(variant, schemas, &others)}));
        }
        body["examples"] = Value::Object(named);
    } else {
        body["example"] = instance(&schema, schemas, 0);
    }
}

/// The `type` tags of a union's variants (`contribute_entropy`, …).
fn tags(union: &Value, schemas: &Value) -> Vec<String> {
    let variants = resolve(union, schemas).get("oneOf").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    variants.iter().filter_map(|variant| tag(variant, schemas)).collect()
}

/// The `type` tag a variant's values carry, looking into its `allOf` parts.
fn tag(variant: &Value, schemas: &Value) -> Option<String> {
    let variant = resolve(variant, schemas);
    let own = variant.pointer("/properties/type/enum/0").and_then(Value::as_str).map(str::to_owned);
    own.or_else(|| variant.get("allOf").and_then(Value::as_array)?.iter().find_map(|part| tag(part, schemas)))
}

/// An instance of the simplest variant of `union` whose tag no other union has.
fn distinct_instance(union: &Value, schemas: &Value, taken: &[String]) -> Value {
    let variants = resolve(union, schemas).get("oneOf").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    variants
        .iter()
        .filter(|variant| tag(variant, schemas).is_some_and(|tag| !taken.contains(&tag)))
        .min_by_key(|variant| required_count(variant, schemas, 0))
        .map_or_else(|| instance(union, schemas, 0), |variant| instance(variant, schemas, 1))
}

/// The schema `$ref` names, or `schema` itself.
fn resolve<'a>(schema: &'a Value, schemas: &'a Value) -> &'a Value {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix("#/components/schemas/"))
        .and_then(|name| schemas.get(name))
        .unwrap_or(schema)
}

/// How deep an instance nests before it stops at the least (a recursive schema ends).
const DEPTH: usize = 12;

/// A value of `schema`: its example, else the least instance its constraints allow.
fn instance(schema: &Value, schemas: &Value, depth: usize) -> Value {
    let schema = resolve(schema, schemas);
    if let Some(example) = schema.get("example") {
        return example.clone();
    }
    if let Some(value) = schema.get("const").or_else(|| schema.get("enum").and_then(|e| e.get(0))) {
        return value.clone();
    }
    if depth > DEPTH {
        return Value::Null;
    }
    for union in ["oneOf", "anyOf"] {
        let variants = schema.get(union).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        // The simplest variant that is not `null` (an optional value's other branch): the one
        // with the fewest required properties, so that a union of commands shows a command a
        // client sends every day rather than a set-up.
        let simplest = variants
            .iter()
            .filter(|variant| type_of(resolve(variant, schemas)) != "null")
            .min_by_key(|variant| required_count(variant, schemas, depth));
        if let Some(variant) = simplest {
            return instance(variant, schemas, depth + 1);
        }
    }
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        let mut merged = Map::new();
        for part in parts {
            if let Value::Object(object) = instance(part, schemas, depth + 1) {
                merged.extend(object);
            }
        }
        return Value::Object(merged);
    }
    match type_of(schema) {
        "object" => object(schema, schemas, depth),
        "array" => {
            let least = schema.get("minItems").and_then(Value::as_u64).unwrap_or(1);
            let most = schema.get("maxItems").and_then(Value::as_u64).unwrap_or(u64::MAX);
            let count = least.max(1).min(most);
            let item = schema.get("items").map_or(Value::Null, |items| instance(items, schemas, depth + 1));
            Value::Array((0..count).map(|_| item.clone()).collect())
        }
        "string" => Value::String(string(schema)),
        "integer" => json!(integer(schema)),
        "number" => json!(integer(schema) as f64),
        "boolean" => Value::Bool(false),
        _ => Value::Null,
    }
}

/// How many properties a value of `schema` must have, its `allOf` parts' included.
fn required_count(schema: &Value, schemas: &Value, depth: usize) -> usize {
    let schema = resolve(schema, schemas);
    let own = schema.get("required").and_then(Value::as_array).map_or(0, Vec::len);
    let parts = schema.get("allOf").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    own + parts.iter().filter(|_| depth < DEPTH).map(|part| required_count(part, schemas, depth + 1)).sum::<usize>()
}

/// The schema's type: the first that is not `null` of a list.
fn type_of(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(kind)) => kind,
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ => "",
    }
}

/// The required properties (every property when none is required and there are few).
fn object(schema: &Value, schemas: &Value, depth: usize) -> Value {
    let mut out = Map::new();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return Value::Object(out) };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (name, property) in properties {
        if required.contains(&name.as_str()) {
            out.insert(name.clone(), instance(property, schemas, depth + 1));
        }
    }
    Value::Object(out)
}

/// A string the schema accepts: by its format or pattern, at least `minLength` long.
fn string(schema: &Value) -> String {
    let text = match (schema.get("format").and_then(Value::as_str), schema.get("pattern").and_then(Value::as_str)) {
        (Some("date-time"), _) => "2026-11-23T18:00:00Z".to_string(),
        (Some("uuid"), _) => UUID.to_string(),
        (_, Some(pattern)) => matching(pattern).to_string(),
        _ => "example".to_string(),
    };
    let least = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    if text.chars().count() >= least {
        text
    } else {
        text.repeat(least.div_ceil(text.chars().count().max(1)))
    }
}

const UUID: &str = "0193a0f4-6c1e-7d3b-9f2a-0123456789ab";

/// A string matching one of the patterns the document uses.
fn matching(pattern: &str) -> &'static str {
    match pattern {
        "^[0-9a-fA-F]{64}$" => "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "^[0-9]{1,3}[A-Za-z]$" => "7F",
        "^d[0-9]+$" => "d20",
        p if p.starts_with("^(host|") => "host",
        p if p.starts_with("^(campaign-)?") || p.starts_with("^(battle-)?") => UUID,
        _ => "example",
    }
}

/// The least integer the schema allows (1 when it allows it).
fn integer(schema: &Value) -> i64 {
    let minimum = schema.get("minimum").and_then(Value::as_f64).map(|m| m.ceil() as i64);
    let exclusive = schema.get("exclusiveMinimum").and_then(Value::as_f64).map(|m| m.floor() as i64 + 1);
    let maximum = schema.get("maximum").and_then(Value::as_f64).map(|m| m.floor() as i64);
    let least = minimum.into_iter().chain(exclusive).max().unwrap_or(1).max(1);
    maximum.map_or(least, |most| least.min(most))
}

/// Give a problem response the problem document the route answers with.
fn problem_example(status: &str, response: &mut Value) {
    let Ok(code) = status.parse::<u16>() else { return };
    if code < 400 {
        return;
    }
    let description = response.get("description").and_then(Value::as_str).unwrap_or("").to_string();
    let Some(body) = response.pointer_mut("/content/application~1problem+json") else { return };
    if body.get("example").is_some() || body.get("examples").is_some() {
        return;
    }
    // The generic code the description names first (`storage_unavailable` of several 503s),
    // else the first of its status.
    let named = description.split('`').skip(1).step_by(2).find_map(|quoted| {
        crate::problem::CODES.iter().find(|(generic, status, _)| *status == code && *generic == quoted)
    });
    let (generic, title) = named
        .or_else(|| crate::problem::CODES.iter().find(|(_, status, _)| *status == code))
        .map_or(("internal", "Internal error"), |(generic, _, title)| (*generic, *title));
    let specific = quoted_code(&description);
    let mut example = json!({
        "type": format!("https://herald.example/problems/{}", generic.replace('_', "-")),
        "title": title,
        "status": code,
        "code": specific.unwrap_or(generic),
        "detail": description,
    });
    if let Some(rule) = cited_rule(&description) {
        example["rule"] = Value::String(rule);
    }
    body["example"] = example;
}

/// The first code a description names in backquotes: `token.configured`, `*.not_found`.
fn quoted_code(description: &str) -> Option<&str> {
    description.split('`').skip(1).step_by(2).find(|quoted| {
        quoted.contains('.')
            && !quoted.starts_with('.')
            && !quoted.contains('*')
            && quoted.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'))
    })
}

/// The first rule a description cites: `seed 003 §4.1.1`.
fn cited_rule(description: &str) -> Option<String> {
    let start = description.find("seed 0")?;
    let rule: String = description[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '§' | '.'))
        .collect();
    Some(rule.trim_end_matches(['.', ' ']).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_instance_keeps_to_the_schema() {
        let schemas = json!({"Side": {"type": "string", "enum": ["a", "b"]}});
        let schema = json!({
            "type": "object",
            "required": ["side", "bonus", "seed", "note"],
            "properties": {
                "side": {"$ref": "#/components/schemas/Side"},
                "bonus": {"type": "integer", "minimum": 0, "maximum": 10},
                "seed": {"type": "string", "pattern": "^[0-9a-fA-F]{64}$"},
                "note": {"type": "string", "minLength": 10},
                "optional": {"type": "string"}
            }
        });
        let example = instance(&schema, &schemas, 0);
        assert_eq!(example["side"], "a");
        assert_eq!(example["bonus"], 1);
        assert_eq!(example["seed"].as_str().map(str::len), Some(64));
        assert!(example["note"].as_str().is_some_and(|n| n.len() >= 10));
        assert!(example.get("optional").is_none());
    }

    #[test]
    fn a_problem_example_names_the_routes_code_and_rule() {
        let mut response = json!({
            "description": "the configured admin token is changed in the settings, not revoked (`token.configured`)",
            "content": {"application/problem+json": {"schema": {}}}
        });
        problem_example("422", &mut response);
        let example = &response["content"]["application/problem+json"]["example"];
        assert_eq!(example["code"], "token.configured");
        assert_eq!(example["status"], 422);
        assert_eq!(example["title"], "Rule violation");

        let mut late =
            json!({"description": "after the deadline (seed 003 §4.1.1)", "content": {"application/problem+json": {}}});
        problem_example("422", &mut late);
        let example = &late["content"]["application/problem+json"]["example"];
        assert_eq!(example["rule"], "seed 003 §4.1.1");
        assert_eq!(example["code"], "rule_violation");
    }
}
