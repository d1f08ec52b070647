//! `maxLength` on every string a request can carry, from the same rule the server enforces
//! ([`crate::limits`]): a client generator or a validating client learns the limit before the
//! server refuses the request.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::limits::max_chars;

/// Add `maxLength` to the string properties of every schema a request body reaches.
pub fn request_text_limits(document: &mut Value) {
    let reachable = request_schemas(document);
    let Some(schemas) = document.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else { return };
    for name in reachable {
        if let Some(schema) = schemas.get_mut(&name) {
            limit(schema, None);
        }
    }
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        for item in paths.values_mut().filter_map(Value::as_object_mut) {
            for operation in item.values_mut() {
                if let Some(content) = operation.pointer_mut("/requestBody/content").and_then(Value::as_object_mut) {
                    for media in content.values_mut() {
                        if let Some(schema) = media.get_mut("schema") {
                            limit(schema, None);
                        }
                    }
                }
            }
        }
    }
}

/// The component schemas reachable from any request body, through `$ref`s.
fn request_schemas(document: &Value) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut pending: Vec<String> = Vec::new();
    if let Some(paths) = document.get("paths").and_then(Value::as_object) {
        for operation in paths.values().filter_map(Value::as_object).flat_map(|item| item.values()) {
            if let Some(body) = operation.pointer("/requestBody/content") {
                collect_refs(body, &mut pending);
            }
        }
    }
    while let Some(name) = pending.pop() {
        if seen.insert(name.clone()) {
            if let Some(schema) = document.pointer(&format!("/components/schemas/{name}")) {
                collect_refs(schema, &mut pending);
            }
        }
    }
    seen
}

fn collect_refs(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            if let Some(reference) = fields.get("$ref").and_then(Value::as_str) {
                if let Some(name) = reference.strip_prefix("#/components/schemas/") {
                    into.push(name.to_string());
                }
            }
            fields.values().for_each(|inner| collect_refs(inner, into));
        }
        Value::Array(items) => items.iter().for_each(|inner| collect_refs(inner, into)),
        _ => {}
    }
}

/// Limit the free strings of `schema`; `field` is the property it is the value of.
fn limit(schema: &mut Value, field: Option<&str>) {
    let Some(object) = schema.as_object_mut() else { return };
    let is_string = match object.get("type") {
        Some(Value::String(kind)) => kind == "string",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "string"),
        _ => false,
    };
    let free = !object.contains_key("enum") && !object.contains_key("const") && !object.contains_key("format");
    if is_string && free && !object.contains_key("maxLength") {
        object.insert("maxLength".into(), max_chars(field.unwrap_or("")).into());
    }
    if let Some(properties) = object.get_mut("properties").and_then(Value::as_object_mut) {
        for (name, property) in properties.iter_mut() {
            limit(property, Some(name));
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = object.get_mut(key) {
            limit(inner, field);
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(variants) = object.get_mut(key).and_then(Value::as_array_mut) {
            variants.iter_mut().for_each(|variant| limit(variant, field));
        }
    }
}
