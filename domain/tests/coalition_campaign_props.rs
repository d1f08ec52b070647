//! Properties of whole campaign turns, through `CoalitionCampaign::decide`/`evolve` only: random
//! small rounds on the default map with random (legal or not) orders and random battle results.
//! Friendly armies never share a square outside a joint engagement (seed 003 §3.3.1, §3.2.5), no
//! army leaves the map but by a kill (§4.3), no army moves more than 3 steps in a turn's movement
//! (§3.2.2.1), the events fold into the state, and decide is a pure function of the state, the
//! command and the tape (replay determinism).

#[path = "coalition_campaign_support.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};

use herald_domain::coalition::{
    army::{RankClass, Team},
    battle::SideId,
    campaign::{
        ArmyEntry, ArmyOrder, BattleResult, BattleSideResult, CampaignCommand, CampaignEvent, CoalitionCampaign,
    },
    map::Square,
    orders::{Annotation, Leg, Order},
};
use herald_domain::Decider;
use proptest::prelude::*;
use support::*;

/// What one army is told in one turn, read against the map as it is then.
#[derive(Debug, Clone)]
struct Pick {
    kind: u8,
    dr: i16,
    dc: i16,
    extra: u8,
    target: usize,
    text: bool,
}

fn pick() -> impl Strategy<Value = Pick> {
    (0u8..8, -2i16..=2, -2i16..=2, 0u8..4, 0usize..10, any::<bool>())
        .prop_map(|(kind, dr, dc, extra, target, text)| Pick { kind, dr, dc, extra, target, text })
}

/// How one battle ends: which team wins, the share of troops each side loses, and a kill.
#[derive(Debug, Clone)]
struct Outcome {
    coalition_wins: bool,
    winner_loss: u32,
    loser_loss: u32,
    kill: bool,
}

fn outcome() -> impl Strategy<Value = Outcome> {
    (any::<bool>(), 0u32..=40, 0u32..=100, prop::bool::weighted(0.25)).prop_map(
        |(coalition_wins, winner_loss, loser_loss, kill)| Outcome { coalition_wins, winner_loss, loser_loss, kill },
    )
}

/// Squares of a crowded corner of the default map, rows 8–13 and columns A–E.
fn region() -> Vec<Square> {
    (8u8..=13).flat_map(|row| (0u8..5).map(move |column| Square { row, column })).collect()
}

const TURNS: usize = 3;

#[derive(Debug, Clone)]
struct Plan {
    squares: Vec<Square>,
    ranks: Vec<u8>,
    picks: Vec<Vec<Pick>>,
    outcomes: Vec<Vec<Outcome>>,
}

fn plan() -> impl Strategy<Value = Plan> {
    (6usize..=10).prop_flat_map(|n| {
        (
            prop::sample::subsequence(region(), n).prop_shuffle(),
            prop::collection::vec(0u8..3, n),
            prop::collection::vec(prop::collection::vec(pick(), n), TURNS),
            prop::collection::vec(prop::collection::vec(outcome(), 1..6), TURNS + 1),
        )
            .prop_map(|(squares, ranks, picks, outcomes)| Plan { squares, ranks, picks, outcomes })
    })
}

/// The armies: even indexes Coalition, odd Phyrexia; the first of each team a Captain/Evincar.
fn armies(plan: &Plan) -> Vec<ArmyEntry> {
    plan.squares
        .iter()
        .zip(&plan.ranks)
        .enumerate()
        .map(|(index, (square, rank))| {
            let rank = match (index, rank) {
                (0 | 1, _) => RankClass::EvincarCaptain,
                (_, 0) => RankClass::PlaguelordCommander,
                (_, 1) => RankClass::CplLtCommander,
                _ => RankClass::CenturionLieutenant,
            };
            let army = if index % 2 == 0 {
                mages(&format!("Coalition {index}"), rank)
            } else {
                broodlings(&format!("Phyrexia {index}"), rank)
            };
            on(army, &square.to_string())
        })
        .collect()
}

