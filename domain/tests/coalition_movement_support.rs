//! Helpers for the movement tests: armies and orders written the seed's way, and outcomes
//! printed as short sentences to compare against.
#![allow(dead_code, clippy::unwrap_used)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use herald_domain::{
    coalition::{
        army::{RankClass, Team},
        map::{Map, MapBounds, Square},
        movement::{adjudicate, ArmyPosition, Attack, EngagementReport, MovementOutcome},
        orders::{Annotation, Leg, Order, PostedOrder},
    },
    dice::DiceTape,
};

/// A square from `14H`.
pub fn sq(text: &str) -> Square {
    Square::parse(text).unwrap()
}

/// An army from `C Sai Rei @3D`: team letter (C, P, M), `!` after it when in battle last turn,
/// `:captain` after it for a Captain-rank army.
pub fn army(spec: &str) -> ArmyPosition {
    let (head, square) = spec.rsplit_once('@').unwrap();
    let (tag, name) = head.trim().split_once(' ').unwrap();
    let team = match &tag[..1] {
        "C" => Team::Coalition,
        "P" => Team::Phyrexia,
        _ => Team::Mercenary,
    };
    let rank = if tag.contains(":captain") { RankClass::EvincarCaptain } else { RankClass::CenturionLieutenant };
    ArmyPosition { name: name.trim().to_string(), team, rank, square: sq(square), in_battle: tag.contains('!') }
}

/// The time of a post, `minute` minutes after the lock of turn 1.
pub fn at(minute: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2001, 3, 1, 5, 0, 0).unwrap() + Duration::minutes(minute)
}

/// An order from `Sai Rei: 3D > 5E (3D - 4D - 5D - 5E) > 8E; engage X`, `X: hold`,
/// `X: intercept Y` or `X: transfer to Y at 5E`, posted in `post` at `minute`, line `line`.
pub fn order(post: &str, minute: i64, line: u32, text: &str) -> PostedOrder {
    let (army, body) = text.split_once(':').unwrap();
    let body = body.trim();
    let lower = body.to_lowercase();
    let order = if lower == "hold" {
        Order::Hold
    } else if let Some(target) = lower.strip_prefix("intercept ") {
        Order::Intercept { target: body[body.len() - target.len()..].trim().to_string() }
    } else if lower.starts_with("transfer to ") {
        let (to, at) = body["transfer to ".len()..].rsplit_once(" at ").unwrap();
        Order::Transfer { to: to.to_string(), at: sq(at), troops: Vec::new() }
    } else {
        Order::Move { legs: legs(body) }
    };
    PostedOrder {
        army: army.trim().to_string(),
        order,
        posted_by: "player".into(),
        posted_at: at(minute),
        post: post.to_string(),
        line,
        private: false,
        uncontrolled: false,
    }
}

fn legs(body: &str) -> Vec<Leg> {
    let (moves, annotation) = match body.split_once(';') {
        Some((moves, note)) => (moves, annotation(note.trim())),
        None => (body, None),
    };
    let stops: Vec<&str> = moves.split('>').map(str::trim).collect();
    let mut legs: Vec<Leg> = stops
        .windows(2)
        .map(|pair| {
            let from = sq(pair[0].split('(').next().unwrap());
            let (to, route) = match pair[1].split_once('(') {
                Some((to, route)) => {
                    let route = route.trim_end_matches(')').split('-').map(|step| sq(step.trim())).collect();
                    (sq(to), Some(route))
                }
                None => (sq(pair[1]), None),
            };
            Leg { from, to, route, annotation: None }
        })
        .collect();
    if let Some(last) = legs.last_mut() {
        last.annotation = annotation;
    }
    legs
}

fn annotation(note: &str) -> Option<Annotation> {
    let lower = note.to_lowercase();
    if lower == "joint engage" {
        Some(Annotation::JointEngage)
    } else if let Some(army) = lower.strip_prefix("engage ") {
        Some(Annotation::Engage(note[note.len() - army.len()..].to_string()))
    } else {
        lower.strip_prefix("replace ").map(|army| Annotation::Replace(note[note.len() - army.len()..].to_string()))
    }
}

/// Orders from `post minute text` lines; the line number counts orders earlier in the same post.
pub fn orders(lines: &[&str]) -> Vec<PostedOrder> {
    let mut out: Vec<PostedOrder> = Vec::new();
    for spec in lines {
        let mut parts = spec.splitn(3, ' ');
        let (post, minute, text) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        let line = u32::try_from(out.iter().filter(|order| order.post == post).count()).unwrap();
        out.push(order(post, minute.parse().unwrap(), line, text));
    }
    out
}

/// A seeded tape.
pub fn tape(seed: u8) -> DiceTape {
    DiceTape::new([seed; 32], 0)
}

/// Adjudicate on the default 14 × 38 map with tape seed 7.
pub fn run(armies: &[&str], lines: &[&str]) -> MovementOutcome {
    run_on(&Map::default(), armies, lines)
}

/// Adjudicate on `map` with tape seed 7.
pub fn run_on(map: &Map, armies: &[&str], lines: &[&str]) -> MovementOutcome {
    let armies: Vec<ArmyPosition> = armies.iter().map(|spec| army(spec)).collect();
    adjudicate(map, &armies, &orders(lines), &mut tape(7)).unwrap()
}

/// A map of `columns` × `rows`.
pub fn small_map(columns: u8, rows: u8) -> Map {
    Map { bounds: MapBounds { columns, rows }, ..Map::default() }
}

/// Where `army` ended.
pub fn position(outcome: &MovementOutcome, army: &str) -> String {
    outcome.positions.iter().find(|at| at.army == army).map(|at| at.square.to_string()).unwrap_or_default()
}

/// `army`'s outcome kind (`moved`, `partial`, `intercepted`, ...).
pub fn kind(outcome: &MovementOutcome, army: &str) -> String {
    let line = outcome.report.iter().find(|line| line.army == army).unwrap();
    serde_json::to_value(&line.outcome).unwrap()["kind"].as_str().unwrap().to_string()
}

/// An engagement as a sentence: `5E: A attacks B`, `5E: A+B attack C`, `5E: no attacker A v B`.
pub fn describe(engagement: &EngagementReport) -> String {
    let square = engagement.square;
    match &engagement.attack {
        Attack::Attacks { attackers, defenders } => {
            let verb = if attackers.len() > 1 { "attack" } else { "attacks" };
            format!("{square}: {} {verb} {}", attackers.join("+"), defenders.join("+"))
        }
        Attack::NoAttacker => {
            let sides: Vec<String> = engagement.sides.iter().map(|side| side.armies.join("+")).collect();
            format!("{square}: no attacker {}", sides.join(" v "))
        }
    }
}

/// All engagements as sentences.
pub fn battles(outcome: &MovementOutcome) -> Vec<String> {
    outcome.engagements.iter().map(describe).collect()
}
