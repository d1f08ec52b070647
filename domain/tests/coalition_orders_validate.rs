//! Checking orders against the map as it is when posted (seed 003 §3.2.2–3.2.5). Each test names
//! the section it checks; refusals are matched on their stable code, rule and the names given.

use std::collections::BTreeMap;

use herald_domain::coalition::army::{RankClass, Team};
use herald_domain::coalition::map::{Faction, Map, Site, SiteKind, Square};
use herald_domain::coalition::orders::{parse_line, validate_order, Board, Order, OrderingArmy, Placement};
use herald_domain::RuleError;

fn sq(text: &str) -> Square {
    Square::parse(text).expect("a square")
}

/// Sai Rei (Coalition) at 3D, Darkhand5 (Coalition) at 5E, Crovax (Phyrexia) at 4D, Greven
/// (Phyrexia) at 4F, Tahngarth (Coalition) at 4E; a Red Base at 10A and a town at 11C.
fn armies() -> BTreeMap<String, Placement> {
    [
        ("Sai Rei", "3D", Team::Coalition),
        ("Darkhand5", "5E", Team::Coalition),
        ("Crovax", "4D", Team::Phyrexia),
        ("Greven", "4F", Team::Phyrexia),
        ("Tahngarth", "4E", Team::Coalition),
        ("Gerrard", "10A", Team::Coalition),
        ("Mirri", "9B", Team::Coalition),
    ]
    .into_iter()
    .map(|(name, square, team)| (name.to_string(), Placement { square: sq(square), team }))
    .collect()
}

fn map() -> Map {
    let site = |name: &str, square: &str, kind| Site {
        name: name.into(),
        square: sq(square),
        kind,
        destroyed: false,
        win_condition: false,
        description: String::new(),
    };
    let mut map = Map::default();
    for site in [site("Red Base", "10A", SiteKind::Base { color: Faction::Red }), site("Keld", "11C", SiteKind::Town)] {
        map.sites.insert(site.square, site);
    }
    map
}

fn check_as(army: &str, rank: RankClass, text: &str) -> Result<(), RuleError> {
    let (armies, map) = (armies(), map());
    let (name, order): (String, Order) = parse_line(text, 1, army).expect("a well-formed order");
    validate_order(&Board { map: &map, armies: &armies }, OrderingArmy { name: &name, rank }, &order)
}

fn check(text: &str) -> Result<(), RuleError> {
    check_as("Sai Rei", RankClass::PlaguelordCommander, text)
}

fn refused(text: &str, code: &str, rule: &str) -> RuleError {
    let error = check(text).expect_err(text);
    assert_eq!((error.code.as_str(), error.rule.as_str()), (code, rule), "{text}: {error}");
    error
}

#[test]
fn an_army_at_3d_may_move_to_6d_5e_or_4f_but_not_5f_3_2_2_1() {
    let (armies, map) = (armies(), map());
    let board = Board { map: &map, armies: &armies };
    let mut empty = armies.clone();
    empty.retain(|name, _| name == "Sai Rei");
    let empty_board = Board { map: &map, armies: &empty };
    let sai_rei = OrderingArmy { name: "Sai Rei", rank: RankClass::PlaguelordCommander };
    for to in ["6D", "5E", "4F"] {
        let (_, order) = parse_line(&format!("Sai Rei: 3D > {to}"), 1, "x").expect("order");
        validate_order(&empty_board, sai_rei, &order).unwrap_or_else(|error| panic!("3D > {to}: {error}"));
    }
    let (_, order) = parse_line("Sai Rei: 3D > 5F", 1, "x").expect("order");
    let error = validate_order(&board, sai_rei, &order).expect_err("4 steps");
    assert_eq!((error.code.as_str(), error.rule.as_str()), ("coalition.orders.too_far", "seed 003 §3.2.2.1"));
    assert!(error.message.contains("3D to 5F is 4 steps"), "{error}");
}

#[test]
fn the_seeds_replace_example_is_legal_when_darkhand5_waits_at_5e_3_2_2_5() {
    check("Sai Rei: 3D > 5E; replace Darkhand5").expect("legal");
}

#[test]
fn a_move_must_start_from_the_armys_current_square_naming_both_3_2_2_5() {
    let error = refused("Sai Rei: 2D > 2E", "coalition.orders.wrong_start", "seed 003 §3.2.2.5");
    assert!(error.message.contains("is at 3D, not 2D"), "{error}");
}

