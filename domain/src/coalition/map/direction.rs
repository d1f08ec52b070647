//! The eight directions an army can leave a square in (seed 003 §4.2.5: the 8 squares around a
//! battle; §4.4: a second winner names "which direction it will attempt to retreat in").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{MapBounds, Square};

/// One of the eight squares around a square, by compass direction (north is row − 1, west is
/// column − 1, as the map is drawn with row 1 at the top and column A on the left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Row − 1.
    North,
    /// Row − 1, column + 1.
    NorthEast,
    /// Column + 1.
    East,
    /// Row + 1, column + 1.
    SouthEast,
    /// Row + 1.
    South,
    /// Row + 1, column − 1.
    SouthWest,
    /// Column − 1.
    West,
    /// Row − 1, column − 1.
    NorthWest,
}

impl Direction {
    /// Every direction, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Self::North,
        Self::NorthEast,
        Self::East,
        Self::SouthEast,
        Self::South,
        Self::SouthWest,
        Self::West,
        Self::NorthWest,
    ];

    /// The row and column steps of this direction.
    pub fn offset(self) -> (i16, i16) {
        match self {
            Self::North => (-1, 0),
            Self::NorthEast => (-1, 1),
            Self::East => (0, 1),
            Self::SouthEast => (1, 1),
            Self::South => (1, 0),
            Self::SouthWest => (1, -1),
            Self::West => (0, -1),
            Self::NorthWest => (-1, -1),
        }
    }

    /// The square one step from `from` in this direction, if it is on the map.
    pub fn from(self, from: Square, bounds: MapBounds) -> Option<Square> {
        let (dr, dc) = self.offset();
        let row = u8::try_from(i16::from(from.row) + dr).ok()?;
        let column = u8::try_from(i16::from(from.column) + dc).ok()?;
        let square = Square { row, column };
        bounds.contains(square).then_some(square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_direction_is_one_of_the_eight_surrounding_squares_seed_003_4_2_5() {
        let centre = Square::parse("10E").expect("square");
        let around = centre.surrounding(MapBounds::default());
        let reached: Vec<Square> = Direction::ALL.iter().filter_map(|d| d.from(centre, MapBounds::default())).collect();
        assert_eq!(reached.len(), 8);
        assert!(reached.iter().all(|square| around.contains(square)));
        assert_eq!(Direction::North.from(centre, MapBounds::default()), Square::parse("9E").ok());
        assert_eq!(Direction::East.from(centre, MapBounds::default()), Square::parse("10F").ok());
        assert_eq!(Direction::North.from(Square::parse("1A").expect("square"), MapBounds::default()), None);
    }
}
