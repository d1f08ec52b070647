//! Errors as RFC 9457 problem+json, with every code declared once in [`CODES`].
//!
//! Causes stay in the logs; responses say what the client can act on: a stable `code`, a
//! human `detail`, and for rule violations the `rule` it comes from.

use actix_web::{http::StatusCode, HttpResponse, ResponseError};
use herald_domain::RuleError;
use herald_store::StoreError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A problem+json body.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "https://herald.example/problems/rule-violation", "title": "Rule violation", "status": 422,
    "code": "coalition.battle.strategy_after_deadline",
    "detail": "strategies must arrive before the deadline 2026-11-21T12:00:00Z",
    "rule": "seed 003 §4.1.1"
}))]
pub struct Problem {
    /// A URI naming the problem type.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// Short summary of the problem type.
    pub title: String,
    /// HTTP status.
    pub status: u16,
    /// Stable error code, for clients to branch on.
    pub code: String,
    /// What went wrong in this case.
    pub detail: String,
    /// The rule violated (`seed 003 §4.1.1`), for rule violations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For a request body that does not fit its schema: each invalid field, named by a JSON
    /// Pointer (RFC 6901) into the body, with what is wrong with it (an RFC 9457 extension
    /// member). Absent when the problem is not about fields.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

/// One invalid field of a request body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"pointer": "/bonus", "detail": "invalid type: string \"six\", expected an integer from 0 to 255"}))]
pub struct FieldError {
    /// A JSON Pointer (RFC 6901) to the field in the request body (`""` for the body itself).
    pub pointer: String,
    /// What is wrong with it.
    pub detail: String,
}

/// Every generic error code: code, status, title. Rule violations carry the rule's own code.
pub const CODES: &[(&str, u16, &str)] = &[
    ("malformed_request", 400, "Malformed request"),
    ("unauthenticated", 401, "Authentication required"),
    ("forbidden", 403, "Forbidden"),
    ("not_found", 404, "Not found"),
    ("method_not_allowed", 405, "Method not allowed"),
    ("conflict", 409, "Conflict"),
    ("precondition_failed", 412, "Precondition failed"),
    ("content_too_large", 413, "Content too large"),
    ("unsupported_media_type", 415, "Unsupported media type"),
    ("rule_violation", 422, "Rule violation"),
    ("too_many_requests", 429, "Too many requests"),
    ("internal", 500, "Internal error"),
    ("unavailable", 503, "Service unavailable"),
    ("storage_full", 507, "Insufficient storage"),
    ("storage_unavailable", 503, "Storage unavailable"),
];

/// An API error.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request could not be parsed (400).
    #[error("{0}")]
    Malformed(String),
    /// A body that does not fit its schema (400), with a pointer to each invalid field.
    #[error("{detail}")]
    Invalid {
        /// What went wrong.
        detail: String,
        /// The invalid fields.
        errors: Vec<FieldError>,
    },
    /// No or an unknown bearer token (401).
    #[error("{0}")]
    Unauthenticated(String),
    /// The role may not do this (403), with the rule when a rule says so.
    #[error("{detail}")]
    Forbidden {
        /// Specific code.
        code: String,
        /// What was refused.
        detail: String,
        /// The rule.
        rule: Option<String>,
    },
    /// No such resource (404).
    #[error("{0}")]
    NotFound(String),
    /// The path exists, the method does not (405, with `Allow`).
    #[error("{detail}")]
    MethodNotAllowed {
        /// What was refused.
        detail: String,
        /// The methods the path answers, for the `Allow` header.
        allow: String,
    },
    /// The body is larger than the server takes (413).
    #[error("{0}")]
    ContentTooLarge(String),
    /// The body is not JSON (`Content-Type` other than `application/json` or `…+json`) (415).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// The stream moved on since it was read (409).
    #[error("{0}")]
    Conflict(String),
    /// `If-Match` did not match the current version (412).
    #[error("{0}")]
    PreconditionFailed(String),
    /// The rules refuse the command (422).
    #[error("{0}")]
    Rule(RuleError),
    /// This client holds its share of something limited (429, with `Retry-After`).
    #[error("{0}")]
    TooManyRequests(String),
    /// The service cannot answer yet (503, with `Retry-After`): catching up after a start, or
    /// at a limit of the whole server.
    #[error("{0}")]
    Unavailable(String),
    /// The disk holding the log is full: the write was not recorded; reads go on, and writes
    /// resume by themselves once the host frees space (507, with `Retry-After`).
    #[error("{0}")]
    StorageFull(String),
    /// The store cannot be reached for now (PostgreSQL stopped, restarting or unreachable, a
    /// connection it ended, a failing disk): nothing was recorded, or, when the connection was
    /// lost while a write committed, nobody knows yet and the detail says so (a retry with the
    /// same `Idempotency-Key` learns which). The store reconnects by itself (503, with
    /// `Retry-After`); the detail names the cause.
    #[error("{0}")]
    StorageUnavailable(String),
    /// Something broke inside; the cause is logged, not returned (500).
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    /// Wrap an internal failure, logging its cause.
    pub fn internal(error: impl Into<anyhow::Error>) -> Self {
        let error = error.into();
        tracing::error!(error = format!("{error:#}"), "internal error");
        Self::Internal(error)
    }

