//! The move grammar of a movement post (seed 003 §3.2.2.5): hops, routes (§3.2.2.4) and the
//! `engage`/`replace`/`Joint Engage` annotations (§3.2.2.2, §3.2.5.1). See [`super`] for the
//! whole grammar.

use super::OrderTextError;
use crate::coalition::map::Square;
use crate::coalition::orders::cursor::{square_prefix, Cursor};
use crate::coalition::orders::{Annotation, Leg, Order};

/// Read a move: the army's square, then one leg per `>` hop, or a Joint Engage in place.
pub(super) fn moves(cursor: &mut Cursor<'_>) -> Result<Order, OrderTextError> {
    let from = cursor.expect_square("the army's current square, like `3D`")?;
    let mut legs: Vec<Leg> = Vec::new();
    let mut current = from;
    while cursor.eat('>') {
        let to = cursor.expect_square("a square after `>`")?;
        let route = route(cursor)?;
        let annotation = annotation(cursor)?;
        legs.push(Leg { from: current, to, route, annotation });
        current = to;
    }
    if legs.is_empty() {
        let before = cursor.pos();
        match annotation(cursor)? {
            Some(Annotation::JointEngage) => {
                legs.push(Leg { from, to: from, route: None, annotation: Some(Annotation::JointEngage) });
            }
            _ => {
                cursor.seek(before);
                return Err(cursor.error("`>` and the square to move to"));
            }
        }
    }
    if !cursor.at_end() {
        return Err(cursor.error("`>`, a route in `( )`, `engage`, `replace`, `Joint Engage` or the end of the line"));
    }
    Ok(Order::Move { legs })
}

fn route(cursor: &mut Cursor<'_>) -> Result<Option<Vec<Square>>, OrderTextError> {
    if !cursor.eat('(') {
        return Ok(None);
    }
    let previous = std::mem::replace(&mut cursor.rule, "seed 003 §3.2.2.4");
    let mut squares = vec![cursor.expect_square("a square of the route")?];
    while !cursor.eat(')') {
        if !(cursor.eat('-') || cursor.eat(',')) {
            return Err(cursor.error("`-` before the next square of the route, or `)` to close it"));
        }
        squares.push(cursor.expect_square("a square of the route")?);
    }
    cursor.rule = previous;
    Ok(Some(squares))
}

fn annotation(cursor: &mut Cursor<'_>) -> Result<Option<Annotation>, OrderTextError> {
    let semicolon = cursor.eat(';');
    if cursor.eat_words(&["joint", "engage"]) {
        return Ok(Some(Annotation::JointEngage));
    }
    if cursor.eat_words(&["engage"]) {
        return army_name(cursor, "engage").map(|name| Some(Annotation::Engage(name)));
    }
    if cursor.eat_words(&["replace"]) {
        return army_name(cursor, "replace").map(|name| Some(Annotation::Replace(name)));
    }
    if semicolon {
        return Err(cursor.error("`engage <army>`, `replace <army>` or `Joint Engage` after `;`"));
    }
    Ok(None)
}

/// The army named after `engage`/`replace`: up to the next hop (`>` then a square) or the end.
fn army_name(cursor: &mut Cursor<'_>, keyword: &str) -> Result<String, OrderTextError> {
    let rest = cursor.rest();
    let end = rest
        .char_indices()
        .find(|&(index, c)| c == '>' && square_prefix(rest[index + 1..].trim_start()).is_some())
        .map_or(rest.len(), |(index, _)| index);
    let name = rest[..end].trim();
    if name.is_empty() {
        return Err(cursor.error(format!("the army's name after `{keyword}`")));
    }
    cursor.seek(cursor.pos() + end);
    Ok(name.to_string())
}
