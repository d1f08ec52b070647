//! The statuses every route shares, documented on every operation that can answer them.
//!
//! Each route documents its own successes and rule violations; the answers the HTTP layer gives
//! the same way everywhere are added here, so that no route can forget one (issue 15: "every
//! status a route can return is in the spec"): an id or other path parameter that is malformed
//! (400) or names nothing (404), a query or body that does not parse (400), a missing or unknown
//! bearer token on a route that needs one (401), an `Idempotency-Key` reused for another request
//! (409), an `If-Match` that is not the stream's version (412). A route's own wording is kept
//! where it has one.

use serde_json::{json, Value};

/// The operations that take a bearer token optionally (`auth::request::MaybeAuthenticated`): answered
/// without one, a token changes what they show, and a token presented that the server does not
/// know (or revoked, or expired) is refused with 401 like on the routes that need one.
const OPTIONAL_TOKEN: &[&str] = &[
    "get_battle",
    "get_battle_picture",
    "get_battle_sheet",
    "verify_battle",
    "list_orders",
    "list_votes",
    "get_formulas",
    "get_strategy",
    "all_events",
    "live_events",
    "stream_dice",
    "stream_events",
    "verify_stream",
    "metrics",
];

/// Add the shared statuses to every operation of `document`.
pub fn shared_statuses(document: &mut Value) {
    for (_, operation) in super::operations_mut(document) {
        for (status, description) in shared_for(operation) {
            let responses = &mut operation["responses"];
            if responses.get(status).is_none() {
                responses[status] = problem(description);
            }
        }
    }
}

/// The shared statuses `operation` can answer, with their descriptions.
fn shared_for(operation: &Value) -> Vec<(&'static str, &'static str)> {
    let parameters = operation.get("parameters").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let in_path = parameters.iter().any(|p| p["in"] == "path");
    let in_query = parameters.iter().any(|p| p["in"] == "query");
    let body = operation.get("requestBody").is_some();
    let header = |name: &str| parameters.iter().any(|p| p["in"] == "header" && p["name"] == name);
    let token_required = operation
        .get("security")
        .and_then(Value::as_array)
        .is_some_and(|alternatives| !alternatives.is_empty() && alternatives.iter().all(|a| a != &json!({})));
    let optional_token =
        operation.get("operationId").and_then(Value::as_str).is_some_and(|id| OPTIONAL_TOKEN.contains(&id));
    let mut statuses = Vec::new();
    if in_path || in_query || body {
        statuses.push(("400", "malformed request: a path parameter, query or body that does not parse"));
    }
    if token_required {
        statuses.push(("401", "no bearer token, or one the server does not know"));
    } else if optional_token {
        statuses.push(("401", "a bearer token the server does not know, or a revoked or expired one (none is needed)"));
    }
    if in_path {
        statuses.push(("404", "nothing with that id"));
    }
    if header("Idempotency-Key") {
        statuses.push(("409", "this Idempotency-Key was already used for another stream or a different request"));
    }
    if header("If-Match") {
        statuses.push(("412", "If-Match is not the stream's current version"));
    }
    statuses
}

/// A problem+json response.
fn problem(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    })
}
