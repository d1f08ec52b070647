//! The parser: a hand-written scanner over the expression's bytes.
//!
//! Grammar (`docs/DICE.md` §"Dice expressions"), whitespace allowed only around `+` and `-`:
//!
//! ```text
//! expr      = term { ("+" | "-") term }
//! term      = number | [number] ("d" | "D") sides ["!"] [selection] [">=" number]
//! sides     = number | "%"
//! selection = ("kh" | "kl" | "dh" | "dl") number
//! ```
//!
//! Every error names the byte offset (from 0) where it was noticed and what was expected there.

use super::{
    DiceTerm, Die, ExprError, Selection, Sign, Term, TermKind, MAX_CONSTANT, MAX_DICE, MAX_LEN, MAX_SIDES, MAX_TERMS,
};

const TERM: &str = "a number or a dice term such as 2d6";
const AFTER_TERM: &str = "'+', '-' or the end of the expression";
const AFTER_DICE: &str = "'!', 'kh', 'kl', 'dh', 'dl', '>=', '+', '-' or the end of the expression";

pub(super) fn parse(text: &str) -> Result<Vec<Term>, ExprError> {
    if text.len() > MAX_LEN {
        return Err(ExprError::TooLong { length: text.len(), max: MAX_LEN });
    }
    let mut parser = Parser { text, pos: 0, dice: 0 };
    parser.skip_whitespace();
    if parser.peek().is_none() {
        return Err(ExprError::Empty);
    }
    let mut terms = vec![parser.term(Sign::Plus)?];
    loop {
        let dice_suffix_allowed = matches!(terms.last(), Some(Term { kind: TermKind::Dice(_), .. }));
        let end_of_term = parser.pos;
        parser.skip_whitespace();
        let after = if dice_suffix_allowed && parser.pos == end_of_term { AFTER_DICE } else { AFTER_TERM };
        let sign = match parser.peek() {
            None => return Ok(terms),
            Some(b'+') => Sign::Plus,
            Some(b'-') => Sign::Minus,
            Some(_) => return Err(parser.unexpected(after)),
        };
        parser.pos += 1;
        parser.skip_whitespace();
        if terms.len() == MAX_TERMS {
            return Err(ExprError::TooManyTerms { position: parser.pos, max: MAX_TERMS });
        }
        terms.push(parser.term(sign)?);
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// Dice written so far, against [`MAX_DICE`].
    dice: u32,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        self.pos += usize::from(found);
        found
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(|byte| byte.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn unexpected(&self, expected: &'static str) -> ExprError {
        let found = match self.text.get(self.pos..).and_then(|rest| rest.chars().next()) {
            Some(c) => format!("{c:?}"),
            None => "the end of the expression".to_owned(),
        };
        ExprError::Unexpected { position: self.pos, expected, found }
    }

    fn invalid(position: usize, message: impl Into<String>) -> ExprError {
        ExprError::Invalid { position, message: message.into() }
    }

    /// Digits at the cursor (saturating just above `u32::MAX`), or `None` when there are none.
    fn digits(&mut self) -> Option<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(digit) = self.peek().filter(u8::is_ascii_digit) {
            value = (value * 10 + u64::from(digit - b'0')).min(u64::from(u32::MAX) + 1);
            self.pos += 1;
        }
        (self.pos > start).then_some(value)
    }

    /// A required number of at most `max`.
    fn number(&mut self, what: &'static str, max: u32, expected: &'static str) -> Result<u32, ExprError> {
        let start = self.pos;
        let value = self.digits().ok_or_else(|| self.unexpected(expected))?;
        capped(start, value, what, max)
    }

    fn term(&mut self, sign: Sign) -> Result<Term, ExprError> {
        let start = self.pos;
        let digits = self.digits();
        if !matches!(self.peek(), Some(b'd' | b'D')) {
            return match digits {
                Some(value) => {
                    Ok(Term { sign, kind: TermKind::Constant(capped(start, value, "constant", MAX_CONSTANT)?) })
                }
                None => Err(self.unexpected(TERM)),
            };
        }
        self.pos += 1;
        let count = digits.unwrap_or(1);
        if count == 0 {
            return Err(Self::invalid(start, "a dice term needs at least one die"));
        }
        let written = u64::from(self.dice) + count;
        let Some(count) = u32::try_from(count).ok().filter(|_| written <= u64::from(MAX_DICE)) else {
            return Err(ExprError::TooManyDice { position: start, max: MAX_DICE });
        };
        self.dice += count;
        let die = self.die()?;
        let explode = self.explode(die)?;
        let selection = self.selection(count)?;
        let threshold = self.threshold(die)?;
        Ok(Term { sign, kind: TermKind::Dice(DiceTerm { count, die, explode, selection, threshold }) })
    }

    fn die(&mut self) -> Result<Die, ExprError> {
        let start = self.pos;
        if self.eat(b'%') {
            return Ok(Die::Percentile);
        }
        match self.number("number of sides", MAX_SIDES, "the number of sides or '%'")? {
            0 => Err(Self::invalid(start, "a die needs at least one side")),
            3 => Ok(Die::D3),
            sides => Ok(Die::Sides(sides)),
        }
    }

    fn explode(&mut self, die: Die) -> Result<bool, ExprError> {
        let start = self.pos;
        if !self.eat(b'!') {
            return Ok(false);
        }
        if die.max_face() < 2 {
            return Err(Self::invalid(start, "a one-sided die cannot explode: it would always show its highest face"));
        }
        Ok(true)
    }

    fn selection(&mut self, count: u32) -> Result<Option<Selection>, ExprError> {
        let start = self.pos;
        let keep = match self.peek() {
            Some(b'k') => true,
            Some(b'd') => false,
            _ => return Ok(None),
        };
        self.pos += 1;
        let highest = match self.peek() {
            Some(b'h') => true,
            Some(b'l') => false,
            _ => return Err(self.unexpected(if keep { "'h' or 'l' after 'k'" } else { "'h' or 'l' after 'd'" })),
        };
        self.pos += 1;
        let n = self.number("number of dice kept or dropped", MAX_DICE, "how many dice to keep or drop")?;
        if n == 0 {
            return Err(Self::invalid(start, "keep or drop at least one die"));
        }
        if keep && n > count {
            return Err(Self::invalid(start, format!("cannot keep {n} of {count} dice")));
        }
        if !keep && n >= count {
            return Err(Self::invalid(start, format!("dropping {n} of {count} dice leaves none")));
        }
        Ok(Some(match (keep, highest) {
            (true, true) => Selection::KeepHighest(n),
            (true, false) => Selection::KeepLowest(n),
            (false, true) => Selection::DropHighest(n),
            (false, false) => Selection::DropLowest(n),
        }))
    }

    fn threshold(&mut self, die: Die) -> Result<Option<u32>, ExprError> {
        let start = self.pos;
        if !self.eat(b'>') {
            return Ok(None);
        }
        if !self.eat(b'=') {
            return Err(self.unexpected("'=' after '>' (a pool is written 6d6>=5)"));
        }
        let threshold = self.number("success threshold", MAX_SIDES, "the success threshold")?;
        if threshold == 0 || threshold > die.max_face() {
            let message =
                format!("a success threshold must be between 1 and the die's highest face {}", die.max_face());
            return Err(Self::invalid(start, message));
        }
        Ok(Some(threshold))
    }
}

/// `value` as a `u32` of at most `max`, or the error naming the number at `position`.
fn capped(position: usize, value: u64, what: &'static str, max: u32) -> Result<u32, ExprError> {
    u32::try_from(value).ok().filter(|value| *value <= max).ok_or(ExprError::NumberTooLarge { position, what, max })
}
