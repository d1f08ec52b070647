//! Dice expressions parsed from text: `2d6+3`, `d3`, `d%`, `6d6>=5`, `3d6!`, `4d6kh3`.
//!
//! An expression is a sum of terms; each term is a constant or a dice term. The grammar, the
//! caps and what every suffix does are specified in `docs/DICE.md` §"Dice expressions", so a
//! third party can re-add a recorded roll without reading this code. Parsing never panics and
//! never allocates more than the caps allow; rolling reads only the [`DiceTape`] it is given.
//!
//! [`DiceTape`]: super::DiceTape

mod error;
mod options;
mod parse;
mod roll;
mod schema;

use std::fmt;
use std::str::FromStr;

pub use error::ExprError;
pub use options::{RollOptions, ADDITIONAL_DICE_RULE, MAX_ADDITIONAL_DICE, MAX_RULE_NAME};
pub use roll::{DieSource, RollOutcome, RolledDie};

/// At most this many dice may be written in one expression (counts summed over its terms), so a
/// request cannot make the service draw without bound. Explosions, additional dice and the boost
/// die come on top (each bounded by [`MAX_EXPLOSIONS`] and [`RollOptions`]'s own cap).
pub const MAX_DICE: u32 = 1000;
/// The largest die: `d1000000`.
pub const MAX_SIDES: u32 = 1_000_000;
/// The largest constant term: `+1000000`.
pub const MAX_CONSTANT: u32 = 1_000_000;
/// At most this many terms (`2d6+1d3+2` has three).
pub const MAX_TERMS: usize = 32;
/// The longest expression text accepted, in bytes.
pub const MAX_LEN: usize = 256;
/// A die explodes at most this many times: `d6!` draws at most `1 + MAX_EXPLOSIONS` times.
pub const MAX_EXPLOSIONS: u32 = 10;

/// A parsed dice expression: one or more terms added or subtracted in order.
///
/// Build one with [`DiceExpr::parse`] or [`str::parse`]; its [`Display`](fmt::Display) form is
/// canonical and parses back to an equal expression, and serde reads and writes it as that text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    terms: Vec<Term>,
}

/// One term of an expression with the sign in front of it (the first term is always `Plus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Term {
    /// Whether the term is added or subtracted.
    pub sign: Sign,
    /// A constant or dice.
    pub kind: TermKind,
}

/// Whether a term is added or subtracted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sign {
    /// `+`
    Plus,
    /// `-`
    Minus,
}

impl Sign {
    /// `1` or `-1`.
    pub fn factor(self) -> i64 {
        match self {
            Sign::Plus => 1,
            Sign::Minus => -1,
        }
    }
}

/// What a term is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// A fixed number, `3` in `2d6+3` (seed 000 "Dice and Rounding": "+ or – some quantity").
    Constant(u32),
    /// Dice, `2d6` in `2d6+3`.
    Dice(DiceTerm),
}

/// `NdS` with its optional suffixes, written in this order: `!`, a selection, a threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceTerm {
    /// How many dice are written (`N`, 1 when omitted).
    pub count: u32,
    /// The kind of die.
    pub die: Die,
    /// `!`: a die showing its highest face is rolled again and added, up to [`MAX_EXPLOSIONS`].
    pub explode: bool,
    /// `khN`, `klN`, `dhN`, `dlN`: which dice count.
    pub selection: Option<Selection>,
    /// `>=T`: the term is a pool and counts kept dice of at least `T` instead of adding them.
    pub threshold: Option<u32>,
}

/// The kind of die a term rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Die {
    /// A die of this many sides, drawn directly from the tape (`d6`, `d20`, `d100`). The parser
    /// never makes `Sides(3)`: `d3` is [`Die::D3`].
    Sides(u32),
    /// `d3`: seed 000 "Dice and Rounding": "roll a d6, divide the result by 2, and round up".
    /// The d6 draw is recorded; the face is the halved value.
    D3,
    /// `d%`: a percentile die, one draw of 100 sides giving 1..=100 (the same draw as `d100`).
    Percentile,
}

impl Die {
    /// The number of sides of the die actually drawn from the tape (6 for a d3).
    pub fn draw_sides(self) -> u32 {
        match self {
            Die::Sides(sides) => sides,
            Die::D3 => 6,
            Die::Percentile => 100,
        }
    }

    /// The highest face the die shows (3 for a d3).
    pub fn max_face(self) -> u32 {
        match self {
            Die::D3 => 3,
            other => other.draw_sides(),
        }
    }

    /// The face a drawn value shows: halved and rounded up for a d3, unchanged otherwise.
    pub fn face(self, drawn: u32) -> u32 {
        match self {
            Die::D3 => drawn.div_ceil(2),
            _ => drawn,
        }
    }
}

/// Which dice of a term count towards it. Among equal values the earlier die is picked first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selection {
    /// `khN`: keep the `N` highest.
    KeepHighest(u32),
    /// `klN`: keep the `N` lowest.
    KeepLowest(u32),
    /// `dhN`: drop the `N` highest.
    DropHighest(u32),
    /// `dlN`: drop the `N` lowest.
    DropLowest(u32),
}

impl DiceExpr {
    /// Parse an expression such as `2d6+3` (grammar in `docs/DICE.md` §"Dice expressions").
    pub fn parse(text: &str) -> Result<Self, ExprError> {
        parse::parse(text).map(|terms| Self { terms })
    }

    /// The terms, in order.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// How many dice are written in the expression (before explosions and extra dice).
    pub fn dice_count(&self) -> u32 {
        self.dice_terms().map(|dice| dice.count).sum()
    }

    /// The dice terms, in order.
    pub fn dice_terms(&self) -> impl Iterator<Item = &DiceTerm> {
        self.terms.iter().filter_map(|term| match &term.kind {
            TermKind::Dice(dice) => Some(dice),
            TermKind::Constant(_) => None,
        })
    }
}

impl FromStr for DiceExpr {
    type Err = ExprError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, term) in self.terms.iter().enumerate() {
            match (index, term.sign) {
                (0, Sign::Plus) => {}
                (_, Sign::Plus) => f.write_str("+")?,
                (_, Sign::Minus) => f.write_str("-")?,
            }
            match &term.kind {
                TermKind::Constant(value) => write!(f, "{value}")?,
                TermKind::Dice(dice) => write!(f, "{dice}")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for DiceTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        match self.die {
            Die::Sides(sides) => write!(f, "d{sides}")?,
            Die::D3 => f.write_str("d3")?,
            Die::Percentile => f.write_str("d%")?,
        }
        if self.explode {
            f.write_str("!")?;
        }
        match self.selection {
            Some(Selection::KeepHighest(n)) => write!(f, "kh{n}")?,
            Some(Selection::KeepLowest(n)) => write!(f, "kl{n}")?,
            Some(Selection::DropHighest(n)) => write!(f, "dh{n}")?,
            Some(Selection::DropLowest(n)) => write!(f, "dl{n}")?,
            None => {}
        }
        if let Some(threshold) = self.threshold {
            write!(f, ">={threshold}")?;
        }
        Ok(())
    }
}
