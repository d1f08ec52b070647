//! Posting orders (seed 003 §3.1, §3.2.2.5, §5.4, ch. 6): each order is checked against the map as
//! it is when posted (§3.2.2.2); whether it counts is decided at the lock.
//!
//! - A player posts for their own team's armies. An order for an army the player does not control
//!   now is accepted and marked `uncontrolled`: "what counts is what the proxy list says at the
//!   time of the movement lock" (§5.4.2); if they still do not control it then, the order does not
//!   count and they are reprimanded (§5.4.1). Orders for the other team's armies are refused.
//! - Mercenaries are ordered by the Mercenary Judge (ch. 6): a judge posting for mercenary armies
//!   without naming a player posts as the Mercenary Judge, and the orders that break a guideline
//!   stated as a hard limit are refused (§6.2.3, §6.3.1).
//! - A partially converted army must count its days without moving (§4.5): only `hold` is taken.

use std::collections::BTreeMap;

use super::{
    command::ArmyOrder,
    control::activity::team_of,
    decide::{board_placements, living_army, refuse},
    event::CampaignEvent,
    judges::{self, Office},
    mercenaries::{guidelines, MERCENARY_JUDGE},
    state::{CampaignState, TurnPhase},
};
use crate::{
    coalition::{
        army::Team,
        orders::{parse_post_orders, validate_order, Board, Order, OrderingArmy, Post, PostedOrder},
    },
    Context, RuleError,
};

fn poster_of(
    state: &CampaignState,
    ctx: &Context,
    orders: &[ArmyOrder],
    text: Option<&str>,
    on_behalf_of: Option<&str>,
) -> Result<String, RuleError> {
    match (ctx.actor.player.as_deref(), on_behalf_of) {
        (_, Some(player)) if ctx.actor.is_judge() => Ok(player.to_string()),
        (Some(player), None) => Ok(player.to_string()),
        (_, Some(_)) => Err(RuleError::forbidden(
            "coalition.campaign.not_a_judge",
            "only a judge may post orders on another player's behalf",
            "seed 003 §3.1",
        )),
        (None, None) if ctx.actor.is_judge() && (text.is_some() || !orders.is_empty()) => {
            judges::require(state, ctx, &[Office::Mercenary], "order the mercenaries")?;
            Ok(MERCENARY_JUDGE.to_string())
        }
        (None, None) => Err(RuleError::forbidden(
            "coalition.campaign.not_a_player",
            "orders are posted by players (a judge re-posting a PM names the player in on_behalf_of)",
            "seed 003 §3.1",
        )),
    }
}

/// Decide a post of orders.
pub fn post_orders(
    state: &CampaignState,
    ctx: &Context,
    text: Option<&str>,
    orders: &[ArmyOrder],
    private: bool,
    on_behalf_of: Option<&str>,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let TurnPhase::Open { .. } = state.phase else {
        return Err(refuse("turn_not_open", "orders can only be posted while a turn is open", "seed 003 §3.1"));
    };
    let poster = poster_of(state, ctx, orders, text, on_behalf_of)?;
    let post = format!("{:08}", state.posts);
    let mut posted: Vec<PostedOrder> = match text {
        Some(text) => {
            parse_post_orders(&Post { text, posted_by: &poster, posted_at: ctx.recorded_at, id: &post, private })?
        }
        None => Vec::new(),
    };
    let offset = u32::try_from(posted.len()).unwrap_or(u32::MAX);
    posted.extend(orders.iter().enumerate().map(|(index, order)| PostedOrder {
        army: order.army.clone(),
        order: order.order.clone(),
        posted_by: poster.clone(),
        posted_at: ctx.recorded_at,
        post: post.clone(),
        line: offset.saturating_add(u32::try_from(index).unwrap_or(u32::MAX)),
        private,
        uncontrolled: false,
    }));
    if posted.is_empty() {
        return Err(refuse("empty_post", "the post holds no orders", "seed 003 §3.2.2.5"));
    }
    let placements: BTreeMap<_, _> = board_placements(state);
    let board = Board { map: &state.map, armies: &placements };
    let poster_team = if poster == MERCENARY_JUDGE { Some(Team::Mercenary) } else { team_of(state, &poster) };
    for order in &mut posted {
        let army = living_army(state, &order.army)?;
        let team = army.army.team;
        if poster_team != Some(team) {
            let rule = if team == Team::Mercenary { "seed 003 ch. 6" } else { "seed 003 §5.2.1" };
            return Err(RuleError::forbidden(
                "coalition.campaign.not_controller",
                format!("{poster} does not control {}", order.army),
                rule,
            ));
        }
        order.uncontrolled = !army.controllers.contains(&poster);
        if state.conversions.contains_key(&order.army) && order.order != Order::Hold {
            return Err(refuse(
                "partially_converted",
                format!("{} is partially converted: it must count 2 days where it is without moving", order.army),
                "seed 003 §4.5",
            ));
        }
        if let Some(mercenary) = state.mercenaries.get(&order.army) {
            guidelines::check(&state.map, &order.army, mercenary, &order.order)?;
        } else if order.order == Order::Disband {
            return Err(refuse(
                "disband_not_raider",
                format!("{} cannot disband: only Raider armies disband", order.army),
                "seed 003 §6.3.2",
            ));
        }
        validate_order(&board, OrderingArmy { name: &order.army, rank: army.army.rank }, &order.order)?;
    }
    Ok(vec![CampaignEvent::OrdersPosted { turn: state.turn, post, orders: posted }])
}
