//! HTTP conventions every route follows the same way (docs/API.md "HTTP conventions"):
//!
//! - `405 Method Not Allowed` with `Allow` for a path that exists under another method, and
//!   `OPTIONS` answered `204` with `Allow` (the table of paths and methods is the OpenAPI
//!   document's, so it cannot drift from the routes);
//! - `HEAD` on every `GET` (the handler runs as for `GET`; the body is not sent);
//! - `304 Not Modified` when `If-None-Match` matches the `ETag` of a `GET` without a token;
//! - `Cache-Control` and `Vary` on reads;
//! - no compression for the live event stream (each message must go out as it is made);
//! - the CORS allow-list ([`cors`]).

use std::sync::LazyLock;

use actix_web::{
    body::{BoxBody, EitherBody, MessageBody},
    dev::{ServiceRequest, ServiceResponse},
    http::{
        header::{self, HeaderValue},
        Method, StatusCode,
    },
    HttpRequest, HttpResponse,
};

use crate::problem::ApiError;

/// One segment of a route's path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// Literal text.
    Literal(String),
    /// A `{parameter}`: any one segment.
    Parameter,
    /// Anything, any number of segments (`/docs/…`, `/viewer/…`).
    Rest,
}

/// A route's path and the methods it answers.
#[derive(Debug, Clone)]
struct Route {
    segments: Vec<Segment>,
    methods: Vec<Method>,
}

impl Route {
    fn parse(path: &str) -> Vec<Segment> {
        path.trim_start_matches('/')
            .split('/')
            .map(|segment| match segment {
                "*" => Segment::Rest,
                s if s.starts_with('{') && s.ends_with('}') => Segment::Parameter,
                s => Segment::Literal(s.to_string()),
            })
            .collect()
    }

    /// How specific the match of `path` is (literal segments matched), or `None`.
    fn matches(&self, path: &[&str]) -> Option<usize> {
        let mut literals = 0;
        for (index, segment) in self.segments.iter().enumerate() {
            match segment {
                Segment::Rest => return Some(literals),
                Segment::Parameter if path.get(index).is_some_and(|s| !s.is_empty()) => {}
                Segment::Literal(text) if path.get(index) == Some(&text.as_str()) => literals += 1,
                _ => return None,
            }
        }
        (path.len() == self.segments.len()).then_some(literals)
    }
}

