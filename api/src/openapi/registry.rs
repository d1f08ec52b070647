//! The registered rulesets in the OpenAPI document: their schemas, and the shared battle routes
//! pointed at them, so a client generator sees every ruleset's set-up, commands, events and view
//! as typed unions rather than free-form objects.

use herald_domain::{registry, AnyRuleset, StreamKind};
use serde_json::{json, Map, Value};

/// The component name of a create request of `ruleset` (`CreateCoalitionBattle`).
fn create_name(ruleset: &dyn AnyRuleset) -> String {
    let id: String = ruleset.id().split('-').map(pascal).collect();
    format!("Create{id}{}", pascal(ruleset.kind().prefix()))
}

/// `zone` → `Zone`.
pub fn pascal(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// Add every registered ruleset's schemas to `document` and describe the routes that take or
/// give them.
pub fn describe_rulesets(document: &mut Value) {
    let mut creates: Vec<(StreamKind, String, String)> = Vec::new();
    let mut commands = Vec::new();
    let mut events = Vec::new();
    let mut views = Vec::new();
    for ruleset in registry::all() {
        let schemas = ruleset.schemas();
        for part in [&schemas.setup, &schemas.command, &schemas.event, &schemas.view] {
            for (name, schema) in &part.components {
                document["components"]["schemas"][name] = schema.clone();
            }
        }
        let create = create_name(ruleset);
        let setup = document["components"]["schemas"][&schemas.setup.name].clone();
        document["components"]["schemas"][&create] = create_schema(ruleset, &schemas.setup.name, &setup);
        creates.push((ruleset.kind(), ruleset.id().to_string(), create));
        events.push(schemas.event.name.clone());
        if ruleset.kind() == StreamKind::Battle {
            commands.push(schemas.command.name.clone());
            views.push((ruleset.id().to_string(), schemas.view.name.clone()));
        }
    }
    for (kind, path) in [(StreamKind::Battle, "/v1/battles"), (StreamKind::Campaign, "/v1/campaigns")] {
        let of_kind: Vec<(String, String)> =
            creates.iter().filter(|(k, ..)| *k == kind).map(|(_, id, name)| (id.clone(), name.clone())).collect();
        let body = discriminated(&of_kind, "ruleset");
        document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"] = body;
    }
    let actions = json!({"oneOf": commands.iter().map(|name| reference(name)).collect::<Vec<_>>()});
    document["paths"]["/v1/battles/{battle_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"] = actions;
    document["paths"]["/v1/battles/{battle_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] =
        discriminated(&views, "ruleset");
    for (id, view) in &views {
        // The view's `ruleset` is what tells a client which view it holds.
        document["components"]["schemas"][view]["properties"]["ruleset"] = json!({"type": "string", "enum": [id]});
    }
    // The service's own events, on the admins' `tokens` stream.
    add_auth_events(document);
    events.push("AuthEvent".into());
    // Disputes and rulings, on every stream (herald_domain::dispute).
    add_dispute_events(document);
    events.push("DisputeEvent".into());
    // Every event payload is one of the registered rulesets' events or the service's own;
    // `normalize` flattens these unions into one, discriminated by `type`.
    document["components"]["schemas"]["EventView"]["properties"]["data"] =
        json!({"oneOf": events.iter().map(|name| reference(name)).collect::<Vec<_>>()});
    remove_placeholders(document);
}

/// `auth.TokenIssued` (the token's record) and `auth.TokenRevoked`, as `AuthEvent`: a union
/// discriminated by `type` like every ruleset's events.
fn add_auth_events(document: &mut Value) {
    let tag = |name: &str| json!({"type": "string", "enum": [name], "description": "The event's type."});
    let mut issued = document["components"]["schemas"]["TokenRecord"].clone();
    if issued.get("properties").is_none() {
        issued = json!({"type": "object", "properties": {}});
    }
    issued["title"] = json!("AuthTokenIssued");
    issued["description"] = json!("A token was issued (without its secret): its record.");
    issued["properties"]["type"] = tag("auth.TokenIssued");
    match issued.get_mut("required").and_then(Value::as_array_mut) {
        Some(required) => required.insert(0, json!("type")),
        None => issued["required"] = json!(["type"]),
    }
    let revoked = json!({
        "title": "AuthTokenRevoked",
        "type": "object",
        "description": "An admin revoked a token.",
        "required": ["type", "id", "revoked_at"],
        "properties": {
            "type": tag("auth.TokenRevoked"),
            "id": {"type": "string", "description": "The revoked token's id."},
            "revoked_at": {"type": "string", "format": "date-time", "description": "When."}
        }
    });
    let schemas = &mut document["components"]["schemas"];
    schemas["AuthTokenIssued"] = issued;
    schemas["AuthTokenRevoked"] = revoked;
    schemas["AuthEvent"] = json!({
        "description": "The service's own events (rules `herald@1`), on the `tokens` stream only admins read.",
        "oneOf": [reference("AuthTokenIssued"), reference("AuthTokenRevoked")],
        "discriminator": {"propertyName": "type", "mapping": {
            "auth.TokenIssued": "#/components/schemas/AuthTokenIssued",
            "auth.TokenRevoked": "#/components/schemas/AuthTokenRevoked"
        }}
    });
}

/// `herald.DisputeFiled` and `herald.DisputeRuled` (docs/API.md "Disputes"), as `DisputeEvent`:
/// every ruleset's streams carry them, handled before the ruleset's own decider.
fn add_dispute_events(document: &mut Value) {
    let tag = |name: &str| json!({"type": "string", "enum": [name], "description": "The event's type."});
    let actor = reference("Actor");
    let filed = json!({
        "title": "HeraldDisputeFiled",
        "type": "object",
        "description": "A participant disputed an event of this stream.",
        "required": ["type", "dispute", "version", "claim", "by"],
        "properties": {
            "type": tag("herald.DisputeFiled"),
            "dispute": {"type": "string", "description": "The dispute's id."},
            "version": {"type": "integer", "format": "int64", "minimum": 0, "description": "The contested event's version."},
            "claim": {"type": "string", "description": "The claim, in words."},
            "by": actor.clone()
        }
    });
    let ruled = json!({
        "title": "HeraldDisputeRuled",
        "type": "object",
        "description": "A judge ruled on a dispute; a correction carries the state the stream continues from (hidden from all but judges).",
        "required": ["type", "dispute", "ruling", "reason", "by"],
        "properties": {
            "type": tag("herald.DisputeRuled"),
            "dispute": {"type": "string", "description": "The dispute."},
            "ruling": reference("Ruling"),
            "reason": {"type": "string", "description": "The judge's reasons."},
            "what_if_hash": {"type": ["string", "null"], "description": "The hash of the what-if a correction rests on."},
            "change": {"description": "The change that what-if made: `{version, command}`."},
            "corrected_state": {"description": "The stream's state from here on (a correction; `hidden` to all but judges)."},
            "carried_from": {"type": ["string", "null"], "description": "The stream and dispute a carried correction came from."},
            "streams_opened": {"type": "array", "items": {"type": "string"}, "description": "Streams the corrected state links that the state before did not: a corrected campaign adjudication's new battles, opened by the service (absent when none)."},
            "streams_dropped": {"type": "array", "items": {"type": "string"}, "description": "Streams the state before linked that the corrected state does not: battles the corrected adjudication no longer announces, left in the log as they are, their results never read (absent when none)."},
            "by": actor
        }
    });
    let schemas = &mut document["components"]["schemas"];
    schemas["HeraldDisputeFiled"] = filed;
    schemas["HeraldDisputeRuled"] = ruled;
    schemas["DisputeEvent"] = json!({
        "description": "Disputes and rulings, on any stream (docs/API.md \"Disputes\").",
        "oneOf": [reference("HeraldDisputeFiled"), reference("HeraldDisputeRuled")],
        "discriminator": {"propertyName": "type", "mapping": {
            "herald.DisputeFiled": "#/components/schemas/HeraldDisputeFiled",
            "herald.DisputeRuled": "#/components/schemas/HeraldDisputeRuled"
        }}
    });
}

/// A create request of `ruleset`: its set-up, plus the `ruleset` that picks it and the `seed`.
///
/// A set-up that is a plain object is copied with the two fields added, so that its
/// `additionalProperties: false` still holds and still admits them (an `allOf` of the set-up
/// and an object of the two would admit no body at all: each part refuses the other's fields).
fn create_schema(ruleset: &dyn AnyRuleset, setup_name: &str, setup: &Value) -> Value {
    let kind = ruleset.kind().prefix();
    let title = create_name(ruleset);
    let description = format!("Open a {} {kind} ({}; {}).", ruleset.id(), ruleset.source(), ruleset.docs());
    // The kind's default ruleset may be left out (`routes::battles::creation` takes it then), so
    // its `ruleset` is optional, with the default said; every other ruleset's is required, which
    // keeps the union exact: a body without `ruleset` fits the default's variant only.
    let default = herald_domain::registry::default_for(ruleset.kind()).is_some_and(|d| d.id() == ruleset.id());
    let mut ruleset_field =
        json!({"type": "string", "enum": [ruleset.id()], "description": "Which rules the stream is played by."});
    if default {
        ruleset_field["default"] = json!(ruleset.id());
        ruleset_field["description"] =
            json!(format!("Which rules the stream is played by: `{}` when absent (the default).", ruleset.id()));
    }
    let seed_field = json!({"type": ["string", "null"], "pattern": "^[0-9a-fA-F]{64}$",
        "description": "A server seed (64 hex digits) for tests and tournaments that want it public later; drawn from the OS when absent. Sealed until revealed either way."});
    if setup.get("type") == Some(&json!("object")) && setup.get("properties").is_some_and(Value::is_object) {
        let mut schema = setup.clone();
        schema["title"] = json!(title);
        schema["description"] = json!(description);
        schema["properties"]["ruleset"] = ruleset_field;
        schema["properties"]["seed"] = seed_field;
        match schema.get_mut("required").and_then(Value::as_array_mut) {
            Some(_) if default => {}
            Some(required) => required.insert(0, json!("ruleset")),
            None if default => {}
            None => schema["required"] = json!(["ruleset"]),
        }
        if let Some(example) = schema.get_mut("example").and_then(Value::as_object_mut) {
            example.insert("ruleset".into(), json!(ruleset.id()));
        }
        return schema;
    }
    json!({
        "title": title,
        "description": description,
        "allOf": [
            reference(setup_name),
            if default {
                json!({"type": "object", "properties": {"ruleset": ruleset_field, "seed": seed_field}})
            } else {
                json!({"type": "object", "required": ["ruleset"], "properties": {"ruleset": ruleset_field, "seed": seed_field}})
            }
        ]
    })
}

/// A `oneOf` of `variants` (`(tag, component)`), discriminated by `property`.
fn discriminated(variants: &[(String, String)], property: &str) -> Value {
    let mapping: Map<String, Value> = variants
        .iter()
        .map(|(tag, name)| (tag.clone(), Value::String(format!("#/components/schemas/{name}"))))
        .collect();
    json!({
        "oneOf": variants.iter().map(|(_, name)| reference(name)).collect::<Vec<_>>(),
        "discriminator": {"propertyName": property, "mapping": mapping}
    })
}

/// The request types the routes name only to be replaced above.
fn remove_placeholders(document: &mut Value) {
    if let Some(schemas) = document["components"]["schemas"].as_object_mut() {
        schemas.remove("CreateBattleRequest");
        schemas.remove("CreateCampaignRequest");
    }
}