fn offset(square: Square, dr: i16, dc: i16) -> Square {
    let row = u8::try_from(i16::from(square.row) + dr).unwrap_or(0);
    let column = u8::try_from(i16::from(square.column) + dc).unwrap_or(0);
    Square { row, column }
}

/// The annotation a move onto `to` would carry, right or wrong as `extra` says.
fn annotation(round: &Round, army: &str, to: Square, extra: u8) -> Option<Annotation> {
    if extra == 3 {
        return Some(Annotation::JointEngage);
    }
    let team = round.state.armies.get(army).map(|a| a.army.team);
    let there = round.state.armies.iter().find(|(name, a)| a.square == to && name.as_str() != army);
    match (there, extra) {
        (_, 0) => None,
        (Some((name, a)), _) if Some(a.army.team) == team => Some(Annotation::Replace(name.clone())),
        (Some((name, _)), _) => Some(Annotation::Engage(name.clone())),
        (None, 2) => Some(Annotation::Engage("Nobody".into())),
        (None, _) => None,
    }
}

fn text_of(army: &str, order: &Order) -> String {
    let body = herald_domain::coalition::orders::format_body(order);
    format!("{army}: {body}")
}

/// One army's order for the turn, or none.
fn order_for(round: &Round, names: &[String], army: &str, pick: &Pick) -> Option<Order> {
    let at = round.state.armies.get(army)?.square;
    let first = offset(at, pick.dr, pick.dc);
    Some(match pick.kind {
        0 => return None,
        1 => Order::Hold,
        2 => Order::Move {
            legs: vec![Leg {
                from: at,
                to: first,
                route: None,
                annotation: annotation(round, army, first, pick.extra),
            }],
        },
        3 | 6 | 7 => {
            // Go for an enemy's square, in reach or not: kind 3 an enemy by index with the
            // annotation `extra` gives, kinds 6 and 7 the nearest enemy with a Joint Engage.
            let team = round.state.armies.get(army)?.army.team;
            let mut enemies: Vec<Square> =
                round.state.armies.values().filter(|a| a.army.team != team).map(|a| a.square).collect();
            let (to, extra) = if pick.kind >= 6 {
                enemies.sort_by_key(|square| (at.distance(*square), *square));
                (*enemies.first()?, 3)
            } else {
                (*enemies.get(pick.target % enemies.len().max(1))?, pick.extra)
            };
            Order::Move {
                legs: vec![Leg { from: at, to, route: None, annotation: annotation(round, army, to, extra) }],
            }
        }
        4 => {
            let second = offset(first, pick.dr, pick.dc);
            Order::Move {
                legs: vec![
                    Leg { from: at, to: first, route: None, annotation: annotation(round, army, first, pick.extra) },
                    Leg { from: first, to: second, route: None, annotation: None },
                ],
            }
        }
        _ => Order::Intercept { target: names.get(pick.target % names.len().max(1))?.clone() },
    })
}

/// Results for every battle waiting for one, from the outcomes in turn.
fn results(round: &Round, outcomes: &[Outcome], killed: &mut BTreeSet<String>) -> Vec<BattleResult> {
    round
        .state
        .battles
        .iter()
        .filter(|(_, link)| !link.applied)
        .enumerate()
        .map(|(index, (battle, link))| {
            let outcome = &outcomes[index % outcomes.len()];
            let winner = if outcome.coalition_wins { Team::Coalition } else { Team::Phyrexia };
            let side = |team: Team| if team == Team::Coalition { SideId::A } else { SideId::B };
            let mut kill_done = false;
            let sides = link
                .armies
                .iter()
                .filter_map(|army| round.state.armies.get(army).map(|state| (army, state)))
                .map(|(army, state)| {
                    let won = state.army.team == winner;
                    let share = if won { outcome.winner_loss } else { outcome.loser_loss };
                    let losses = state.army.troops.iter().map(|line| line.troops * share / 100).collect();
                    let kill = !won && outcome.kill && !kill_done;
                    kill_done |= kill;
                    if kill {
                        killed.insert(army.clone());
                    }
                    BattleSideResult {
                        army: army.clone(),
                        side: side(state.army.team),
                        losses,
                        killed: kill,
                        killed_by_attempt: false,
                        captured_by: None,
                    }
                })
                .collect();
            BattleResult {
                battle: battle.clone(),
                winner: Some(side(winner)),
                sides,
                departure: None,
                withdrawn: vec![],
            }
        })
        .collect()
}

