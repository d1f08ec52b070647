//! Adjudicating a locked turn (seed 003 §3.1): apply last turn's battle results and separate
//! the armies, carry out the moves, count days, announce the new battles.

use std::collections::{BTreeMap, BTreeSet};

use sha2::{Digest, Sha256};

use super::{
    command::BattleResult,
    decide::require_judge,
    event::{ArmyLosses, CampaignEvent},
    state::{CampaignState, PendingTransfer, TurnPhase},
    transfers,
};
use crate::{
    coalition::{
        army::{Army, Team},
        days::{army_destruction_victory, count_turn, ArmyTurn, DaysEvent, Fight},
        map::Square,
        movement::{adjudicate as adjudicate_movement, ArmyPosition, Attack, EngagedSide, EngagementReport},
        orders::{select_orders, ControlList, Order, PostedOrder},
    },
    Context, RuleError,
};

fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("coalition.campaign.{code}"), message, rule)
}

/// What each army went through this turn before day counting.
struct Fights {
    fights: BTreeMap<String, (Fight, Vec<u32>)>,
}

/// Adjudicate the locked turn.
pub fn adjudicate(
    state: &CampaignState,
    results: &[BattleResult],
    ctx: &mut Context,
) -> Result<Vec<CampaignEvent>, RuleError> {
    require_judge(ctx, "adjudicate a turn")?;
    let TurnPhase::Locked { deadline } = state.phase else {
        return Err(refuse("turn_not_locked", "lock the turn before adjudicating it", "seed 003 §3.1"));
    };
    let mut working = state.clone();
    let mut events = Vec::new();
    let emit = |working: &mut CampaignState, event: CampaignEvent, events: &mut Vec<CampaignEvent>| {
        working.apply(&event);
        events.push(event);
    };

    // 1. Last turn's battles: casualties, kills, and the loser moved off (seed 003 §3.1, §4.2.5).
    let starts: BTreeMap<String, Square> = state.armies.iter().map(|(n, a)| (n.clone(), a.square)).collect();
    let fought: BTreeSet<String> =
        state.battles.values().filter(|b| !b.applied).flat_map(|b| b.armies.iter().cloned()).collect();
    let mut fights = Fights { fights: BTreeMap::new() };
    if let Some(stray) = results.iter().find(|r| state.battles.get(&r.battle).is_none_or(|link| link.applied)) {
        return Err(refuse(
            "unknown_battle",
            format!("{} is not a battle awaiting its result", stray.battle),
            "seed 003 §3.1",
        ));
    }
    for (battle, link) in state.battles.iter().filter(|(_, link)| !link.applied) {
        let result = results.iter().find(|r| &r.battle == battle).ok_or_else(|| {
            let how =
                if link.automatic { "resolve it in its stream" } else { "record its result with the adjudication" };
            refuse("battle_unresolved", format!("battle {battle} has no result yet: {how}"), "seed 003 §3.1, §4.4")
        })?;
        if let Some(side) = result.sides.iter().find(|side| !link.armies.contains(&side.army)) {
            return Err(refuse("not_in_battle", format!("{} did not fight in {battle}", side.army), "seed 003 §4.4"));
        }
        for event in apply_result(&working, result, &mut fights, ctx)? {
            emit(&mut working, event, &mut events);
        }
        // Troops sent to an army attacked the turn they were sent arrive now (seed 003 §3.2.4.3.2).
        let waiting: Vec<PendingTransfer> = working.transfers.iter().filter(|t| &t.battle == battle).cloned().collect();
        for pending in &waiting {
            let delivered = transfers::deliver(&working, pending);
            emit(&mut working, delivered, &mut events);
        }
    }
    for event in destruction_victory(&working) {
        emit(&mut working, event, &mut events);
    }
    if working.victory.is_some() {
        // The round is over (seed 003 §1.7.3): nothing moves and no battle is announced after it.
        let next_word = ctx.dice.next_word();
        emit(&mut working, CampaignEvent::TurnAdjudicated { turn: state.turn, next_word }, &mut events);
        return Ok(events);
    }

    // 2. Movement (seed 003 §3.2–3.3): the orders that count, plus long moves under way.
    let controllers: ControlList = working.armies.iter().map(|(n, a)| (n.clone(), a.controllers.clone())).collect();
    let living_orders: Vec<PostedOrder> =
        working.orders.iter().filter(|order| working.armies.contains_key(&order.army)).cloned().collect();
    let selection = select_orders(&living_orders, &controllers, deadline);
    let mut effective = selection.effective.clone();
    for (name, army) in &working.armies {
        let ordered = effective.iter().any(|order| &order.army == name);
        if !ordered && !army.long_move.is_empty() && !selection.stalled.contains(name) {
            effective.push(continued_long_move(name, army.long_move.clone(), ctx));
        }
    }
    let positions: Vec<ArmyPosition> = working
        .armies
        .iter()
        .map(|(name, army)| ArmyPosition {
            name: name.clone(),
            team: army.army.team,
            rank: army.army.rank,
            square: army.square,
            in_battle: fought.contains(name),
        })
        .collect();
    let movement = adjudicate_movement(&working.map, &positions, &effective, &mut ctx.dice)?;
    let mut engagements = movement.engagements.clone();
    let moved = CampaignEvent::MovementAdjudicated {
        turn: state.turn,
        ignored: selection.ignored,
        moves: movement.report,
        positions: movement.positions,
        long_moves: movement.long_moves,
        draws: movement.draws,
    };
    emit(&mut working, moved, &mut events);
    engagements.extend(fought_again(&working, &engagements));

    // 2b. Transfers (seed 003 §2.3.3, §3.2.4): the sender loses the troops in this update, before
    // the new battles are announced; the receiver gets them now, at the end of its battle, or never.
    let fighting: BTreeMap<String, String> = state
        .battles
        .iter()
        .filter(|(_, link)| !link.applied)
        .flat_map(|(battle, link)| link.armies.iter().map(move |army| (army.clone(), battle.clone())))
        .collect();
    let won: BTreeSet<String> =
        fights.fights.iter().filter(|(_, (fight, _))| *fight == Fight::Won).map(|(army, _)| army.clone()).collect();
    let facts = transfers::TurnFacts {
        campaign: &ctx.stream,
        turn: state.turn,
        fighting: &fighting,
        won: &won,
        engagements: &engagements,
    };
    for order in &effective {
        if let Order::Transfer { to, at, troops } = &order.order {
            for event in transfers::carry_out(&working, &facts, &order.army, (to, *at, troops)) {
                emit(&mut working, event, &mut events);
            }
        }
    }

    // 3. Days, healing, sieges and the end game (seed 003 §1.5, §1.7, §2.3).
    let engaged: BTreeSet<&String> =
        engagements.iter().flat_map(|e| e.sides.iter().flat_map(|s| s.armies.iter())).collect();
    let turns: Vec<(Army, ArmyTurn)> = working
        .armies
        .iter()
        .map(|(name, army)| {
            let (fight, losses) = match fights.fights.get(name) {
                Some((fight, losses)) => (*fight, losses.clone()),
                None if engaged.contains(name) => (Fight::Undecided, Vec::new()),
                None => (Fight::NotAttacked, Vec::new()),
            };
            let moved = starts.get(name) != Some(&army.square);
            (army.army.clone(), ArmyTurn { ended_at: army.square, moved, fight, losses })
        })
        .collect();
    let days = count_turn(&working.days, &working.map, turns.iter().map(|(army, turn)| (army, turn)));
    for event in days.events {
        emit(&mut working, CampaignEvent::Days(event), &mut events);
    }

    // 4. The new battles (seed 003 §3.1 "announce which armies are engaged", §4.1.2.3).
    // Not once the round is won (seed 003 §1.7.2): those battles would never be fought.
    let engagements = if working.victory.is_some() { Vec::new() } else { engagements };
    for engagement in &engagements {
        let announced = announce(&ctx.stream, state.turn, engagement);
        emit(&mut working, announced, &mut events);
    }
    let next_word = ctx.dice.next_word();
    emit(&mut working, CampaignEvent::TurnAdjudicated { turn: state.turn, next_word }, &mut events);
    Ok(events)
}

