//! Movement rules that need more than a table row: long moves (seed 003 §3.2.2.3), random
//! routes and picks on the dice tape (§3.2.2.4, §3.2.3.2), restrictions needing a map site
//! (§3.2.5.4), an army with nowhere to go (§3.3.2), the report's reasons, and caller errors.
#![allow(clippy::unwrap_used)]

#[path = "coalition_movement_support.rs"]
mod support;

use herald_domain::coalition::{
    map::{Map, Site, SiteKind},
    movement::{adjudicate, LongMoveStatus, MoveOutcome, MovementOutcome},
};
use support::*;

fn line<'a>(outcome: &'a MovementOutcome, army: &str) -> &'a herald_domain::coalition::movement::MoveReport {
    outcome.report.iter().find(|line| line.army == army).unwrap()
}

#[test]
fn seed_003_3_2_2_3_a_long_move_is_done_one_leg_a_turn_and_hands_back_the_rest() {
    let outcome = run(&["C Sai Rei @5E"], &["p 0 Sai Rei: 5E > 8E > 11E > 14E > 14H"]);
    assert_eq!(position(&outcome, "Sai Rei"), "8E");
    assert_eq!(line(&outcome, "Sai Rei").long_move, Some(LongMoveStatus::Continues { legs: 3 }));
    let [long] = outcome.long_moves.as_slice() else { panic!("one long move: {:?}", outcome.long_moves) };
    let legs: Vec<String> = long.legs.iter().map(|leg| format!("{} > {}", leg.from, leg.to)).collect();
    assert_eq!(
        (long.army.as_str(), legs),
        ("Sai Rei", vec!["8E > 11E".into(), "11E > 14E".into(), "14E > 14H".into()])
    );
}

#[test]
fn seed_003_3_2_2_3_a_long_move_is_cancelled_when_the_army_is_engaged() {
    let outcome = run(&["C I @5E", "P X @3E"], &["p 0 I: intercept X", "q 0 X: 3E > 6E > 9E"]);
    assert_eq!(position(&outcome, "X"), "5E");
    assert!(matches!(line(&outcome, "X").long_move, Some(LongMoveStatus::Cancelled { legs: 1, .. })));
    assert!(outcome.long_moves.is_empty());
    let moved_in = run(&["C A @3E", "P B @5E"], &["p 0 A: 3E > 5E > 8E"]);
    assert!(matches!(line(&moved_in, "A").long_move, Some(LongMoveStatus::Cancelled { .. })));
}

#[test]
fn seed_003_3_2_2_3_a_long_move_whose_leg_ends_short_is_cancelled() {
    let outcome = run(&["C A @3D", "C B @5E"], &["p 0 A: 3D > 5E > 8E", "p 0 B: hold"]);
    assert_eq!(kind(&outcome, "A"), "partial");
    let Some(LongMoveStatus::Cancelled { legs: 1, reason }) = &line(&outcome, "A").long_move else { panic!() };
    assert!(reason.contains("did not reach 5E"), "{reason}");
}

#[test]
fn seed_003_3_2_2_4_the_routed_example_goes_by_the_given_squares() {
    let outcome = run(&["C Sai Rei @5E"], &["p 0 Sai Rei: 5E > 4G (5E - 5F - 5G - 4G)"]);
    let route: Vec<String> = line(&outcome, "Sai Rei").route.iter().map(ToString::to_string).collect();
    assert_eq!(route, ["5E", "5F", "5G", "4G"]);
    assert!(outcome.draws.is_empty(), "a routed move draws no dice");
}

#[test]
fn seed_003_3_2_2_4_an_unrouted_route_is_drawn_on_the_tape_and_replays_the_same() {
    let armies = ["C Sai Rei @3D", "C Darkhand5 @9J"];
    let orders = ["p 0 Sai Rei: 3D > 5E", "p 0 Darkhand5: 9J > 12J"];
    let outcome = run(&armies, &orders);
    let [draw] = outcome.draws.as_slice() else { panic!("one draw: {:?}", outcome.draws) };
    assert_eq!((draw.sides, draw.purpose.as_str()), (3, "route Sai Rei: 3D > 5E"));
    let routes = herald_domain::coalition::movement::shortest_routes(sq("3D"), sq("5E"));
    assert_eq!(line(&outcome, "Sai Rei").route, routes[draw.value as usize - 1]);
    assert_eq!(run(&armies, &orders), outcome, "same tape, same outcome");
}

#[test]
fn seed_003_3_2_2_4_the_drawn_route_decides_an_intercept() {
    // 3D > 5E has three routes; only 3D-4D-5D-5E avoids 4E, where the interceptor waits.
    let mut caught = 0;
    for seed in 0..24u8 {
        let armies: Vec<_> = ["C I @4E", "P X @3D"].iter().map(|spec| army(spec)).collect();
        let orders = orders(&["p 0 I: intercept X", "q 0 X: 3D > 5E"]);
        let outcome = adjudicate(&Map::default(), &armies, &orders, &mut tape(seed)).unwrap();
        let route = &line(&outcome, "X").route;
        let crossed = route.contains(&sq("4E"));
        assert_eq!(position(&outcome, "X"), if crossed { "4E" } else { "5E" }, "seed {seed}: {route:?}");
        caught += usize::from(crossed);
    }
    assert!(caught > 0 && caught < 24, "routes vary with the tape: caught {caught} of 24");
}

