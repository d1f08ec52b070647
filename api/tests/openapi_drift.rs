//! `openapi/openapi.json` is generated: it must equal what `herald openapi` prints.

#[test]
fn committed_openapi_document_matches_the_generated_one() {
    let committed = include_str!("../../openapi/openapi.json");
    let generated = herald_api::openapi::spec_json();
    assert!(
        committed.trim_end() == generated.trim_end(),
        "openapi/openapi.json is stale: run `cargo run --bin herald -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn herald_openapi_prints_the_committed_document() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_herald")).arg("openapi").output().expect("herald runs");
    assert!(output.status.success());
    let printed = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(printed.trim_end(), include_str!("../../openapi/openapi.json").trim_end());
}

#[test]
fn every_operation_documents_its_responses_and_the_spec_is_openapi_3_1() {
    let spec: serde_json::Value = serde_json::from_str(&herald_api::openapi::spec_json()).expect("JSON");
    assert!(spec["openapi"].as_str().is_some_and(|v| v.starts_with("3.1")));
    let paths = spec["paths"].as_object().expect("paths");
    for (path, operations) in paths {
        for (method, operation) in operations.as_object().expect("operations") {
            let responses = operation["responses"].as_object().expect("responses");
            assert!(!responses.is_empty(), "{method} {path} documents no responses");
            let writes = method == "post";
            if writes {
                for status in ["401", "403"] {
                    assert!(responses.contains_key(status), "{method} {path} does not document {status}");
                }
            }
        }
    }
}

/// Every node of the document, with its JSON pointer.
fn walk<'a>(value: &'a serde_json::Value, pointer: String, out: &mut Vec<(String, &'a serde_json::Value)>) {
    out.push((pointer.clone(), value));
    match value {
        serde_json::Value::Object(object) => {
            for (key, inner) in object {
                walk(inner, format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        serde_json::Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                walk(inner, format!("{pointer}/{index}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn tagged_unions_name_their_variants_and_carry_a_discriminator_for_client_generators() {
    let spec: serde_json::Value = serde_json::from_str(&herald_api::openapi::spec_json()).expect("JSON");
    let schemas = spec["components"]["schemas"].as_object().expect("schemas");
    let mut nodes = Vec::new();
    walk(&spec, String::new(), &mut nodes);
    for (pointer, node) in &nodes {
        assert!(node.get("prefixItems").is_none(), "{pointer}: a tuple schema, which generators cannot read");
        let Some(variants) = node.get("oneOf").and_then(|v| v.as_array()) else { continue };
        let Some(discriminator) = node.get("discriminator") else { continue };
        let property = discriminator["propertyName"].as_str().expect("a discriminator names its property");
        for variant in variants {
            let name = variant["$ref"].as_str().and_then(|r| r.rsplit('/').next()).unwrap_or_else(|| {
                panic!("{pointer}: a discriminated union's variants are named components, not {variant}")
            });
            assert_eq!(schemas[name]["title"].as_str().or(Some(name)), Some(name), "{name} is titled");
            let mapped = discriminator["mapping"].as_object().expect("a mapping");
            assert!(
                mapped.values().any(|r| r.as_str() == variant["$ref"].as_str()),
                "{pointer}: {name} has no `{property}` in the mapping"
            );
        }
    }
    // The unions that matter to a client: every event payload by `type`, the create bodies and
    // the battle view by `ruleset`.
    let data = &spec["components"]["schemas"]["EventView"]["properties"]["data"];
    assert_eq!(data["discriminator"]["propertyName"], "type");
    let mapping = data["discriminator"]["mapping"].as_object().expect("every event type mapped");
    for event in ["coalition.BattleResolved", "coalition.DayCounted", "dice.JudgeRolled"] {
        assert!(mapping.contains_key(event), "{event} is not among EventView.data's variants");
    }
    let create = &spec["paths"]["/v1/battles"]["post"]["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(create["discriminator"]["propertyName"], "ruleset");
    let view =
        &spec["paths"]["/v1/battles/{battle_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(view["discriminator"]["propertyName"], "ruleset");
}

#[test]
fn no_structured_defaults_which_generators_cannot_read() {
    let spec: serde_json::Value = serde_json::from_str(&herald_api::openapi::spec_json()).expect("JSON");
    let mut nodes = Vec::new();
    walk(&spec, String::new(), &mut nodes);
    for (pointer, node) in nodes {
        if pointer.ends_with("/properties/default") {
            continue;
        }
        if let Some(default) = node.get("default").filter(|_| !pointer.ends_with("/properties")) {
            assert!(!default.is_object() && !default.is_array(), "{pointer} has a structured default {default}");
        }
    }
}

/// An optional request body is left out, never sent as `null`: a `oneOf` with `null` made
/// openapi-python-client send its "unset" default as the body of
/// `POST /v1/campaigns/{id}/adjudicate` (clients/python/play_test.py found it).
#[test]
fn no_request_body_is_nullable() {
    let spec: serde_json::Value = serde_json::from_str(&herald_api::openapi::spec_json()).expect("JSON");
    for (path, item) in spec["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("an item") {
            let Some(media) = operation.pointer("/requestBody/content").and_then(|c| c.as_object()) else { continue };
            for (content_type, body) in media {
                let variants = body.pointer("/schema/oneOf").and_then(|v| v.as_array()).cloned().unwrap_or_default();
                let nullable = variants.iter().any(|variant| variant["type"] == "null");
                assert!(!nullable, "{method} {path} ({content_type}) takes a null body");
            }
        }
    }
    let adjudicate = &spec["paths"]["/v1/campaigns/{campaign_id}/adjudicate"]["post"]["requestBody"];
    assert_eq!(adjudicate["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/AdjudicateRequest");
    assert_ne!(adjudicate["required"], true, "the body stays optional");
}

#[test]
fn no_ruleset_schema_replaces_a_schema_of_the_api_with_another_of_the_same_name() {
    use utoipa::OpenApi;
    let api = serde_json::to_value(herald_api::openapi::ApiDoc::openapi()).expect("JSON");
    let api_schemas = api["components"]["schemas"].as_object().expect("schemas");
    for ruleset in herald_domain::registry::all() {
        let schemas = ruleset.schemas();
        for part in [&schemas.setup, &schemas.command, &schemas.event, &schemas.view] {
            for (name, schema) in &part.components {
                if let Some(ours) = api_schemas.get(name) {
                    // The ruleset's copy carries its caps (domain/src/caps.rs) as maxItems and
                    // maxProperties, which the document keeps; the type must be the same.
                    let mut schema = schema.clone();
                    without_caps(&mut schema);
                    assert_eq!(ours, &schema, "{name} of {} is another schema than the API's {name}", ruleset.id());
                }
            }
        }
    }
}

/// `schema` without the caps the rulesets annotate their schemas with.
fn without_caps(schema: &mut serde_json::Value) {
    match schema {
        serde_json::Value::Object(object) => {
            object.remove("maxItems");
            object.remove("maxProperties");
            object.values_mut().for_each(without_caps);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_caps),
        _ => {}
    }
}