#[test]
fn each_leg_of_a_long_move_starts_where_the_previous_ended_3_2_2_3() {
    let (armies, map) = (armies(), map());
    let (_, mut order) = parse_line("Sai Rei: 3D > 3A > 6A", 1, "x").expect("order");
    if let Order::Move { legs } = &mut order {
        legs[1].from = sq("3B");
    }
    let sai_rei = OrderingArmy { name: "Sai Rei", rank: RankClass::PlaguelordCommander };
    let error = validate_order(&Board { map: &map, armies: &armies }, sai_rei, &order).expect_err("unchained");
    assert_eq!(error.code, "coalition.orders.broken_chain");
    assert!(error.message.contains("leg 2 starts at 3B but leg 1 ended at 3A"), "{error}");
    check("Sai Rei: 3D > 3A > 6A > 8B").expect("a legal long move");
}

#[test]
fn each_leg_of_a_long_move_must_itself_be_at_most_3_squares_3_2_2_3() {
    let error = refused("Sai Rei: 3D > 3A > 7A", "coalition.orders.too_far", "seed 003 §3.2.2.1");
    assert!(error.message.contains("3A to 7A is 4 steps"), "{error}");
}

#[test]
fn squares_off_the_map_are_refused_1_2() {
    let error = refused("Sai Rei: 3D > 3A > 1A > 1Z", "coalition.orders.off_map", "seed 003 §1.2");
    assert!(error.message.contains("1Z is off the map"), "{error}");
}

#[test]
fn a_route_must_run_step_by_step_from_the_start_to_the_destination_3_2_2_4() {
    check("Sai Rei: 3D > 2E (3D - 3E - 2E)").expect("a legal route");
    let cases = [
        ("Sai Rei: 3D > 2E (3E - 2E)", "must start at 3D and end at 2E"),
        ("Sai Rei: 3D > 2E (3D - 3E)", "must start at 3D and end at 2E"),
        ("Sai Rei: 3D > 2E (3D - 2E)", "jumps from 3D to 2E"),
        ("Sai Rei: 3D > 2E (3D - 3E - 3F - 2F - 2E)", "takes 4 steps"),
    ];
    for (text, says) in cases {
        let error = refused(text, "coalition.orders.bad_route", "seed 003 §3.2.2.4");
        assert!(error.message.contains(says), "{text}: {error}");
    }
}

#[test]
fn moving_onto_an_enemy_needs_engage_naming_it_3_2_2_2() {
    check("Sai Rei: 3D > 4D; engage Crovax").expect("legal");
    let error = refused("Sai Rei: 3D > 4D", "coalition.orders.engage_required", "seed 003 §3.2.2.2");
    assert!(error.message.contains("add `engage Crovax`"), "{error}");
    let error = refused("Sai Rei: 3D > 4D; replace Crovax", "coalition.orders.wrong_annotation", "seed 003 §3.2.2.2");
    assert!(error.message.contains("Crovax at 4D is an enemy"), "{error}");
}

#[test]
fn moving_onto_a_friend_needs_replace_naming_it_3_2_2_2() {
    let error = refused("Sai Rei: 3D > 5E", "coalition.orders.replace_required", "seed 003 §3.2.2.2");
    assert!(error.message.contains("add `replace Darkhand5`"), "{error}");
    let error = refused("Sai Rei: 3D > 5E; engage Darkhand5", "coalition.orders.wrong_annotation", "seed 003 §3.2.2.2");
    assert!(error.message.contains("Darkhand5 at 5E is friendly"), "{error}");
}

#[test]
fn engage_or_replace_of_an_army_not_on_the_destination_is_refused_3_2_2_2() {
    let error = refused("Sai Rei: 3D > 3E; engage Crovax", "coalition.orders.target_absent", "seed 003 §3.2.2.2");
    assert!(error.message.contains("Crovax is not at 3E (it holds no army)"), "{error}");
    let error = refused("Sai Rei: 3D > 5E; replace Tahngarth", "coalition.orders.target_absent", "seed 003 §3.2.2.2");
    assert!(error.message.contains("Tahngarth is not at 5E (it holds Darkhand5)"), "{error}");
}

#[test]
fn annotations_on_later_legs_follow_the_map_as_posted_3_2_2_2_and_3_2_2_3() {
    check("Sai Rei: 3D > 3E > 4E; replace Tahngarth").expect("legal");
    refused("Sai Rei: 3D > 3E > 4E", "coalition.orders.replace_required", "seed 003 §3.2.2.2");
    check("Sai Rei: 3D > 3A > 3D").expect("coming back to its own square needs no annotation");
}

#[test]
fn joint_engage_fits_empty_friendly_and_enemy_squares_and_the_armys_own_3_2_5_1() {
    for text in ["3D > 3E", "3D > 5E", "3D > 4D", "3D > 3D", "3D"] {
        check(&format!("Sai Rei: {text}; Joint Engage")).unwrap_or_else(|error| panic!("{text}: {error}"));
    }
}

