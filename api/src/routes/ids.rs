//! Ids in paths: a stream's UUID, written bare (`0193…`) or as the stream name responses give
//! (`battle-0193…`), so a client can use either.

use serde::{Deserialize, Deserializer};
use uuid::Uuid;

macro_rules! stream_id {
    ($name:ident, $prefix:literal, $what:literal) => {
        #[doc = concat!("A ", $what, " id in a path: `<uuid>` or `", $prefix, "-<uuid>`.")]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name(pub Uuid);

        impl $name {
            #[doc = concat!("The stream name, `", $prefix, "-<uuid>`.")]
            pub fn stream(&self) -> String {
                format!(concat!($prefix, "-{}"), self.0)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                <String as utoipa::PartialSchema>::schema()
            }
        }

        impl utoipa::ToSchema for $name {}

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                let bare = text.strip_prefix(concat!($prefix, "-")).unwrap_or(&text);
                Uuid::parse_str(bare).map(Self).map_err(|_| {
                    serde::de::Error::custom(format!(
                        concat!("{:?} is not a ", $what, " id: a UUID, or `", $prefix, "-` and a UUID"),
                        text
                    ))
                })
            }
        }
    };
}

stream_id!(BattleId, "battle", "battle");
stream_id!(CampaignId, "campaign", "campaign");

/// A stream named in a path (`/v1/streams/{stream}/…`): its name (`battle-<uuid>`,
/// `campaign-<uuid>`, `tokens`), or a bare UUID, which names the battle or campaign with that
/// id (whichever exists; a battle's when neither does, so the 404 names a stream).
pub fn stream_name(catalog: &herald_projections::Catalog, raw: String) -> String {
    let Ok(id) = Uuid::parse_str(&raw) else { return raw };
    let battle = BattleId(id).stream();
    if catalog.entry(&battle).is_some() {
        return battle;
    }
    let campaign = CampaignId(id).stream();
    if catalog.entry(&campaign).is_some() {
        return campaign;
    }
    battle
}
