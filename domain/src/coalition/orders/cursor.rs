//! A cursor over one line of a movement post, for the order parser in [`super::text`].
//!
//! Forum posts are typed by hand, so the cursor is forgiving where the seed is (keywords in any
//! case, any amount of space) and exact where it must be: every error names the line, the column
//! (counted in characters, from 1) and what was expected there.

use super::text::OrderTextError;
use crate::coalition::map::Square;

/// A position in one line of a post.
pub(super) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// The seed section whose format the line is being read against, for errors.
    pub(super) rule: &'static str,
}

impl<'a> Cursor<'a> {
    /// A cursor at byte `pos` of `text`, which is line `line` (from 1) of its post.
    pub(super) fn new(text: &'a str, pos: usize, line: usize) -> Self {
        Self { text, pos, line, rule: "seed 003 §3.2.2.5" }
    }

    /// What is left of the line.
    pub(super) fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    /// The byte position, to come back to after a failed look-ahead.
    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// Move to a byte position previously read from [`Self::pos`] or within [`Self::rest`].
    pub(super) fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.text.len());
    }

    /// Skip spaces and tabs.
    pub(super) fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Whether only whitespace is left.
    pub(super) fn at_end(&self) -> bool {
        self.rest().trim().is_empty()
    }

    /// Skip whitespace, then take `expected` if it comes next.
    pub(super) fn eat(&mut self, expected: char) -> bool {
        self.skip_ws();
        if self.rest().starts_with(expected) {
            self.pos += expected.len_utf8();
            true
        } else {
            false
        }
    }

    /// Skip whitespace, then take `words` (any case, separated by any whitespace) if they come next
    /// as whole words; otherwise leave the cursor where it was.
    pub(super) fn eat_words(&mut self, words: &[&str]) -> bool {
        self.skip_ws();
        let start = self.pos;
        for (index, word) in words.iter().enumerate() {
            if index > 0 {
                self.skip_ws();
            }
            let rest = self.rest();
            let matched = rest.get(..word.len()).is_some_and(|head| head.eq_ignore_ascii_case(word));
            let boundary = rest.get(word.len()..).is_some_and(|tail| !tail.starts_with(char::is_alphanumeric));
            if !(matched && boundary) {
                self.pos = start;
                return false;
            }
            self.pos += word.len();
        }
        true
    }

    /// Skip whitespace, then read a square (`14H`) if one comes next as a whole word.
    pub(super) fn square(&mut self) -> Option<Square> {
        self.skip_ws();
        let (square, len) = square_prefix(self.rest())?;
        self.pos += len;
        Some(square)
    }

    /// Read a square or fail saying a square was `expected`.
    pub(super) fn expect_square(&mut self, expected: &str) -> Result<Square, OrderTextError> {
        self.skip_ws();
        self.square().ok_or_else(|| self.error(expected))
    }

    /// An error at the cursor (after any whitespace): line, column, what was expected, what was there.
    pub(super) fn error(&self, expected: impl Into<String>) -> OrderTextError {
        let rest = self.rest();
        let at = self.pos + (rest.len() - rest.trim_start().len());
        let found = rest.trim();
        let found = match found.char_indices().nth(24) {
            _ if found.is_empty() => "end of line".to_string(),
            Some((cut, _)) => format!("`{}…`", &found[..cut]),
            None => format!("`{found}`"),
        };
        OrderTextError {
            line: self.line,
            column: self.text.get(..at).map_or(1, |head| head.chars().count() + 1),
            expected: expected.into(),
            found,
            rule: self.rule,
        }
    }
}

/// A square at the very start of `text` followed by a word boundary, and its length in bytes.
pub(super) fn square_prefix(text: &str) -> Option<(Square, usize)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let len = digits + 1;
    let letter = text.get(digits..).is_some_and(|tail| tail.starts_with(|c: char| c.is_ascii_alphabetic()));
    let boundary = text.get(len..).is_some_and(|tail| !tail.starts_with(char::is_alphanumeric));
    if digits == 0 || !letter || !boundary {
        return None;
    }
    Square::parse(text.get(..len)?).ok().map(|square| (square, len))
}
