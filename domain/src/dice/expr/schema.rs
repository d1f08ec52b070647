//! A dice expression travels as its text, in JSON and in the OpenAPI document alike.
//!
//! Events store `"2d6+3"` rather than a term tree so that a reader (person or program) sees the
//! expression as written in the rules, and so that the stored form does not change when the
//! tree does. Deserializing parses, so a stored event can never hold a malformed expression.

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;

use super::{DiceExpr, MAX_LEN};

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DiceExpr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        DiceExpr::parse(&text).map_err(de::Error::custom)
    }
}

impl utoipa::PartialSchema for DiceExpr {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A dice expression (docs/DICE.md \"Dice expressions\"): terms such as `2d6`, `d3`, `d%`, \
                 `6d6>=5` (pool counting dice >= 5), `3d6!` (exploding), `4d6kh3` / `4d6dl1` (keep/drop), \
                 joined by `+` or `-`, with constant modifiers.",
            ))
            .max_length(Some(MAX_LEN))
            .examples(["2d6+3", "d3", "d%", "6d6>=5", "3d6!", "4d6kh3"])
            .into()
    }
}

impl utoipa::ToSchema for DiceExpr {}