    fn parts(&self) -> (&'static str, String, Option<String>) {
        match self {
            Self::Malformed(detail) | Self::Invalid { detail, .. } => ("malformed_request", detail.clone(), None),
            Self::MethodNotAllowed { detail, .. } => ("method_not_allowed", detail.clone(), None),
            Self::ContentTooLarge(detail) => ("content_too_large", detail.clone(), None),
            Self::UnsupportedMediaType(detail) => ("unsupported_media_type", detail.clone(), None),
            Self::Unauthenticated(detail) => ("unauthenticated", detail.clone(), None),
            Self::Forbidden { detail, rule, .. } => ("forbidden", detail.clone(), rule.clone()),
            Self::NotFound(detail) => ("not_found", detail.clone(), None),
            Self::Conflict(detail) => ("conflict", detail.clone(), None),
            Self::PreconditionFailed(detail) => ("precondition_failed", detail.clone(), None),
            Self::Rule(rule) => ("rule_violation", rule.message.clone(), Some(rule.rule.clone())),
            Self::TooManyRequests(detail) => ("too_many_requests", detail.clone(), None),
            Self::Unavailable(detail) => ("unavailable", detail.clone(), None),
            Self::StorageFull(detail) => ("storage_full", detail.clone(), None),
            Self::StorageUnavailable(detail) => ("storage_unavailable", detail.clone(), None),
            Self::Internal(_) => ("internal", "the server failed to handle the request; it is logged".into(), None),
        }
    }

    /// The problem body.
    pub fn problem(&self) -> Problem {
        let (kind, detail, rule) = self.parts();
        let (_, status, title) =
            CODES.iter().find(|(code, ..)| *code == kind).copied().unwrap_or(("internal", 500, "Internal error"));
        let code = match self {
            Self::Rule(rule) => rule.code.clone(),
            Self::Forbidden { code, .. } => code.clone(),
            _ => kind.to_string(),
        };
        Problem {
            problem_type: format!("https://herald.example/problems/{}", kind.replace('_', "-")),
            title: title.to_string(),
            status,
            code,
            detail,
            rule,
            errors: match self {
                Self::Invalid { errors, .. } => errors.clone(),
                _ => Vec::new(),
            },
        }
    }
}

