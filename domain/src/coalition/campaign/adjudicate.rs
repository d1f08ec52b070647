//! Adjudicating a locked turn (seed 003 §3.1): apply last turn's battle results and separate
//! the armies, carry out the moves by the control list at the lock, count days, roll for
//! raiders, announce the new battles, and enforce what must be legal again after a turn.
//!
//! Order: 1. last turn's battles (`results`); 2. movement with the orders that count (§3.3.6,
//! §5.4.2: control at the lock; reprimands for orders for armies their posters never controlled,
//! §5.4.1; the raider edit, §6.3.2); 2b. transfers (§3.2.4); 2c. raiders that disband and the
//! spawn die (§6.3.2, only in rounds with mercenaries); 3. days, conversions and Town Defender
//! healing (§1.5, §4.5, §6.1.2); 4. the new battles with their weather (§3.1, §4.1.2.5); 5. the
//! end of emergency authority and of illegal control accepted for a turn (§5.2.2.2).

use std::collections::{BTreeMap, BTreeSet};

use super::{
    announce::{announce, fought_again},
    capture::conversion_days,
    command::BattleResult,
    control::decide::end_of_turn,
    event::{CampaignEvent, PositionsRecord},
    judges::{self, Office},
    mercenaries::{abilities::heal_town_defenders, spawn, RaiderDisbanded},
    results::{apply_result, Fights},
    sanctions::PlayerReprimanded,
    state::{CampaignState, PendingTransfer, TurnPhase},
    transfers,
};
use crate::{
    coalition::{
        army::Army,
        days::{army_destruction_victory, count_turn, ArmyTurn, DaysEvent, Fight},
        map::Square,
        movement::{adjudicate as adjudicate_movement, ArmyPosition, MoveReport, Position},
        orders::{select::IgnoreReason, select_orders, ControlList, Order, PostedOrder},
        setup::MercenaryFaction,
    },
    Context, RuleError,
};

pub use super::announce::battle_stream;

fn refuse(code: &str, message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::new(format!("coalition.campaign.{code}"), message, rule)
}

fn emit(working: &mut CampaignState, events: &mut Vec<CampaignEvent>, event: CampaignEvent) {
    working.apply(&event);
    events.push(event);
}