#[test]
fn captains_and_evincars_and_above_cannot_joint_engage_3_2_5_4() {
    for rank in [RankClass::EvincarCaptain, RankClass::PraetorAdmiral, RankClass::ChiefPraetorGeneral] {
        let error = check_as("Sai Rei", rank, "Sai Rei: 3D > 4D; Joint Engage").expect_err("too high a rank");
        assert_eq!(
            (error.code.as_str(), error.rule.as_str()),
            ("coalition.orders.joint_engage_rank", "seed 003 §3.2.5.4")
        );
    }
    check_as("Sai Rei", RankClass::CenturionLieutenant, "Sai Rei: 3D > 4D; Joint Engage").expect("a lieutenant may");
}

#[test]
fn joint_engage_may_not_target_a_base_town_or_portal_3_2_5_4() {
    let error = check_as("Mirri", RankClass::CplLtCommander, "Mirri: 9B > 10A; Joint Engage").expect_err("a base");
    assert_eq!((error.code.as_str(), error.rule.as_str()), ("coalition.orders.joint_engage_site", "seed 003 §3.2.5.4"));
    assert!(error.message.contains("10A is Red Base"), "{error}");
    let error = check_as("Mirri", RankClass::CplLtCommander, "Mirri: 9B > 11C; Joint Engage").expect_err("a town");
    assert_eq!(error.code, "coalition.orders.joint_engage_site");
}

#[test]
fn intercept_needs_an_enemy_army_that_exists_3_2_3_1() {
    check("Sai Rei: Intercept Crovax").expect("legal");
    let error = refused("Sai Rei: Intercept Volrath", "coalition.orders.unknown_army", "seed 003 §3.2.3.1");
    assert!(error.message.contains("Volrath"), "{error}");
    refused("Sai Rei: Intercept Darkhand5", "coalition.orders.intercept_not_enemy", "seed 003 §3.2.3.1");
}

#[test]
fn transfer_goes_to_a_friendly_army_next_to_the_sender_3_2_4_1() {
    check("Sai Rei: Transfer to Tahngarth at 4E").expect("diagonal neighbours are next to each other");
    check_as("Tahngarth", RankClass::CplLtCommander, "Tahngarth: Transfer to Darkhand5 at 5E").expect("orthogonal");
    let rule = "seed 003 §3.2.4.1";
    let error = refused("Sai Rei: Transfer to Darkhand5 at 5E", "coalition.orders.transfer_not_adjacent", rule);
    assert!(error.message.contains("Sai Rei at 3D is not next to Darkhand5 at 5E"), "{error}");
    let error = refused("Sai Rei: Transfer to Tahngarth at 4F", "coalition.orders.transfer_wrong_square", rule);
    assert!(error.message.contains("Tahngarth is at 4E, not 4F"), "{error}");
    refused("Sai Rei: Transfer to Crovax at 4D", "coalition.orders.transfer_to_enemy", rule);
    refused("Sai Rei: Transfer to Volrath at 4D", "coalition.orders.unknown_army", rule);
    refused("Sai Rei: Transfer to Sai Rei at 3D", "coalition.orders.transfer_to_self", rule);
}

#[test]
fn the_sending_army_cannot_be_in_a_base_portal_or_town_3_2_4_1() {
    let error =
        check_as("Gerrard", RankClass::CplLtCommander, "Gerrard: Transfer to Mirri at 9B").expect_err("in a base");
    assert_eq!(
        (error.code.as_str(), error.rule.as_str()),
        ("coalition.orders.transfer_from_site", "seed 003 §3.2.4.1")
    );
    check_as("Mirri", RankClass::CplLtCommander, "Mirri: Transfer to Gerrard at 10A")
        .expect("the receiver may be in one");
}

#[test]
fn an_army_not_on_the_map_cannot_be_ordered_3_2() {
    let error = check_as("Volrath", RankClass::CplLtCommander, "Volrath: hold").expect_err("not on the map");
    assert_eq!(error.code, "coalition.orders.unknown_army");
}

#[test]
fn a_move_without_legs_is_refused_3_2_2_5() {
    let (armies, map) = (armies(), map());
    let sai_rei = OrderingArmy { name: "Sai Rei", rank: RankClass::PlaguelordCommander };
    let error = validate_order(&Board { map: &map, armies: &armies }, sai_rei, &Order::Move { legs: vec![] })
        .expect_err("nowhere");
    assert_eq!(error.code, "coalition.orders.empty_move");
}
