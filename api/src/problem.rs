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
}

/// Every generic error code: code, status, title. Rule violations carry the rule's own code.
pub const CODES: &[(&str, u16, &str)] = &[
    ("malformed_request", 400, "Malformed request"),
    ("unauthenticated", 401, "Authentication required"),
    ("forbidden", 403, "Forbidden"),
    ("not_found", 404, "Not found"),
    ("conflict", 409, "Conflict"),
    ("precondition_failed", 412, "Precondition failed"),
    ("rule_violation", 422, "Rule violation"),
    ("too_many_requests", 429, "Too many requests"),
    ("internal", 500, "Internal error"),
    ("unavailable", 503, "Service unavailable"),
];

/// An API error.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request could not be parsed (400).
    #[error("{0}")]
    Malformed(String),
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
            Self::Malformed(detail) => ("malformed_request", detail.clone(), None),
            Self::Unauthenticated(detail) => ("unauthenticated", detail.clone(), None),
            Self::Forbidden { detail, rule, .. } => ("forbidden", detail.clone(), rule.clone()),
            Self::NotFound(detail) => ("not_found", detail.clone(), None),
            Self::Conflict(detail) => ("conflict", detail.clone(), None),
            Self::PreconditionFailed(detail) => ("precondition_failed", detail.clone(), None),
            Self::Rule(rule) => ("rule_violation", rule.message.clone(), Some(rule.rule.clone())),
            Self::TooManyRequests(detail) => ("too_many_requests", detail.clone(), None),
            Self::Unavailable(detail) => ("unavailable", detail.clone(), None),
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
        if matches!(self, Self::Unavailable(_) | Self::TooManyRequests(_)) {
            response.insert_header(("Retry-After", "1"));
        }
        response.json(problem)
    }
}

/// Turn actix's JSON, path and query extraction errors into 400 problems.
pub fn json_config() -> actix_web::web::JsonConfig {
    actix_web::web::JsonConfig::default()
        .limit(1 << 20)
        .error_handler(|error, _| ApiError::Malformed(format!("invalid JSON body: {error}")).into())
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