fn continued_long_move(army: &str, legs: Vec<crate::coalition::orders::Leg>, ctx: &Context) -> PostedOrder {
    PostedOrder {
        army: army.to_string(),
        order: Order::Move { legs },
        posted_by: "(long move)".into(),
        posted_at: ctx.recorded_at,
        post: "~long-move".into(),
        line: 0,
        private: false,
    }
}

/// Casualties, kills and the loser's move for one battle.
fn apply_result(
    state: &CampaignState,
    result: &BattleResult,
    fights: &mut Fights,
    ctx: &mut Context,
) -> Result<Vec<CampaignEvent>, RuleError> {
    let winners: Vec<String> =
        result.sides.iter().filter(|s| Some(s.side) == result.winner).map(|s| s.army.clone()).collect();
    let mut events = vec![CampaignEvent::BattleResultApplied {
        battle: result.battle.clone(),
        winners: winners.clone(),
        losses: result.sides.iter().map(|s| ArmyLosses { army: s.army.clone(), losses: s.losses.clone() }).collect(),
    }];
    let mut occupied: BTreeSet<Square> = state.armies.values().map(|a| a.square).collect();
    let mut retreats: Vec<(Vec<&str>, Square)> = Vec::new();
    let mut staying: Vec<&str> = Vec::new();
    for side in &result.sides {
        let won = winners.contains(&side.army);
        fights.fights.insert(side.army.clone(), (if won { Fight::Won } else { Fight::Lost }, side.losses.clone()));
        let Some(army) = state.armies.get(&side.army) else { continue };
        if side.killed {
            events.push(CampaignEvent::ArmyKilled {
                army: side.army.clone(),
                battle: result.battle.clone(),
                rule: "seed 003 §4.3.1".into(),
            });
            continue;
        }
        if result.winner.is_none() {
            continue;
        }
        if won {
            staying.push(&side.army);
        } else {
            retreats.push((vec![side.army.as_str()], army.square));
        }
    }
    // Two winners may not stay together: one of them leaves, and its retreat is decided before
    // the losers' (seed 003 §4.4, §3.3.1). No strategy names it here, so the die picks it.
    if let Some(square) = staying.first().and_then(|army| state.armies.get(*army)).map(|a| a.square) {
        if staying.len() > 1 {
            retreats.insert(0, (staying, square));
        }
    }
    for (armies, from) in retreats {
        let bumped = bump(state, &armies, from, &occupied, ctx)?;
        if let CampaignEvent::ArmyBumped { to, .. } = &bumped {
            occupied.insert(*to);
        }
        events.push(bumped);
    }
    Ok(events)
}

