//! The campaign decider at scale (seed 003 ch. 1–3), driven the way the service drives it:
//! commands through `CoalitionCampaign::decide`, events through `evolve`.
//!
//! (a) Replay: a round of `ARMIES` armies is played for 100 turns in memory (random, seeded move
//! orders of up to 3 steps; every battle announced is resolved the next turn with a generated
//! result), its event log is kept both decoded and as JSON, and folding it back is measured three
//! ways: `fold` over the decoded events; decoding each event from a `serde_json::Value` then
//! evolving (what the service does with an event the store has decoded); and parsing the JSON
//! bytes, then the same (the store's JSON parse included).
//!
//! (b) One full turn's `AdjudicateTurn` (last turn's battle results applied, movement, days, new
//! battles announced) with random orders. The issue asks for 1,000 armies (ten times the seed's
//! ~90) on the default map, but the default 14 × 38 map has 532 squares and an army not in battle
//! never shares one with a friend (§3.3.1), so 1,000 cannot be placed on it: 500 armies are
//! measured on the default map and 1,000 on a 26 × 76 map. Goal: under 50 ms a turn.
//!
//! Run as a test (`cargo test -p herald-domain --benches`, or any debug build) it uses a few dozen
//! armies and turns as a quick check that it still runs.

use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use criterion::Criterion;
use herald_domain::{
    coalition::{
        campaign::{CampaignCommand, CampaignEvent, CampaignState, CoalitionCampaign, PositionsRecord},
        map::{Map, MapBounds},
    },
    dice::DiceTape,
    Actor, Context, Decider, EventType, Role,
};
use serde::Deserialize;

#[path = "support/round.rs"]
mod round;

use round::{battle_results, random_orders, set_up, time, Scenario};

const STREAM: &str = "campaign-bench";
const SEED: [u8; 32] = [9; 32];
const GOAL_MS: f64 = 50.0;

/// A campaign played through the decider, keeping its event log.
struct Round {
    state: CampaignState,
    events: Vec<CampaignEvent>,
}

impl Round {
    fn run(&mut self, command: &CampaignCommand, actor: Actor, at: DateTime<Utc>) {
        let mut ctx = context(&self.state, actor, at);
        let events = match CoalitionCampaign::decide(&self.state, command, &mut ctx) {
            Ok(events) => events,
            Err(error) => panic!("the decider refused a command in turn {}: {error:?}", self.state.turn),
        };
        for event in &events {
            CoalitionCampaign::evolve(&mut self.state, event);
        }
        self.events.extend(events);
    }
}

fn context(state: &CampaignState, actor: Actor, at: DateTime<Utc>) -> Context {
    Context { stream: STREAM.into(), actor, recorded_at: at, dice: DiceTape::new(SEED, state.next_word) }
}

fn judge() -> Actor {
    Actor::new("judge", Role::Judge)
}

/// A round of `count` armies, both teams, on distinct random squares of `map`.
fn create(map: &Map, count: usize, rng: &mut Scenario) -> Round {
    create_recording(map, count, rng, PositionsRecord::BeyondReports)
}

/// The same round, its movement events recording `positions` as `record` says.
fn create_recording(map: &Map, count: usize, rng: &mut Scenario, record: PositionsRecord) -> Round {
    let command = set_up("Bench round", map, count, rng, "00".repeat(32), record);
    let mut round = Round { state: CampaignState::default(), events: Vec::new() };
    round.run(&command, judge(), time(0, 0));
    round
}

/// Open turn `turn`, post random orders (one post per player), lock.
fn open_and_post(round: &mut Round, turn: u32, rng: &mut Scenario) {
    round.run(&CampaignCommand::OpenTurn { deadline: time(turn, 12), turn_key: None }, judge(), time(turn, 0));
    for (player, orders) in random_orders(&round.state, rng) {
        let post = CampaignCommand::PostOrders { text: None, orders, private: false, on_behalf_of: None };
        round.run(&post, Actor::player(format!("token:{player}"), player), time(turn, 1));
    }
    round.run(&CampaignCommand::LockTurn, judge(), time(turn, 13));
}

/// Play one whole turn, returning the time its `AdjudicateTurn` took.
fn play_turn(round: &mut Round, turn: u32, rng: &mut Scenario) -> Duration {
    open_and_post(round, turn, rng);
    let command =
        CampaignCommand::AdjudicateTurn { battle_results: battle_results(&round.state, rng), interval_seed: None };
    let started = Instant::now();
    round.run(&command, judge(), time(turn, 13));
    started.elapsed()
}

