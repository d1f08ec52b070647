//! Terrain of a square (seed 003 §4.1.2.4).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The six terrains of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Ocean.
    Ocean,
    /// Islands.
    Islands,
    /// Plains.
    Plains,
    /// Mountain.
    Mountain,
    /// Forest.
    Forest,
    /// Swamp.
    Swamp,
}
