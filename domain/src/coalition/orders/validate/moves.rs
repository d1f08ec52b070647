//! Checking a move, leg by leg: each leg of a long move "must be legal itself following 3.2.2.1
//! and 3.2.2.2" (seed 003 §3.2.2.3), against the map as posted.

use super::{refuse, Board, OrderingArmy, Placement};
use crate::coalition::map::Square;
use crate::coalition::orders::{Annotation, Leg};
use crate::RuleError;

/// Squares an army may move in one turn, N/S and E/W only (§3.2.2.1).
pub const MAX_STEPS: u32 = 3;

pub(super) fn validate_move(
    board: &Board<'_>,
    army: OrderingArmy<'_>,
    placement: Placement,
    legs: &[Leg],
) -> Result<(), RuleError> {
    if legs.is_empty() {
        return Err(refuse(
            "empty_move",
            format!("the move for {} has no destination", army.name),
            "seed 003 §3.2.2.5",
        ));
    }
    let mut expected_start = placement.square;
    for (index, leg) in legs.iter().enumerate() {
        if leg.from != expected_start {
            return Err(if index == 0 {
                refuse(
                    "wrong_start",
                    format!(
                        "{} is at {}, not {}: a move starts from the army's current square",
                        army.name, expected_start, leg.from
                    ),
                    "seed 003 §3.2.2.5",
                )
            } else {
                refuse(
                    "broken_chain",
                    format!("leg {} starts at {} but leg {index} ended at {expected_start}", index + 1, leg.from),
                    "seed 003 §3.2.2.3",
                )
            });
        }
        validate_leg(board, army, placement, leg)?;
        expected_start = leg.to;
    }
    Ok(())
}

fn validate_leg(board: &Board<'_>, army: OrderingArmy<'_>, placement: Placement, leg: &Leg) -> Result<(), RuleError> {
    let route = leg.route.as_deref().unwrap_or(&[]);
    for square in [leg.from, leg.to].iter().chain(route) {
        if !board.map.contains(*square) {
            let bounds = board.map.bounds;
            let last_column = char::from(b'A' + bounds.columns.saturating_sub(1));
            return Err(refuse(
                "off_map",
                format!("{square} is off the map (rows 1–{}, columns A–{last_column})", bounds.rows),
                "seed 003 §1.2",
            ));
        }
    }
    let steps = leg.from.distance(leg.to);
    if steps > MAX_STEPS {
        return Err(refuse(
            "too_far",
            format!(
                "{} to {} is {steps} steps; an army moves at most {MAX_STEPS} squares a turn, N/S and E/W only",
                leg.from, leg.to
            ),
            "seed 003 §3.2.2.1",
        ));
    }
    if let Some(route) = &leg.route {
        validate_route(leg, route)?;
    }
    validate_destination(board, army, placement, leg)
}

/// A route lists every square, `from` first and `to` last, each a step N/S/E/W from the one
/// before, at most 3 steps in all (§3.2.2.4 with §3.2.2.1).
fn validate_route(leg: &Leg, route: &[Square]) -> Result<(), RuleError> {
    const RULE: &str = "seed 003 §3.2.2.4";
    let written = || route.iter().map(ToString::to_string).collect::<Vec<_>>().join(" - ");
    if route.first() != Some(&leg.from) || route.last() != Some(&leg.to) {
        return Err(refuse(
            "bad_route",
            format!("the route ({}) must start at {} and end at {}", written(), leg.from, leg.to),
            RULE,
        ));
    }
    if let Some(pair) = route.windows(2).find(|pair| pair[0].distance(pair[1]) != 1) {
        return Err(refuse(
            "bad_route",
            format!(
                "the route ({}) jumps from {} to {}: each step must be to the next square N, S, E or W",
                written(),
                pair[0],
                pair[1]
            ),
            RULE,
        ));
    }
    let steps = route.len().saturating_sub(1);
    if steps > MAX_STEPS as usize {
        return Err(refuse(
            "bad_route",
            format!("the route ({}) takes {steps} steps; an army moves at most {MAX_STEPS} squares a turn", written()),
            RULE,
        ));
    }
    Ok(())
}

