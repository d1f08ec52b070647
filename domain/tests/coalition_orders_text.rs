//! Reading movement posts in the seed's text format (seed 003 §3.2.2.5, §3.2.3.1, §3.2.4.2,
//! §3.2.5.1) and writing them back. Each test names the section it checks.

use chrono::{TimeZone, Utc};
use herald_domain::coalition::map::Square;
use herald_domain::coalition::orders::{
    format_body, format_order, parse_line, parse_post, parse_post_orders, text::HOLD_SPELLINGS, Annotation, Leg, Order,
    OrderTextError, Post,
};
use herald_domain::RuleError;

fn sq(text: &str) -> Square {
    Square::parse(text).expect("a square")
}

fn leg(from: &str, to: &str) -> Leg {
    Leg { from: sq(from), to: sq(to), route: None, annotation: None }
}

fn parse(text: &str) -> (String, Order) {
    parse_line(text, 1, "Gazetzot").unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn error(text: &str) -> OrderTextError {
    parse_line(text, 1, "Gazetzot").expect_err(text)
}

#[test]
fn the_replace_example_of_3_2_2_5_reads_as_one_leg_replacing_darkhand5() {
    let expected = Leg { annotation: Some(Annotation::Replace("Darkhand5".into())), ..leg("3D", "5E") };
    assert_eq!(parse("Sai Rei: 3D > 5E; replace Darkhand5"), ("Sai Rei".into(), Order::Move { legs: vec![expected] }));
}

#[test]
fn the_long_move_example_of_3_2_2_5_reads_as_one_leg_per_hop_3_2_2_3() {
    let legs = vec![leg("5E", "8E"), leg("8E", "11E"), leg("11E", "14E"), leg("14E", "14H")];
    assert_eq!(parse("Sai Rei: 5E > 8E > 11E > 14E > 14H"), ("Sai Rei".into(), Order::Move { legs }));
}

#[test]
fn the_routed_example_of_3_2_2_5_keeps_every_square_of_the_route_3_2_2_4() {
    let route = Some(vec![sq("5E"), sq("5F"), sq("5G"), sq("4G")]);
    let expected = Leg { route, ..leg("5E", "4G") };
    assert_eq!(parse("Sai Rei: 5E > 4G (5E - 5F - 5G - 4G)"), ("Sai Rei".into(), Order::Move { legs: vec![expected] }));
}

#[test]
fn the_army_name_may_be_left_off_when_the_poster_and_the_army_share_it_3_2_2_5() {
    assert_eq!(parse("3D > 5E").0, "Gazetzot");
    assert_eq!(parse("hold").0, "Gazetzot");
    assert_eq!(parse("Intercept Darkhand5"), ("Gazetzot".into(), Order::Intercept { target: "Darkhand5".into() }));
}

#[test]
fn engage_is_read_with_or_without_a_semicolon_and_in_any_case_3_2_2_2() {
    let expected = Order::Move {
        legs: vec![Leg { annotation: Some(Annotation::Engage("Urza's Fist 2".into())), ..leg("3D", "4D") }],
    };
    for text in [
        "Sai Rei: 3D > 4D; engage Urza's Fist 2",
        "Sai Rei: 3d>4d ENGAGE Urza's Fist 2",
        "Sai Rei:3D >4D ;Engage  Urza's Fist 2 ",
    ] {
        assert_eq!(parse(text).1, expected, "{text}");
    }
}

#[test]
fn joint_engage_goes_at_the_end_with_or_without_a_semicolon_3_2_5_1() {
    let expected = Order::Move { legs: vec![Leg { annotation: Some(Annotation::JointEngage), ..leg("3D", "4D") }] };
    for text in ["Sai Rei: 3D > 4D; Joint Engage", "Sai Rei: 3D > 4D joint engage", "Sai Rei: 3D > 4D;JOINT   ENGAGE"] {
        assert_eq!(parse(text).1, expected, "{text}");
    }
}

#[test]
fn joint_engage_may_be_posted_staying_on_the_armys_own_square_3_2_5_1() {
    let expected = Order::Move { legs: vec![Leg { annotation: Some(Annotation::JointEngage), ..leg("4D", "4D") }] };
    for text in ["Sai Rei: 4D; Joint Engage", "Sai Rei: 4D Joint Engage", "Sai Rei: 4D > 4D; Joint Engage"] {
        assert_eq!(parse(text).1, expected, "{text}");
    }
    assert_eq!(format_body(&expected), "4D > 4D; Joint Engage");
}

#[test]
fn each_leg_of_a_long_move_may_carry_its_own_annotation_3_2_2_3() {
    let legs = vec![
        Leg { annotation: Some(Annotation::Replace("Darkhand5".into())), ..leg("5E", "8E") },
        Leg {
            route: Some(vec![sq("8E"), sq("9E"), sq("10E"), sq("11E")]),
            annotation: Some(Annotation::Engage("Crovax".into())),
            ..leg("8E", "11E")
        },
    ];
    let (_, order) = parse("Sai Rei: 5E > 8E; replace Darkhand5 > 11E (8E-9E, 10E - 11E); engage Crovax");
    assert_eq!(order, Order::Move { legs });
}

#[test]
fn intercept_names_the_army_to_stop_3_2_3_1() {
    assert_eq!(
        parse("Sai Rei: Intercept Darkhand5"),
        ("Sai Rei".into(), Order::Intercept { target: "Darkhand5".into() })
    );
    assert_eq!(
        parse("Sai Rei: intercept  The Dark Lord, Jr. ").1,
        Order::Intercept { target: "The Dark Lord, Jr.".into() }
    );
}

#[test]
fn transfer_names_the_receiving_army_and_its_square_3_2_4_2() {
    let expected = Order::Transfer { to: "Darkhand5".into(), at: sq("4F"), troops: Vec::new() };
    assert_eq!(parse("Sai Rei: Transfer to Darkhand5 at 4F"), ("Sai Rei".into(), expected));
    let tricky = Order::Transfer { to: "Meet at 3B".into(), at: sq("4f"), troops: Vec::new() };
    assert_eq!(parse("Sai Rei: TRANSFER TO Meet at 3B AT 4f").1, tricky);
}

#[test]
fn every_documented_spelling_of_not_moving_is_a_hold_3_2_1() {
    for spelling in HOLD_SPELLINGS {
        assert_eq!(parse(&format!("Sai Rei: {spelling}")).1, Order::Hold, "{spelling}");
        assert_eq!(parse(&format!("Sai Rei:  {}. ", spelling.to_uppercase())).1, Order::Hold, "{spelling}");
    }
    assert_eq!(parse("Sai Rei: No   Move").1, Order::Hold);
    assert_eq!(parse("doesn’t move").1, Order::Hold);
}

#[test]
fn army_names_may_hold_spaces_digits_and_punctuation_other_than_colons_3_2_2_5() {
    assert_eq!(parse("Urza's Fist #2 (Red) - B.: hold").0, "Urza's Fist #2 (Red) - B.");
}

#[test]
fn a_post_has_one_order_per_line_and_blank_lines_are_ignored_3_2_2_5() {
    let text = "Sai Rei: 3D > 5E; replace Darkhand5\n\n   \nhold\r\nDarkhand5: Intercept Crovax\n";
    let parsed = parse_post(text, "Gazetzot").expect("a post");
    let lines: Vec<(usize, &str)> = parsed.iter().map(|order| (order.line, order.army.as_str())).collect();
    assert_eq!(lines, vec![(1, "Sai Rei"), (4, "Gazetzot"), (5, "Darkhand5")]);
}

#[test]
fn posted_orders_are_numbered_from_0_in_the_order_written_3_3_1() {
    let at = Utc.with_ymd_and_hms(2004, 3, 1, 4, 0, 0).single().expect("a time");
    let post =
        Post { text: "\nSai Rei: hold\n\nno move", posted_by: "Gazetzot", posted_at: at, id: "p1", private: true };
    let orders = parse_post_orders(&post).expect("orders");
    assert_eq!(orders.iter().map(|order| order.line).collect::<Vec<_>>(), vec![0, 1]);
    assert!(orders.iter().all(|order| order.private && order.posted_at == at && order.post == "p1"));
    assert_eq!(format_order(&orders[1]), "Gazetzot: hold");
}

#[test]
fn a_bad_line_is_refused_naming_its_line_and_column_3_2_2_5() {
    let error = parse_post("Sai Rei: hold\n\nSai Rei: 3D > 5E; repalce Darkhand5", "Gazetzot").expect_err("a typo");
    assert_eq!((error.line, error.column), (3, 19));
    assert!(error.expected.contains("`engage <army>`"), "{error}");
    assert_eq!(error.found, "`repalce Darkhand5`");
    let rule_error = RuleError::from(error);
    assert_eq!(rule_error.code, "coalition.orders.malformed");
    assert_eq!(rule_error.rule, "seed 003 §3.2.2.5");
    assert!(rule_error.message.starts_with("line 3, column 19: expected"), "{}", rule_error.message);
}

#[test]
fn malformed_lines_say_what_was_expected_and_where() {
    let cases: [(&str, usize, &str, &str); 14] = [
        (": hold", 1, "the army's name before `:`", "§3.2.2.5"),
        ("Sai Rei:", 9, "an order", "§3.2.2.5"),
        ("Sai Rei: march north", 10, "an order", "§3.2.2.5"),
        ("Sai Rei: 3D", 12, "`>` and the square to move to", "§3.2.2.5"),
        ("Sai Rei: 3D to 5E", 13, "`>` and the square to move to", "§3.2.2.5"),
        ("Sai Rei: 3D > ", 15, "a square after `>`", "§3.2.2.5"),
        ("Sai Rei: 3D > E5", 15, "a square after `>`", "§3.2.2.5"),
        ("Sai Rei: 0D > 3D", 10, "the army's current square", "§3.2.2.5"),
        ("Sai Rei: 3D > 5E; engage", 25, "the army's name after `engage`", "§3.2.2.5"),
        ("Sai Rei: 3D > 5E now", 18, "`>`, a route in `( )`", "§3.2.2.5"),
        ("Sai Rei: 5E > 4G (5E 5F)", 22, "`-` before the next square of the route", "§3.2.2.4"),
        ("Sai Rei: 5E > 4G (5E - 5F", 26, "`-` before the next square of the route", "§3.2.2.4"),
        ("Sai Rei: Intercept", 19, "the name of the army to intercept", "§3.2.3.1"),
        ("Sai Rei: Transfer Darkhand5 at 4F", 19, "`to` after `Transfer`", "§3.2.4.2"),
    ];
    for (text, column, expected, rule) in cases {
        let error = error(text);
        assert_eq!(error.column, column, "{text}: {error}");
        assert!(error.expected.starts_with(expected), "{text}: {error}");
        assert!(error.rule.ends_with(rule), "{text}: {error}");
    }
    let missing_square = error("Sai Rei: Transfer to Darkhand5");
    assert_eq!((missing_square.column, missing_square.found.as_str()), (31, "end of line"));
    assert!(missing_square.expected.starts_with("`at <square>`"), "{missing_square}");
}

#[test]
fn a_line_without_an_army_from_a_nameless_poster_is_refused_3_2_2_5() {
    let error = parse_line("3D > 5E", 2, "").expect_err("nobody to default to");
    assert_eq!((error.line, error.column), (2, 1));
}

#[test]
fn the_canonical_text_of_each_seed_example_is_the_seeds_own_3_2_2_5() {
    for text in [
        "Sai Rei: 3D > 5E; replace Darkhand5",
        "Sai Rei: 5E > 8E > 11E > 14E > 14H",
        "Sai Rei: 5E > 4G (5E - 5F - 5G - 4G)",
        "Sai Rei: Intercept Darkhand5",
        "Sai Rei: Transfer to Darkhand5 at 4F",
        "Sai Rei: 3D > 4D; Joint Engage",
        "Sai Rei: hold",
    ] {
        let (army, order) = parse(text);
        assert_eq!(format!("{army}: {}", format_body(&order)), text);
    }
}

#[test]
fn transfer_troops_are_never_written_in_the_thread_3_2_4_2() {
    let order = Order::Transfer {
        to: "Darkhand5".into(),
        at: sq("4F"),
        troops: vec![herald_domain::coalition::orders::TransferLine { creature: "Kris Mage".into(), troops: 500 }],
    };
    assert_eq!(format_body(&order), "Transfer to Darkhand5 at 4F");
}
