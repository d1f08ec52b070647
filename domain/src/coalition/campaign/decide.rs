//! The campaign's decisions outside adjudication: setting up the round, controllers, opening
//! and locking turns, posting orders and judges' rulings.

use std::collections::BTreeMap;

use super::{
    command::{ArmyEntry, ArmyOrder, CampaignCommand, CampaignOptions, Start},
    event::CampaignEvent,
    state::{CampaignState, TurnPhase},
};
use crate::{
    coalition::{
        army::{Army, Team},
        map::{Map, Square},
        orders::{parse_post_orders, validate_order, Board, OrderingArmy, Placement, Post, PostedOrder},
        setup::{
            place_armies, validate_army, validate_players, validate_round_armies, validate_setup, ArmyContext,
            PlacementRequest, Player, SetupRules,
        },
    },
    Context, RuleError,
};

const SERVICE_RULES: &str = "herald: docs/rulesets/coalition-campaign.md";

fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("coalition.campaign.{code}"), message, rule)
}

/// Refuse unless the actor is a judge (or admin).
pub fn require_judge(ctx: &Context, what: &str) -> Result<(), RuleError> {
    if ctx.actor.is_judge() {
        Ok(())
    } else {
        Err(RuleError::forbidden("coalition.campaign.not_a_judge", format!("only a judge may {what}"), "seed 003 §1.3"))
    }
}

/// Decide every command but `AdjudicateTurn` (see [`super::adjudicate`]).
pub fn decide(
    state: &CampaignState,
    command: &CampaignCommand,
    ctx: &mut Context,
) -> Result<Vec<CampaignEvent>, RuleError> {
    if let CampaignCommand::CreateCampaign { name, map, players, armies, options, seed_commitment } = command {
        return create(state, ctx, (name, map, players, armies, options, seed_commitment));
    }
    if !state.created {
        return Err(refuse("not_found", "no such campaign", SERVICE_RULES));
    }
    if let Some(victory) = &state.victory {
        return Err(refuse("round_over", format!("the round is over: {:?} won", victory.team), victory.rule.as_str()));
    }
    match command {
        CampaignCommand::CreateCampaign { .. } => already_exists(),
        CampaignCommand::JudgeRoll(roll) => {
            Ok(vec![CampaignEvent::JudgeRolled(roll.roll(ctx, "coalition.campaign", false)?)])
        }
        CampaignCommand::SetControllers { army, controllers } => {
            require_judge(ctx, "change an army's controllers")?;
            living(state, army)?;
            Ok(vec![CampaignEvent::ControllersSet { army: army.clone(), controllers: controllers.clone() }])
        }
        CampaignCommand::OpenTurn { deadline } => {
            require_judge(ctx, "open a turn")?;
            if state.phase != TurnPhase::Closed {
                return Err(refuse(
                    "turn_already_open",
                    format!("turn {} is still open or locked", state.turn),
                    "seed 003 §3.1",
                ));
            }
            if *deadline <= ctx.recorded_at {
                return Err(refuse("deadline_in_past", "a turn's deadline must be in the future", "seed 003 §3.1"));
            }
            Ok(vec![CampaignEvent::TurnOpened { turn: state.turn + 1, deadline: *deadline }])
        }
        CampaignCommand::PostOrders { text, orders, private, on_behalf_of } => {
            post_orders(state, ctx, text.as_deref(), orders, *private, on_behalf_of.as_deref())
        }
        CampaignCommand::LockTurn => {
            require_judge(ctx, "lock a turn")?;
            match state.phase {
                TurnPhase::Open { .. } => Ok(vec![CampaignEvent::TurnLocked { turn: state.turn }]),
                _ => Err(refuse("turn_not_open", "there is no open turn to lock", "seed 003 §3.1")),
            }
        }
        CampaignCommand::AdjudicateTurn { battle_results } => super::adjudicate::adjudicate(state, battle_results, ctx),
        CampaignCommand::ChangeTroops { army, troops, legend } => {
            super::troops::change_troops(state, ctx, army, troops, legend.as_ref())
        }
        CampaignCommand::RuleOnArmy { army, square, reason } => {
            require_judge(ctx, "rule on an army")?;
            let current = living(state, army)?;
            if !state.map.contains(*square) {
                return Err(refuse("off_map", format!("{square} is off the map"), "seed 003 §1.2"));
            }
            if reason.trim().is_empty() {
                return Err(refuse("ruling_reason_required", "a ruling needs a reason", "seed 003 §3.3.3"));
            }
            Ok(vec![CampaignEvent::ArmyRuledOn {
                army: army.clone(),
                from: current.square,
                to: *square,
                reason: reason.clone(),
            }])
        }
    }
}

fn already_exists() -> Result<Vec<CampaignEvent>, RuleError> {
    Err(refuse("already_exists", "this campaign already exists", SERVICE_RULES))
}

/// The living army `army`, or a rule error naming it.
pub fn living_army<'a>(state: &'a CampaignState, army: &str) -> Result<&'a super::state::ArmyState, RuleError> {
    living(state, army)
}

fn living<'a>(state: &'a CampaignState, army: &str) -> Result<&'a super::state::ArmyState, RuleError> {
    state
        .armies
        .get(army)
        .ok_or_else(|| refuse("unknown_army", format!("there is no army named {army}"), SERVICE_RULES))
}

type Setup<'a> = (&'a String, &'a Map, &'a Vec<Player>, &'a Vec<ArmyEntry>, &'a CampaignOptions, &'a String);