/// Adjudicate the locked turn.
pub fn adjudicate(
    state: &CampaignState,
    results: &[BattleResult],
    ctx: &mut Context,
) -> Result<Vec<CampaignEvent>, RuleError> {
    judges::require(state, ctx, &[Office::Movement], "adjudicate a turn")?;
    let TurnPhase::Locked { deadline } = state.phase else {
        return Err(refuse("turn_not_locked", "lock the turn before adjudicating it", "seed 003 §3.1"));
    };
    let mut working = state.clone();
    let mut events = Vec::new();

    // 1. Last turn's battles: casualties, kills, captures and who leaves the square (seed 003
    // §3.1, §4.2.5, §4.3–4.5).
    let starts: BTreeMap<String, Square> = state.armies.iter().map(|(n, a)| (n.clone(), a.square)).collect();
    let fought: BTreeSet<String> =
        state.battles.values().filter(|b| !b.applied).flat_map(|b| b.armies.iter().cloned()).collect();
    let mut fights = Fights::new();
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
        apply_result(&mut working, result, &mut fights, ctx, &mut events)?;
        // Troops sent to an army attacked the turn they were sent arrive now (seed 003 §3.2.4.3.2).
        let waiting: Vec<PendingTransfer> = working.transfers.iter().filter(|t| &t.battle == battle).cloned().collect();
        for pending in &waiting {
            let delivered = transfers::deliver(&working, pending);
            emit(&mut working, &mut events, delivered);
        }
    }
    if let Some(victory) = destruction_victory(&working) {
        // The round is over (seed 003 §1.7.3): nothing moves and no battle is announced after it.
        emit(&mut working, &mut events, victory);
        let next_word = ctx.dice.next_word();
        emit(&mut working, &mut events, CampaignEvent::TurnAdjudicated { turn: state.turn, next_word });
        return Ok(events);
    }

    // 2. Movement (seed 003 §3.2–3.3): the orders that count by the control list at the lock
    // (§5.4.2), plus long moves under way and the raider edit (§6.3.2).
    let controllers: ControlList = working
        .control
        .at_lock
        .clone()
        .unwrap_or_else(|| working.armies.iter().map(|(n, a)| (n.clone(), a.controllers.clone())).collect());
    let living_orders: Vec<PostedOrder> =
        working.orders.iter().filter(|order| working.armies.contains_key(&order.army)).cloned().collect();
    let selection = select_orders(&living_orders, &controllers, deadline);
    let mut effective = selection.effective.clone();
    if let Some(edit) = working.raider_edit.clone().filter(|edit| working.armies.contains_key(&edit.army)) {
        effective.retain(|order| order.army != edit.army);
        effective.push(edit);
    }
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
    let reprimands: Vec<PlayerReprimanded> = selection
        .ignored
        .iter()
        .filter(|ignored| ignored.reason == IgnoreReason::NotController && ignored.order.uncontrolled)
        .map(|ignored| PlayerReprimanded {
            player: ignored.order.posted_by.clone(),
            army: ignored.order.army.clone(),
            reason: format!("posted an order for {}, which they did not control at the lock", ignored.order.army),
            rule: "seed 003 §5.4.1".into(),
        })
        .collect();
    let moved = CampaignEvent::MovementAdjudicated {
        turn: state.turn,
        ignored: selection.ignored,
        positions: recorded_positions(state.positions_record, &movement.report, movement.positions),
        moves: movement.report,
        long_moves: movement.long_moves,
        draws: movement.draws,
    };
    emit(&mut working, &mut events, moved);
    for reprimand in reprimands {
        emit(&mut working, &mut events, CampaignEvent::PlayerReprimanded(reprimand));
    }
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
        fights.iter().filter(|(_, (fight, _))| *fight == Fight::Won).map(|(army, _)| army.clone()).collect();
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
                emit(&mut working, &mut events, event);
            }
        }
    }

    // 2c. Raiders (seed 003 §6.3.2): those ordered to disband leave the map; then the spawn die.
    let engaged: BTreeSet<String> =
        engagements.iter().flat_map(|e| e.sides.iter().flat_map(|s| s.armies.iter().cloned())).collect();
    for order in effective.iter().filter(|order| matches!(order.order, Order::Disband)) {
        let raider = working.mercenaries.get(&order.army).is_some_and(|m| m.faction == MercenaryFaction::Raider);
        let square = working.armies.get(&order.army).map(|a| a.square);
        if let (true, Some(square), false, false) =
            (raider, square, fought.contains(&order.army), engaged.contains(&order.army))
        {
            emit(
                &mut working,
                &mut events,
                CampaignEvent::RaiderDisbanded(RaiderDisbanded { army: order.army.clone(), square }),
            );
        }
    }
    if !working.mercenaries.is_empty() {
        let occupied: BTreeSet<Square> = working.armies.values().map(|a| a.square).collect();
        let rolled = spawn::roll(&working, &occupied, &mut ctx.dice)?;
        emit(&mut working, &mut events, CampaignEvent::RaiderSpawnRolled(rolled));
    }

    // 3. Days, healing, sieges and the end game (seed 003 §1.5, §1.7, §2.3); conversions (§4.5);
    // Town Defenders at home (§6.1.2). Partially converted armies count conversion days instead.
    let turns: Vec<(Army, ArmyTurn)> = working
        .armies
        .iter()
        .filter(|(name, _)| !working.conversions.contains_key(*name))
        .map(|(name, army)| {
            let (fight, losses) = match fights.get(name) {
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
        emit(&mut working, &mut events, CampaignEvent::Days(event));
    }
    for event in conversion_days(&working, &fights, &engaged) {
        emit(&mut working, &mut events, event);
    }
    for healed in heal_town_defenders(&working, &starts, &fights) {
        emit(&mut working, &mut events, CampaignEvent::TownDefenderHealed(healed));
    }

    // 4. The new battles (seed 003 §3.1 "announce which armies are engaged", §4.1.2.3).
    // Not once the round is won (seed 003 §1.7.2): those battles would never be fought.
    let engagements = if working.victory.is_some() { Vec::new() } else { engagements };
    for engagement in &engagements {
        for event in announce(&working, engagement, ctx)? {
            emit(&mut working, &mut events, event);
        }
    }

    // 5. What had one turn to become legal again (seed 003 §5.2.2.2).
    for event in end_of_turn(&working, state.turn, ctx.recorded_at) {
        emit(&mut working, &mut events, event);
    }
    let next_word = ctx.dice.next_word();
    emit(&mut working, &mut events, CampaignEvent::TurnAdjudicated { turn: state.turn, next_word });
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
        uncontrolled: false,
    }
}

/// The victory of seed 003 §1.7.3: a side that has lost all its armies ranked Captain/Evincar or
/// higher — one that had some, so a small round whose side never had one is not won at once.
fn destruction_victory(state: &CampaignState) -> Option<CampaignEvent> {
    if state.victory.is_some() {
        return None;
    }
    army_destruction_victory(state.armies.values().map(|a| &a.army), &state.commanded)
        .map(|victory| CampaignEvent::Days(DaysEvent::RoundWon { victory }))
}

/// The squares a `MovementAdjudicated` event lists beside its move reports: every army's, in a
/// round recorded that way; otherwise those no report gives (an army without a report, or whose
/// report ends elsewhere). Folding the reports then these squares gives every army the square it
/// has in `positions` either way, and touches the same armies, as long as every reported army is
/// listed there; if one is not (never, as the adjudicator reports only armies it places), the
/// event keeps every square.
fn recorded_positions(record: PositionsRecord, reports: &[MoveReport], positions: Vec<Position>) -> Vec<Position> {
    if record == PositionsRecord::EveryArmy {
        return positions;
    }
    let placed: BTreeSet<&str> = positions.iter().map(|position| position.army.as_str()).collect();
    if reports.iter().any(|report| !placed.contains(report.army.as_str())) {
        return positions;
    }
    // The last report of an army is the one the fold applies last.
    let ends: BTreeMap<&str, Square> = reports.iter().map(|report| (report.army.as_str(), report.to)).collect();
    positions.into_iter().filter(|position| ends.get(position.army.as_str()) != Some(&position.square)).collect()
}
