//! What each army's order asks this turn (seed 003 §3.2.1), before any other army is considered:
//! checked against the map and the range rule, with its route known.
//!
//! Only this turn's leg is looked at; the rest of a long move is handed back at the end
//! (§3.2.2.3). Routes are drawn here, army by army in name order, so the tape is used the same
//! way on every replay whatever the resolution finds later.

use super::plan::{Intent, MovePlan, OrderKey, Why};
use super::route::{check_leg, draw_route};
use super::types::{ArmyPosition, MoveOutcome};
use crate::coalition::map::Map;
use crate::coalition::orders::{Annotation, Leg, Order, PostedOrder};
use crate::dice::DiceTape;
use crate::RuleError;

/// The intent of every army, in the order of `armies` (sorted by name).
pub(super) fn intents(
    map: &Map,
    armies: &[&ArmyPosition],
    orders: &[Option<&PostedOrder>],
    dice: &mut DiceTape,
) -> Result<Vec<Intent>, RuleError> {
    armies.iter().zip(orders).map(|(army, order)| intent(map, army, *order, dice)).collect()
}

fn intent(
    map: &Map,
    army: &ArmyPosition,
    order: Option<&PostedOrder>,
    dice: &mut DiceTape,
) -> Result<Intent, RuleError> {
    if army.in_battle {
        return Ok(Intent::Stay(Why::new(
            MoveOutcome::InBattle,
            "engaged in battle last turn: its action is the battle, so it does not move",
            "seed 003 §3.2.1",
        )));
    }
    let Some(posted) = order else {
        return Ok(stay("no order this turn", "seed 003 §3.2.1"));
    };
    match &posted.order {
        Order::Hold => Ok(stay("ordered not to move", "seed 003 §3.2.1")),
        Order::Disband => Ok(stay("takes this movement turn to disband", "seed 003 §6.3.2")),
        Order::Transfer { to, .. } => {
            Ok(stay(format!("transfers troops to {to}, which is its action for the turn"), "seed 003 §3.2.4"))
        }
        Order::Intercept { target } => Ok(Intent::Intercept { target: target.clone() }),
        Order::Move { legs } => move_intent(map, army, posted, legs.first(), dice),
    }
}

fn stay(reason: impl Into<String>, rule: &'static str) -> Intent {
    Intent::Stay(Why::new(MoveOutcome::Stayed, reason, rule))
}

fn rejected(reason: impl Into<String>, rule: &'static str) -> Intent {
    Intent::Stay(Why::new(MoveOutcome::Rejected, reason, rule))
}

/// This turn's leg: checked, Joint Engage restrictions applied, route drawn when not given.
fn move_intent(
    map: &Map,
    army: &ArmyPosition,
    posted: &PostedOrder,
    leg: Option<&Leg>,
    dice: &mut DiceTape,
) -> Result<Intent, RuleError> {
    let Some(leg) = leg else {
        return Ok(rejected("the move order has no legs", "seed 003 §3.2.2.5"));
    };
    let given = match check_leg(map, army.square, leg) {
        Ok(given) => given,
        Err((reason, rule)) => return Ok(rejected(reason, rule)),
    };
    let joint = matches!(leg.annotation, Some(Annotation::JointEngage));
    if joint {
        if let Some(refusal) = joint_engage_restriction(map, army, leg) {
            return Ok(Intent::Stay(refusal));
        }
    } else if leg.to == army.square {
        return Ok(stay(format!("ordered to its own square {}", leg.to), "seed 003 §3.2.2"));
    }
    let routed = given.is_some();
    let route = match given {
        Some(route) => route,
        None => draw_route(&army.name, leg.from, leg.to, dice)?,
    };
    let key = OrderKey { posted_at: posted.posted_at, post: posted.post.clone(), line: posted.line };
    Ok(Intent::Move(MovePlan { dest: leg.to, route, routed, joint, key }))
}

/// §3.2.5.4: no Joint Engage by Captain/Evincar or above, nor onto a base, town or portal. A
/// failed condition means the order "is ignored completely, and that army will not move"
/// (§3.2.5.3).
fn joint_engage_restriction(map: &Map, army: &ArmyPosition, leg: &Leg) -> Option<Why> {
    if army.rank.is_captain_or_above() {
        return Some(Why::new(
            MoveOutcome::JointEngageIgnored,
            "armies of rank Captain/Evincar or above cannot Joint Engage; the order is ignored",
            "seed 003 §3.2.5.4",
        ));
    }
    map.site_at(leg.to).map(|site| {
        Why::new(
            MoveOutcome::JointEngageIgnored,
            format!(
                "{} is {}, and a Joint Engage may not target a base, town or portal; the order is ignored",
                leg.to, site.name
            ),
            "seed 003 §3.2.5.4",
        )
    })
}
