//! Squares of the map, written the seed's way: a row number 1–38 then a column letter A–N
//! (`14H`, seed 003 §1.2, §3.2.2.5). Orthogonal steps only; distance is counted in steps.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The size of a map: columns A.. and rows 1.. (seed 003 §1.2: A–N by 1–38).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MapBounds {
    /// Number of columns (letters), at most 26.
    pub columns: u8,
    /// Number of rows (numbers).
    pub rows: u8,
}

impl Default for MapBounds {
    fn default() -> Self {
        Self { columns: 14, rows: 38 }
    }
}

impl MapBounds {
    /// Whether `square` lies inside these bounds.
    pub fn contains(self, square: Square) -> bool {
        square.column < self.columns && square.row >= 1 && square.row <= self.rows
    }

    /// Every square, row by row.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (1..=self.rows).flat_map(move |row| (0..self.columns).map(move |column| Square { row, column }))
    }
}

/// A square of the map. `column` 0 is `A`; `row` starts at 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Row number, from 1.
    pub row: u8,
    /// Column index, 0 = `A`.
    pub column: u8,
}

/// Why a square could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Not of the form `<number><letter>`.
    #[error("`{0}` is not a square: write a row number then a column letter, like `14H`")]
    Malformed(String),
    /// Outside the map.
    #[error("`{square}` is off the map (rows 1–{rows}, columns A–{last_column})")]
    OffMap {
        /// The square as written.
        square: String,
        /// Rows on the map.
        rows: u8,
        /// The last column letter.
        last_column: char,
    },
}

impl Square {
    /// A square from its row (1-based) and column letter.
    pub fn new(row: u8, column: char) -> Option<Self> {
        let column = column.to_ascii_uppercase();
        column.is_ascii_uppercase().then(|| Self { row, column: column as u8 - b'A' })
    }

    /// The column letter.
    pub fn column_letter(self) -> char {
        char::from(b'A' + self.column.min(25))
    }

    /// Read `14H` (any case, surrounding spaces ignored), not checking bounds.
    pub fn parse(text: &str) -> Result<Self, SquareError> {
        let trimmed = text.trim();
        let malformed = || SquareError::Malformed(trimmed.to_string());
        let letter = trimmed.chars().last().filter(char::is_ascii_alphabetic).ok_or_else(malformed)?;
        let digits = &trimmed[..trimmed.len() - 1];
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let row: u8 = digits.parse().map_err(|_| malformed())?;
        if row == 0 {
            return Err(malformed());
        }
        Self::new(row, letter).ok_or_else(malformed)
    }

    /// Read a square and check it is on a map of `bounds`.
    pub fn parse_on(text: &str, bounds: MapBounds) -> Result<Self, SquareError> {
        let square = Self::parse(text)?;
        if bounds.contains(square) {
            Ok(square)
        } else {
            Err(SquareError::OffMap {
                square: square.to_string(),
                rows: bounds.rows,
                last_column: char::from(b'A' + bounds.columns.saturating_sub(1)),
            })
        }
    }

    /// Orthogonal steps between two squares (seed 003 §3.2.2.1: no diagonal moves).
    pub fn distance(self, other: Square) -> u32 {
        u32::from(self.row.abs_diff(other.row)) + u32::from(self.column.abs_diff(other.column))
    }

    /// The up to 4 orthogonal neighbours on the map, in a fixed order (N, S, W, E).
    pub fn neighbours(self, bounds: MapBounds) -> Vec<Square> {
        let candidates = [
            (i16::from(self.row) - 1, i16::from(self.column)),
            (i16::from(self.row) + 1, i16::from(self.column)),
            (i16::from(self.row), i16::from(self.column) - 1),
            (i16::from(self.row), i16::from(self.column) + 1),
        ];
        Self::on_map(candidates, bounds)
    }

    /// The up to 8 squares around this one (seed 003 §4.2.5), in a fixed order.
    pub fn surrounding(self, bounds: MapBounds) -> Vec<Square> {
        let mut candidates = Vec::with_capacity(8);
        for dr in -1i16..=1 {
            for dc in -1i16..=1 {
                if (dr, dc) != (0, 0) {
                    candidates.push((i16::from(self.row) + dr, i16::from(self.column) + dc));
                }
            }
        }
        Self::on_map(candidates, bounds)
    }

    fn on_map(candidates: impl IntoIterator<Item = (i16, i16)>, bounds: MapBounds) -> Vec<Square> {
        candidates
            .into_iter()
            .filter_map(|(row, column)| {
                Some(Square { row: u8::try_from(row).ok()?, column: u8::try_from(column).ok()? })
            })
            .filter(|square| bounds.contains(*square))
            .collect()
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.row, self.column_letter())
    }
}

impl std::str::FromStr for Square {
    type Err = SquareError;
    fn from_str(text: &str) -> Result<Self, SquareError> {
        Self::parse(text)
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Square::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for Square {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("A square: row number then column letter (seed 003 §1.2)"))
            .pattern(Some("^[0-9]{1,3}[A-Za-z]$"))
            .examples(["14H", "3D"])
            .into()
    }
}

impl ToSchema for Square {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_print_the_seed_way() {
        let square = Square::parse("14H").expect("a square");
        assert_eq!((square.row, square.column_letter()), (14, 'H'));
        assert_eq!(square.to_string(), "14H");
        assert_eq!(Square::parse(" 3d ").expect("lower case").to_string(), "3D");
        for bad in ["", "H14", "14", "0A", "1234A", "14HH", "-1A"] {
            assert!(Square::parse(bad).is_err(), "{bad}");
        }
        assert!(Square::parse_on("39A", MapBounds::default()).is_err());
        assert!(Square::parse_on("1O", MapBounds::default()).is_err());
        assert!(Square::parse_on("38N", MapBounds::default()).is_ok());
    }

    #[test]
    fn distance_counts_orthogonal_steps_seed_003_3_2_2_1() {
        let from = Square::parse("3D").expect("square");
        for (to, steps) in [("6D", 3), ("5E", 3), ("4F", 3), ("5F", 4)] {
            assert_eq!(from.distance(Square::parse(to).expect("square")), steps, "3D to {to}");
        }
    }

    #[test]
    fn corners_have_two_neighbours_and_three_surrounding_squares() {
        let corner = Square::parse("1A").expect("square");
        assert_eq!(corner.neighbours(MapBounds::default()).len(), 2);
        assert_eq!(corner.surrounding(MapBounds::default()).len(), 3);
        assert_eq!(Square::parse("10E").expect("square").surrounding(MapBounds::default()).len(), 8);
    }
}
