//! Routes (seed 003 §3.2.2.4): the player's own, checked, or one drawn at random.
//!
//! The route matters for intercepts (§3.2.3) and for where a routed partial move may stop, so it
//! is fixed before anything else is resolved. An unrouted leg takes one of its shortest routes,
//! all equally likely: the routes are listed in a fixed order (at each fork the row step before
//! the column step) and one die with as many sides as there are routes picks one. A leg of at
//! most 3 steps has at most 3 shortest routes, so one die per leg, and none when the leg is
//! straight.

use crate::coalition::map::{Map, Square};
use crate::coalition::orders::Leg;
use crate::dice::DiceTape;
use crate::RuleError;

/// Most orthogonal steps an army may take in one turn (seed 003 §3.2.2.1).
pub const MAX_STEPS: u32 = 3;

/// Check a leg against the map and §3.2.2.1, and its route against §3.2.2.4.
///
/// Returns the player's route when given, or `None` when the route is to be drawn; `Err` carries
/// the reason and the rule for the report.
pub(super) fn check_leg(map: &Map, at: Square, leg: &Leg) -> Result<Option<Vec<Square>>, (String, &'static str)> {
    if leg.from != at {
        return Err((format!("the order moves from {} but the army is at {at}", leg.from), "seed 003 §3.2.2.5"));
    }
    if !map.contains(leg.to) {
        return Err((format!("{} is off the map", leg.to), "seed 003 §1.2"));
    }
    let steps = leg.from.distance(leg.to);
    if steps > MAX_STEPS {
        return Err((
            format!(
                "{} to {} is {steps} steps; an army moves at most {MAX_STEPS} orthogonal steps a turn",
                leg.from, leg.to
            ),
            "seed 003 §3.2.2.1",
        ));
    }
    let Some(route) = &leg.route else { return Ok(None) };
    check_route(map, leg, route).map(|()| Some(route.clone())).map_err(|reason| (reason, "seed 003 §3.2.2.4"))
}

/// A given route must start at `from`, end at `to`, take orthogonal single steps on the map, and
/// take no more than 3 of them (a detour is allowed within that).
fn check_route(map: &Map, leg: &Leg, route: &[Square]) -> Result<(), String> {
    if route.first() != Some(&leg.from) || route.last() != Some(&leg.to) {
        return Err(format!("the route must run from {} to {}", leg.from, leg.to));
    }
    if let Some(off) = route.iter().find(|square| !map.contains(**square)) {
        return Err(format!("the route crosses {off}, which is off the map"));
    }
    if let Some(pair) = route.windows(2).find(|pair| pair[0].distance(pair[1]) != 1) {
        return Err(format!(
            "the route jumps from {} to {}: steps must be orthogonal and one square long",
            pair[0], pair[1]
        ));
    }
    let steps = route.len().saturating_sub(1);
    if steps > MAX_STEPS as usize {
        return Err(format!("the route takes {steps} steps; an army moves at most {MAX_STEPS} a turn"));
    }
    Ok(())
}

/// Every shortest route from `from` to `to`, in the fixed order: at each fork the row step first.
pub fn shortest_routes(from: Square, to: Square) -> Vec<Vec<Square>> {
    let mut routes = Vec::new();
    extend_routes(vec![from], to, &mut routes);
    routes
}

fn extend_routes(prefix: Vec<Square>, to: Square, routes: &mut Vec<Vec<Square>>) {
    let Some(&here) = prefix.last() else { return };
    if here == to {
        routes.push(prefix);
        return;
    }
    if here.row != to.row {
        let row = if to.row > here.row { here.row + 1 } else { here.row - 1 };
        let mut next = prefix.clone();
        next.push(Square { row, column: here.column });
        extend_routes(next, to, routes);
    }
    if here.column != to.column {
        let column = if to.column > here.column { here.column + 1 } else { here.column - 1 };
        let mut next = prefix;
        next.push(Square { row: here.row, column });
        extend_routes(next, to, routes);
    }
}

/// Draw the route of an unrouted leg: one die over its shortest routes, recorded as
/// `route <army>: <from> > <to>` (none when only one route exists).
pub(super) fn draw_route(army: &str, from: Square, to: Square, dice: &mut DiceTape) -> Result<Vec<Square>, RuleError> {
    let mut routes = shortest_routes(from, to);
    if routes.len() <= 1 {
        return Ok(routes.pop().unwrap_or_else(|| vec![from]));
    }
    let sides = u32::try_from(routes.len()).unwrap_or(u32::MAX);
    let draw = dice.roll(sides, format!("route {army}: {from} > {to}"))?;
    let index = usize::try_from(draw.value.saturating_sub(1)).unwrap_or(0);
    Ok(routes.swap_remove(index.min(routes.len() - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        Square::parse(text).unwrap_or(Square { row: 1, column: 0 })
    }

    #[test]
    fn an_l_shaped_leg_of_three_steps_has_three_shortest_routes_seed_003_3_2_2_4() {
        let routes = shortest_routes(sq("5E"), sq("4G"));
        let text: Vec<String> =
            routes.iter().map(|route| route.iter().map(ToString::to_string).collect::<Vec<_>>().join("-")).collect();
        assert_eq!(text, ["5E-4E-4F-4G", "5E-5F-4F-4G", "5E-5F-5G-4G"]);
        assert_eq!(shortest_routes(sq("3D"), sq("6D")).len(), 1);
        assert_eq!(shortest_routes(sq("3D"), sq("3D")), vec![vec![sq("3D")]]);
    }
}
