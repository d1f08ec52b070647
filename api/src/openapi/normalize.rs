//! Make the document a contract that common client generators (openapi-python-client,
//! @hey-api/openapi-ts) take as it is.
//!
//! utoipa describes a tagged enum as a `oneOf` of inline variants. Generators want more: each
//! variant a named, titled component, and the union a `discriminator` naming the tag and mapping
//! each tag value to its variant; without them one generator refuses the union outright and the
//! other types it as an untyped blob. And neither reads structured defaults. So, on the JSON of
//! the document:
//! - every union whose variants all carry one tag property (`type`, `kind`, …) with a single
//!   value gets its variants hoisted into components named after the tag
//!   (`coalition.BattleCreated` → `CoalitionBattleCreated`; a command `move` of
//!   `WarmachineCommand` → `WarmachineCommandMove`) and a discriminator;
//! - `EventView.data`, a union of every ruleset's event unions, is flattened into one union of
//!   every event, discriminated by `type` (event type names are unique across rulesets, and the
//!   shared `dice.*` events are one component each);
//! - object and array defaults are dropped (the descriptions say what an absent field means);
//! - `application/octet-stream` bodies are binary strings, not arrays of integers;
//! - an optional request body is the schema it is when present, never `null` (utoipa writes an
//!   `Option<T>` body as `oneOf: [null, T]`: the server reads an absent body, not a JSON
//!   `null`, and openapi-python-client sends its "unset" default as the JSON body of such a
//!   union, so `POST /v1/campaigns/{id}/adjudicate` could not be called without a body).

use serde_json::{json, Map, Value};

/// The tag properties unions are discriminated by, in order of preference.
const TAGS: [&str; 4] = ["type", "kind", "phase", "when"];

/// Rewrite the document for generators.
pub fn for_generators(document: &mut Value) {
    let _clashes = hoist_unions(document);
    flatten_event_data(document);
    drop_structured_defaults(document);
    binary_bodies(document);
    optional_bodies_not_null(document);
    let missing = super::hidden::hidden_fields(document);
    if !missing.is_empty() {
        tracing::warn!(?missing, "hidden fields that name no property of the document");
    }
    super::parameters::idempotency_keys(document);
    super::parameters::if_match_headers(document);
    super::responses::shared_statuses(document);
    super::parameters::shared_parameters(document);
    super::conventions::http_conventions(document);
    super::limits::request_text_limits(document);
}

/// Every `application/octet-stream` response body is `type: string, format: binary`.
fn binary_bodies(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for operation in paths.values_mut().filter_map(Value::as_object_mut).flat_map(|item| item.values_mut()) {
        let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else { continue };
        for response in responses.values_mut() {
            if let Some(media) = response.pointer_mut("/content/application~1octet-stream") {
                media["schema"] = json!({"type": "string", "format": "binary"});
            }
        }
    }
}

/// Every request body that is not required and is a `oneOf` of `null` and one schema is that
/// schema: leaving the body out is how a client says "none".
fn optional_bodies_not_null(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for operation in paths.values_mut().filter_map(Value::as_object_mut).flat_map(|item| item.values_mut()) {
        let Some(body) = operation.get_mut("requestBody").and_then(Value::as_object_mut) else { continue };
        if body.get("required").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        let Some(media) = body.get_mut("content").and_then(Value::as_object_mut) else { continue };
        for schema in media.values_mut().filter_map(|media| media.get_mut("schema")) {
            let Some(variants) = schema.get("oneOf").and_then(Value::as_array) else { continue };
            let present: Vec<&Value> = variants.iter().filter(|variant| variant["type"] != "null").collect();
            if let [only] = present.as_slice() {
                if present.len() < variants.len() {
                    *schema = (*only).clone();
                }
            }
        }
    }
}

fn schemas(document: &mut Value) -> Option<&mut Map<String, Value>> {
    document.pointer_mut("/components/schemas").and_then(Value::as_object_mut)
}

/// `zone-rpg.AttackResolved` → `ZoneRpgAttackResolved`; `full_advance` → `FullAdvance`.
fn pascal(text: &str) -> String {
    text.split(['.', '-', '_', ' '])
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map(|first| first.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
        })
        .collect()
}

/// The single value of `property` a variant is tagged with, looking through `allOf` parts.
fn tag_of(variant: &Value, property: &str) -> Option<String> {
    let tagged = |schema: &Value| {
        let required = schema.get("required").and_then(Value::as_array)?;
        if !required.iter().any(|name| name == property) {
            return None;
        }
        let values = schema.pointer(&format!("/properties/{property}/enum")).and_then(Value::as_array)?;
        match values.as_slice() {
            [Value::String(value)] => Some(value.clone()),
            _ => None,
        }
    };
    tagged(variant).or_else(|| variant.get("allOf")?.as_array()?.iter().find_map(tagged))
}

/// The tag property every variant of `union` carries, with each variant's tag.
fn tags(union: &Value) -> Option<(&'static str, Vec<String>)> {
    let variants = union.get("oneOf")?.as_array()?;
    if variants.len() < 2 || variants.iter().any(|variant| variant.get("$ref").is_some()) {
        return None;
    }
    TAGS.into_iter().find_map(|property| {
        let tags: Option<Vec<String>> = variants.iter().map(|variant| tag_of(variant, property)).collect();
        tags.map(|tags| (property, tags))
    })
}

