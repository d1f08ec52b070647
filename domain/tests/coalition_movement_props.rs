//! Invariants of movement adjudication over random small maps, armies and orders (seed 003
//! §3.2.2.1 range, §3.3.1 no friendly sharing outside §3.2.5, no army lost, replay determinism).
#![allow(clippy::unwrap_used)]

#[path = "coalition_movement_support.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};

use herald_domain::coalition::{
    army::{RankClass, Team},
    map::{Map, MapBounds, Square},
    movement::{adjudicate, shortest_routes, ArmyPosition, MovementOutcome},
    orders::{Annotation, Leg, Order, PostedOrder},
};
use proptest::prelude::*;
use support::{at, tape};

/// One army's draw: team, square index, in battle, order kind, target, destination, route
/// choice, annotation, minute, post.
type ArmyDraw = (u8, u16, u8, u8, u16, u16, u8, u8, i64, u8);

fn scenario() -> impl Strategy<Value = (u8, u8, Vec<ArmyDraw>, u8)> {
    let army =
        (0u8..3, any::<u16>(), 0u8..10, 0u8..8, any::<u16>(), any::<u16>(), any::<u8>(), 0u8..6, 0i64..4, 0u8..3);
    (1u8..=6, 1u8..=8, prop::collection::vec(army, 0..16), any::<u8>())
}

fn square_at(bounds: MapBounds, index: u16) -> Square {
    let count = u16::from(bounds.columns) * u16::from(bounds.rows);
    let index = index % count;
    Square {
        row: u8::try_from(index / u16::from(bounds.columns)).unwrap() + 1,
        column: u8::try_from(index % u16::from(bounds.columns)).unwrap(),
    }
}

fn build(columns: u8, rows: u8, draws: &[ArmyDraw]) -> (Map, Vec<ArmyPosition>, Vec<PostedOrder>) {
    let map = Map { bounds: MapBounds { columns, rows }, ..Map::default() };
    let mut taken = BTreeSet::new();
    let mut armies = Vec::new();
    let mut picks = Vec::new();
    for draw in draws {
        let square = square_at(map.bounds, draw.1);
        if taken.insert(square) {
            let team = [Team::Coalition, Team::Phyrexia, Team::Mercenary][usize::from(draw.0)];
            let rank = if draw.7 == 5 { RankClass::EvincarCaptain } else { RankClass::CenturionLieutenant };
            let name = format!("army{}", armies.len());
            armies.push(ArmyPosition { name, team, rank, square, in_battle: draw.2 == 0 });
            picks.push(*draw);
        }
    }
    let orders = armies.iter().zip(&picks).filter_map(|(army, draw)| order(&map, &armies, army, draw)).collect();
    (map, armies, orders)
}

fn order(map: &Map, armies: &[ArmyPosition], army: &ArmyPosition, draw: &ArmyDraw) -> Option<PostedOrder> {
    let (_, _, _, kind, target, dest, route_pick, note, minute, post) = *draw;
    let order = match kind {
        0 => return None,
        1 => Order::Hold,
        2 => Order::Intercept { target: armies[usize::from(target) % armies.len()].name.clone() },
        _ => {
            let to = square_at(map.bounds, dest);
            let routes = shortest_routes(army.square, to);
            let route = (route_pick % 3 == 0 && army.square.distance(to) <= 3)
                .then(|| routes[usize::from(route_pick) % routes.len()].clone());
            let annotation = (note < 2).then_some(Annotation::JointEngage);
            let first = Leg { from: army.square, to, route, annotation };
            let mut legs = vec![first];
            if kind == 7 {
                legs.push(Leg { from: to, to: square_at(map.bounds, dest / 7), route: None, annotation: None });
            }
            Order::Move { legs }
        }
    };
    Some(PostedOrder {
        army: army.name.clone(),
        order,
        posted_by: "player".into(),
        posted_at: at(minute),
        post: format!("post{post}"),
        line: u32::from(target % 4),
        private: false,
        uncontrolled: false,
    })
}

fn check(armies: &[ArmyPosition], outcome: &MovementOutcome) -> Result<(), TestCaseError> {
    prop_assert_eq!(outcome.positions.len(), armies.len(), "an army was lost");
    let start: BTreeMap<&str, &ArmyPosition> = armies.iter().map(|army| (army.name.as_str(), army)).collect();
    let joint: BTreeSet<Square> = outcome.engagements.iter().filter(|e| e.joint).map(|e| e.square).collect();
    prop_assert!(joint.len() <= 1, "one joint engagement a turn: {:?}", joint);
    let mut per_square: BTreeMap<Square, Vec<&ArmyPosition>> = BTreeMap::new();
    for position in &outcome.positions {
        let army = start.get(position.army.as_str()).copied();
        prop_assert!(army.is_some(), "unknown army {}", position.army);
        let army = army.unwrap();
        prop_assert!(army.square.distance(position.square) <= 3, "{} moved too far", army.name);
        if army.in_battle {
            prop_assert_eq!(army.square, position.square, "an army in battle moved");
        }
        per_square.entry(position.square).or_default().push(army);
    }
    for (square, here) in per_square {
        let mut teams: BTreeMap<String, usize> = BTreeMap::new();
        for army in &here {
            *teams.entry(format!("{:?}", army.team)).or_default() += 1;
        }
        prop_assert!(teams.len() <= 2, "three teams on {}", square);
        for (team, count) in teams {
            let allowed = if joint.contains(&square) { 2 } else { 1 };
            prop_assert!(count <= allowed, "{} {} armies share {}", count, team, square);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn adjudication_keeps_friends_apart_moves_at_most_3_loses_nobody_and_replays((columns, rows, draws, seed) in scenario()) {
        let (map, armies, orders) = build(columns, rows, &draws);
        let outcome = adjudicate(&map, &armies, &orders, &mut tape(seed)).unwrap();
        check(&armies, &outcome)?;
        let again = adjudicate(&map, &armies, &orders, &mut tape(seed)).unwrap();
        prop_assert_eq!(&again, &outcome, "same tape, same outcome");
        let (mut reversed_armies, mut reversed_orders) = (armies.clone(), orders.clone());
        reversed_armies.reverse();
        reversed_orders.reverse();
        let shuffled = adjudicate(&map, &reversed_armies, &reversed_orders, &mut tape(seed)).unwrap();
        prop_assert_eq!(&shuffled, &outcome, "input order does not matter");
    }
}
