//! A damage die as seed 001 writes it: `d4`, `d6`, `d8` … (seed 001 "Attacking": "a sword (d6
//! damage)"). It travels as that text in JSON.

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::{
    openapi::{
        schema::{ObjectBuilder, Type},
        RefOr, Schema,
    },
    PartialSchema, ToSchema,
};

/// The largest damage die a weapon may have (a service limit).
pub const MAX_SIDES: u32 = 100;

/// A damage die: `d6` is six-sided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Die(u32);

impl Die {
    /// The d4 of unarmed and impaired damage (seed 001 "Attacking").
    pub const D4: Die = Die(4);

    /// A die of `sides` sides (2 to [`MAX_SIDES`]).
    pub fn new(sides: u32) -> Option<Self> {
        (2..=MAX_SIDES).contains(&sides).then_some(Self(sides))
    }

    /// How many sides it has.
    pub fn sides(self) -> u32 {
        self.0
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.0)
    }
}

impl TryFrom<String> for Die {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.strip_prefix('d')
            .and_then(|sides| sides.parse::<u32>().ok())
            .and_then(Die::new)
            .ok_or_else(|| format!("a damage die is written d2 to d{MAX_SIDES} (d4, d6, d8 …), not {text:?}"))
    }
}

impl From<Die> for String {
    fn from(die: Die) -> Self {
        die.to_string()
    }
}

impl PartialSchema for Die {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("A damage die as seed 001 writes it: `d4`, `d6`, `d8`, `d10`, `d12` (d2 to d100)."))
            .pattern(Some("^d[0-9]+$"))
            .examples(["d6", "d8"])
            .into()
    }
}

impl ToSchema for Die {
    fn name() -> std::borrow::Cow<'static, str> {
        "ZoneRpgDie".into()
    }
}
