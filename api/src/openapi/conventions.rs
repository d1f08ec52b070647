//! The HTTP conventions every route follows (crate::http, docs/API.md "HTTP conventions"),
//! written into every operation they apply to, so that no route can forget one: the response
//! headers (`X-Request-Id` on every answer; `ETag`, `Cache-Control`, `Location`, `Link` where
//! sent), `If-None-Match` and `304` on the reads that send an `ETag`, `413` and `415` on every
//! operation that takes a body, and what `If-Match` accepts. (`405` and `OPTIONS` concern the
//! methods a path does *not* declare, so they are in the document's description, not on an
//! operation.)

use serde_json::{json, Map, Value};

/// The reads that send the stream version as an `ETag` and answer `304` to `If-None-Match`.
const ETAG_READS: &[&str] = &[
    "get_battle",
    "get_battle_picture",
    "get_battle_sheet",
    "get_strategy",
    "get_campaign",
    "get_map",
    "get_map_svg",
    "list_armies",
    "list_orders",
    "get_control",
    "list_votes",
    "get_judges",
    "stream_events",
];

/// The reads paged with a `Link: <…>; rel="next"` header.
const PAGED: &[&str] = &[
    "all_events",
    "stream_events",
    "list_battles",
    "list_campaigns",
    "list_armies",
    "list_orders",
    "list_votes",
    "list_tokens",
];

/// Add the conventions to every operation of `document`.
pub fn http_conventions(document: &mut Value) {
    let components = document["components"].as_object_mut().map(|c| c.entry("headers").or_insert(json!({})));
    if let Some(Value::Object(headers)) = components {
        for (name, description) in HEADERS {
            headers.insert((*name).to_string(), json!({"description": description, "schema": {"type": "string"}}));
        }
    }
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (method, operation) in item.iter_mut() {
            let id = operation["operationId"].as_str().unwrap_or_default().to_string();
            let Some(operation) = operation.as_object_mut() else { continue };
            let read = method == "get";
            let body = operation.contains_key("requestBody");
            if_match_accepts_star(operation);
            if read && ETAG_READS.contains(&id.as_str()) {
                add_parameter(
                    operation,
                    json!({"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"},
                           "description": "the `ETag` you hold (or several, comma-separated, or `*`): a `304` with no body when it is still current (reads without a token only: with one the answer is always in full)"}),
                );
            }
            let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else { continue };
            if body {
                for (status, description) in [
                    ("413", "the body is larger than 1 MiB"),
                    ("415", "the body is not JSON: send `Content-Type: application/json`"),
                ] {
                    responses.entry(status).or_insert_with(|| problem(description));
                }
            }
            if !read && path.starts_with("/v1/") {
                // Any write: the store refuses it while the log's disk is full (OPERATIONS.md).
                responses.entry("507").or_insert_with(|| {
                    problem("`storage_full`: the disk holding the log is full; the write was not recorded, reads go on, writes resume by themselves once space is freed (`Retry-After`)")
                });
                // And while the store cannot be reached (PostgreSQL away): OPERATIONS.md.
                responses.entry("503").or_insert_with(|| {
                    problem("`storage_unavailable`: the store cannot be reached for now (the database stopped or restarting, a lost connection); the write was not recorded, or, when the detail says the outcome is unknown, retry with the same `Idempotency-Key` to learn which; the server reconnects by itself (`Retry-After`)")
                });
            }
            if read && ETAG_READS.contains(&id.as_str()) {
                responses.entry("304").or_insert_with(|| {
                    json!({"description": "not modified: the `If-None-Match` sent matches the current `ETag`; no body",
                           "headers": {"ETag": header("ETag"), "Cache-Control": header("Cache-Control")}})
                });
            }
            for (status, response) in responses.iter_mut() {
                let command = response.pointer("/content/application~1json/schema/$ref").and_then(Value::as_str)
                    == Some("#/components/schemas/CommandResponse");
                let Some(response) = response.as_object_mut() else { continue };
                let headers = response.entry("headers").or_insert(json!({}));
                let Some(headers) = headers.as_object_mut() else { continue };
                headers.insert("X-Request-Id".into(), header("X-Request-Id"));
                let success = status.starts_with('2');
                if success && ((read && ETAG_READS.contains(&id.as_str())) || command) {
                    headers.insert("ETag".into(), header("ETag"));
                }
                if success && read && path.starts_with("/v1/") {
                    headers.insert("Cache-Control".into(), header("Cache-Control"));
                }
                if status == "201" && command {
                    headers.insert("Location".into(), header("Location"));
                }
                if success && read && PAGED.contains(&id.as_str()) {
                    headers.insert("Link".into(), header("Link"));
                }
                if status == "429" || status == "503" || status == "507" {
                    headers.insert("Retry-After".into(), header("Retry-After"));
                }
            }
        }
    }
}

/// The documented response headers.
const HEADERS: &[(&str, &str)] = &[
    ("X-Request-Id", "the request's id: the client's own `X-Request-Id` if it sent one (1–128 characters), else a new UUIDv7; recorded in the events a write appends as `correlation_id`"),
    ("ETag", "the stream's version, quoted (`\"7\"`): send it as `If-Match` to make a write conditional, or as `If-None-Match` to revalidate a read made without a token"),
    ("Cache-Control", "`no-cache` on current reads without a token (revalidate with `If-None-Match`), `private, no-store` with one; `public, max-age=31536000, immutable` (`private, …` with a token) on a past version (`?at=`) of a battle that has ended, which can never change"),
    ("Location", "where the created battle or campaign is: `/v1/battles/<uuid>`, `/v1/campaigns/<uuid>` (paths take the bare UUID or the stream name `battle-<uuid>`)"),
    ("Link", "the next page, `<…>; rel=\"next\"`, when there is one"),
    ("Retry-After", "seconds to wait before trying again"),
];

fn header(name: &str) -> Value {
    json!({"$ref": format!("#/components/headers/{name}")})
}

fn problem(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    })
}

fn add_parameter(operation: &mut Map<String, Value>, parameter: Value) {
    let parameters = operation.entry("parameters").or_insert(json!([]));
    if let Some(parameters) = parameters.as_array_mut() {
        if !parameters.iter().any(|p| p["name"] == parameter["name"] && p["in"] == parameter["in"]) {
            parameters.push(parameter);
        }
    }
}

/// Every `If-Match` parameter says what it accepts, `*` included.
fn if_match_accepts_star(operation: &mut Map<String, Value>) {
    let Some(parameters) = operation.get_mut("parameters").and_then(Value::as_array_mut) else { return };
    for parameter in parameters.iter_mut().filter(|p| p["in"] == "header" && p["name"] == "If-Match") {
        parameter["description"] = json!(
            "the stream version you read (`\"3\"`, the `ETag`): a `412` if the stream moved on; or `*`: the stream must exist"
        );
    }
}
