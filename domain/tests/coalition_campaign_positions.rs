//! What a `MovementAdjudicated` event lists in `positions` (issue 13): rounds set up before the
//! choice list every army's square (`PositionsRecord::EveryArmy`, kept so their replays give back
//! what was recorded); rounds the service sets up now list only what the move reports do not
//! give (`PositionsRecord::BeyondReports`). The two must be the same round: played from the same
//! orders and dice, every event but those two fields is the same, and every state after every
//! event is the same, whether folded from the events or from their stored JSON.

#[path = "../benches/support/round.rs"]
mod round;

use chrono::{DateTime, Utc};
use herald_domain::{
    coalition::{
        campaign::{CampaignCommand, CampaignEvent, CampaignState, CoalitionCampaign, PositionsRecord},
        map::{Map, MapBounds},
    },
    dice::DiceTape,
    Actor, Context, Decider, Role,
};
use proptest::prelude::*;
use round::{battle_results, random_orders, time, Scenario};

const SEED: [u8; 32] = [5; 32];

/// A round played through the decider under one record, with its log and every state.
struct Played {
    events: Vec<CampaignEvent>,
    states: Vec<CampaignState>,
}

impl Played {
    fn run(&mut self, command: &CampaignCommand, actor: Actor, at: DateTime<Utc>) {
        let state = self.states.last().cloned().unwrap_or_default();
        let mut ctx = Context {
            stream: "campaign-positions".into(),
            actor,
            recorded_at: at,
            dice: DiceTape::new(SEED, state.next_word),
        };
        let events = CoalitionCampaign::decide(&state, command, &mut ctx).expect("the decider accepts");
        let mut state = state;
        for event in events {
            CoalitionCampaign::evolve(&mut state, &event);
            self.events.push(event);
            self.states.push(state.clone());
        }
    }
}

fn judge() -> Actor {
    Actor::new("judge", Role::Judge)
}

/// `turns` turns of `armies` armies with random orders and battle results from `scenario`.
fn play(record: PositionsRecord, scenario: u64, armies: usize, turns: u32) -> Played {
    let mut rng = Scenario::new(scenario);
    let map = Map { bounds: MapBounds { columns: 10, rows: 12 }, ..Map::default() };
    let create = round::set_up("Positions", &map, armies, &mut rng, "00".repeat(32), record);
    let mut played = Played { events: Vec::new(), states: Vec::new() };
    played.run(&create, judge(), time(0, 0));
    for turn in 1..=turns {
        played.run(&CampaignCommand::OpenTurn { deadline: time(turn, 12), turn_key: None }, judge(), time(turn, 0));
        let state = played.states.last().cloned().unwrap_or_default();
        for (player, orders) in random_orders(&state, &mut rng) {
            let post = CampaignCommand::PostOrders { text: None, orders, private: false, on_behalf_of: None };
            played.run(&post, Actor::player(format!("token:{player}"), player), time(turn, 1));
        }
        played.run(&CampaignCommand::LockTurn, judge(), time(turn, 13));
        let state = played.states.last().cloned().unwrap_or_default();
        let adjudicate =
            CampaignCommand::AdjudicateTurn { battle_results: battle_results(&state, &mut rng), interval_seed: None };
        played.run(&adjudicate, judge(), time(turn, 13));
    }
    played
}

/// `event` with the two fields that differ between the records cleared.
fn without_record(event: &CampaignEvent) -> CampaignEvent {
    let mut event = event.clone();
    match &mut event {
        CampaignEvent::CampaignCreated { positions_record, .. } => *positions_record = PositionsRecord::EveryArmy,
        CampaignEvent::MovementAdjudicated { positions, .. } => positions.clear(),
        _ => {}
    }
    event
}

/// The state with its record cleared.
fn state_without_record(state: &CampaignState) -> CampaignState {
    CampaignState { positions_record: PositionsRecord::EveryArmy, ..state.clone() }
}

/// Fold the log from its JSON, as the service reads it back.
fn fold_json(events: &[CampaignEvent]) -> CampaignState {
    let mut state = CampaignState::default();
    for event in events {
        let json = serde_json::to_vec(event).expect("an event encodes");
        let decoded: CampaignEvent = serde_json::from_slice(&json).expect("a stored event decodes");
        CoalitionCampaign::evolve(&mut state, &decoded);
    }
    state
}

fn movements(events: &[CampaignEvent]) -> Vec<&CampaignEvent> {
    events.iter().filter(|event| matches!(event, CampaignEvent::MovementAdjudicated { .. })).collect()
}

#[test]
fn a_round_set_up_now_records_no_square_its_move_reports_give() {
    let full = play(PositionsRecord::EveryArmy, 7, 40, 6);
    let compact = play(PositionsRecord::BeyondReports, 7, 40, 6);
    assert_eq!(full.events.len(), compact.events.len());
    assert_eq!(movements(&full.events).len(), 6);
    for (before, now) in movements(&full.events).into_iter().zip(movements(&compact.events)) {
        let (
            CampaignEvent::MovementAdjudicated { positions: every, .. },
            CampaignEvent::MovementAdjudicated { positions: beyond, moves, .. },
        ) = (before, now)
        else {
            unreachable!("filtered");
        };
        assert!(every.len() >= 40 - 2, "every army is listed the old way: {}", every.len());
        assert!(beyond.is_empty(), "every army ended where its report says: {beyond:?}");
        assert_eq!(moves.len(), every.len(), "one report an army");
        let (old, new) = (serde_json::to_vec(before).expect("JSON"), serde_json::to_vec(now).expect("JSON"));
        assert!(new.len() < old.len() * 9 / 10, "{} bytes, was {}", new.len(), old.len());
    }
    let created = serde_json::to_value(&compact.events[0]).expect("JSON");
    assert_eq!(created["positions_record"], "beyond_reports");
    let created = serde_json::to_value(&full.events[0]).expect("JSON");
    assert!(created.get("positions_record").is_none(), "absent in the old form, as in old logs: {created}");
}

#[test]
fn a_movement_event_recorded_before_the_choice_still_decodes_and_folds() {
    // The shape rounds set up before the choice stored: every army in `positions`.
    let full = play(PositionsRecord::EveryArmy, 11, 20, 2);
    let last = full.states.last().expect("played");
    assert_eq!(&fold_json(&full.events), last);
    let movement = movements(&full.events)[0];
    let json = serde_json::to_value(movement).expect("JSON");
    assert!(json["positions"].as_array().is_some_and(|squares| squares.len() >= 18), "{json}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The same orders and dice give the same round under either record: the same events but for
    /// the record's own fields, the same state after every event, from the events or their JSON.
    #[test]
    fn either_record_plays_the_same_round(scenario in any::<u64>(), armies in 2usize..40, turns in 1u32..5) {
        let full = play(PositionsRecord::EveryArmy, scenario, armies, turns);
        let compact = play(PositionsRecord::BeyondReports, scenario, armies, turns);
        prop_assert_eq!(full.events.len(), compact.events.len());
        for (before, now) in full.events.iter().zip(&compact.events) {
            prop_assert_eq!(without_record(before), without_record(now));
        }
        for (before, now) in full.states.iter().zip(&compact.states) {
            prop_assert_eq!(state_without_record(before), state_without_record(now));
        }
        let last = compact.states.last().cloned().unwrap_or_default();
        prop_assert_eq!(fold_json(&compact.events), last);
    }
}
