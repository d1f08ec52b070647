//! What makes the document pass `redocly lint` (issue 17 item 1; the ruleset is `redocly.yaml`
//! at the repository's root): the servers it is served from, an SPDX licence, every operation's
//! security stated (a token required, optional, or never read), and no one-variant union where
//! utoipa wraps a `$ref` to hang a description on it. And one constraint utoipa cannot say: a
//! token's role is never `system`.

use serde_json::{json, Map, Value};

/// Operations that never read a bearer token: probes and the list of rulesets. Every other
/// operation without a `security` of its own takes a token optionally: it is answered without
/// one, and a token changes what the reader may see (a judge sees hidden fields, a player its
/// side's; docs/AUTH.md).
const TOKENLESS: &[&str] = &["healthz", "readyz", "list_rulesets"];

/// Make `document` lint-clean.
pub fn lint_clean(document: &mut Value) {
    servers(document);
    licence(document);
    security(document);
    unwrap_single_variant_unions(document);
    issuable_roles(document);
}

/// `Role` in the document is a token's role (every schema that names it describes tokens:
/// issuing, listing, `whoami`, the audit event): `system` is the service's own authority, which
/// no token carries and `POST /v1/tokens` refuses, so a client is not offered it.
fn issuable_roles(document: &mut Value) {
    if let Some(Value::Array(roles)) = document.pointer_mut("/components/schemas/Role/enum") {
        roles.retain(|role| role != "system");
    }
}

/// A relative server: the document is served by the server it describes (`/openapi.json`), so
/// a client generated from it and given no base URL talks to whichever host served it; a local
/// server's default address second.
fn servers(document: &mut Value) {
    document["servers"] = json!([
        {"url": "/", "description": "The Herald server that serves this document (at /openapi.json)"},
        {"url": "http://127.0.0.1:8080", "description": "A local server on its default address (`herald serve`)"},
    ]);
}

/// The licence by its SPDX identifier, which tools read, beside its name.
fn licence(document: &mut Value) {
    if let Some(license) = document.pointer_mut("/info/license").and_then(Value::as_object_mut) {
        if let Some(name) = license.get("name").cloned() {
            license.insert("identifier".into(), name);
        }
    }
}

/// Every operation states its security: `[]` for the tokenless ones, "none or a bearer token"
/// for reads that tailor what they show to the token, and the route's own where it has one.
fn security(document: &mut Value) {
    for (_, operation) in super::operations_mut(document) {
        let Some(operation) = operation.as_object_mut() else { continue };
        if operation.contains_key("security") {
            continue;
        }
        let tokenless = operation.get("operationId").and_then(Value::as_str).is_some_and(|id| TOKENLESS.contains(&id));
        let security = if tokenless { json!([]) } else { json!([{}, {"bearer": []}]) };
        operation.insert("security".into(), security);
    }
}

/// `{"oneOf": [{"$ref": …, "description": …}], "default": …}` (utoipa's way to describe a
/// referenced schema) becomes `{"$ref": …, "description": …, "default": …}`: OpenAPI 3.1 allows
/// keywords beside `$ref`, and a union of one is not a union. A one-variant union with a
/// `discriminator` is left alone: it is a union that has one member today (the campaign
/// rulesets) and says which property will tell the members apart.
fn unwrap_single_variant_unions(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if let Some(unwrapped) = single_variant(object) {
                *object = unwrapped;
            }
            object.values_mut().for_each(unwrap_single_variant_unions);
        }
        Value::Array(items) => items.iter_mut().for_each(unwrap_single_variant_unions),
        _ => {}
    }
}

/// The schema `object` means, when it is a one-variant `oneOf`/`anyOf` around a `$ref`.
fn single_variant(object: &Map<String, Value>) -> Option<Map<String, Value>> {
    if object.contains_key("discriminator") {
        return None;
    }
    let (keyword, variants) = ["oneOf", "anyOf"]
        .into_iter()
        .find_map(|keyword| object.get(keyword).and_then(Value::as_array).map(|variants| (keyword, variants)))?;
    let [Value::Object(variant)] = variants.as_slice() else { return None };
    if !variant.contains_key("$ref") {
        return None;
    }
    let mut unwrapped = variant.clone();
    for (key, value) in object {
        if key != keyword {
            unwrapped.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    Some(unwrapped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_described_reference_is_a_reference_with_its_description() {
        let mut schema = json!({"properties": {"tie_rule": {
            "oneOf": [{"$ref": "#/components/schemas/TieRule", "description": "How ties go."}],
            "default": "higher_total"
        }}});
        unwrap_single_variant_unions(&mut schema);
        assert_eq!(
            schema["properties"]["tie_rule"],
            json!({"$ref": "#/components/schemas/TieRule", "description": "How ties go.", "default": "higher_total"})
        );
    }

    #[test]
    fn a_discriminated_union_of_one_and_real_unions_stay() {
        let discriminated = json!({"oneOf": [{"$ref": "#/a"}], "discriminator": {"propertyName": "ruleset"}});
        let nullable = json!({"anyOf": [{"$ref": "#/a"}, {"type": "null"}]});
        for schema in [discriminated, nullable] {
            let mut rewritten = schema.clone();
            unwrap_single_variant_unions(&mut rewritten);
            assert_eq!(rewritten, schema);
        }
    }

    #[test]
    fn every_operation_states_its_security() {
        let mut document = json!({"paths": {
            "/healthz": {"get": {"operationId": "healthz"}},
            "/v1/battles/{id}": {"get": {"operationId": "get_battle"}, "post": {"security": [{"bearer": []}]}}
        }});
        security(&mut document);
        assert_eq!(document["paths"]["/healthz"]["get"]["security"], json!([]));
        assert_eq!(document["paths"]["/v1/battles/{id}"]["get"]["security"], json!([{}, {"bearer": []}]));
        assert_eq!(document["paths"]["/v1/battles/{id}"]["post"]["security"], json!([{"bearer": []}]));
    }
}