impl From<RuleError> for ApiError {
    fn from(error: RuleError) -> Self {
        if error.forbidden {
            Self::Forbidden { code: error.code, detail: error.message, rule: Some(error.rule) }
        } else {
            Self::Rule(error)
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::WrongExpectedVersion { .. } => Self::Conflict(error.to_string()),
            StoreError::CommandIdReused { .. } => Self::Conflict(error.to_string()),
            StoreError::Invalid(detail) => Self::Malformed(detail),
            StoreError::StorageFull(_) => Self::StorageFull(
                "the server's disk is full: this write was not recorded; reads go on, and writes resume once the host frees space"
                    .into(),
            ),
            StoreError::Unavailable(detail) => {
                Self::StorageUnavailable(format!("the store cannot be used for now: {detail}"))
            }
            other => Self::internal(other),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.problem().status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let problem = self.problem();
        let mut response = HttpResponse::build(self.status_code());
        response.content_type("application/problem+json");
        if matches!(self, Self::Unauthenticated(_)) {
            response.insert_header(("WWW-Authenticate", "Bearer"));
        }
        if let Self::MethodNotAllowed { allow, .. } = self {
            response.insert_header(("Allow", allow.as_str()));
        }
        if matches!(self, Self::Unavailable(_) | Self::TooManyRequests(_)) {
            response.insert_header(("Retry-After", "1"));
        }
        if matches!(self, Self::StorageUnavailable(_)) {
            // A database restart takes seconds; the store reconnects by itself meanwhile.
            response.insert_header(("Retry-After", "2"));
        }
        if matches!(self, Self::StorageFull(_)) {
            // Space is freed by a person, not in a second.
            response.insert_header(("Retry-After", "30"));
        }
        response.json(problem)
    }
}

/// The largest request body Herald reads (1 MiB); a larger one is answered 413.
pub const BODY_LIMIT: usize = 1 << 20;

/// Turn actix's JSON extraction errors into problems: 415 for a body that is not JSON, 413 past
/// [`BODY_LIMIT`], 400 otherwise (handlers that take [`Json`] get a pointer to each bad field).
pub fn json_config() -> actix_web::web::JsonConfig {
    actix_web::web::JsonConfig::default().limit(BODY_LIMIT).error_handler(|error, req| json_error(error, req).into())
}

fn json_error(error: actix_web::error::JsonPayloadError, req: &actix_web::HttpRequest) -> ApiError {
    use actix_web::error::JsonPayloadError;
    match error {
        JsonPayloadError::ContentType if has_no_body(req) => {
            ApiError::Malformed("this request needs a JSON body (Content-Type: application/json)".into())
        }
        JsonPayloadError::ContentType => unsupported_media_type(),
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => too_large(),
        JsonPayloadError::Payload(actix_web::error::PayloadError::Overflow) => too_large(),
        JsonPayloadError::Deserialize(error) => body_error(&error, "", &error.to_string()),
        other => ApiError::Malformed(format!("invalid JSON body: {other}")),
    }
}

/// Whether a request came without a body (no or a zero `Content-Length`, not chunked).
pub fn has_no_body(req: &actix_web::HttpRequest) -> bool {
    use actix_web::http::header;
    let length = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).map(str::trim);
    matches!(length, None | Some("0")) && !req.headers().contains_key(header::TRANSFER_ENCODING)
}

fn unsupported_media_type() -> ApiError {
    ApiError::UnsupportedMediaType("the body must be JSON: send Content-Type: application/json".into())
}

fn too_large() -> ApiError {
    ApiError::ContentTooLarge(format!("the body is larger than the {BODY_LIMIT} bytes (1 MiB) Herald takes"))
}

/// A body that does not parse (400, no pointer: it is not JSON) or does not fit the schema
/// (400 with the pointer of the field).
fn body_error(error: &serde_json::Error, pointer: &str, message: &str) -> ApiError {
    if error.is_syntax() || error.is_eof() || error.is_io() {
        return ApiError::Malformed(format!("invalid JSON body: {message}"));
    }
    let (pointer, message) = herald_domain::in_api_words(pointer, message);
    let shown = if pointer.is_empty() { "the body".to_string() } else { format!("`{pointer}`") };
    ApiError::Invalid {
        detail: format!("invalid JSON body: {shown}: {message}"),
        errors: vec![FieldError { pointer, detail: message }],
    }
}

/// A field the request's schema does not name, at `pointer` (400, with the pointer in `errors`).
pub fn unknown_field(what: &str, pointer: &str) -> ApiError {
    let name = pointer.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
    let message = format!("unknown field `{name}`: no such field here (check its spelling)");
    ApiError::Invalid {
        detail: format!("{what}: `{pointer}`: {message}"),
        errors: vec![FieldError { pointer: pointer.to_string(), detail: message }],
    }
}

