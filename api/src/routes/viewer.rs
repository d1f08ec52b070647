//! The web viewer for people (`/`): plain ES modules, HTML and CSS embedded in the binary, so it
//! works offline and what the repository holds is exactly what is served (docs/adr/0002).
//!
//! The page reads the public `/v1` routes like any client; it has no route of its own but these.

use std::sync::OnceLock;

use actix_web::{http::header, web, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};

use crate::problem::ApiError;

/// One embedded file: its path under `/viewer/`, its content type and its bytes.
pub struct Asset {
    /// The path under `api/viewer/` and `/viewer/`.
    pub path: &'static str,
    /// The `Content-Type` it is served with.
    pub content_type: &'static str,
    /// The file.
    pub body: &'static str,
}

macro_rules! asset {
    ($path:literal, $content_type:literal) => {
        Asset { path: $path, content_type: $content_type, body: include_str!(concat!("../../viewer/", $path)) }
    };
}

/// Every file of the viewer (a test checks that every file under `api/viewer/` is listed).
pub const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("app.js", "text/javascript; charset=utf-8"),
    asset!("api.js", "text/javascript; charset=utf-8"),
    asset!("route.js", "text/javascript; charset=utf-8"),
    asset!("home.js", "text/javascript; charset=utf-8"),
    asset!("campaign.js", "text/javascript; charset=utf-8"),
    asset!("audit.js", "text/javascript; charset=utf-8"),
    asset!("battle.js", "text/javascript; charset=utf-8"),
    asset!("disputes.js", "text/javascript; charset=utf-8"),
    asset!("timeline.js", "text/javascript; charset=utf-8"),
    asset!("render.js", "text/javascript; charset=utf-8"),
    asset!("describe.js", "text/javascript; charset=utf-8"),
    asset!("live.js", "text/javascript; charset=utf-8"),
    asset!("sheet.js", "text/javascript; charset=utf-8"),
    asset!("dice/chacha20.js", "text/javascript; charset=utf-8"),
    asset!("dice/sha256.js", "text/javascript; charset=utf-8"),
    asset!("dice/verify.js", "text/javascript; charset=utf-8"),
    asset!("dice/campaign.js", "text/javascript; charset=utf-8"),
];

/// The page may load and fetch only from Herald itself; SVG pictures are inlined as markup
/// (their presentation attributes need no inline style, but the page sets a few).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The viewer's page, at `/` (the route table mounts it).
pub async fn index(req: HttpRequest) -> HttpResponse {
    match ASSETS.iter().find(|asset| asset.path == "index.html") {
        Some(asset) => respond(&req, asset),
        None => HttpResponse::NotFound().finish(),
    }
}

/// One of the viewer's files, at `/viewer/{path}`.
pub async fn file(req: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let path = path.into_inner();
    ASSETS
        .iter()
        .find(|asset| asset.path == path)
        .map(|asset| respond(&req, asset))
        .ok_or_else(|| ApiError::NotFound(format!("the viewer has no file {path}")))
}

/// The asset with an `ETag` of its content: browsers revalidate (`no-cache`) and get a 304
/// until a new binary serves other bytes.
fn respond(req: &HttpRequest, asset: &Asset) -> HttpResponse {
    let etag = etag_of(asset);
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.split(',').any(|tag| tag.trim() == etag));
    let mut response = if fresh { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    response
        .insert_header((header::ETAG, etag.to_string()))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"));
    if fresh {
        response.finish()
    } else {
        response.content_type(asset.content_type).body(asset.body)
    }
}

fn etag_of(asset: &Asset) -> &'static str {
    static TAGS: OnceLock<Vec<String>> = OnceLock::new();
    let tags = TAGS.get_or_init(|| {
        ASSETS
            .iter()
            .map(|asset| format!("\"{}\"", &hex::encode(Sha256::digest(asset.body.as_bytes()))[..16]))
            .collect()
    });
    ASSETS
        .iter()
        .position(|candidate| candidate.path == asset.path)
        .and_then(|index| tags.get(index))
        .map_or("\"0\"", String::as_str)
}
