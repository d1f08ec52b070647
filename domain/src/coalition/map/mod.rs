//! The campaign map (seed 003 §1.2, §2.5.1): squares written the seed's way (`14H`), terrain,
//! and the sites on it — Phyrexian portals, Coalition bases, neutral towns.

pub mod direction;
pub mod site;
pub mod square;
pub mod svg;
pub mod terrain;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use direction::Direction;
pub use site::{Faction, Site, SiteKind};
pub use square::{MapBounds, Square, SquareError};
pub use terrain::Terrain;

/// The map: its bounds, the terrain of every square, and the sites. Every field has a default
/// (14 × 38, plains, no sites), so a request may give only what differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct Map {
    /// Columns and rows.
    pub bounds: MapBounds,
    /// Terrain of squares that are not `default_terrain`.
    pub terrain: BTreeMap<Square, Terrain>,
    /// Terrain of every square not listed in `terrain`.
    pub default_terrain: Terrain,
    /// Portals, bases and towns, by square.
    pub sites: BTreeMap<Square, Site>,
}

impl Default for Map {
    fn default() -> Self {
        Self {
            bounds: MapBounds::default(),
            terrain: BTreeMap::new(),
            default_terrain: Terrain::Plains,
            sites: BTreeMap::new(),
        }
    }
}

impl Map {
    /// The terrain of `square`.
    pub fn terrain_at(&self, square: Square) -> Terrain {
        self.terrain.get(&square).copied().unwrap_or(self.default_terrain)
    }

    /// The site on `square`, if any.
    pub fn site_at(&self, square: Square) -> Option<&Site> {
        self.sites.get(&square)
    }

    /// Whether `square` is on the map.
    pub fn contains(&self, square: Square) -> bool {
        self.bounds.contains(square)
    }
}
