//! The Mercenary commander's after-lock edit (seed 003 §6.3.2): "Once per turn, the Mercenary
//! commander may post after the movement lock to change ONE Raider army movement to a new
//! movement, with the following restrictions — the new command must be an attempt to engage an
//! army, not simply to avoid engagement; the new command must not take the army through the
//! current position of any army on the map."
//!
//! Readings: the new movement is one leg whose destination holds an army of a player team now
//! (mercenaries never attack each other); "through" is every square of the leg's route but its
//! destination, so the route must be given or every shortest route must avoid the armies; the
//! edit must also keep the Raider guideline of §6.3.1. It replaces the raider's order for the turn.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{guidelines, MERCENARY_JUDGE};
use crate::{
    coalition::{
        army::Team,
        campaign::{
            judges,
            judges::Office,
            state::{CampaignState, TurnPhase},
        },
        movement::shortest_routes,
        orders::{Order, PostedOrder},
        setup::MercenaryFaction,
    },
    Context, RuleError,
};

/// A raider's order changed after the lock (event `coalition.RaiderOrderEdited`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RaiderOrderEdited {
    /// The turn.
    pub turn: u32,
    /// The new order, as posted.
    pub order: PostedOrder,
}

fn refuse(code: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(format!("coalition.campaign.{code}"), message, "seed 003 §6.3.2")
}

/// Decide the edit.
pub fn edit(state: &CampaignState, ctx: &Context, army: &str, order: &Order) -> Result<RaiderOrderEdited, RuleError> {
    judges::require(state, ctx, &[Office::Mercenary], "edit a raider's movement after the lock")?;
    let TurnPhase::Locked { .. } = state.phase else {
        return Err(refuse("edit_not_after_lock", "the edit is posted after the movement lock, before the update"));
    };
    if state.raider_edit.is_some() {
        return Err(refuse("edit_used", "the after-lock edit has already been used this turn"));
    }
    let mercenary = state.mercenaries.get(army).filter(|m| m.faction == MercenaryFaction::Raider);
    let (Some(mercenary), Some(current)) = (mercenary, state.armies.get(army)) else {
        return Err(refuse("edit_not_raider", format!("{army} is not a Raider army on the map")));
    };
    let leg = match order {
        Order::Move { legs } if legs.len() == 1 => &legs[0],
        _ => return Err(refuse("edit_not_engage", "the new command is one movement that engages an army")),
    };
    if leg.from != current.square {
        return Err(refuse("edit_not_engage", format!("{army} stands on {}", current.square)));
    }
    let target = state.armies.values().find(|a| a.square == leg.to && a.army.team != Team::Mercenary);
    if target.is_none() {
        return Err(refuse(
            "edit_not_engage",
            format!("no army of a team stands on {}: the new command must be an attempt to engage an army", leg.to),
        ));
    }
    let placements = crate::coalition::campaign::decide::board_placements(state);
    let board = crate::coalition::orders::Board { map: &state.map, armies: &placements };
    crate::coalition::orders::validate_order(
        &board,
        crate::coalition::orders::OrderingArmy { name: army, rank: current.army.rank },
        order,
    )?;
    let occupied = |square| state.armies.values().any(|a| a.square == square);
    let routes: Vec<Vec<crate::coalition::map::Square>> = match &leg.route {
        Some(route) => vec![route.clone()],
        None => shortest_routes(leg.from, leg.to),
    };
    if routes.iter().any(|route| route.iter().skip(1).take(route.len().saturating_sub(2)).any(|s| occupied(*s))) {
        return Err(refuse(
            "edit_through_army",
            "the new command must not take the army through the current position of any army: give a route that avoids them",
        ));
    }
    guidelines::check(&state.map, army, mercenary, order)?;
    let posted = PostedOrder {
        army: army.to_string(),
        order: order.clone(),
        posted_by: MERCENARY_JUDGE.to_string(),
        posted_at: ctx.recorded_at,
        post: "~raider-edit".into(),
        line: 0,
        private: false,
        uncontrolled: false,
    };
    Ok(RaiderOrderEdited { turn: state.turn, order: posted })
}