/// The JSON Pointer (RFC 6901) of a serde path (`armies.a.slots[0].troops`).
pub fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        let token = match segment {
            Segment::Seq { index } => index.to_string(),
            Segment::Map { key } => key.clone(),
            Segment::Enum { variant } => variant.clone(),
            Segment::Unknown => continue,
        };
        pointer.push('/');
        pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
    }
    pointer
}

/// A JSON request body, like `web::Json`, that answers a body which does not fit its schema
/// with a 400 naming the field by its JSON Pointer (`errors` in the problem), a body that is
/// not JSON with 415 and one past [`BODY_LIMIT`] with 413.
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: serde::de::DeserializeOwned + 'static> actix_web::FromRequest for Json<T> {
    type Error = actix_web::Error;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &actix_web::HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        // The raw JSON value first (content type, size and syntax checked as for every body),
        // then the schema, with the path of the first field that does not fit.
        let raw = actix_web::web::Json::<Box<serde_json::value::RawValue>>::from_request(req, payload);
        let (method, pattern) = (req.method().as_str().to_string(), req.match_pattern().unwrap_or_default());
        Box::pin(async move {
            let raw = raw.await?.into_inner();
            let mut deserializer = serde_json::Deserializer::from_str(raw.get());
            match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
                Ok(value) => {
                    // Every field at every depth must be one the route's schema names.
                    let unknown = serde_json::from_str::<serde_json::Value>(raw.get())
                        .ok()
                        .and_then(|body| crate::unknown_fields::in_request(&method, &pattern, &body));
                    match unknown {
                        Some(pointer) => Err(unknown_field("invalid JSON body", &pointer).into()),
                        None => Ok(Json(value)),
                    }
                }
                Err(error) => {
                    let pointer = pointer_of(error.path());
                    let inner = error.into_inner();
                    Err(body_error(&inner, &pointer, &strip_position(&inner)).into())
                }
            }
        })
    }
}

/// serde_json's message without its "at line 1 column 42" (the pointer says where).
fn strip_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// A query string, like `web::Query`, that answers one which does not fit `T` with a 400 naming
/// the parameter (`query parameter `limit`: invalid digit found in string`): actix's own
/// extractor loses which parameter failed, and a client should not have to guess.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<T> Query<T> {
    /// The parameters.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Query<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: serde::de::DeserializeOwned> actix_web::FromRequest for Query<T> {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &actix_web::HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let pairs = form_urlencoded::parse(req.query_string().as_bytes());
        // Every integer parameter is an int64 in the document (versions, positions, pages): one
        // past its maximum is refused as the document says, not read as a Rust u64.
        if let Some((name, value)) =
            pairs.clone().find(|(_, value)| value.parse::<u64>().is_ok_and(|number| number > i64::MAX as u64))
        {
            return std::future::ready(Err(ApiError::Malformed(format!(
                "query parameter `{name}`: {value} is over the largest value it takes, {}",
                i64::MAX
            ))
            .into()));
        }
        let parsed = serde_path_to_error::deserialize(serde_urlencoded::Deserializer::new(pairs));
        std::future::ready(parsed.map(Query).map_err(|error| {
            let parameter = pointer_of(error.path());
            let detail = match parameter.strip_prefix('/') {
                Some(name) => format!(
                    "query parameter `{name}`: {}",
                    herald_domain::in_api_words(&parameter, &error.inner().to_string()).1
                ),
                // An unknown parameter: serde names it in the message.
                None => {
                    format!("invalid query string: {}", herald_domain::in_api_words("", &error.inner().to_string()).1)
                }
            };
            ApiError::Malformed(detail).into()
        }))
    }
}

/// Query-string errors as 400 problems.
pub fn query_config() -> actix_web::web::QueryConfig {
    actix_web::web::QueryConfig::default()
        .error_handler(|error, _| ApiError::Malformed(format!("invalid query string: {error}")).into())
}

/// Path errors as 400 problems.
pub fn path_config() -> actix_web::web::PathConfig {
    actix_web::web::PathConfig::default()
        .error_handler(|error, _| ApiError::Malformed(format!("invalid path: {error}")).into())
}