/// Friendly armies share a square only as the pair of a joint engagement still to be fought.
fn friends_apart(round: &Round) -> Result<(), TestCaseError> {
    let mut by_square: BTreeMap<(Square, String), Vec<&String>> = BTreeMap::new();
    for (name, army) in &round.state.armies {
        by_square.entry((army.square, format!("{:?}", army.army.team))).or_default().push(name);
    }
    for ((square, team), names) in by_square.into_iter().filter(|(_, names)| names.len() > 1) {
        let joint = round.state.battles.values().any(|link| {
            !link.applied && link.joint && link.square == square && names.iter().all(|n| link.armies.contains(n))
        });
        prop_assert!(joint && names.len() == 2, "{team} armies {names:?} share {square} outside a joint engagement");
    }
    Ok(())
}

/// Enemies sharing a square have a battle announced there (seed 003 §3.3.1), unless the round
/// is over.
fn enemies_fight(round: &Round) -> Result<(), TestCaseError> {
    if round.state.victory.is_some() {
        return Ok(());
    }
    let mut teams: BTreeMap<Square, BTreeSet<String>> = BTreeMap::new();
    for army in round.state.armies.values() {
        teams.entry(army.square).or_default().insert(format!("{:?}", army.army.team));
    }
    for (square, _) in teams.into_iter().filter(|(_, teams)| teams.len() > 1) {
        let battle = round.state.battles.values().any(|link| !link.applied && link.square == square);
        prop_assert!(battle, "enemies share {} with no battle announced", square);
    }
    Ok(())
}

/// Play the plan; returns the round and the armies the results killed.
fn play(plan: &Plan, key: [u8; 32]) -> Result<(Round, BTreeSet<String>), TestCaseError> {
    let entries = armies(plan);
    let names: Vec<String> = entries.iter().map(|entry| entry.army.name.clone()).collect();
    let mut round = Round::create_with(key, map(), entries).map_err(TestCaseError::fail)?;
    let mut killed = BTreeSet::new();
    for turn in 0..=TURNS {
        if round.state.victory.is_some() {
            let deadline = at(round.hour + 12);
            let refused = round.run(CampaignCommand::OpenTurn { deadline, turn_key: None }, judge());
            prop_assert_eq!(refused.err(), Some("coalition.campaign.round_over".to_string()));
            break;
        }
        round.open();
        for (army, pick) in names.iter().zip(plan.picks.get(turn).map(Vec::as_slice).unwrap_or_default()) {
            let Some(order) = order_for(&round, &names, army, pick) else { continue };
            // Refused orders (too far, wrong annotation, off the map…) are part of the game.
            let _ = if pick.text {
                round.post(&controller(army), &text_of(army, &order))
            } else {
                round
                    .run(posting(None, vec![ArmyOrder { army: army.clone(), order }], false), player(&controller(army)))
            };
        }
        let before: BTreeMap<String, Square> =
            round.state.armies.iter().map(|(name, army)| (name.clone(), army.square)).collect();
        let results = results(&round, &plan.outcomes[turn], &mut killed);
        let events = round.adjudicate(results).map_err(|code| TestCaseError::fail(format!("turn {turn}: {code}")))?;

        // No army lost except by a kill.
        let living: BTreeSet<&String> = round.state.armies.keys().collect();
        for name in &names {
            let dead = round.state.killed.contains(name);
            prop_assert!(living.contains(name) != dead, "{name} is both or neither alive and killed");
            prop_assert!(!dead || killed.contains(name), "{name} left the map without being killed");
        }
        // At most 3 steps in the turn's movement (bumps before it excepted).
        for event in &events {
            if let CampaignEvent::MovementAdjudicated { moves, .. } = event {
                for line in moves {
                    prop_assert!(line.from.distance(line.to) <= 3, "{} moved {} to {}", line.army, line.from, line.to);
                }
            }
            if let CampaignEvent::ArmyBumped { from, to, army, .. } = event {
                prop_assert_eq!(before.get(army), Some(from));
                prop_assert!(from.row.abs_diff(to.row) <= 1 && from.column.abs_diff(to.column) <= 1);
            }
        }
        friends_apart(&round)?;
        enemies_fight(&round)?;
        round.assert_replays();
    }
    Ok((round, killed))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_small_rounds_keep_friends_apart_lose_no_army_but_by_a_kill_and_replay_exactly(plan in plan()) {
        let (round, _) = play(&plan, KEY)?;
        prop_assert_eq!(CoalitionCampaign::fold(round.events.iter()), round.state.clone());
        // The same commands with the same dice key give the same events, refusals included.
        let again = round.replay_log(KEY);
        prop_assert_eq!(&again.log, &round.log);
        prop_assert_eq!(&again.state, &round.state);
    }
}