/// One of `armies` (one loser, or the two winners of a joint engagement of whom one must leave)
/// goes to a random empty square of the 8 around the battle; if all are occupied it is pushed
/// into one holding an enemy (or any, if none does) and fights again (seed 003 §4.2.5, §4.4).
/// With several armies one die picks the army and the square together, so the event records both.
fn bump(
    state: &CampaignState,
    armies: &[&str],
    from: Square,
    occupied: &BTreeSet<Square>,
    ctx: &mut Context,
) -> Result<CampaignEvent, RuleError> {
    let first = armies.first().copied().unwrap_or_default();
    let around = from.surrounding(state.map.bounds);
    let empty: Vec<Square> = around.iter().copied().filter(|s| !occupied.contains(s)).collect();
    let team = state.armies.get(first).map(|a| a.army.team);
    let (candidates, pushed) = if empty.is_empty() {
        let enemy_held: Vec<Square> = around
            .iter()
            .copied()
            .filter(|s| state.armies.values().any(|a| a.square == *s && Some(a.army.team) != team))
            .collect();
        (if enemy_held.is_empty() { around } else { enemy_held }, true)
    } else {
        (empty, false)
    };
    let squares = u32::try_from(candidates.len()).unwrap_or(u32::MAX);
    let count = squares.saturating_mul(u32::try_from(armies.len()).unwrap_or(u32::MAX));
    if count == 0 {
        return Ok(CampaignEvent::ArmyBumped { army: first.into(), from, to: from, pushed: false, draw: None });
    }
    let purpose = match armies {
        [army] => format!("bump {army} from {from}"),
        _ => format!("bump one of {} from {from} ({} armies × {squares} squares)", armies.join(", "), armies.len()),
    };
    let draw = ctx.dice.roll(count, purpose)?;
    let index = draw.value.saturating_sub(1);
    let army = usize::try_from(index / squares).ok().and_then(|i| armies.get(i)).copied().unwrap_or(first);
    let square = usize::try_from(index % squares).unwrap_or(0);
    let to = candidates.get(square).copied().unwrap_or(from);
    Ok(CampaignEvent::ArmyBumped { army: army.into(), from, to, pushed, draw: Some(draw) })
}

