//! The route table: every route under `/v1`, with health, metrics, the OpenAPI document, Swagger
//! UI and the viewer, and what answers a request no route takes. Part of the composition root:
//! it is the one place that names the routes, the document and the HTTP conventions together.

use actix_web::{http::header, web, HttpResponse};
use utoipa_swagger_ui::SwaggerUi;

use crate::{http, openapi, routes};

/// Mount every route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    // `/v1` first, since it takes almost every request and actix tries services in turn. Each
    // collection is a scope matched by its fixed prefix, so a request is matched against its own
    // collection's routes only, not every route of the API (each a regular expression: 9% of the
    // server's CPU under writes, docs/PERFORMANCE.md "The command path").
    cfg.service(
        web::scope("/v1")
            .service(routes::rulesets::list_rulesets)
            .service(routes::backup::export_log)
            .service(
                web::scope("/battles")
                    .service(routes::battles::create_battle)
                    .service(routes::battles::list_battles)
                    .service(routes::battles::get_battle)
                    .service(routes::battles::contribute_entropy)
                    .service(routes::battles::post_action)
                    .service(routes::battles::reveal_seed)
                    .service(routes::battles::verify_battle)
                    .service(routes::battles::apply_tactical_result)
                    .service(routes::coalition_battles::submit_strategy)
                    .service(routes::coalition_battles::get_strategy)
                    .service(routes::coalition_battles::get_formulas)
                    .service(routes::coalition_battles::assign_strategy_bonus)
                    .service(routes::coalition_battles::resolve_battle)
                    .service(routes::coalition_battles::override_casualties)
                    .service(routes::coalition_battles::assign_involvement)
                    .service(routes::battles::get_sheet)
                    .service(routes::battles::get_picture),
            )
            .service(
                web::scope("/campaigns")
                    .service(routes::campaigns::create_campaign)
                    .service(routes::campaigns::list_campaigns)
                    .service(routes::campaigns::get_campaign)
                    .service(routes::campaigns::get_map)
                    .service(routes::campaigns::get_map_svg)
                    .service(routes::campaigns::list_armies)
                    .service(routes::campaigns::list_orders)
                    .service(routes::campaigns::post_orders)
                    .service(routes::campaigns::turn_report)
                    .service(routes::campaigns::set_controllers)
                    .service(routes::campaigns::open_turn)
                    .service(routes::campaigns::rule_on_army)
                    .service(routes::campaigns::contribute_turn_entropy)
                    .service(routes::campaigns::close_round)
                    .service(routes::campaigns::change_troops)
                    .service(routes::campaigns::lock_turn)
                    .service(routes::campaigns::adjudicate_turn)
                    .service(routes::campaigns::request_control_change)
                    .service(routes::campaigns::transfer_control_authority)
                    .service(routes::campaigns::authorize_emergency_control)
                    .service(routes::campaigns::set_contingency)
                    .service(routes::campaigns::declare_inactive)
                    .service(routes::campaigns::declare_active)
                    .service(routes::campaigns::reject_inactivity)
                    .service(routes::campaigns::change_rank)
                    .service(routes::campaigns::permit_control_change)
                    .service(routes::campaigns::get_control)
                    .service(routes::campaigns::appoint_judge)
                    .service(routes::campaigns::get_judges)
                    .service(routes::campaigns::overrule)
                    .service(routes::campaigns::impose_sanction)
                    .service(routes::campaigns::call_vote)
                    .service(routes::campaigns::list_votes)
                    .service(routes::campaigns::cast_vote)
                    .service(routes::campaigns::close_vote)
                    .service(routes::campaigns::edit_raider_order)
                    .service(routes::campaigns::add_player)
                    .service(routes::campaigns::offer_customisation)
                    .service(routes::campaigns::customise_army)
                    .service(routes::campaigns::change_screen_name),
            )
            .service(
                web::scope("/streams")
                    .service(routes::events::stream_events)
                    .service(routes::events::stream_dice)
                    .service(routes::events::verify_stream)
                    .service(routes::rolls::judge_roll)
                    .service(routes::disputes::file_dispute)
                    .service(routes::disputes::list_disputes)
                    .service(routes::disputes::get_dispute)
                    .service(routes::disputes::what_if)
                    .service(routes::disputes::rule_on_dispute),
            )
            .service(web::scope("/events").service(routes::events::live_events).service(routes::events::all_events))
            .service(
                web::scope("/tokens")
                    .service(routes::tokens::create_token)
                    .service(routes::tokens::list_tokens)
                    .service(routes::tokens::whoami)
                    .service(routes::tokens::revoke_token),
            )
            .service(
                web::scope("/webhooks")
                    .service(routes::webhooks::create_webhook)
                    .service(routes::webhooks::list_webhooks)
                    .service(routes::webhooks::get_webhook)
                    .service(routes::webhooks::delete_webhook)
                    .service(routes::webhooks::pause_webhook)
                    .service(routes::webhooks::resume_webhook)
                    .service(routes::webhooks::rotate_webhook_secret)
                    .service(routes::webhooks::webhook_attempts)
                    .service(routes::webhooks::redeliver_webhook),
            ),
    )
    .service(routes::health::healthz)
    .service(routes::health::readyz)
    .service(routes::health::metrics)
    .service(web::resource("/openapi.json").route(web::get().to(openapi_json)).default_service(web::to(http::unrouted)))
    .service(
        web::resource("/docs")
            .route(
                web::get().to(|| async { HttpResponse::Found().insert_header((header::LOCATION, "/docs/")).finish() }),
            )
            .default_service(web::to(http::unrouted)),
    )
    .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", openapi::spec()))
    .service(web::resource("/").route(web::get().to(routes::viewer::index)).default_service(web::to(http::unrouted)))
    .service(
        web::resource("/viewer/{path:.*}")
            .route(web::get().to(routes::viewer::file))
            .default_service(web::to(http::unrouted)),
    )
    .default_service(web::to(http::unrouted));
}

/// The document, generated once (it is the same for the life of the binary, and generating it
/// takes seconds in a debug build). Its `ETag` is a hash of it, so clients revalidate cheaply.
async fn openapi_json() -> HttpResponse {
    static DOCUMENT: std::sync::LazyLock<(String, String)> = std::sync::LazyLock::new(|| {
        use sha2::Digest;
        let text = openapi::spec_json();
        let tag = format!("\"{}\"", &hex::encode(sha2::Sha256::digest(text.as_bytes()))[..16]);
        (text, tag)
    });
    let (text, tag) = &*DOCUMENT;
    HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((header::ETAG, tag.as_str()))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(text.as_str())
}
