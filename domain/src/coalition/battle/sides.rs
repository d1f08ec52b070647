//! The two sides of a battle and a pair of values, one per side.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One of the two sides of a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SideId {
    /// The first army named at creation.
    A,
    /// The second army named at creation.
    B,
}

impl SideId {
    /// Both sides, A first.
    pub const BOTH: [SideId; 2] = [SideId::A, SideId::B];

    /// The other side.
    pub fn other(self) -> SideId {
        match self {
            SideId::A => SideId::B,
            SideId::B => SideId::A,
        }
    }
}

impl std::fmt::Display for SideId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SideId::A => "a",
            SideId::B => "b",
        })
    }
}

/// A value for each side.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Sides<T> {
    /// Side A's value.
    pub a: T,
    /// Side B's value.
    pub b: T,
}

impl<T> Sides<T> {
    /// Build from a function of the side.
    pub fn from_fn(mut f: impl FnMut(SideId) -> T) -> Self {
        Self { a: f(SideId::A), b: f(SideId::B) }
    }

    /// The value of `side`.
    pub fn get(&self, side: SideId) -> &T {
        match side {
            SideId::A => &self.a,
            SideId::B => &self.b,
        }
    }

    /// The value of `side`, mutably.
    pub fn get_mut(&mut self, side: SideId) -> &mut T {
        match side {
            SideId::A => &mut self.a,
            SideId::B => &mut self.b,
        }
    }

    /// Map each value.
    pub fn map<U>(&self, mut f: impl FnMut(SideId, &T) -> U) -> Sides<U> {
        Sides { a: f(SideId::A, &self.a), b: f(SideId::B, &self.b) }
    }
}
