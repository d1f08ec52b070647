//! The OpenAPI 3.1 document, generated from the handlers' annotations and the ruleset registry.
//!
//! utoipa describes the routes; [`registry`] adds every registered ruleset's set-up, command,
//! event and view schemas and points the shared battle routes at them; [`normalize`] makes the
//! result a contract that common client generators take as it is (named, titled union variants
//! with discriminators; no constructs they cannot read). `herald openapi` prints it;
//! `openapi/openapi.json` is the committed copy, and a test fails when the two differ.

mod contract;
mod conventions;
mod examples;
mod hidden;
mod limits;
mod normalize;
mod parameters;
mod registry;
mod responses;
mod webhook_payload;

use utoipa::{
    openapi::security::{Http, HttpAuthScheme, SecurityScheme},
    Modify, OpenApi,
};

use crate::routes::{
    backup, battles, campaigns, coalition_battles, disputes, events, health, rolls, rulesets, tokens, webhooks,
};

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Herald",
        description = "An event-sourced referee service for tabletop wargame campaigns. Every action is an \
event; every die is drawn from a committed, seeded ChaCha20 tape and recorded, so any battle can be \
replayed and verified. Errors are RFC 9457 problem+json with a stable `code` and, for rule violations, \
the `rule` they come from; a body that does not fit its schema names each invalid field by a JSON \
Pointer in `errors`. HTTP conventions (docs/API.md): a method a path does not answer is `405` with \
`Allow` (and `OPTIONS` lists them); `HEAD` answers every `GET`; `If-None-Match` gives `304`; \
responses are compressed (gzip, br, zstd) when the client accepts it; bodies are JSON of at most \
1 MiB (`415`, `413`); browser apps on the origins the host allows may call it (CORS). See README.md \
and docs/ in the repository.",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(
        rulesets::list_rulesets,
        battles::create_battle, battles::list_battles, battles::get_battle, battles::get_picture, battles::get_sheet,
        battles::post_action, battles::contribute_entropy, battles::reveal_seed, battles::verify_battle,
        battles::apply_tactical_result,
        coalition_battles::submit_strategy, coalition_battles::get_strategy, coalition_battles::get_formulas,
        coalition_battles::assign_strategy_bonus,
        coalition_battles::resolve_battle, coalition_battles::override_casualties, coalition_battles::assign_involvement,
        campaigns::create_campaign, campaigns::list_campaigns, campaigns::get_campaign, campaigns::get_map,
        campaigns::get_map_svg, campaigns::list_armies, campaigns::list_orders, campaigns::post_orders,
        campaigns::turn_report, campaigns::set_controllers, campaigns::open_turn, campaigns::rule_on_army, campaigns::contribute_turn_entropy, campaigns::close_round, campaigns::change_troops,
        campaigns::lock_turn, campaigns::adjudicate_turn,
        campaigns::request_control_change, campaigns::transfer_control_authority, campaigns::authorize_emergency_control,
        campaigns::set_contingency, campaigns::declare_inactive, campaigns::declare_active, campaigns::reject_inactivity,
        campaigns::change_rank, campaigns::permit_control_change, campaigns::get_control,
        campaigns::appoint_judge, campaigns::get_judges, campaigns::overrule, campaigns::impose_sanction,
        campaigns::call_vote, campaigns::list_votes, campaigns::cast_vote, campaigns::close_vote,
        campaigns::edit_raider_order, campaigns::add_player, campaigns::offer_customisation, campaigns::customise_army,
        campaigns::change_screen_name,
        events::all_events, events::stream_events, events::stream_dice, events::verify_stream, events::live_events,
        rolls::judge_roll, disputes::file_dispute, disputes::list_disputes, disputes::get_dispute, disputes::what_if,
        disputes::rule_on_dispute, tokens::create_token, tokens::list_tokens, tokens::revoke_token, tokens::whoami,
        webhooks::create_webhook, webhooks::list_webhooks, webhooks::get_webhook, webhooks::delete_webhook,
        webhooks::pause_webhook, webhooks::resume_webhook, webhooks::rotate_webhook_secret,
        webhooks::webhook_attempts, webhooks::redeliver_webhook,
        health::healthz, health::readyz, health::metrics, backup::export_log,
    ),
    modifiers(&BearerAuth),
    tags(
        (name = "rulesets", description = "The registered rulesets: ids, rules versions, schemas, docs"),
        (name = "battles", description = "Battles of every registered ruleset: open, list, read, picture, actions, entropy, reveal, verify, tactical results"),
        (name = "coalition battles", description = "Coalition battles decided by the Battle Judge (seed 003 §4.2–4.5): strategies with kill and capture attempts, bonuses, involvement in 2v1 and 2v2 battles, resolution, casualties"),
        (name = "campaigns", description = "Coalition campaign rounds: map, armies, turns, orders, adjudication, control, judges and sanctions, votes, mercenaries, new players (seed 003 ch. 1–6)"),
        (name = "events", description = "The event log: streams, $all, live events, verification"),
        (name = "disputes", description = "Disputes on any stream's events, what-if replays and judges' rulings (docs/API.md \"Disputes\")"),
        (name = "auth", description = "Bearer tokens and roles"),
        (name = "webhooks", description = "Webhook subscriptions: events pushed to a bot's URL, signed per Standard Webhooks, retried, with a delivery log (docs/WEBHOOKS.md)"),
        (name = "operations", description = "Health, readiness, metrics, backups"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("bearer", SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
    }
}

/// Every operation of `document` (its `get`, `post`, `put`, `patch` and `delete` objects, not a
/// path item's shared `parameters`), with its method: what each rewriting step walks.
pub(crate) fn operations_mut(
    document: &mut serde_json::Value,
) -> impl Iterator<Item = (&String, &mut serde_json::Value)> {
    document
        .get_mut("paths")
        .and_then(serde_json::Value::as_object_mut)
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(serde_json::Value::as_object_mut)
        .flat_map(|item| item.iter_mut())
        .filter(|(method, _)| matches!(method.as_str(), "get" | "post" | "put" | "patch" | "delete"))
}

/// The document as JSON: the routes' annotations, the registry's schemas, normalized.
pub fn spec_value() -> serde_json::Value {
    let mut document = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
    registry::describe_rulesets(&mut document);
    normalize::for_generators(&mut document);
    contract::lint_clean(&mut document);
    examples::examples(&mut document);
    webhook_payload::describe(&mut document);
    document
}

/// The document, for Swagger UI.
pub fn spec() -> utoipa::openapi::OpenApi {
    serde_json::from_value(spec_value()).unwrap_or_else(|_| ApiDoc::openapi())
}

/// The document as pretty JSON, exactly as committed in `openapi/openapi.json`.
pub fn spec_json() -> String {
    serde_json::to_string_pretty(&spec_value()).unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"))
}
