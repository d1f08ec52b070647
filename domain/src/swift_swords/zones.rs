//! The battlefield as zones (seed 004 "Zone Combat"): square tiles on a grid, each with its
//! terrain, cover along the borders between them and cover areas inside them.
//!
//! "Zones do not use linear scales, or have any measures other than 'a zone' itself": distance
//! is counted in zones, a diagonal step being one zone (eight facings on a square grid, seed 004
//! "Flying").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How hard a zone is going for chariots (seed 004 "Chariots"); foot figures ignore it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsGoing)]
pub enum Going {
    /// Nice flat ground.
    #[default]
    Open,
    /// Rough terrain: −2 to driving rolls.
    Rough,
    /// Difficult terrain: −4 to driving rolls.
    Difficult,
    /// Steep slopes, rocky ground, very soft sand, marsh: no chariot enters.
    Impassable,
}

/// One tile of the battlefield.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsZone)]
pub struct ZoneSpec {
    /// A unique id (`ford`).
    pub id: String,
    /// Its column on the grid, from 0 at the west edge.
    pub column: u8,
    /// Its row on the grid, from 0 at the north edge.
    pub row: u8,
    /// Its dominant terrain or feature, in words (`woods`, `river ford`).
    #[serde(default)]
    pub terrain: String,
    /// How it goes for chariots.
    #[serde(default)]
    pub going: Going,
}

/// Cover and its penalty to attack rolls (seed 004 "Cover", "Modifiers to rolls").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsCover)]
pub enum CoverLevel {
    /// Soft cover, light (10%+): −1d.
    SoftLight,
    /// Hard cover, light: −1d.
    HardLight,
    /// Soft cover, medium (50%+): −2d.
    SoftMedium,
    /// Hard cover, heavy: −2d, no rerolls.
    HardHeavy,
    /// Soft cover, heavy (80%+): −3d.
    SoftHeavy,
}

impl CoverLevel {
    /// Attack dice the cover takes away.
    pub fn penalty(self) -> u32 {
        match self {
            Self::SoftLight | Self::HardLight => 1,
            Self::SoftMedium | Self::HardHeavy => 2,
            Self::SoftHeavy => 3,
        }
    }

    /// Heavy hard cover allows no rerolls.
    pub fn no_rerolls(self) -> bool {
        self == Self::HardHeavy
    }
}

/// Cover running along the border between two adjacent zones: anyone firing across it suffers
/// its penalty, both ways.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsBorderCover)]
pub struct BorderCover {
    /// One zone.
    pub a: String,
    /// The adjacent zone.
    pub b: String,
    /// The cover.
    pub cover: CoverLevel,
    /// What it is (`stone wall`).
    #[serde(default)]
    pub name: String,
}

/// Linear or area cover inside a zone (seed 004 "Cover").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsCoverShape)]
pub enum CoverShape {
    /// A line to hide behind: protects its holders from missiles and mental attacks from outside.
    Linear,
    /// An occupied area: protects its holders from every attack by figures not holding it, until
    /// they are all defeated; enemies entering it are InContact with its holders.
    Area,
}

/// Cover inside a zone that figures occupy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsCoverArea)]
pub struct CoverArea {
    /// A unique id (`hedge`).
    pub id: String,
    /// The zone it is in.
    pub zone: String,
    /// Linear or area.
    pub shape: CoverShape,
    /// The cover.
    pub cover: CoverLevel,
}

/// One of the eight facings of a square grid, clockwise from north.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsDirection)]
pub enum Direction {
    /// Row − 1.
    #[default]
    N,
    /// Row − 1, column + 1.
    Ne,
    /// Column + 1.
    E,
    /// Row + 1, column + 1.
    Se,
    /// Row + 1.
    S,
    /// Row + 1, column − 1.
    Sw,
    /// Column − 1.
    W,
    /// Row − 1, column − 1.
    Nw,
}

impl Direction {
    /// All eight, clockwise from north.
    pub const ALL: [Self; 8] = [Self::N, Self::Ne, Self::E, Self::Se, Self::S, Self::Sw, Self::W, Self::Nw];

    /// Its index clockwise from north.
    pub fn index(self) -> i32 {
        match self {
            Self::N => 0,
            Self::Ne => 1,
            Self::E => 2,
            Self::Se => 3,
            Self::S => 4,
            Self::Sw => 5,
            Self::W => 6,
            Self::Nw => 7,
        }
    }

    /// The step (column, row) it moves.
    pub fn step(self) -> (i32, i32) {
        match self {
            Self::N => (0, -1),
            Self::Ne => (1, -1),
            Self::E => (1, 0),
            Self::Se => (1, 1),
            Self::S => (0, 1),
            Self::Sw => (-1, 1),
            Self::W => (-1, 0),
            Self::Nw => (-1, -1),
        }
    }