fn create(state: &CampaignState, ctx: &Context, setup: Setup<'_>) -> Result<Vec<CampaignEvent>, RuleError> {
    let (name, map, players, entries, options, seed_commitment) = setup;
    if state.created {
        return already_exists();
    }
    require_judge(ctx, "set up a round")?;
    if name.trim().is_empty() {
        return Err(refuse("name_required", "a campaign needs a name", SERVICE_RULES));
    }
    // Squares are written with one column letter (seed 003 §1.2), so a map has at most 26 columns.
    if map.bounds.columns == 0 || map.bounds.columns > 26 || map.bounds.rows == 0 {
        return Err(refuse(
            "map_bounds",
            format!(
                "a map has 1 to 26 columns (A–Z) and at least one row, not {} × {}",
                map.bounds.columns, map.bounds.rows
            ),
            "seed 003 §1.2",
        ));
    }
    if crate::dice::seed::parse_hex32(seed_commitment).is_none() {
        return Err(refuse(
            "seed_commitment_malformed",
            "the seed commitment must be 64 hex digits",
            "herald: docs/DICE.md",
        ));
    }
    // A full round has 5 portals, 7 bases and 3 towns (seed 003 §2.5.1); small test rounds may
    // switch the count off, but sites must still be on the map.
    if options.enforce_site_counts {
        validate_setup(map, &SetupRules::default())?;
    } else if let Some(site) =
        map.sites.iter().find(|(square, site)| !map.contains(**square) || site.square != **square)
    {
        return Err(refuse(
            "site_off_map",
            format!("{} is not on the map where it is filed", site.1.name),
            "seed 003 §2.5.1.1",
        ));
    }
    validate_players(players)?;
    let armies: Vec<Army> = entries.iter().map(|entry| entry.army.clone()).collect();
    if options.enforce_army_counts {
        validate_round_armies(&armies, players)?;
    }
    for (index, army) in armies.iter().enumerate() {
        let others: Vec<Army> =
            armies.iter().enumerate().filter(|(i, _)| *i != index).map(|(_, a)| a.clone()).collect();
        validate_army(army, &ArmyContext { other_armies: &others, ..ArmyContext::default() })?;
    }
    let squares = placements(map, entries)?;
    let mut events = vec![CampaignEvent::CampaignCreated {
        name: name.clone(),
        map: map.clone(),
        players: players.clone(),
        options: options.clone(),
        seed_commitment: seed_commitment.to_lowercase(),
    }];
    for entry in entries {
        let square = squares.get(&entry.army.name).copied().ok_or_else(|| {
            refuse("placement_failed", format!("{} could not be placed", entry.army.name), "seed 003 §2.5.2.3")
        })?;
        let controllers =
            if entry.controllers.is_empty() { vec![entry.army.name.clone()] } else { entry.controllers.clone() };
        events.push(CampaignEvent::ArmyPlaced { army: entry.army.clone(), square, controllers });
    }
    Ok(events)
}

/// Squares for every army: judge-chosen squares first, then armies dropped by their bases.
fn placements(map: &Map, entries: &[ArmyEntry]) -> Result<BTreeMap<String, Square>, RuleError> {
    let mut squares = BTreeMap::new();
    let mut occupied = Vec::new();
    for entry in entries {
        if let Start::Square { square } = entry.start {
            if !map.contains(square) {
                return Err(refuse(
                    "off_map",
                    format!("{} starts off the map at {square}", entry.army.name),
                    "seed 003 §1.2",
                ));
            }
            if occupied.contains(&square) {
                return Err(refuse("square_taken", format!("two armies start on {square}"), "seed 003 §3.3.1"));
            }
            occupied.push(square);
            squares.insert(entry.army.name.clone(), square);
        }
    }
    let requests: Vec<PlacementRequest> = entries
        .iter()
        .filter_map(|entry| match entry.start {
            Start::Base { base } => Some(PlacementRequest {
                army: entry.army.name.clone(),
                team: entry.army.team,
                colors: entry.army.colors.clone(),
                base,
            }),
            Start::Square { .. } => None,
        })
        .collect();
    for (army, square) in place_armies(map, &requests, &occupied)? {
        squares.insert(army, square);
    }
    Ok(squares)
}

fn post_orders(
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
    let poster = match (ctx.actor.player.as_deref(), on_behalf_of) {
        (_, Some(player)) if ctx.actor.is_judge() => player.to_string(),
        (Some(player), None) => player.to_string(),
        (_, Some(_)) => {
            return Err(RuleError::forbidden(
                "coalition.campaign.not_a_judge",
                "only a judge may post orders on another player's behalf",
                "seed 003 §3.1",
            ))
        }
        (None, None) => {
            return Err(RuleError::forbidden(
                "coalition.campaign.not_a_player",
                "orders are posted by players (a judge re-posting a PM names the player in on_behalf_of)",
                "seed 003 §3.1",
            ))
        }
    };
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
    }));
    if posted.is_empty() {
        return Err(refuse("empty_post", "the post holds no orders", "seed 003 §3.2.2.5"));
    }
    let placements: BTreeMap<String, Placement> = state
        .armies
        .iter()
        .map(|(name, army)| (name.clone(), Placement { square: army.square, team: army.army.team }))
        .collect();
    let board = Board { map: &state.map, armies: &placements };
    for order in &posted {
        let army = living(state, &order.army)?;
        if !ctx.actor.is_judge() && !army.controllers.contains(&poster) {
            return Err(RuleError::forbidden(
                "coalition.campaign.not_controller",
                format!("{poster} does not control {}", order.army),
                "seed 003 §5.2.1",
            ));
        }
        validate_order(&board, OrderingArmy { name: &order.army, rank: army.army.rank }, &order.order)?;
    }
    Ok(vec![CampaignEvent::OrdersPosted { turn: state.turn, post, orders: posted }])
}

/// Whether `team` is an enemy of `other` (mercenaries are enemies of both teams).
pub fn enemies(team: Team, other: Team) -> bool {
    team != other
}
