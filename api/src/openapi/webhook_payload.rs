//! The webhook payload as an OpenAPI 3.1 top-level `webhooks` entry (utoipa 5 cannot describe
//! one): what Herald POSTs to a subscription's URL, one `EventView` per request, with the
//! Standard Webhooks headers (docs/WEBHOOKS.md).

use serde_json::{json, Value};

/// Add `webhooks.event` to `document`.
pub fn describe(document: &mut Value) {
    let header = |name: &str, description: &str, example: &str| {
        json!({
            "name": name, "in": "header", "required": true, "description": description,
            "schema": {"type": "string"}, "example": example
        })
    };
    let Some(root) = document.as_object_mut() else { return };
    root.insert(
        "webhooks".into(),
        json!({
            "event": {
                "post": {
                    "operationId": "webhook_event",
                    "tags": ["webhooks"],
                    // Herald sends it: the receiver checks the signature, not a bearer token.
                    "security": [],
                    "summary": "One event, as the subscription's reader sees it",
                    "description": "Herald POSTs each event a subscription receives to its URL, one event per request, \
in `$all` order (so in order per stream), at least once: a request that does not get a 2xx within 10 s is retried \
after 1 s, 2 s, 4 s, … (doubling, at most 10 min, ±20% jitter) until it does, and the subscription is disabled after \
3 days of failures. A redelivery carries the same `webhook-id`. The body is the `EventView` that `GET /v1/events` \
gives a token of the subscription's role and scope. Signed per Standard Webhooks: `webhook-signature` is `v1,` and \
the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the \
`whsec_` secret; during a rotation's overlap it holds one signature per secret, space-separated. See docs/WEBHOOKS.md.",
                    "parameters": [
                        header("webhook-id", "the delivery's id: the same for every attempt at this event for this subscription", "msg_0193a5f27c1e7b529d3a2f4b8c6d1e0f_0193a5f27c1e7b529d3a2f4b8c6d1e10"),
                        header("webhook-timestamp", "when this attempt was signed, in seconds since the Unix epoch", "1795748400"),
                        header("webhook-signature", "`v1,<base64 HMAC-SHA256>`, one per signing secret, space-separated", "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="),
                    ],
                    "requestBody": {
                        "required": true,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EventView"}}}
                    },
                    "responses": {
                        "2XX": {"description": "received: Herald moves on to the next event"},
                        "4XX": {"description": "refused: retried on the schedule (as is a 3xx, a 5xx, or no answer within 10 s)"},
                        "5XX": {"description": "failed: retried on the schedule"}
                    }
                }
            }
        }),
    );
}