/// Every route: the OpenAPI document's paths and methods, and the routes it does not describe
/// (the document itself, Swagger UI, the viewer).
static ROUTES: LazyLock<Vec<Route>> = LazyLock::new(|| {
    let document = crate::openapi::spec_value();
    let mut routes: Vec<Route> = document["paths"]
        .as_object()
        .map(|paths| {
            paths
                .iter()
                .map(|(path, item)| Route {
                    segments: Route::parse(path),
                    methods: item
                        .as_object()
                        .map(|item| {
                            item.keys()
                                .filter_map(|method| Method::from_bytes(method.to_ascii_uppercase().as_bytes()).ok())
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default();
    for path in ["/", "/openapi.json", "/docs", "/docs/*", "/viewer/*"] {
        routes.push(Route { segments: Route::parse(path), methods: vec![Method::GET] });
    }
    routes
});

/// The methods `path` answers (with `HEAD` for `GET`, and `OPTIONS`), or `None` when no route
/// has that path. Of several routes matching, the most specific wins, as in the router
/// (`/v1/battles/{id}/actions` over `/v1/battles/{id}/{picture}`).
pub fn allowed_methods(path: &str) -> Option<Vec<Method>> {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let scored: Vec<(usize, &Route)> =
        ROUTES.iter().filter_map(|route| route.matches(&segments).map(|score| (score, route))).collect();
    let best = scored.iter().map(|(score, _)| *score).max()?;
    let mut methods: Vec<Method> = Vec::new();
    for (_, route) in scored.iter().filter(|(score, _)| *score == best) {
        for method in &route.methods {
            if !methods.contains(method) {
                methods.push(method.clone());
            }
        }
    }
    if methods.contains(&Method::GET) {
        methods.push(Method::HEAD);
    }
    methods.push(Method::OPTIONS);
    let order =
        |m: &Method| ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].iter().position(|o| *o == m.as_str());
    methods.sort_by_key(order);
    Some(methods)
}

fn allow_header(methods: &[Method]) -> String {
    methods.iter().map(Method::as_str).collect::<Vec<_>>().join(", ")
}

/// What answers a request no route took: `OPTIONS` on a known path (`204` with `Allow`), a
/// method the path does not answer (`405` with `Allow`), or nothing there (`404`).
pub async fn unrouted(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let Some(methods) = allowed_methods(req.path()) else {
        return Err(ApiError::NotFound(format!("no route for {} {}", req.method(), req.path())));
    };
    let allow = allow_header(&methods);
    if req.method() == Method::OPTIONS {
        return Ok(HttpResponse::NoContent().insert_header((header::ALLOW, allow)).finish());
    }
    if methods.contains(req.method()) {
        return Err(ApiError::NotFound(format!("no route for {} {}", req.method(), req.path())));
    }
    Err(ApiError::MethodNotAllowed { detail: format!("{} answers {allow}, not {}", req.path(), req.method()), allow })
}

/// Whether an `If-None-Match` value matches `etag` (weak comparison, RFC 9110 §13.1.2).
pub fn none_match(if_none_match: &str, etag: &str) -> bool {
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_string();
    let etag = opaque(etag);
    if_none_match.split(',').any(|candidate| candidate.trim() == "*" || opaque(candidate) == etag)
}

/// The request half of the conventions: `HEAD` runs as `GET`. Returns whether it was a `HEAD`
/// and the request's `If-None-Match`.
pub fn before(req: &mut ServiceRequest) -> (bool, Option<String>) {
    let head = req.method() == Method::HEAD;
    if head {
        req.head_mut().method = Method::GET;
    }
    let if_none_match = (req.method() == Method::GET)
        .then(|| req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).map(str::to_string))
        .flatten();
    (head, if_none_match)
}

/// The response half: `304` when `If-None-Match` matches the `ETag` of a `GET` made without a
/// token; `Cache-Control: no-cache` (`private, no-store` with a token) on reads of `/v1` that set none (revalidate with the `ETag`); `Vary:
/// Authorization` there (what a reader sees depends on the token); no body for `HEAD`.
pub fn after<B: MessageBody + 'static>(
    response: ServiceResponse<B>,
    head: bool,
    if_none_match: Option<&str>,
) -> ServiceResponse<EitherBody<B, BoxBody>> {
    let mut response = response;
    let is_read = response.request().method() == Method::GET;
    let status = response.status();
    if is_read && response.request().path().starts_with("/v1/") && status.is_success() {
        let fixed = status == StatusCode::OK && fixed_past(response.request());
        let private = response.request().headers().contains_key(header::AUTHORIZATION);
        let headers = response.headers_mut();
        if fixed {
            let value = if private { IMMUTABLE_PRIVATE } else { IMMUTABLE_PUBLIC };
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
        }
        if !headers.contains_key(header::CACHE_CONTROL) {
            let value = if private { PRIVATE_CURRENT } else { "no-cache" };
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
        }
        headers.append(header::VARY, HeaderValue::from_static("Authorization"));
    }
    let etag = response.headers().get(header::ETAG).and_then(|v| v.to_str().ok()).map(str::to_string);
    // The ETag is the stream's version, which says nothing of whose view the stored copy was: a
    // browser revalidating a copy kept for another reader (Chromium does so on a `Vary:
    // Authorization` mismatch instead of treating it as a miss) would be told it is current and
    // show a judge's view to the public or the public's to a judge. So a read with a token is
    // always answered in full, and not kept (`PRIVATE_CURRENT`).
    let with_token = response.request().headers().contains_key(header::AUTHORIZATION);
    let fresh = status == StatusCode::OK
        && !with_token
        && matches!((if_none_match, etag.as_deref()), (Some(condition), Some(etag)) if none_match(condition, etag));
    if fresh {
        let (request, full) = response.into_parts();
        let mut not_modified = HttpResponse::NotModified();
        for name in [header::ETAG, header::CACHE_CONTROL, header::VARY, header::CONTENT_LOCATION, header::EXPIRES] {
            for value in full.headers().get_all(&name) {
                not_modified.append_header((name.clone(), value.clone()));
            }
        }
        return ServiceResponse::new(request, not_modified.finish()).map_into_right_body();
    }
    if head && matches!(response.response().body().size(), actix_web::body::BodySize::Stream) {
        // A streamed body (the live event stream) would never end; HEAD sends none anyway.
        return response.map_body(|_, _| BoxBody::new(())).map_into_right_body();
    }
    response.map_into_left_body()
}

/// `Cache-Control` of a read that can never change (for a reader without a token; with one,
/// the same but `private`: what a token sees is for that token's cache alone).
pub const IMMUTABLE_PUBLIC: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of a current read by a reader with a token: not kept, so that no copy of
/// what that token may see is ever revalidated for another reader (see [`after`]).
pub const PRIVATE_CURRENT: &str = "private, no-store";
/// `Cache-Control` of a read that can never change, for a reader with a token.
pub const IMMUTABLE_PRIVATE: &str = "private, max-age=31536000, immutable";

/// Whether a read is of an ended battle as of a past version (`GET /v1/battles/{id}…?at=N`):
/// the state at a version never changes, and once a battle has ended what each reader may see
/// of it does not either (sealed strategies and the seed are public by then, docs/API.md
/// "Hidden information"). Before the end a past version's view can still change (a strategy
/// sealed then is shown once the battle ends), so it is revalidated like a current one.
fn fixed_past(req: &HttpRequest) -> bool {
    let Some(rest) = req.path().strip_prefix("/v1/battles/") else { return false };
    let at = req.query_string().split('&').any(|pair| pair.strip_prefix("at=").is_some_and(|v| !v.is_empty()));
    if !at {
        return false;
    }
    let id = rest.split('/').next().unwrap_or_default();
    let Ok(id) = serde_json::from_value::<crate::routes::ids::BattleId>(serde_json::Value::String(id.to_string()))
    else {
        return false;
    };
    let Some(state) = req.app_data::<actix_web::web::Data<crate::state::AppState>>() else { return false };
    state
        .service
        .catalog()
        .entry(&id.stream())
        .and_then(|entry| entry.ruleset.summary(entry.state.as_ref()))
        .is_some_and(|summary| summary.ended)
}

/// Whether a request is for a response that must not be compressed: the live event stream,
/// whose messages must reach the reader as they are made.
pub fn uncompressed(req: &ServiceRequest) -> bool {
    req.path() == "/v1/events/live"
}

/// The CORS policy: the configured origins may call every route and read its response headers;
/// preflights are answered (and cached by the browser for an hour).
pub fn cors(origins: &[String]) -> actix_cors::Cors {
    let mut cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "HEAD", "POST", "DELETE", "OPTIONS"])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::IF_MATCH,
            header::IF_NONE_MATCH,
            header::HeaderName::from_static("idempotency-key"),
            header::HeaderName::from_static("x-request-id"),
            header::HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            header::LINK,
            header::RETRY_AFTER,
            header::ALLOW,
            header::HeaderName::from_static("x-request-id"),
        ])
        .max_age(3600);
    for origin in origins {
        cors = cors.allowed_origin(origin);
    }
    cors
}