    /// How many 45° turns lie between two facings (0 to 4).
    pub fn turns_to(self, other: Self) -> u32 {
        let diff = (other.index() - self.index()).rem_euclid(8);
        diff.min(8 - diff).unsigned_abs()
    }

    /// The facing of a step, if it is one of the eight.
    pub fn of_step(column: i32, row: i32) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|direction| direction.step() == (column.signum(), row.signum()))
            .filter(|_| column != 0 || row != 0)
    }
}

/// Which zones count as adjacent (a battle option: the seed's square grid has eight facings).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsAdjacency)]
pub enum Adjacency {
    /// Zones sharing an edge or a corner: eight neighbours.
    #[default]
    EdgesAndCorners,
    /// Zones sharing an edge: four neighbours.
    Edges,
}

/// The battlefield: zones, border cover and cover areas.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsMap)]
pub struct ZoneMap {
    /// The zones.
    pub zones: Vec<ZoneSpec>,
    /// Cover along borders.
    #[serde(default)]
    pub borders: Vec<BorderCover>,
    /// Cover areas inside zones.
    #[serde(default)]
    pub cover: Vec<CoverArea>,
    /// Which zones are adjacent.
    #[serde(default)]
    pub adjacency: Adjacency,
}

impl ZoneMap {
    /// A zone by id.
    pub fn zone(&self, id: &str) -> Option<&ZoneSpec> {
        self.zones.iter().find(|zone| zone.id == id)
    }

    /// A cover area by id.
    pub fn cover_area(&self, id: &str) -> Option<&CoverArea> {
        self.cover.iter().find(|area| area.id == id)
    }

    /// The zone at a grid square.
    pub fn at(&self, column: i32, row: i32) -> Option<&ZoneSpec> {
        self.zones.iter().find(|zone| i32::from(zone.column) == column && i32::from(zone.row) == row)
    }

    /// Distance in zones between two zones (`None` if either is unknown).
    pub fn distance(&self, a: &str, b: &str) -> Option<u32> {
        let (a, b) = (self.zone(a)?, self.zone(b)?);
        let columns = (i32::from(a.column) - i32::from(b.column)).unsigned_abs();
        let rows = (i32::from(a.row) - i32::from(b.row)).unsigned_abs();
        Some(match self.adjacency {
            Adjacency::EdgesAndCorners => columns.max(rows),
            Adjacency::Edges => columns + rows,
        })
    }

    /// Whether two distinct zones are adjacent.
    pub fn adjacent(&self, a: &str, b: &str) -> bool {
        self.distance(a, b) == Some(1)
    }

    /// The zone one step from `from` in `direction`, if there is one and the step is allowed.
    pub fn step(&self, from: &str, direction: Direction) -> Option<&ZoneSpec> {
        let zone = self.zone(from)?;
        let (dc, dr) = direction.step();
        if self.adjacency == Adjacency::Edges && dc != 0 && dr != 0 {
            return None;
        }
        self.at(i32::from(zone.column) + dc, i32::from(zone.row) + dr)
    }

    /// The facing from one zone toward another (the nearest of the eight).
    pub fn direction(&self, from: &str, to: &str) -> Option<Direction> {
        let (a, b) = (self.zone(from)?, self.zone(to)?);
        Direction::of_step(i32::from(b.column) - i32::from(a.column), i32::from(b.row) - i32::from(a.row))
    }

    /// The zones a straight line from `from` to `to` passes through, both ends included
    /// (stepping diagonally first, as a line of sight across the grid would).
    pub fn line(&self, from: &str, to: &str) -> Vec<String> {
        let (Some(a), Some(b)) = (self.zone(from), self.zone(to)) else { return Vec::new() };
        let (mut column, mut row) = (i32::from(a.column), i32::from(a.row));
        let (end_column, end_row) = (i32::from(b.column), i32::from(b.row));
        let mut zones = vec![a.id.clone()];
        while (column, row) != (end_column, end_row) {
            let dc = (end_column - column).signum();
            let dr = (end_row - row).signum();
            if self.adjacency == Adjacency::Edges && dc != 0 && dr != 0 {
                column += dc;
            } else {
                column += dc;
                row += dr;
            }
            match self.at(column, row) {
                Some(zone) => zones.push(zone.id.clone()),
                None => break,
            }
        }
        zones
    }

    /// The worst border cover a line between two zones crosses (seed 004 "Cover": "Anyone firing
    /// from one side to the other clearly suffers the penalties of the cover (both ways)").
    pub fn border_cover_between(&self, from: &str, to: &str) -> Option<&BorderCover> {
        let line = self.line(from, to);
        line.windows(2)
            .filter_map(|pair| {
                self.borders.iter().find(|border| {
                    (border.a == pair[0] && border.b == pair[1]) || (border.a == pair[1] && border.b == pair[0])
                })
            })
            .max_by_key(|border| (border.cover.penalty(), border.cover))
    }
}