/// Squares where enemies end the movement together but movement reported no engagement: it
/// leaves out squares whose armies all fought last turn, taking their battle to be under way. Here
/// every one of last turn's battles has just been applied, so enemies still sharing a square — a
/// loser pushed into an enemy that fought too (seed 003 §4.2.5) — fight again: "if two enemy
/// armies end up in the same square for any reason, they will battle" (§3.3.1). Both were there
/// before the moves, so the battle has no attacker (§4.1.2.3).
fn fought_again(working: &CampaignState, reported: &[EngagementReport]) -> Vec<EngagementReport> {
    let order = |team: Team| match team {
        Team::Phyrexia => 0u8,
        Team::Coalition => 1,
        Team::Mercenary => 2,
    };
    let mut squares: BTreeMap<Square, BTreeMap<u8, EngagedSide>> = BTreeMap::new();
    for (name, army) in &working.armies {
        let team = army.army.team;
        let side = squares.entry(army.square).or_default().entry(order(team));
        side.or_insert_with(|| EngagedSide { team, armies: Vec::new() }).armies.push(name.clone());
    }
    squares
        .into_iter()
        .filter(|(square, sides)| sides.len() > 1 && !reported.iter().any(|e| e.square == *square))
        .map(|(square, sides)| EngagementReport {
            square,
            sides: sides.into_values().collect(),
            attack: Attack::NoAttacker,
            joint: false,
        })
        .collect()
}

fn destruction_victory(state: &CampaignState) -> Vec<CampaignEvent> {
    if state.victory.is_some() {
        return Vec::new();
    }
    army_destruction_victory(state.armies.values().map(|a| &a.army))
        .map(|victory| CampaignEvent::Days(DaysEvent::RoundWon { victory }))
        .into_iter()
        .collect()
}

/// The battle stream of an engagement, derived from the campaign, the turn and the square so a
/// replay names it the same way: `battle-` and a UUID-shaped SHA-256 prefix.
pub fn battle_stream(campaign: &str, turn: u32, square: Square) -> String {
    let digest = Sha256::digest(format!("{campaign}/turn/{turn}/{square}").as_bytes());
    let hex = hex::encode(&digest[..16]);
    format!("battle-{}-{}-8{}-{}-{}", &hex[..8], &hex[8..12], &hex[13..16], &hex[16..20], &hex[20..32])
}

fn announce(campaign: &str, turn: u32, engagement: &EngagementReport) -> CampaignEvent {
    let automatic =
        !engagement.joint && engagement.sides.len() == 2 && engagement.sides.iter().all(|s| s.armies.len() == 1);
    CampaignEvent::BattleAnnounced {
        battle: battle_stream(campaign, turn, engagement.square),
        turn,
        square: engagement.square,
        sides: engagement.sides.clone(),
        attack: engagement.attack.clone(),
        joint: engagement.joint,
        automatic,
    }
}
