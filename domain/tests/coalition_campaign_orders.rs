//! Orders and long moves across turns of a campaign, through `CoalitionCampaign::decide`/`evolve`
//! only: long moves carried one leg a turn and cancelled when engaged or cut short (seed 003
//! §3.2.2.3), and which orders count (§3.1, §3.3.6).

#[path = "coalition_campaign_support.rs"]
mod support;

use chrono::Duration;
use herald_domain::coalition::{
    army::RankClass,
    campaign::{ArmyOrder, CampaignCommand, CampaignEvent},
    movement::{LongMoveStatus, MoveOutcome},
    orders::{IgnoreReason, Leg, Order},
};
use support::*;

fn leg(from: &str, to: &str) -> Leg {
    Leg { from: sq(from), to: sq(to), route: None, annotation: None }
}

fn long_move_status(events: &[CampaignEvent], army: &str) -> Option<LongMoveStatus> {
    report(events, army).long_move
}

#[test]
fn a_long_move_is_carried_one_leg_a_turn_over_three_turns_seed_003_3_2_2_3() {
    let mut round = Round::create(map(), vec![on(mages("Sai Rei", RankClass::CplLtCommander), "10B")]);

    let first = round.play_orders(&["Sai Rei: 10B > 13B > 16B > 19B"], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("13B"));
    assert_eq!(long_move_status(&first, "Sai Rei"), Some(LongMoveStatus::Continues { legs: 2 }));
    assert_eq!(round.state.armies["Sai Rei"].long_move, vec![leg("13B", "16B"), leg("16B", "19B")]);

    // No new post: the next leg goes on by itself.
    let second = round.play_orders(&[], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("16B"));
    assert_eq!(report(&second, "Sai Rei").outcome, MoveOutcome::Moved);
    assert_eq!(long_move_status(&second, "Sai Rei"), Some(LongMoveStatus::Continues { legs: 1 }));

    let third = round.play_orders(&[], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("19B"));
    assert_eq!(report(&third, "Sai Rei").outcome, MoveOutcome::Moved);
    assert!(round.state.armies["Sai Rei"].long_move.is_empty(), "the long move is done");

    let fourth = round.play_orders(&[], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("19B"), "nothing is left to carry out");
    assert_eq!(report(&fourth, "Sai Rei").outcome, MoveOutcome::Stayed);
    for events in [&first, &second, &third] {
        let line = report(events, "Sai Rei");
        assert!(line.from.distance(line.to) <= 3, "one leg of at most 3 steps a turn (seed 003 §3.2.2.1)");
    }
    round.assert_replays();
}

#[test]
fn a_long_move_is_cancelled_when_the_army_is_engaged_on_the_way_seed_003_3_2_2_3() {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Sai Rei", RankClass::CplLtCommander), "10B"),
            on(broodlings("Rag", RankClass::CplLtCommander), "17D"),
        ],
    );
    round.play_orders(&["Sai Rei: 10B > 13B > 16B > 19B"], vec![]);

    // Rag steps into 16B as Sai Rei's second leg ends there: they meet and fight.
    let met = round.play_orders(&["Rag: 17D > 16B"], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("16B"));
    let battle = the_battle(&met);
    assert_eq!(battle.square, sq("16B"));
    assert!(matches!(long_move_status(&met, "Sai Rei"), Some(LongMoveStatus::Cancelled { legs: 1, .. })));
    assert!(round.state.armies["Sai Rei"].long_move.is_empty());

    // Won the battle, Sai Rei stays; the cancelled leg does not come back.
    let after = round.play_orders(&[], vec![battle.result(herald_domain::coalition::army::Team::Coalition, &[], &[])]);
    assert_eq!(round.square("Sai Rei"), sq("16B"));
    assert_eq!(report(&after, "Sai Rei").outcome, MoveOutcome::InBattle);
    let later = round.play_orders(&[], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("16B"), "the player must post again");
    assert_eq!(report(&later, "Sai Rei").outcome, MoveOutcome::Stayed);
    round.assert_replays();
}

