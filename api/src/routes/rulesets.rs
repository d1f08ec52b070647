//! The registered rulesets, as clients discover them: `GET /v1/rulesets`.

use actix_web::{get, HttpResponse};
use herald_domain::{registry, AnyRuleset, StreamKind};
use serde::Serialize;
use utoipa::ToSchema;

/// A registered ruleset and where to read about it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "coalition", "kind": "campaign", "rules": "coalition-campaign@1",
    "title": "The Coalition Wargame: a campaign round", "source": "seed 003",
    "docs": "docs/rulesets/coalition-campaign.md", "code_prefix": "coalition.campaign", "picture": "map.svg", "tactical": false,
    "schemas": {"setup": "CampaignSetup", "command": "CampaignCommand", "event": "CampaignEvent", "view": "CampaignView"}}))]
pub struct RulesetInfo {
    /// How clients name it: the `ruleset` of `POST /v1/battles`.
    pub id: String,
    /// What kind of stream it keeps: `battle` or `campaign`.
    pub kind: StreamKind,
    /// Its rules and version, as recorded in every event it writes.
    pub rules: String,
    /// Its name for people.
    pub title: String,
    /// Where its rules come from.
    pub source: String,
    /// Its documentation, relative to the repository root.
    pub docs: String,
    /// The namespace of its error codes.
    pub code_prefix: String,
    /// The file name of its picture (`GET /v1/battles/{id}/{picture}`), if it draws one.
    pub picture: Option<String>,
    /// Whether a coalition battle can be fought out under it (`POST /v1/battles/{id}/tactical-result`).
    pub tactical: bool,
    /// The names of its schemas in the OpenAPI document.
    pub schemas: RulesetSchemaNames,
}

/// Component names of a ruleset's schemas in `/openapi.json`.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetSchemaNames {
    /// What a stream is set up with.
    pub setup: String,
    /// Its commands (`POST /v1/battles/{id}/actions`).
    pub command: String,
    /// Its events.
    pub event: String,
    /// Its view (`GET /v1/battles/{id}`).
    pub view: String,
}

impl RulesetInfo {
    /// The listing entry of `ruleset`.
    pub fn of(ruleset: &dyn AnyRuleset) -> Self {
        let schemas = ruleset.schemas();
        Self {
            id: ruleset.id().into(),
            kind: ruleset.kind(),
            rules: ruleset.rules().into(),
            title: ruleset.title().into(),
            source: ruleset.source().into(),
            docs: ruleset.docs().into(),
            code_prefix: ruleset.code_prefix().into(),
            picture: ruleset.picture_name().map(String::from),
            tactical: ruleset.tactical(),
            schemas: RulesetSchemaNames {
                setup: schemas.setup.name,
                command: schemas.command.name,
                event: schemas.event.name,
                view: schemas.view.name,
            },
        }
    }
}

/// Every registered ruleset, with its rules version, schemas and docs.
#[utoipa::path(get, path = "/v1/rulesets", tag = "rulesets", operation_id = "list_rulesets",
    responses((status = 200, description = "the registered rulesets, campaigns first", body = Vec<RulesetInfo>)))]
#[get("/rulesets")]
pub async fn list_rulesets() -> HttpResponse {
    let rulesets: Vec<RulesetInfo> = registry::all().map(RulesetInfo::of).collect();
    HttpResponse::Ok().json(rulesets)
}