/// The component name of a variant tagged `tag` in union `union_name`.
fn variant_name(union_name: &str, tag: &str) -> String {
    if tag.contains('.') {
        pascal(tag)
    } else {
        format!("{union_name}{}", pascal(tag))
    }
}

/// Hoist the variants of every tagged union, components first, then any inline union inside a
/// component's properties, until none is left.
fn hoist_unions(document: &mut Value) -> Vec<String> {
    let mut clashes = Vec::new();
    let mut pending: Vec<String> = schemas(document).map(|all| all.keys().cloned().collect()).unwrap_or_default();
    while let Some(name) = pending.pop() {
        let Some(all) = schemas(document) else { return clashes };
        let Some(mut schema) = all.get(&name).cloned() else { continue };
        let mut hoisted = Vec::new();
        hoist(&name, &mut schema, &mut hoisted);
        if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            for (property, inner) in properties.iter_mut() {
                hoist(&format!("{name}{}", pascal(property)), inner, &mut hoisted);
                if let Some(items) = inner.get_mut("items") {
                    hoist(&format!("{name}{}", pascal(property)), items, &mut hoisted);
                }
            }
        }
        all.insert(name, schema);
        for (variant, body) in hoisted {
            match all.get(&variant) {
                // The same event in several unions (the shared `dice.*` events): one component.
                Some(existing) if without_description(existing) == without_description(&body) => {}
                // The union would point at another schema than its own variant's: the names must
                // be made distinct at the source (issue 26 item 15; a test checks none is left).
                Some(_) => {
                    tracing::warn!(variant, "two different union variants share a component name");
                    clashes.push(variant);
                }
                None => {
                    all.insert(variant.clone(), body);
                    pending.push(variant);
                }
            }
        }
    }
    clashes
}

fn without_description(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(object) = schema.as_object_mut() {
        object.remove("description");
        object.remove("title");
    }
    schema
}

/// Hoist `schema`'s variants if it is a tagged union; record the new components in `hoisted`.
fn hoist(union_name: &str, schema: &mut Value, hoisted: &mut Vec<(String, Value)>) {
    let Some((property, tags)) = tags(schema) else { return };
    let Some(variants) = schema.get_mut("oneOf").and_then(Value::as_array_mut) else { return };
    let mut mapping = Map::new();
    for (variant, tag) in variants.iter_mut().zip(tags) {
        let name = variant_name(union_name, &tag);
        let reference = format!("#/components/schemas/{name}");
        let mut body = std::mem::replace(variant, json!({"$ref": reference}));
        if let Some(object) = body.as_object_mut() {
            object.insert("title".into(), Value::String(name.clone()));
        }
        mapping.insert(tag, Value::String(reference));
        hoisted.push((name, body));
    }
    schema["discriminator"] = json!({"propertyName": property, "mapping": mapping});
}

/// `EventView.data`: one union of every ruleset's events, discriminated by `type`.
fn flatten_event_data(document: &mut Value) {
    let Some(all) = schemas(document) else { return };
    let Some(unions) = all.get("EventView").and_then(|view| view.pointer("/properties/data/oneOf")).cloned() else {
        return;
    };
    let mut variants = Vec::new();
    let mut mapping = Map::new();
    for union in unions.as_array().into_iter().flatten() {
        let Some(name) = union.get("$ref").and_then(Value::as_str).and_then(|r| r.rsplit('/').next()) else {
            continue;
        };
        let Some(discriminated) = all.get(name).and_then(|union| union.pointer("/discriminator/mapping")) else {
            continue;
        };
        for (tag, reference) in discriminated.as_object().into_iter().flatten() {
            if mapping.insert(tag.clone(), reference.clone()).is_none() {
                variants.push(json!({"$ref": reference}));
            }
        }
    }
    if let Some(data) = all.get_mut("EventView").and_then(|view| view.pointer_mut("/properties/data")) {
        *data = json!({
            "description": "The payload, tagged by its `type` (the same as the envelope's), with fields hidden from this reader replaced by `\"hidden\"`.",
            "oneOf": variants,
            "discriminator": {"propertyName": "type", "mapping": mapping}
        });
    }
}

/// Drop `default`s that are objects or arrays, anywhere in the document (a map of `properties`
/// is names, not keywords: a property called `default` stays).
fn drop_structured_defaults(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if object.get("default").is_some_and(|default| default.is_object() || default.is_array()) {
                object.remove("default");
            }
            for (key, inner) in object.iter_mut() {
                match (key.as_str(), inner) {
                    ("properties", Value::Object(properties)) => {
                        properties.values_mut().for_each(drop_structured_defaults)
                    }
                    (_, inner) => drop_structured_defaults(inner),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(drop_structured_defaults),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use utoipa::OpenApi;

    #[test]
    fn no_two_union_variants_share_a_component_name() {
        let mut document = serde_json::to_value(crate::openapi::ApiDoc::openapi()).unwrap_or_default();
        crate::openapi::registry::describe_rulesets(&mut document);
        assert_eq!(super::hoist_unions(&mut document), Vec::<String>::new());
    }
}