/// A busy turn: unrouted moves that draw their routes, a battle announced and then applied with a
/// bump, so the tape is used. Returns the round, locked, and the result to adjudicate it with.
fn busy_round() -> (Round, BattleResult) {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Barrin", RankClass::PlaguelordCommander), "12C"),
            on(broodlings("Crovax", RankClass::PlaguelordCommander), "10E"),
            on(mages("Sai Rei", RankClass::CplLtCommander), "14B"),
            on(broodlings("Rag", RankClass::CplLtCommander), "16E"),
        ],
    );
    let events = round.play_orders(&["Barrin: 12C > 10D", "Sai Rei: 14B > 15D", "Rag: 16E > 15F"], vec![]);
    assert!(events
        .iter()
        .any(|event| matches!(event, CampaignEvent::MovementAdjudicated { draws, .. } if !draws.is_empty())));
    let battle = the_battle(&round.play_orders(&["Barrin: 10D > 10E; engage Crovax"], vec![]));
    round.open();
    round.post("sai rei", "Sai Rei: 15D > 13E").expect("posted");
    round.post("rag", "Rag: 15F > 14D").expect("posted");
    round.run(CampaignCommand::LockTurn, judge()).expect("locked");
    let result = battle.result(Team::Coalition, &[("Crovax", vec![900])], &[]);
    (round, result)
}

#[test]
fn deciding_the_same_command_on_the_same_state_with_the_same_tape_gives_the_same_events_seed_003_3_1() {
    let (round, result) = busy_round();
    let command = CampaignCommand::AdjudicateTurn { battle_results: vec![result], interval_seed: None };
    let before = round.state.clone();
    let time = at(round.hour + 1);
    let first = round.decide_at(&command, judge(), time).expect("adjudicated");
    let second = round.decide_at(&command, judge(), time).expect("adjudicated again");
    assert_eq!(first, second, "decide is a pure function of state, command and tape");
    assert_eq!(round.state, before, "deciding changes nothing");
    assert!(first.iter().any(|event| matches!(event, CampaignEvent::ArmyBumped { draw: Some(_), .. })));

    // A different key is a different tape: the decision may differ, but it is still repeatable.
    let mut other = round.clone();
    other.key = [3; 32];
    assert_eq!(
        other.decide_at(&command, judge(), time).expect("adjudicated"),
        other.decide_at(&command, judge(), time).expect("adjudicated again")
    );
}

#[test]
fn replaying_every_command_of_a_round_from_scratch_gives_identical_events_seed_003_3_1() {
    let (mut round, result) = busy_round();
    round.adjudicate(vec![result]).expect("adjudicated");
    round.play_orders(&["Sai Rei: 13E > 12F", "Rag: hold"], vec![]);
    let again = round.replay_log(KEY);
    assert_eq!(again.events, round.events);
    assert_eq!(again.log, round.log);
    assert_eq!(again.state, round.state);
    round.assert_replays();
}