#[test]
fn a_long_move_whose_leg_falls_short_is_cancelled_seed_003_3_2_2_3_and_3_3_2() {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Sai Rei", RankClass::CplLtCommander), "10B"),
            on(mages("Tahngarth", RankClass::CplLtCommander), "16D"),
        ],
    );
    round.play_orders(&["Sai Rei: 10B > 13B > 16B > 19B", "Tahngarth: 16D > 16B"], vec![]);
    assert_eq!(round.square("Tahngarth"), sq("16B"));
    // Tahngarth stays in 16B: a friend holds the square, so Sai Rei's leg is a partial move.
    let short = round.play_orders(&[], vec![]);
    assert_eq!(round.square("Tahngarth"), sq("16B"));
    assert_ne!(round.square("Sai Rei"), sq("16B"));
    assert_eq!(report(&short, "Sai Rei").outcome, MoveOutcome::Partial);
    assert!(matches!(long_move_status(&short, "Sai Rei"), Some(LongMoveStatus::Cancelled { legs: 1, .. })));
    assert!(round.state.armies["Sai Rei"].long_move.is_empty());
    round.assert_replays();
}

#[test]
fn a_new_order_replaces_the_rest_of_a_long_move_seed_003_3_2_2_3_and_3_3_6() {
    let mut round = Round::create(map(), vec![on(mages("Sai Rei", RankClass::CplLtCommander), "10B")]);
    round.play_orders(&["Sai Rei: 10B > 13B > 16B > 19B"], vec![]);
    round.play_orders(&["Sai Rei: 13B > 13E"], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("13E"));
    assert!(round.state.armies["Sai Rei"].long_move.is_empty());
    round.play_orders(&[], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("13E"));
    round.assert_replays();
}

#[test]
fn only_the_last_order_of_the_controller_by_the_deadline_counts_seed_003_3_3_6() {
    let mut round = Round::create(map(), vec![on(mages("Sai Rei", RankClass::CplLtCommander), "10B")]);
    let deadline = round.open();
    round.order("sai rei", "Sai Rei", Order::Move { legs: vec![leg("10B", "11B")] }).expect("a structured order");
    round.post("sai rei", "Sai Rei: 10B > 10D").expect("a text order");
    // Posted exactly at the deadline: still in (§3.1, "5:00 is in").
    round
        .run_at(posting(Some("Sai Rei: 10B > 12C"), vec![], false), player("sai rei"), deadline)
        .expect("posted at the deadline");
    // Posted a minute late, before the lock: recorded, but it does not count.
    let late = round
        .run_at(posting(Some("Sai Rei: 10B > 13B"), vec![], false), player("sai rei"), deadline + Duration::minutes(1))
        .expect("a late post is still recorded");
    assert!(matches!(late.as_slice(), [CampaignEvent::OrdersPosted { .. }]));

    let events = round.adjudicate(vec![]).expect("adjudicated");
    assert_eq!(round.square("Sai Rei"), sq("12C"), "the last order by the deadline");
    let (_, ignored) = movement(&events);
    let reasons: Vec<(String, IgnoreReason)> = ignored
        .iter()
        .map(|ignored| (herald_domain::coalition::orders::format_order(&ignored.order), ignored.reason))
        .collect();
    assert_eq!(ignored.len(), 3, "{reasons:?}");
    assert_eq!(ignored.iter().filter(|ignored| ignored.reason == IgnoreReason::Superseded).count(), 2);
    let after = ignored.iter().find(|ignored| ignored.reason == IgnoreReason::AfterDeadline).expect("the late order");
    assert_eq!(after.order.order, Order::Move { legs: vec![leg("10B", "13B")] });
    assert_eq!(after.code, "coalition.orders.after_deadline");
    assert_eq!(after.rule, "seed 003 §3.1");
    round.assert_replays();
}