fn mean(iterations: u32, mut run: impl FnMut()) -> Duration {
    run();
    let started = Instant::now();
    for _ in 0..iterations {
        run();
    }
    started.elapsed() / iterations
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn count_of<'a>(events: impl IntoIterator<Item = &'a CampaignEvent>, kind: &str) -> usize {
    events.into_iter().filter(|event| event.event_type() == kind).count()
}

/// Fold what the service folds: each event decoded from the stored JSON, then evolved.
fn fold_values(values: &[serde_json::Value]) -> CampaignState {
    let mut state = CampaignState::default();
    for value in values {
        let event = CampaignEvent::deserialize(value).expect("a stored event decodes");
        CoalitionCampaign::evolve(&mut state, &event);
    }
    state
}

/// The JSON bytes of the `MovementAdjudicated` events of the round `replay` plays, recorded as
/// `record` says.
fn movement_bytes(armies: usize, turns: u32, record: PositionsRecord) -> usize {
    let mut rng = Scenario::new(2026);
    let mut round = create_recording(&Map::default(), armies, &mut rng, record);
    for turn in 1..=turns {
        play_turn(&mut round, turn, &mut rng);
    }
    round
        .events
        .iter()
        .filter(|event| matches!(event, CampaignEvent::MovementAdjudicated { .. }))
        .map(|event| serde_json::to_vec(event).map_or(0, |bytes| bytes.len()))
        .sum()
}

/// What the `MovementAdjudicated` events spend their bytes on: each field's share, and how
/// many of the move reports are armies that stayed where they were.
fn movement_fields(values: &[serde_json::Value]) -> String {
    let movements: Vec<&serde_json::Map<String, serde_json::Value>> = values
        .iter()
        .filter(|value| value["type"] == "coalition.MovementAdjudicated")
        .filter_map(serde_json::Value::as_object)
        .collect();
    let size = |value: &serde_json::Value| serde_json::to_vec(value).map_or(0, |bytes| bytes.len());
    let total: usize = movements.iter().map(|fields| fields.values().map(size).sum::<usize>()).sum();
    let mut shares: BTreeMap<&str, usize> = BTreeMap::new();
    for fields in &movements {
        for (name, value) in fields.iter() {
            *shares.entry(name.as_str()).or_default() += size(value);
        }
    }
    let reports: Vec<&serde_json::Value> = movements
        .iter()
        .filter_map(|fields| fields.get("moves"))
        .filter_map(|moves| moves.as_array())
        .flatten()
        .collect();
    let stayed = reports.iter().filter(|report| report["from"] == report["to"]).count();
    let shares: Vec<String> = shares
        .iter()
        .map(|(name, bytes)| format!("{name} {:.0}%", 100.0 * *bytes as f64 / total.max(1) as f64))
        .collect();
    format!(
        "MovementAdjudicated by field: {}; {stayed} of {} move reports are armies that did not move",
        shares.join(", "),
        reports.len()
    )
}

/// The same from the JSON bytes (the store's parse into a `Value` included).
fn fold_bytes(bytes: &[Vec<u8>]) -> CampaignState {
    let mut state = CampaignState::default();
    for event in bytes {
        let value: serde_json::Value = serde_json::from_slice(event).expect("stored JSON parses");
        let event = CampaignEvent::deserialize(&value).expect("a stored event decodes");
        CoalitionCampaign::evolve(&mut state, &event);
    }
    state
}

/// What the service does with a stored payload: the JSON bytes straight into the typed event
/// (`AnyRuleset::evolve`), no `Value` between.
fn fold_typed(bytes: &[Vec<u8>]) -> CampaignState {
    let mut state = CampaignState::default();
    for event in bytes {
        let event: CampaignEvent = serde_json::from_slice(event).expect("a stored event decodes");
        CoalitionCampaign::evolve(&mut state, &event);
    }
    state
}