/// The destination's occupants decide the annotation (§3.2.2.2); Joint Engage fits any square
/// but has its own restrictions (§3.2.5.1, §3.2.5.4).
fn validate_destination(
    board: &Board<'_>,
    army: OrderingArmy<'_>,
    placement: Placement,
    leg: &Leg,
) -> Result<(), RuleError> {
    const RULE: &str = "seed 003 §3.2.2.2";
    let occupants: Vec<(&str, bool)> =
        board.armies_at(leg.to, army.name).map(|(name, team)| (name, team != placement.team)).collect();
    let enemies: Vec<&str> = occupants.iter().filter(|(_, enemy)| *enemy).map(|(name, _)| *name).collect();
    let friends: Vec<&str> = occupants.iter().filter(|(_, enemy)| !*enemy).map(|(name, _)| *name).collect();
    let occupant = |target: &str| occupants.iter().find(|(name, _)| *name == target).map(|(_, enemy)| *enemy);
    match &leg.annotation {
        Some(Annotation::JointEngage) => validate_joint_engage(board, army, leg.to),
        Some(Annotation::Engage(target)) => match occupant(target) {
            Some(true) => Ok(()),
            Some(false) => Err(refuse(
                "wrong_annotation",
                format!("{target} at {} is friendly: write `replace {target}`, not `engage {target}`", leg.to),
                RULE,
            )),
            None => Err(absent(target, leg.to, &occupants)),
        },
        Some(Annotation::Replace(target)) => match occupant(target) {
            Some(false) if enemies.is_empty() => Ok(()),
            Some(false) => Err(needs_engage(&enemies, leg.to)),
            Some(true) => Err(refuse(
                "wrong_annotation",
                format!("{target} at {} is an enemy: write `engage {target}`, not `replace {target}`", leg.to),
                RULE,
            )),
            None => Err(absent(target, leg.to, &occupants)),
        },
        None if !enemies.is_empty() => Err(needs_engage(&enemies, leg.to)),
        None => match friends.first() {
            Some(friend) => Err(refuse(
                "replace_required",
                format!("{} holds the friendly army {friend}: add `replace {friend}` to the move", leg.to),
                RULE,
            )),
            None => Ok(()),
        },
    }
}

fn needs_engage(enemies: &[&str], square: Square) -> RuleError {
    let names = enemies.join(" or ");
    let first = enemies.first().copied().unwrap_or_default();
    refuse(
        "engage_required",
        format!("{square} holds the enemy army {names}: add `engage {first}` to the move"),
        "seed 003 §3.2.2.2",
    )
}

fn absent(target: &str, square: Square, occupants: &[(&str, bool)]) -> RuleError {
    let there = match occupants {
        [] => "no army".to_string(),
        _ => occupants.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(" and "),
    };
    refuse(
        "target_absent",
        format!("{target} is not at {square} (it holds {there}); annotate the army that is there when you post"),
        "seed 003 §3.2.2.2",
    )
}

fn validate_joint_engage(board: &Board<'_>, army: OrderingArmy<'_>, target: Square) -> Result<(), RuleError> {
    const RULE: &str = "seed 003 §3.2.5.4";
    if army.rank.is_captain_or_above() {
        return Err(refuse(
            "joint_engage_rank",
            format!("{} is of rank Captain/Evincar or above and cannot use Joint Engage", army.name),
            RULE,
        ));
    }
    if let Some(site) = board.map.site_at(target) {
        return Err(refuse(
            "joint_engage_site",
            format!("{target} is {}: Joint Engage may not target a base, town or portal square", site.name),
            RULE,
        ));
    }
    Ok(())
}
