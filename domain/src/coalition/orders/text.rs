//! Reading movement posts: the seed's text format for orders (seed 003 §3.2.2.5, §3.2.3.1,
//! §3.2.4.2, §3.2.5.1) into [`Order`]s, one order per line.
//!
//! The grammar, keywords in any case and spaces anywhere between tokens:
//!
//! ```text
//! line      = [army ":"] body                  army: anything but ":"; left off = the poster's army
//! body      = move | intercept | transfer | hold | disband
//! move      = square hop+ | square [";"] "Joint Engage"       the second form: Joint Engage in place
//! hop       = ">" square [route] [annotation]   one Leg per hop (§3.2.2.3)
//! route     = "(" square (("-" | ",") square)* ")"             (§3.2.2.4)
//! annotation= [";"] ("engage" army | "replace" army | "Joint Engage")
//! intercept = "Intercept" army                                 (§3.2.3.1)
//! transfer  = "Transfer to" army "at" square                   (§3.2.4.2)
//! disband   = "disband" | "disbands"                           (a Raider, §6.3.2)
//! hold      = "hold" | "holds" | "hold position" | "no move" | "stay" | "stays" | "stay put"
//!           | "stays put" | "does not move" | "doesn't move" | "not moving" | "fighting"
//!           | "in battle"                                       (§3.2.1, an optional trailing ".")
//! ```
//!
//! An `engage`/`replace` name runs to the end of the line or to the next `>` followed by a square,
//! so an annotation may sit on any leg of a long move (each leg must be legal itself, §3.2.2.3).
//! A transfer's army name runs to the last `at <square>`. Blank lines are ignored; any other line
//! that is not an order is an error, so a typo is never silently dropped from a player's turn.

use chrono::{DateTime, Utc};

mod moves;

use super::cursor::{square_prefix, Cursor};
use super::{Order, PostedOrder};
use crate::RuleError;

/// Why a line of a post is not an order: where, and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: expected {expected}, found {found}")]
pub struct OrderTextError {
    /// The line of the post, from 1.
    pub line: usize,
    /// The column, in characters, from 1.
    pub column: usize,
    /// What the format allows there.
    pub expected: String,
    /// What the post has there (`end of line` at the end).
    pub found: String,
    /// The seed section giving the format being read (`seed 003 §3.2.4.2` for a transfer).
    pub rule: &'static str,
}

impl From<OrderTextError> for RuleError {
    fn from(error: OrderTextError) -> Self {
        RuleError::new("coalition.orders.malformed", error.to_string(), error.rule)
    }
}

/// One order read from a post, before it is stamped with who posted it and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedOrder {
    /// The army ordered (the poster's name when the line leaves it off).
    pub army: String,
    /// The order.
    pub order: Order,
    /// The line of the post it was on, from 1.
    pub line: usize,
}

/// A movement post as the forum (or the judge, re-posting a private message) gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Post<'a> {
    /// The post's text.
    pub text: &'a str,
    /// The player who posted it; also the army of lines that leave the army off (§3.2.2.5).
    pub posted_by: &'a str,
    /// The post's timestamp.
    pub posted_at: DateTime<Utc>,
    /// The post's id.
    pub id: &'a str,
    /// Sent privately to the movement judge (seed 003 §3.1).
    pub private: bool,
}

/// Read every order of a post: one per line, blank lines ignored, the first bad line refused.
pub fn parse_post(text: &str, poster: &str) -> Result<Vec<ParsedOrder>, OrderTextError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            parse_line(line, index + 1, poster).map(|(army, order)| ParsedOrder { army, order, line: index + 1 })
        })
        .collect()
}

/// Read a post into [`PostedOrder`]s. `line` is the order's place among the post's orders, from
/// 0, which is what "the first one written takes priority" (§3.3.1) compares.
pub fn parse_post_orders(post: &Post<'_>) -> Result<Vec<PostedOrder>, RuleError> {
    let parsed = parse_post(post.text, post.posted_by)?;
    Ok(parsed
        .into_iter()
        .zip(0u32..)
        .map(|(parsed, line)| PostedOrder {
            army: parsed.army,
            order: parsed.order,
            posted_by: post.posted_by.to_string(),
            posted_at: post.posted_at,
            post: post.id.to_string(),
            line,
            private: post.private,
            uncontrolled: false,
        })
        .collect())
}