/// (a) Play the round, then measure replaying it.
fn replay(criterion: &mut Criterion, quick: bool, summary: &mut Vec<String>) {
    let (armies, turns) = if quick { (30, 10) } else { (200, 100) };
    let mut rng = Scenario::new(2026);
    let built = Instant::now();
    let mut round = create(&Map::default(), armies, &mut rng);
    let setup = built.elapsed();
    let mut adjudications = Duration::ZERO;
    for turn in 1..=turns {
        adjudications += play_turn(&mut round, turn, &mut rng);
    }
    let played = built.elapsed();
    let events = round.events;
    let values: Vec<serde_json::Value> =
        events.iter().map(|event| serde_json::to_value(event).expect("an event encodes")).collect();
    let bytes: Vec<Vec<u8>> = values.iter().map(|value| serde_json::to_vec(value).expect("JSON encodes")).collect();
    let total_bytes: usize = bytes.iter().map(Vec::len).sum();
    assert_eq!(CoalitionCampaign::fold(events.iter()), round.state, "fold gives the played state");
    assert_eq!(fold_bytes(&bytes), round.state, "the JSON log folds to the played state");
    assert_eq!(fold_typed(&bytes), round.state, "the JSON log decoded straight folds to the played state");
    let mut by_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (event, json) in events.iter().zip(&bytes) {
        let entry = by_kind.entry(event.event_type()).or_default();
        *entry = (entry.0 + 1, entry.1 + json.len());
    }
    let mut kinds: Vec<(String, (usize, usize))> = by_kind.into_iter().collect();
    kinds.sort_by_key(|(_, (_, size))| std::cmp::Reverse(*size));
    let kinds: Vec<String> = kinds
        .iter()
        .map(|(kind, (count, size))| {
            format!("{kind} {count} ({:.0}%, {} B each)", 100.0 * *size as f64 / total_bytes as f64, size / count)
        })
        .collect();
    eprintln!("campaign: JSON by event type: {}", kinds.join(", "));
    eprintln!("campaign: {}", movement_fields(&values));
    let every_army = movement_bytes(armies, turns, PositionsRecord::EveryArmy);
    let beyond_reports = movement_bytes(armies, turns, PositionsRecord::BeyondReports);
    eprintln!(
        "campaign: MovementAdjudicated {} B a turn listing only the squares the reports do not give, \
         {} B listing every army's square (rounds set up before): {:.0}% smaller",
        beyond_reports / turns as usize,
        every_army / turns as usize,
        100.0 * (1.0 - beyond_reports as f64 / every_army as f64)
    );
    let battles = count_of(&events, "coalition.BattleAnnounced");
    let living = round.state.armies.len();
    eprintln!(
        "campaign: played {turns} turns of {armies} armies through the decider in {:.2} s (setup {:.0} ms, \
         adjudications {:.2} ms a turn): {} events, {battles} battles, {living} armies alive, {:.1} MB of JSON",
        played.as_secs_f64(),
        ms(setup),
        ms(adjudications) / f64::from(turns),
        events.len(),
        total_bytes as f64 / 1e6,
    );

    let iterations = if quick { 1 } else { 10 };
    let fold = mean(iterations, || {
        black_box(CoalitionCampaign::fold(events.iter()));
    });
    let from_values = mean(iterations, || {
        black_box(fold_values(&values));
    });
    let from_bytes = mean(iterations, || {
        black_box(fold_bytes(&bytes));
    });
    let typed = mean(iterations, || {
        black_box(fold_typed(&bytes));
    });
    let rate = |duration: Duration| events.len() as f64 / duration.as_secs_f64().max(1e-9);
    summary.push(format!(
        "campaign (a) replay of {turns} turns, {armies} armies, {} events ({:.1} MB JSON): fold {:.2} ms \
         ({:.0} events/s); Value -> event + evolve {:.2} ms ({:.0} events/s); JSON bytes -> Value -> event + evolve \
         {:.2} ms ({:.0} events/s); JSON bytes -> event + evolve (what the service does) {:.2} ms ({:.0} events/s)",
        events.len(),
        total_bytes as f64 / 1e6,
        ms(fold),
        rate(fold),
        ms(from_values),
        rate(from_values),
        ms(from_bytes),
        rate(from_bytes),
        ms(typed),
        rate(typed),
    ));

    let mut group = criterion.benchmark_group("campaign/replay");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    group.bench_function(format!("fold {} events", events.len()), |bencher| {
        bencher.iter(|| CoalitionCampaign::fold(events.iter()))
    });
    group.bench_function(format!("decode Value + fold {} events", events.len()), |bencher| {
        bencher.iter(|| fold_values(&values))
    });
    group.bench_function(format!("parse JSON + decode + fold {} events", events.len()), |bencher| {
        bencher.iter(|| fold_bytes(&bytes))
    });
    group.bench_function(format!("decode JSON straight + fold {} events", events.len()), |bencher| {
        bencher.iter(|| fold_typed(&bytes))
    });
    group.finish();
}

