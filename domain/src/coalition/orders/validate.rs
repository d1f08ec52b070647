//! Checking an order against the map as it is when the order is posted (seed 003 §3.2.2.2: the
//! annotations are "necessary or not necessary based on the map when you post the move").
//!
//! Everything here can be decided at post time; what depends on the other orders of the turn
//! (collisions, partial moves, which Joint Engage goes through) belongs to the movement judge.
//! Each refusal is a [`RuleError`] with a stable code `coalition.orders.<name>` and its section:
//!
//! | code | rule |
//! |---|---|
//! | `unknown_army` | the ordered, intercepted or receiving army is not on the map |
//! | `empty_move`, `wrong_start`, `broken_chain` | §3.2.2.5, §3.2.2.3 |
//! | `off_map`, `too_far` | §1.2, §3.2.2.1 |
//! | `bad_route` | §3.2.2.4 |
//! | `engage_required`, `replace_required`, `wrong_annotation`, `target_absent` | §3.2.2.2 |
//! | `joint_engage_rank`, `joint_engage_site` | §3.2.5.4 |
//! | `intercept_not_enemy` | §3.2.3.1 |
//! | `transfer_to_self`, `transfer_to_enemy`, `transfer_wrong_square`, `transfer_not_adjacent`, `transfer_from_site` | §3.2.4.1 |
//!
//! Teams: an army is an enemy when its team differs, so mercenaries are enemies of both player
//! teams and friends of each other (they "will never attack each other", ch. 6).

mod moves;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Order;
use crate::coalition::army::{RankClass, Team};
use crate::coalition::map::{Map, Square};
use crate::RuleError;

/// Where an army stands and whose side it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Placement {
    /// Its square.
    pub square: Square,
    /// Its team.
    pub team: Team,
}

/// The map as it is when an order is posted: the map itself and where every army is, by name.
#[derive(Debug, Clone, Copy)]
pub struct Board<'a> {
    /// Bounds and sites.
    pub map: &'a Map,
    /// Every army on the map.
    pub armies: &'a BTreeMap<String, Placement>,
}

impl Board<'_> {
    /// The armies on `square`, by name, leaving out `except` (the ordering army itself).
    pub fn armies_at<'b>(&'b self, square: Square, except: &'b str) -> impl Iterator<Item = (&'b str, Team)> + 'b {
        self.armies
            .iter()
            .filter(move |(name, placement)| placement.square == square && name.as_str() != except)
            .map(|(name, placement)| (name.as_str(), placement.team))
    }

    fn placement(&self, army: &str, rule: &str) -> Result<Placement, RuleError> {
        self.armies
            .get(army)
            .copied()
            .ok_or_else(|| refuse("unknown_army", format!("there is no army called {army} on the map"), rule))
    }
}

/// The army giving an order: its name and rank class (Joint Engage depends on rank, §3.2.5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderingArmy<'a> {
    /// The army's name, as on the board.
    pub name: &'a str,
    /// Its rank class.
    pub rank: RankClass,
}

/// Check `order` for `army` against `board`; `Ok` when the order may stand, else the first
/// refusal found (legs are checked in order, then each leg's squares, route and annotation).
pub fn validate_order(board: &Board<'_>, army: OrderingArmy<'_>, order: &Order) -> Result<(), RuleError> {
    let placement = board.placement(army.name, "seed 003 §3.2")?;
    match order {
        Order::Hold => Ok(()),
        Order::Disband if placement.team == Team::Mercenary => Ok(()),
        Order::Disband => Err(refuse(
            "disband_not_raider",
            format!("{} cannot disband: only Raider armies disband", army.name),
            "seed 003 §6.3.2",
        )),
        Order::Move { legs } => moves::validate_move(board, army, placement, legs),
        Order::Intercept { target } => {
            let target_placement = board.placement(target, "seed 003 §3.2.3.1")?;
            if target == army.name || target_placement.team == placement.team {
                return Err(refuse(
                    "intercept_not_enemy",
                    format!("{} can only intercept an enemy army, and {target} is not one", army.name),
                    "seed 003 §3.2.3.1",
                ));
            }
            Ok(())
        }
        Order::Transfer { to, at, .. } => validate_transfer(board, army.name, placement, to, *at),
    }
}

/// Whether two squares are "next to each other" (§3.2.4.1): sharing a side or a corner.
///
/// The seed uses "next to" for all eight surrounding squares when it places a battle's loser in
/// "an empty square next to the battle. If all 8 squares surrounding the battle are occupied…"
/// (§4.2.5), so diagonal neighbours count; moving (§3.2.2.1) is what forbids diagonals, not
/// adjacency.
pub fn next_to(a: Square, b: Square) -> bool {
    a != b && a.row.abs_diff(b.row) <= 1 && a.column.abs_diff(b.column) <= 1
}

fn validate_transfer(board: &Board<'_>, sender: &str, from: Placement, to: &str, at: Square) -> Result<(), RuleError> {
    const RULE: &str = "seed 003 §3.2.4.1";
    if to == sender {
        return Err(refuse("transfer_to_self", format!("{sender} cannot transfer troops to itself"), RULE));
    }
    let receiver = board.placement(to, RULE)?;
    if receiver.team != from.team {
        return Err(refuse(
            "transfer_to_enemy",
            format!("{sender} can only transfer to a friendly army; {to} is not"),
            RULE,
        ));
    }
    if receiver.square != at {
        return Err(refuse("transfer_wrong_square", format!("{to} is at {}, not {at}", receiver.square), RULE));
    }
    if !next_to(from.square, receiver.square) {
        return Err(refuse(
            "transfer_not_adjacent",
            format!("{sender} at {} is not next to {to} at {}", from.square, receiver.square),
            RULE,
        ));
    }
    if let Some(site) = board.map.site_at(from.square) {
        return Err(refuse(
            "transfer_from_site",
            format!(
                "{sender} cannot send troops from {} ({}): not from a base, portal or town",
                from.square, site.name
            ),
            RULE,
        ));
    }
    Ok(())
}

/// A refusal `coalition.orders.<code>` citing `rule`.
fn refuse(code: &str, message: String, rule: &str) -> RuleError {
    RuleError::new(format!("coalition.orders.{code}"), message, rule)
}
