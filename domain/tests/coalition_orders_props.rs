//! Properties of the order text format (seed 003 §3.2.2.5): every order written by
//! `format_order` reads back as the same order, whatever reads as an order reads the same from its
//! canonical text, and no line makes the parser panic.

use chrono::{TimeZone, Utc};
use herald_domain::coalition::map::Square;
use herald_domain::coalition::orders::{format_body, format_order, parse_line, Annotation, Leg, Order, PostedOrder};
use proptest::prelude::*;

/// Army names as players write them: words of letters, digits and punctuation other than `:`,
/// `>` and `;` (which the format reserves), separated by single spaces.
fn army_name() -> impl Strategy<Value = String> {
    prop::collection::vec("[A-Za-z0-9'.,#()\\-&é]{1,8}", 1..4).prop_map(|words| words.join(" "))
}

fn square() -> impl Strategy<Value = Square> {
    (1u8..=38, 0u8..14).prop_map(|(row, column)| Square { row, column })
}

fn annotation() -> impl Strategy<Value = Option<Annotation>> {
    prop_oneof![
        Just(None),
        army_name().prop_map(|name| Some(Annotation::Engage(name))),
        army_name().prop_map(|name| Some(Annotation::Replace(name))),
        Just(Some(Annotation::JointEngage)),
    ]
}

fn legs() -> impl Strategy<Value = Vec<Leg>> {
    let hop = (square(), prop::option::of(prop::collection::vec(square(), 1..5)), annotation());
    (square(), prop::collection::vec(hop, 1..5)).prop_map(|(start, hops)| {
        let mut from = start;
        hops.into_iter()
            .map(|(to, route, annotation)| {
                let leg = Leg { from, to, route, annotation };
                from = to;
                leg
            })
            .collect()
    })
}

fn order() -> impl Strategy<Value = Order> {
    prop_oneof![
        legs().prop_map(|legs| Order::Move { legs }),
        Just(Order::Hold),
        army_name().prop_map(|target| Order::Intercept { target }),
        (army_name(), square()).prop_map(|(to, at)| Order::Transfer { to, at, troops: Vec::new() }),
    ]
}

proptest! {
    #[test]
    fn every_formatted_order_reads_back_as_itself_3_2_2_5(army in army_name(), order in order(), poster in army_name()) {
        let posted = PostedOrder {
            army: army.clone(),
            order: order.clone(),
            posted_by: poster.clone(),
            posted_at: Utc.with_ymd_and_hms(2004, 3, 1, 0, 0, 0).single().expect("a time"),
            post: "p1".into(),
            line: 0,
            private: false, uncontrolled: false,
        };
        let text = format_order(&posted);
        let parsed = parse_line(&text, 1, &poster);
        prop_assert_eq!(parsed, Ok((army, order)), "{}", text);
    }

    #[test]
    fn any_line_reads_without_panicking_and_an_order_reads_the_same_from_its_canonical_text(
        line in prop_oneof!["\\PC{0,60}", "([0-9]{1,2}[A-Za-zé]|at|to|engage|joint|hold|transfer to|intercept|[ :;>(),\\-é’]){0,16}"],
    ) {
        match parse_line(&line, 7, "Gazetzot") {
            Err(error) => {
                prop_assert_eq!(error.line, 7);
                prop_assert!(error.column >= 1 && error.column <= line.chars().count() + 1, "{} in {:?}", error, line);
            }
            Ok((army, order)) => {
                let canonical = format!("{army}: {}", format_body(&order));
                prop_assert_eq!(parse_line(&canonical, 1, "Gazetzot"), Ok((army, order)), "{:?} as {:?}", line, canonical);
            }
        }
    }

    #[test]
    fn text_in_seed_shapes_reads_back_unchanged_after_formatting(
        from in square(), to in square(), name in army_name(), keyword in "(engage|REPLACE|Replace)",
    ) {
        let line = format!("{name}: {from} > {to}; {keyword} {name}");
        let (army, order) = parse_line(&line, 1, "x").map_err(|e| TestCaseError::fail(e.to_string()))?;
        let posted = PostedOrder {
            army, order, posted_by: "x".into(),
            posted_at: Utc.with_ymd_and_hms(2004, 3, 1, 0, 0, 0).single().expect("a time"),
            post: "p".into(), line: 0, private: false, uncontrolled: false,
        };
        prop_assert_eq!(format_order(&posted), line.replace("REPLACE", "replace").replace("Replace", "replace"));
    }
}