#[test]
fn seed_003_3_2_3_2_equally_close_armies_are_picked_at_random_on_the_tape() {
    let armies = ["C I @5E", "P X @3E", "P B @5G"];
    let orders = ["p 0 I: intercept X", "q 0 X: 3E > 6E", "q 0 B: 5G > 5E; engage I"];
    let outcome = run(&armies, &orders);
    let pick = outcome.draws.iter().find(|draw| draw.purpose.starts_with("closer of two at 5E")).unwrap();
    assert_eq!(pick.sides, 2);
    let (fights, other) = if pick.value == 1 { ("X", "B") } else { ("B", "X") };
    assert_eq!(battles(&outcome), [format!("5E: {fights} attacks I")]);
    assert_eq!(kind(&outcome, other), if other == "B" { "partial" } else { "moved" });
}

#[test]
fn seed_003_3_2_5_4_a_joint_engage_may_not_target_a_base() {
    let mut map = Map::default();
    let base = Site {
        name: "Red Base".into(),
        square: sq("5E"),
        kind: SiteKind::Base { color: herald_domain::coalition::map::Faction::Red },
        destroyed: false,
        win_condition: false,
        description: String::new(),
    };
    map.sites.insert(sq("5E"), base);
    let outcome = run_on(
        &map,
        &["P A @5C", "P B @5G", "C E @5E"],
        &["p 0 A: 5C > 5E; Joint Engage", "p 1 B: 5G > 5E; Joint Engage"],
    );
    assert_eq!(
        (kind(&outcome, "A"), kind(&outcome, "B")),
        ("joint_engage_ignored".into(), "joint_engage_ignored".into())
    );
    assert!(line(&outcome, "A").reason.contains("Red Base"));
    assert_eq!((position(&outcome, "A"), position(&outcome, "B")), ("5C".into(), "5G".into()));
}

#[test]
fn seed_003_3_3_2_an_army_that_cannot_move_anywhere_stays_and_keeps_its_square() {
    // One column of three squares: C holds 1A; B's routed move to 1A fails and its route offers
    // only 2A, which D means to enter. B cannot go anywhere, so it stays and D moves partially.
    let outcome = run_on(
        &small_map(1, 3),
        &["C C @1A", "C B @2A", "C D @3A"],
        &["p 0 C: hold", "p 0 B: 2A > 1A (2A - 1A)", "p 0 D: 3A > 2A"],
    );
    assert_eq!([position(&outcome, "C"), position(&outcome, "B"), position(&outcome, "D")], ["1A", "2A", "3A"]);
    assert!(line(&outcome, "B").reason.contains("could not move anywhere"));
    assert_eq!(kind(&outcome, "D"), "partial");
}

#[test]
fn seed_003_ch_6_two_mercenaries_never_share_a_square() {
    let outcome = run(&["M R @5C", "M S @5G"], &["m 0 R: 5C > 5E", "m 1 S: 5G > 5E"]);
    assert_eq!((position(&outcome, "R"), kind(&outcome, "S")), ("5E".into(), "partial".into()));
    assert!(outcome.engagements.is_empty());
}

#[test]
fn seed_003_3_1_every_rejected_or_partial_order_gives_a_reason_and_a_seed_rule() {
    let outcome = run(
        &["C A @3D", "C B @5E", "C F @9E", "P G @20A"],
        &["p 0 A: 3D > 5E", "p 0 B: hold", "p 0 F: 9E > 13F", "q 0 G: 21A > 22A"],
    );
    for army in ["A", "F", "G"] {
        let line = line(&outcome, army);
        assert!(matches!(line.outcome, MoveOutcome::Partial | MoveOutcome::Rejected), "{army}: {line:?}");
        assert!(!line.reason.is_empty() && line.rule.starts_with("seed 003 §"), "{army}: {line:?}");
    }
    assert_eq!(line(&outcome, "F").rule, "seed 003 §3.2.2.1");
    assert_eq!(line(&outcome, "G").rule, "seed 003 §3.2.2.5");
    assert_eq!(line(&outcome, "A").rule, "seed 003 §3.3.1");
}

#[test]
fn herald_callers_must_select_one_order_per_army_seed_003_3_3_6() {
    let armies = vec![army("C A @3D")];
    let twice = orders(&["p 0 A: hold", "p 1 A: 3D > 4D"]);
    let error = adjudicate(&Map::default(), &armies, &twice, &mut tape(1)).unwrap_err();
    assert_eq!(error.code, "coalition.movement.several_orders");
    let stranger = orders(&["p 0 Z: hold"]);
    let error = adjudicate(&Map::default(), &armies, &stranger, &mut tape(1)).unwrap_err();
    assert_eq!(error.code, "coalition.movement.unknown_army");
}

#[test]
fn herald_the_outcome_round_trips_through_json_for_events() {
    let outcome =
        run(&["C Sai Rei @3D", "P X @5E", "C I @9E"], &["p 0 Sai Rei: 3D > 5E; engage X", "q 0 I: intercept X"]);
    let json = serde_json::to_string(&outcome).unwrap();
    assert!(json.contains("\"kind\":\"moved\""), "{json}");
    assert_eq!(serde_json::from_str::<MovementOutcome>(&json).unwrap(), outcome);
}