/// (b) One full turn's `AdjudicateTurn` with `count` armies on a `columns` × `rows` map: turn 1
/// is played to announce battles, turn 2 is posted and locked, and its adjudication (with turn
/// 1's battle results) is measured.
fn adjudication(
    criterion: &mut Criterion,
    quick: bool,
    (label, columns, rows, count): (&str, u8, u8, usize),
    summary: &mut Vec<String>,
) {
    let map = Map { bounds: MapBounds { columns, rows }, ..Map::default() };
    let mut rng = Scenario::new(u64::try_from(count).expect("a usize fits in a u64"));
    let mut round = create(&map, count, &mut rng);
    let iterations = if quick { 1 } else { 20 };
    open_and_post(&mut round, 1, &mut rng);
    let first_turn = CampaignCommand::AdjudicateTurn { battle_results: Vec::new(), interval_seed: None };
    let first = mean(iterations, || {
        let mut ctx = context(&round.state, judge(), time(1, 13));
        black_box(CoalitionCampaign::decide(&round.state, &first_turn, &mut ctx).expect("turn 1 adjudicates"));
    });
    round.run(&first_turn, judge(), time(1, 13));
    open_and_post(&mut round, 2, &mut rng);
    let clone = mean(iterations, || {
        black_box(round.state.clone());
    });
    let battle_results = battle_results(&round.state, &mut rng);
    let results = battle_results.len();
    let command = CampaignCommand::AdjudicateTurn { battle_results, interval_seed: None };
    let orders = round.state.orders.len();
    let adjudicate = |state: &CampaignState| {
        let mut ctx = context(state, judge(), time(2, 13));
        CoalitionCampaign::decide(state, &command, &mut ctx).expect("turn 2 adjudicates")
    };
    let events = adjudicate(&round.state);
    let announced: Vec<&str> = events
        .iter()
        .filter_map(|event| match event {
            CampaignEvent::BattleAnnounced { battle, .. } => Some(battle.as_str()),
            _ => None,
        })
        .collect();
    let distinct: BTreeSet<&str> = announced.iter().copied().collect();
    let bumped = count_of(&events, "coalition.ArmyBumped");
    let time = mean(iterations, || {
        black_box(adjudicate(&round.state));
    });
    let met = if ms(time) < GOAL_MS { "met" } else { "NOT met" };
    let collisions = if distinct.len() == announced.len() {
        String::new()
    } else {
        format!(
            "; {} battles announced under only {} distinct stream names (columns past Z print as Z)",
            announced.len(),
            distinct.len()
        )
    };
    summary.push(format!(
        "campaign (b) AdjudicateTurn, {label}: {:.2} ms a turn (goal < {GOAL_MS} ms: {met}); {orders} orders, \
         {results} battle results applied, {bumped} losers bumped, {} events, {} new battles{collisions}; \
         turn 1 (no results to apply) {:.2} ms; cloning the state (the decider's first step) {:.2} ms",
        ms(time),
        events.len(),
        announced.len(),
        ms(first),
        ms(clone),
    ));
    let mut group = criterion.benchmark_group("campaign/adjudicate");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    group.bench_function(label, |bencher| bencher.iter(|| adjudicate(&round.state)));
    group.finish();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo bench` passes `--bench`; `cargo test --benches` does not (criterion's test mode).
    let quick =
        cfg!(debug_assertions) || !args.iter().any(|arg| arg == "--bench") || args.iter().any(|a| a == "--test");
    let mut criterion = Criterion::default().configure_from_args();
    let mut summary = Vec::new();
    replay(&mut criterion, quick, &mut summary);
    let cases = if quick {
        [("60 armies on the default 14x38 map", 14, 38, 60), ("100 armies on a 26x76 map", 26, 76, 100)]
    } else {
        [("500 armies on the default 14x38 map", 14, 38, 500), ("1000 armies on a 26x76 map", 26, 76, 1000)]
    };
    for case in cases {
        adjudication(&mut criterion, quick, case, &mut summary);
    }
    criterion.final_summary();
    for line in summary {
        eprintln!("{line}");
    }
}
