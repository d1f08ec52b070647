//! What a token reaches: the whole host, one campaign with its battles, or one battle.
//!
//! DESIGN.md gives roles "per campaign or battle": the judge of one campaign must not judge
//! another, and a player's token for one campaign must not order armies in the next. A scope is
//! written as the stream it covers (`campaign-<uuid>`, `battle-<uuid>`) or `host`.
//!
//! Where it is checked:
//! - every command, in [`crate::app::Service::execute`] before anything is read or decided (one
//!   place, so a new route cannot forget it); a stream outside the scope is a 403
//!   `token.out_of_scope`, and so is opening a new battle or campaign with a scoped token (a new
//!   stream is in no campaign yet);
//! - every read: outside its scope a token reads as the public does (what it could read with no
//!   token at all), so it sees nothing the scope does not grant;
//! - issuing, listing and revoking tokens and reading the `tokens` stream take an admin of the
//!   host.

use std::{fmt, str::FromStr};

use herald_domain::{coalition::campaign::CampaignState, StreamKind};
use herald_projections::Catalog;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::{
    openapi::{schema::SchemaType, ObjectBuilder, RefOr, Schema, Type},
    PartialSchema, ToSchema,
};

/// Where a token's role holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Scope {
    /// Every campaign and battle on this host (and, for admins, the tokens).
    #[default]
    Host,
    /// One campaign (`campaign-<uuid>`) and every battle it announced.
    Campaign(String),
    /// One battle (`battle-<uuid>`).
    Battle(String),
}

/// A scope that is not `host`, `campaign-<uuid>` or `battle-<uuid>`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a scope: use `host`, `campaign-<uuid>` or `battle-<uuid>`")]
pub struct ScopeError(String);

impl Scope {
    /// Whether this scope reaches `stream`.
    ///
    /// A campaign reaches its own stream and the battles it announced (its `battles`, read from
    /// the read models, so a battle counts from the adjudication that announced it). A tactical
    /// battle a campaign battle was fought out under is a battle of its own: give it a battle
    /// token (docs/AUTH.md).
    pub fn covers(&self, stream: &str, catalog: &Catalog) -> bool {
        match self {
            Self::Host => true,
            Self::Battle(battle) => battle == stream,
            Self::Campaign(campaign) => {
                campaign == stream
                    || StreamKind::of(stream) == Some(StreamKind::Battle)
                        && catalog.entry(campaign).is_some_and(|entry| {
                            entry.state_as::<CampaignState>().is_some_and(|state| state.battles.contains_key(stream))
                        })
            }
        }
    }

    /// Whether this is the whole host.
    pub fn is_host(&self) -> bool {
        matches!(self, Self::Host)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Host => f.write_str("host"),
            Self::Campaign(stream) | Self::Battle(stream) => f.write_str(stream),
        }
    }
}

impl FromStr for Scope {
    type Err = ScopeError;

    fn from_str(text: &str) -> Result<Self, ScopeError> {
        if text == "host" {
            return Ok(Self::Host);
        }
        let refuse = || ScopeError(text.to_string());
        let (kind, id) = match (text.strip_prefix("campaign-"), text.strip_prefix("battle-")) {
            (Some(id), _) => (StreamKind::Campaign, id),
            (_, Some(id)) => (StreamKind::Battle, id),
            _ => return Err(refuse()),
        };
        let id = uuid::Uuid::parse_str(id).map_err(|_| refuse())?;
        // Written the way the service names streams (lower-case, hyphenated), so comparing with
        // a stream name is comparing strings.
        Ok(match kind {
            StreamKind::Campaign => Self::Campaign(format!("campaign-{id}")),
            StreamKind::Battle => Self::Battle(format!("battle-{id}")),
        })
    }
}

impl Serialize for Scope {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Scope {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The pattern of a scope in the spec.
pub const PATTERN: &str = "^(host|campaign-[0-9a-fA-F-]{36}|battle-[0-9a-fA-F-]{36})$";

impl PartialSchema for Scope {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .pattern(Some(PATTERN))
            .description(Some(
                "Where the token's role holds: `host` (everything), `campaign-<uuid>` (that campaign and \
                 the battles it announced) or `battle-<uuid>` (that battle).",
            ))
            .examples(["campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f"])
            .into()
    }
}

impl ToSchema for Scope {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_written_as_the_streams_they_cover() {
        let id = "0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f";
        assert_eq!("host".parse::<Scope>(), Ok(Scope::Host));
        assert_eq!(format!("campaign-{id}").parse::<Scope>(), Ok(Scope::Campaign(format!("campaign-{id}"))));
        assert_eq!(
            format!("battle-{}", id.to_uppercase()).parse::<Scope>(),
            Ok(Scope::Battle(format!("battle-{id}"))),
            "an upper-case UUID names the same stream"
        );
        for bad in ["", "Host", "campaign-", "battle-x", id, "tokens", "campaign-{id}x"] {
            assert!(bad.parse::<Scope>().is_err(), "{bad:?} is no scope");
        }
    }

    #[test]
    fn a_battle_scope_covers_that_battle_only() {
        let catalog = Catalog::new();
        let scope: Scope = "battle-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f".parse().unwrap_or_default();
        assert!(scope.covers("battle-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f", &catalog));
        assert!(!scope.covers("battle-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e00", &catalog));
        assert!(!scope.covers("tokens", &catalog));
        assert!(Scope::Host.covers("tokens", &catalog));
    }

    #[test]
    fn a_campaign_scope_covers_its_stream_and_not_an_unknown_battle() {
        let catalog = Catalog::new();
        let scope: Scope = "campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f".parse().unwrap_or_default();
        assert!(scope.covers("campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f", &catalog));
        assert!(!scope.covers("battle-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e0f", &catalog));
        assert!(!scope.covers("campaign-0193a5f2-7c1e-7b52-9d3a-2f4b8c6d1e00", &catalog));
    }
}