#[test]
fn an_army_ordered_by_two_of_its_controllers_ignores_both_orders_and_does_not_move_seed_003_3_3_6() {
    let mut entry = on(mages("Sai Rei", RankClass::CplLtCommander), "10B");
    entry.controllers = vec!["alice".into(), "carol".into()];
    let mut round = Round::create(map(), vec![entry, on(mages("Tahngarth", RankClass::CplLtCommander), "20B")]);
    let events = round.play(
        &[("alice", "Sai Rei: 10B > 11B"), ("carol", "Sai Rei: 10B > 10C"), ("tahngarth", "Tahngarth: 20B > 21B")],
        vec![],
    );
    assert_eq!(round.square("Sai Rei"), sq("10B"));
    assert_eq!(round.square("Tahngarth"), sq("21B"), "other armies move as ordered");
    let (_, ignored) = movement(&events);
    assert_eq!(ignored.len(), 2);
    assert!(ignored
        .iter()
        .all(|ignored| ignored.reason == IgnoreReason::SeveralControllers && ignored.order.army == "Sai Rei"));
    assert_eq!(report(&events, "Sai Rei").outcome, MoveOutcome::Stayed);

    // One controller alone is obeyed.
    round.play(&[("carol", "Sai Rei: 10B > 10C")], vec![]);
    assert_eq!(round.square("Sai Rei"), sq("10C"));
    round.assert_replays();
}

#[test]
fn a_private_order_keeps_its_flag_through_posting_and_adjudication_seed_003_3_1() {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Sai Rei", RankClass::CplLtCommander), "10B"),
            on(broodlings("Rag", RankClass::CplLtCommander), "30B"),
        ],
    );
    round.open();
    let secret = vec![ArmyOrder { army: "Sai Rei".into(), order: Order::Move { legs: vec![leg("10B", "12B")] } }];
    let posted = round.run(posting(None, secret, true), player("sai rei")).expect("a private post");
    let CampaignEvent::OrdersPosted { orders, .. } = &posted[0] else { panic!("orders posted: {posted:?}") };
    assert!(orders.iter().all(|order| order.private));
    // A judge re-posts a PM on the player's behalf (§3.1): it is the player's, and private.
    let pm = CampaignCommand::PostOrders {
        text: Some("Sai Rei: 10B > 11B".into()),
        orders: vec![],
        private: true,
        on_behalf_of: Some("sai rei".into()),
    };
    let reposted = round.run(pm, judge()).expect("the judge re-posts the PM");
    let CampaignEvent::OrdersPosted { orders, .. } = &reposted[0] else { panic!("orders posted: {reposted:?}") };
    assert_eq!((orders[0].posted_by.as_str(), orders[0].private), ("sai rei", true));
    assert!(round.state.orders.iter().all(|order| order.private));
    // A player may not post on someone else's behalf.
    let forged = CampaignCommand::PostOrders {
        text: Some("Rag: 30B > 31B".into()),
        orders: vec![],
        private: true,
        on_behalf_of: Some("rag".into()),
    };
    assert_eq!(round.run(forged, player("sai rei")).expect_err("refused"), "coalition.campaign.not_a_judge");

    let events = round.adjudicate(vec![]).expect("adjudicated");
    assert_eq!(round.square("Sai Rei"), sq("11B"), "the re-posted PM is the later order");
    let (_, ignored) = movement(&events);
    assert_eq!(ignored.len(), 1);
    assert!(ignored[0].order.private, "the superseded order is still private");
    assert_eq!(ignored[0].reason, IgnoreReason::Superseded);
    round.assert_replays();
}

#[test]
fn orders_cannot_be_posted_after_the_lock_nor_for_an_army_the_player_does_not_control_seed_003_3_1_and_5_2_1() {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Sai Rei", RankClass::CplLtCommander), "10B"),
            on(broodlings("Rag", RankClass::CplLtCommander), "30B"),
        ],
    );
    round.open();
    assert_eq!(round.post("sai rei", "Rag: 30B > 31B").expect_err("refused"), "coalition.campaign.not_controller");
    assert_eq!(round.post("sai rei", "Sai Rei: 10B > 14B").expect_err("refused"), "coalition.orders.too_far");
    round.run(CampaignCommand::LockTurn, judge()).expect("locked");
    assert_eq!(round.post("sai rei", "Sai Rei: 10B > 11B").expect_err("refused"), "coalition.campaign.turn_not_open");
    round.adjudicate(vec![]).expect("adjudicated");
    assert_eq!(round.square("Sai Rei"), sq("10B"));
    round.assert_replays();
}
