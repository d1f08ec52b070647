//! Movement adjudication at campaign scale (seed 003 ch. 3): one turn of random orders for many
//! armies. The default 14 × 38 map has 532 squares and an army not in battle never shares one
//! with a friend (§3.3.1), so it holds at most 532 such armies per team layout; 1,000 armies are
//! benchmarked on a 26 × 76 map and 500 on the default map. A baseline measured in the same run
//! (sorting the armies by name and indexing them, the least any adjudication must do) puts the
//! figures in proportion to the machine.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use criterion::Criterion;
use herald_domain::coalition::{
    army::{RankClass, Team},
    map::{Map, MapBounds, Square},
    movement::{adjudicate, ArmyPosition},
    orders::{Annotation, Leg, Order, PostedOrder},
};
use herald_domain::dice::DiceTape;

/// A small deterministic generator for the scenario (not the game's dice).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// `count` armies on distinct squares of a `columns` × `rows` map, each with a random order:
/// mostly moves of up to 3 steps (unrouted, so routes are drawn), some holds, intercepts and
/// Joint Engages.
fn scenario(columns: u8, rows: u8, count: usize) -> (Map, Vec<ArmyPosition>, Vec<PostedOrder>) {
    let map = Map { bounds: MapBounds { columns, rows }, ..Map::default() };
    let mut rng = Lcg(count as u64);
    let mut squares: Vec<Square> = map.bounds.squares().collect();
    let mut armies = Vec::with_capacity(count);
    for index in 0..count {
        let pick = rng.next(squares.len() as u64) as usize;
        let square = squares.swap_remove(pick);
        let team = [Team::Coalition, Team::Phyrexia, Team::Coalition, Team::Phyrexia, Team::Mercenary][index % 5];
        armies.push(ArmyPosition {
            name: format!("army {index:04}"),
            team,
            rank: RankClass::CenturionLieutenant,
            square,
            in_battle: rng.next(20) == 0,
        });
    }
    let orders = armies.iter().enumerate().map(|(index, army)| order(&map, &armies, army, index, &mut rng)).collect();
    (map, armies, orders)
}

fn order(map: &Map, armies: &[ArmyPosition], army: &ArmyPosition, index: usize, rng: &mut Lcg) -> PostedOrder {
    let order = match rng.next(10) {
        0 => Order::Hold,
        1 => Order::Intercept { target: armies[rng.next(armies.len() as u64) as usize].name.clone() },
        roll => {
            let to = loop {
                let (dr, dc) = (rng.next(7) as i16 - 3, rng.next(7) as i16 - 3);
                let (row, column) = (i16::from(army.square.row) + dr, i16::from(army.square.column) + dc);
                let (Ok(row), Ok(column)) = (u8::try_from(row), u8::try_from(column)) else { continue };
                let to = Square { row, column };
                if map.contains(to) && army.square.distance(to) <= 3 {
                    break to;
                }
            };
            let annotation = (roll == 2).then_some(Annotation::JointEngage);
            Order::Move { legs: vec![Leg { from: army.square, to, route: None, annotation }] }
        }
    };
    PostedOrder {
        army: army.name.clone(),
        order,
        posted_by: "player".into(),
        posted_at: Utc.with_ymd_and_hms(2001, 3, 1, 5, 0, 0).unwrap() + chrono::Duration::minutes(rng.next(600) as i64),
        post: format!("post {}", index % 37),
        line: (index / 37) as u32,
        private: false,
        uncontrolled: false,
    }
}

fn baseline(armies: &[ArmyPosition]) -> usize {
    let mut sorted: Vec<&ArmyPosition> = armies.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let index: BTreeMap<&str, usize> = sorted.iter().enumerate().map(|(id, army)| (army.name.as_str(), id)).collect();
    index.len()
}

fn mean(iterations: u32, mut run: impl FnMut()) -> Duration {
    run();
    let started = Instant::now();
    for _ in 0..iterations {
        run();
    }
    started.elapsed() / iterations
}

fn main() {
    let cases = [("500 armies on the default 14x38 map", 14, 38, 500), ("1000 armies on a 26x76 map", 26, 76, 1000)];
    let mut criterion = Criterion::default().configure_from_args();
    for (label, columns, rows, count) in cases {
        let (map, armies, orders) = scenario(columns, rows, count);
        let outcome = adjudicate(&map, &armies, &orders, &mut DiceTape::new([9; 32], 0)).unwrap();
        let partial = outcome.report.iter().filter(|line| line.reason.contains("partial")).count();
        let time = mean(20, || {
            black_box(adjudicate(&map, &armies, &orders, &mut DiceTape::new([9; 32], 0)).unwrap());
        });
        let base = mean(200, || {
            black_box(baseline(&armies));
        });
        println!(
            "movement: {label}: {:.2} ms per adjudication ({:.0}x the sort-and-index baseline of {:.3} ms); \
             {} engagements, {partial} partial moves, {} draws; goal < 50 ms",
            time.as_secs_f64() * 1e3,
            time.as_secs_f64() / base.as_secs_f64().max(1e-9),
            base.as_secs_f64() * 1e3,
            outcome.engagements.len(),
            outcome.draws.len(),
        );
        criterion.bench_function(&format!("movement/adjudicate {label}"), |bencher| {
            bencher.iter(|| adjudicate(&map, &armies, &orders, &mut DiceTape::new([9; 32], 0)).unwrap())
        });
        criterion.bench_function(&format!("movement/baseline {label}"), |bencher| bencher.iter(|| baseline(&armies)));
    }
    criterion.final_summary();
}