/// Check the configured CORS origins: each `http://` or `https://` with a host and an optional
/// port, and nothing after (no path, no trailing slash, no `*`).
pub fn check_origins(origins: &[String]) -> anyhow::Result<()> {
    for origin in origins {
        let valid = origin.strip_prefix("https://").or_else(|| origin.strip_prefix("http://")).is_some_and(|rest| {
            !rest.is_empty()
                && rest.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        });
        if !valid {
            anyhow::bail!(
                "invalid CORS origin {origin:?}: give a scheme and host, with a port if not the default, \
                 e.g. https://maps.example.org or http://localhost:5173 (no path, no trailing slash, no *)"
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_specific_route_names_the_methods() {
        let allow = |path: &str| allowed_methods(path).map(|methods| allow_header(&methods));
        assert_eq!(allow("/v1/battles").as_deref(), Some("GET, HEAD, POST, OPTIONS"));
        assert_eq!(allow("/v1/battles/x").as_deref(), Some("GET, HEAD, OPTIONS"));
        assert_eq!(allow("/v1/battles/x/actions").as_deref(), Some("POST, OPTIONS"));
        assert_eq!(allow("/v1/battles/x/table.svg").as_deref(), Some("GET, HEAD, OPTIONS"));
        assert_eq!(allow("/v1/campaigns/x/map.svg").as_deref(), Some("GET, HEAD, OPTIONS"));
        assert_eq!(allow("/docs/index.html").as_deref(), Some("GET, HEAD, OPTIONS"));
        assert_eq!(allow("/v1/battles/x/y/z"), None);
        assert_eq!(allow("/v1/nothing"), None);
    }

    #[test]
    fn if_none_match_compares_weakly_and_takes_lists_and_star() {
        assert!(none_match("\"3\"", "\"3\""));
        assert!(none_match("W/\"3\"", "\"3\""));
        assert!(none_match("\"1\", \"3\"", "\"3\""));
        assert!(none_match("*", "\"3\""));
        assert!(!none_match("\"4\"", "\"3\""));
    }

    #[test]
    fn cors_origins_come_from_a_repeated_flag() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from([
            "herald",
            "--cors-origin",
            "https://maps.example.org",
            "--cors-origin",
            "http://localhost:5173",
        ])
        .expect("parses");
        let settings = cli.serve.settings().expect("settings");
        assert!(cli.command.is_none(), "options without a subcommand serve");
        assert_eq!(settings.cors_origins, ["https://maps.example.org", "http://localhost:5173"]);
        assert!(crate::config::Settings::default().cors_origins.is_empty(), "off by default");
    }

    #[test]
    fn origins_are_a_scheme_and_a_host() {
        assert!(check_origins(&["https://maps.example.org".into(), "http://localhost:5173".into()]).is_ok());
        for bad in ["*", "maps.example.org", "https://maps.example.org/", "https://x.org/app", "ftp://x.org"] {
            assert!(check_origins(&[bad.to_string()]).is_err(), "{bad}");
        }
    }
}
