//! A backup of the whole log while the server runs: `GET /v1/export`, the same gzipped,
//! checksummed NDJSON file `herald export` writes (api/src/archive.rs), streamed to an admin of
//! the host. sled lets one process open a log, so a running server is the only way to back one up
//! without stopping it; `herald export --url` calls this route.

use actix_web::{get, http::header, HttpRequest, HttpResponse};

use super::{blocking, state};
use crate::{
    auth::request::Authenticated,
    problem::{ApiError, Problem},
};

/// The whole log — every event of `$all`, every stored command and every secret (sealed seeds,
/// token hashes: keep the file as safe as the data directory) — as one gzipped NDJSON file with a
/// SHA-256 trailer (admin of the host). It is a consistent cut of a log being written: every
/// event up to the head when the request came (`X-Herald-Position`, also in the file's header),
/// none after it, never half of a command; events appended meanwhile are in the next backup. `herald import` restores it into an empty
/// log; `herald export --url` downloads and checks it.
#[utoipa::path(get, path = "/v1/export", tag = "operations", operation_id = "export_log",
    responses(
        (status = 200, description = "the export file (gzip; the same bytes as `application/octet-stream` when that is all the client accepts); `X-Herald-Events` says how many events it holds", content(
            (Vec<u8> = "application/gzip"),
            (Vec<u8> = "application/octet-stream"),
        ), headers(
            ("Content-Disposition" = String, description = "`attachment; filename=\"herald-<date>.ndjson.gz\"`"),
            ("X-Herald-Events" = u64, description = "events in the file"),
            ("X-Herald-Position" = u64, description = "the last `$all` position in the file, the cut (absent for an empty log)"),
        )),
        (status = 401, description = "no bearer token, or a revoked or expired one", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "not an admin of the whole host", body = Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = [])))]
#[get("/export")]
pub async fn export_log(req: HttpRequest, Authenticated(actor): Authenticated) -> Result<HttpResponse, ApiError> {
    crate::auth::request::require_host_admin(&req, &actor)?;
    let app = state(&req)?;
    let (file, counts) = blocking(move || {
        let file = tempfile::NamedTempFile::new().map_err(ApiError::internal)?;
        let counts = crate::archive::export(app.store.as_ref(), file.path(), false).map_err(ApiError::internal)?;
        // Open for reading, then let the name go: the open handle keeps the bytes until the
        // response has streamed them, and nothing is left behind on disk.
        let reader = file.reopen().map_err(ApiError::internal)?;
        Ok((reader, counts))
    })
    .await?;
    let length = file.metadata().map_err(ApiError::internal)?.len();
    tracing::info!(actor = %actor.id, events = counts.events, bytes = length, "log exported");
    let body = tokio_util::io::ReaderStream::new(tokio::fs::File::from_std(file));
    let name = format!("herald-{}.ndjson.gz", chrono::Utc::now().format("%Y-%m-%dT%H%M%SZ"));
    // Generated clients that know no gzip type read the file as bytes (as for pictures).
    let accept = req.headers().get(header::ACCEPT).and_then(|value| value.to_str().ok()).unwrap_or("*/*");
    let bytes_only = accept.contains("application/octet-stream") && !accept.contains("application/gzip");
    let mut response = HttpResponse::Ok();
    if let Some(position) = counts.position() {
        response.insert_header(("X-Herald-Position", position.to_string()));
    }
    Ok(response
        .content_type(if bytes_only { "application/octet-stream" } else { "application/gzip" })
        // Already compressed: the compression middleware leaves a response with an encoding alone.
        .insert_header((header::CONTENT_ENCODING, "identity"))
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")))
        .insert_header(("X-Herald-Events", counts.events.to_string()))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(actix_web::body::SizedStream::new(length, body)))
}