/// Read one line (number `line_no`, from 1, for errors) into the army it orders and the order.
pub fn parse_line(text: &str, line_no: usize, poster: &str) -> Result<(String, Order), OrderTextError> {
    let (army, body_start) = match text.find(':') {
        Some(colon) => (text[..colon].trim(), colon + 1),
        None => (poster.trim(), 0),
    };
    if army.is_empty() {
        return Err(Cursor::new(text, 0, line_no).error("the army's name before `:`"));
    }
    let order = body(&mut Cursor::new(text, body_start, line_no))?;
    Ok((army.to_string(), order))
}

const ORDER_EXPECTED: &str =
    "an order: a move like `3D > 5E`, `Intercept <army>`, `Transfer to <army> at <square>` or `hold`";

/// Spellings of "this army does not move" (§3.2.1), compared after folding case and spaces.
pub const HOLD_SPELLINGS: [&str; 13] = [
    "hold",
    "holds",
    "hold position",
    "no move",
    "stay",
    "stays",
    "stay put",
    "stays put",
    "does not move",
    "doesn't move",
    "not moving",
    "fighting",
    "in battle",
];

fn body(cursor: &mut Cursor<'_>) -> Result<Order, OrderTextError> {
    cursor.skip_ws();
    if cursor.rest().starts_with(|c: char| c.is_ascii_digit()) {
        return moves::moves(cursor);
    }
    if cursor.eat_words(&["intercept"]) {
        cursor.rule = "seed 003 §3.2.3.1";
        let target = cursor.rest().trim();
        if target.is_empty() {
            return Err(cursor.error("the name of the army to intercept"));
        }
        return Ok(Order::Intercept { target: target.to_string() });
    }
    if cursor.eat_words(&["transfer"]) {
        cursor.rule = "seed 003 §3.2.4.2";
        return transfer(cursor);
    }
    let folded = cursor.rest().split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase().replace('’', "'");
    if HOLD_SPELLINGS.contains(&folded.strip_suffix('.').unwrap_or(&folded)) {
        return Ok(Order::Hold);
    }
    if matches!(folded.strip_suffix('.').unwrap_or(&folded), "disband" | "disbands") {
        return Ok(Order::Disband);
    }
    Err(cursor.error(ORDER_EXPECTED))
}

fn transfer(cursor: &mut Cursor<'_>) -> Result<Order, OrderTextError> {
    if !cursor.eat_words(&["to"]) {
        return Err(cursor.error("`to` after `Transfer`"));
    }
    let rest = cursor.rest();
    let at_clause = rest.char_indices().rev().map(|(index, _)| index).find(|index| is_at_clause(rest, *index));
    let Some(at) = at_clause else {
        cursor.seek(cursor.pos() + rest.trim_end().len());
        return Err(cursor.error("`at <square>` after the receiving army's name"));
    };
    let to = rest[..at].trim();
    if to.is_empty() {
        return Err(cursor.error("the name of the receiving army"));
    }
    cursor.seek(cursor.pos() + at + 2);
    let at = cursor.expect_square("the receiving army's square after `at`")?;
    Ok(Order::Transfer { to: to.to_string(), at, troops: Vec::new() })
}

/// Whether `rest[index..]` is ` at <square>` to the end of the line, after whitespace.
fn is_at_clause(rest: &str, index: usize) -> bool {
    let preceded = rest[..index].ends_with(char::is_whitespace);
    let word = rest.get(index..index + 2).is_some_and(|word| word.eq_ignore_ascii_case("at"));
    let tail = rest.get(index + 2..).unwrap_or("");
    let square = tail.starts_with(char::is_whitespace)
        && square_prefix(tail.trim_start()).is_some_and(|(_, len)| tail.trim_start()[len..].trim().is_empty());
    preceded && word && square
}
