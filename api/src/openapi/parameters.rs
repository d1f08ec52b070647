//! What the server checks of the parameters every route shares, written into the document, so
//! that nothing it allows is refused as malformed (issue 15): a battle or campaign id in a path
//! is a UUID or its stream name (`routes/ids.rs`), `If-Match` a stream version, bare or quoted,
//! `Idempotency-Key` 1 to 200 characters (`routes::command_meta`); the list filters `campaign` a
//! campaign id and `ruleset` a registered battle ruleset's id (`GET /v1/battles`).

use serde_json::{json, Value};

const UUID: &str = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/// Add the shared parameters' constraints to every operation of `document`.
pub fn shared_parameters(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for operation in item.values_mut() {
            let Some(parameters) = operation.get_mut("parameters").and_then(Value::as_array_mut) else { continue };
            for parameter in parameters {
                // Every int64 query parameter (a version, a position) takes at most i64::MAX,
                // which the server checks (`problem::Query`); said, so a client knows.
                if parameter["in"] == "query" && parameter.pointer("/schema/format") == Some(&json!("int64")) {
                    if let Some(schema) = parameter.get_mut("schema").and_then(Value::as_object_mut) {
                        schema.entry("maximum").or_insert(json!(i64::MAX));
                    }
                }
                let (place, name) = (parameter["in"].as_str().unwrap_or(""), parameter["name"].as_str().unwrap_or(""));
                let constraint = match (place, name) {
                    ("path", "battle_id") => json!({"pattern": format!("^(battle-)?{UUID}$")}),
                    ("path", "campaign_id") => json!({"pattern": format!("^(campaign-)?{UUID}$")}),
                    ("header", "If-Match") => json!({"pattern": "^(\\*|(W/)?\"?[0-9]{1,19}\"?)$"}),
                    ("header", "Idempotency-Key") => json!({"minLength": 1, "maxLength": 200}),
                    ("query", "campaign") => json!({"pattern": format!("^(campaign-)?{UUID}$")}),
                    ("query", "ruleset") => json!({"enum": battle_rulesets()}),
                    _ => continue,
                };
                let Some(schema) = parameter.get_mut("schema").and_then(Value::as_object_mut) else { continue };
                for (key, value) in constraint.as_object().into_iter().flatten() {
                    schema.insert(key.clone(), value.clone());
                }
            }
        }
    }
}

/// Every `POST` takes an `Idempotency-Key` (`routes::command_meta` reads it on every write; the
/// token route keeps its own, `routes::tokens`): a retry with the same key and request answers as
/// the first time, the same key with another request is refused (409, docs/API.md). Declared
/// here for the routes whose annotations do not, so that none is left out.
pub fn idempotency_keys(document: &mut Value) {
    for (method, operation) in super::operations_mut(document) {
        if method != "post" {
            continue;
        }
        let parameters =
            operation.as_object_mut().map(|fields| fields.entry("parameters").or_insert_with(|| json!([])));
        let Some(parameters) = parameters.and_then(Value::as_array_mut) else { continue };
        if !parameters.iter().any(|p| p["in"] == "header" && p["name"] == "Idempotency-Key") {
            parameters.push(json!({
                "name": "Idempotency-Key",
                "in": "header",
                "description": "makes a retry safe: the same key and request answer as the first time; the same key with another request is refused (409)",
                "required": false,
                "schema": {"type": ["string", "null"]}
            }));
        }
    }
}

/// Writes on an existing stream that do not run the caller's command on it as sent: a what-if
/// writes nothing, and a ruling appends at the version its what-if was run on.
const NOT_CONDITIONAL: &[&str] = &["/what-if", "/ruling"];

/// Every `POST` on an existing stream (a path under a battle, a campaign or a stream) takes an
/// `If-Match` (`routes::command_meta` reads it on every write: a 412 if the stream moved on),
/// declared here for the routes whose annotations do not, so that none is left out (six writes,
/// the entropy and the judge's turn among them, once did not say so).
pub fn if_match_headers(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for (path, item) in paths.iter_mut() {
        let on_a_stream = ["/v1/battles/{battle_id}/", "/v1/campaigns/{campaign_id}/", "/v1/streams/{stream}/"]
            .iter()
            .any(|prefix| path.starts_with(prefix));
        if !on_a_stream || NOT_CONDITIONAL.iter().any(|tail| path.ends_with(tail)) {
            continue;
        }
        let Some(operation) = item.get_mut("post").and_then(Value::as_object_mut) else { continue };
        let parameters = operation.entry("parameters").or_insert_with(|| json!([]));
        let Some(parameters) = parameters.as_array_mut() else { continue };
        if !parameters.iter().any(|p| p["in"] == "header" && p["name"] == "If-Match") {
            parameters.push(json!({
                "name": "If-Match",
                "in": "header",
                "description": "the stream version you read; a 412 if it moved on",
                "required": false,
                "schema": {"type": ["string", "null"]}
            }));
        }
    }
}

/// The ids of the registered battle rulesets, which `GET /v1/battles?ruleset=` takes.
fn battle_rulesets() -> Vec<&'static str> {
    herald_domain::registry::all()
        .filter(|ruleset| ruleset.kind() == herald_domain::StreamKind::Battle)
        .map(|ruleset| ruleset.id())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_id_in_a_path_has_its_pattern() {
        let document = crate::openapi::spec_value();
        let mut seen = 0;
        for item in document["paths"].as_object().into_iter().flatten().map(|(_, item)| item) {
            for operation in item.as_object().into_iter().flatten().map(|(_, operation)| operation) {
                for parameter in operation["parameters"].as_array().into_iter().flatten() {
                    if parameter["in"] == "path"
                        && matches!(parameter["name"].as_str(), Some("battle_id" | "campaign_id"))
                    {
                        assert!(parameter["schema"]["pattern"].is_string(), "{parameter:#}");
                        seen += 1;
                    }
                }
            }
        }
        assert!(seen > 40, "{seen} ids in paths");
    }

    #[test]
    fn the_battle_list_filters_say_what_they_take() {
        let document = crate::openapi::spec_value();
        let parameters = document["paths"]["/v1/battles"]["get"]["parameters"].as_array().cloned().unwrap_or_default();
        let schema = |name: &str| {
            parameters.iter().find(|parameter| parameter["name"] == name).map(|parameter| parameter["schema"].clone())
        };
        let rulesets = schema("ruleset").map(|schema| schema["enum"].clone());
        assert!(rulesets.as_ref().and_then(|r| r.as_array()).is_some_and(|r| r.contains(&"warmachine".into())));
        assert!(schema("campaign").is_some_and(|schema| schema["pattern"].is_string()));
    }

    #[test]
    fn every_write_on_a_stream_declares_if_match_and_its_412() {
        let document = crate::openapi::spec_value();
        let mut seen = 0;
        for (path, item) in document["paths"].as_object().into_iter().flatten() {
            let Some(post) = item.get("post") else { continue };
            if !path.starts_with("/v1/battles/{")
                && !path.starts_with("/v1/campaigns/{")
                && !path.starts_with("/v1/streams/")
                || path.ends_with("/what-if")
                || path.ends_with("/ruling")
            {
                continue;
            }
            let declared = post["parameters"].as_array().into_iter().flatten().any(|p| p["name"] == "If-Match");
            assert!(declared, "POST {path} takes If-Match but does not say so");
            assert!(post["responses"]["412"].is_object(), "POST {path} does not list its 412");
            seen += 1;
        }
        assert!(seen > 20, "{seen} writes on streams");
    }
}
