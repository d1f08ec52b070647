//! A seeded campaign round for benchmarks and load tests: armies on random squares, random move
//! orders of 1–3 steps, generated battle results. Shared by `domain/benches/campaign.rs` and the
//! service's load test (`api/benches/load.rs`), which drive it through the decider and through
//! the whole service respectively. The randomness is the scenario's, seeded so every run plays
//! the same round; it is not the game's dice.
#![allow(dead_code)]

use std::collections::BTreeMap;

use chrono::{DateTime, TimeZone, Utc};
use herald_domain::coalition::{
    army::{Army, Color, RankClass, Team, TroopLine},
    battle::SideId,
    campaign::{
        ArmyEntry, ArmyOrder, BattleResult, BattleSideResult, CampaignCommand, CampaignOptions, CampaignState,
        PositionsRecord, Start,
    },
    map::{Faction, Map, MapBounds, Square},
    orders::{Annotation, Leg, Order},
};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Armies each player controls (one post per player per turn).
pub const ARMIES_PER_PLAYER: usize = 5;

/// The scenario's randomness (seeded, so every run plays the same round); not the game's dice.
pub struct Scenario(ChaCha8Rng);

impl Scenario {
    /// A scenario seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number below `bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        let bound = u64::try_from(bound.max(1)).expect("a usize fits in a u64");
        usize::try_from(self.0.next_u64() % bound).expect("below a usize bound")
    }
}

/// The player controlling army `index`: armies alternate teams (see [`army`]), and a player
/// controls armies of one team only (seed 003 ch. 5), so even players take the coalition's
/// armies and odd players Phyrexia's, [`ARMIES_PER_PLAYER`] each.
pub fn player(index: usize) -> String {
    format!("player {:03}", (index / (2 * ARMIES_PER_PLAYER)) * 2 + index % 2)
}

/// Turn `turn`'s clock: opened at midnight, orders at 01:00, deadline 12:00, locked and
/// adjudicated at 13:00.
pub fn time(turn: u32, hour: u32) -> DateTime<Utc> {
    let start = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).single().expect("a valid time");
    start + chrono::Duration::days(i64::from(turn)) + chrono::Duration::hours(i64::from(hour))
}

/// A simple valid army (as in `tests/coalition_campaign.rs`): one troop line.
pub fn army(index: usize) -> Army {
    let (team, colors, creature, color) = if index.is_multiple_of(2) {
        (Team::Coalition, vec![Faction::Red, Faction::Green, Faction::Blue], "Kris Mage", Color::Red)
    } else {
        (Team::Phyrexia, Vec::new(), "Phyrexian Broodling", Color::Black)
    };
    Army {
        name: format!("army {index:04}"),
        team,
        rank: RankClass::CplLtCommander,
        creator: None,
        colors,
        legend: None,
        troops: vec![TroopLine {
            creature: creature.into(),
            colors: vec![color],
            power: 1,
            toughness: 1,
            variable: false,
            slot: 0,
            full: 5000,
            troops: 4000,
        }],
    }
}

/// `count` armies, both teams, on distinct random squares of `map`.
pub fn armies_on(map: &Map, count: usize, rng: &mut Scenario) -> Vec<ArmyEntry> {
    let mut squares: Vec<Square> = map.bounds.squares().collect();
    assert!(count <= squares.len(), "{count} armies do not fit on {} squares", squares.len());
    (0..count)
        .map(|index| {
            let square = squares.swap_remove(rng.below(squares.len()));
            ArmyEntry { army: army(index), controllers: vec![player(index)], start: Start::Square { square } }
        })
        .collect()
}

/// The round's set-up: `count` armies on random squares of `map` (no roster, the army and site
/// counts not enforced), the root seed committed to as `seed_commitment`, movement recorded as
/// `record` says.
pub fn set_up(
    name: &str,
    map: &Map,
    count: usize,
    rng: &mut Scenario,
    seed_commitment: String,
    record: PositionsRecord,
) -> CampaignCommand {
    CampaignCommand::CreateCampaign {
        name: name.into(),
        map: map.clone(),
        players: Vec::new(),
        armies: armies_on(map, count, rng),
        options: CampaignOptions { enforce_army_counts: false, enforce_site_counts: false, ..Default::default() },
        seed_commitment,
        positions_record: record,
        mercenaries: Vec::new(),
        interval_commitment: None,
    }
}

/// Random orders for every army not in a battle: mostly moves of 1–3 steps (unrouted, so the
/// adjudicator draws routes), annotated as the destination requires when posted (§3.2.2.2), some
/// holds and intercepts. Grouped by controlling player.
pub fn random_orders(state: &CampaignState, rng: &mut Scenario) -> BTreeMap<String, Vec<ArmyOrder>> {
    let mut occupants: BTreeMap<Square, Vec<(&str, Team)>> = BTreeMap::new();
    for (name, army) in &state.armies {
        occupants.entry(army.square).or_default().push((name.as_str(), army.army.team));
    }
    let by_team = |team: Team| -> Vec<&str> {
        state.armies.iter().filter(|(_, army)| army.army.team == team).map(|(name, _)| name.as_str()).collect()
    };
    let (coalition, phyrexia) = (by_team(Team::Coalition), by_team(Team::Phyrexia));
    let mut posts: BTreeMap<String, Vec<ArmyOrder>> = BTreeMap::new();
    for (name, army) in state.armies.iter().filter(|(_, army)| army.battle.is_none()) {
        let from = army.square;
        let order = match rng.below(20) {
            0 => Order::Hold,
            1 => {
                let enemies = if army.army.team == Team::Coalition { &phyrexia } else { &coalition };
                match enemies.get(rng.below(enemies.len())) {
                    Some(target) => Order::Intercept { target: (*target).to_string() },
                    None => Order::Hold,
                }
            }
            _ => {
                let to = destination(state.map.bounds, from, rng);
                let there: Vec<&(&str, Team)> = occupants
                    .get(&to)
                    .map(|list| list.iter().filter(|(other, _)| other != name).collect())
                    .unwrap_or_default();
                let enemy = there.iter().find(|(_, team)| *team != army.army.team);
                let annotation = match (enemy, there.first()) {
                    (Some((enemy, _)), _) => Some(Annotation::Engage((*enemy).to_string())),
                    (None, Some((friend, _))) => Some(Annotation::Replace((*friend).to_string())),
                    (None, None) => None,
                };
                Order::Move { legs: vec![Leg { from, to, route: None, annotation }] }
            }
        };
        let controller = army.controllers.iter().next().cloned().unwrap_or_else(|| name.clone());
        posts.entry(controller).or_default().push(ArmyOrder { army: name.clone(), order });
    }
    posts
}

/// A square 1–3 orthogonal steps from `from`, on the map.
pub fn destination(bounds: MapBounds, from: Square, rng: &mut Scenario) -> Square {
    loop {
        let row = i16::from(from.row) + i16::try_from(rng.below(7)).expect("below 7") - 3;
        let column = i16::from(from.column) + i16::try_from(rng.below(7)).expect("below 7") - 3;
        let (Ok(row), Ok(column)) = (u8::try_from(row), u8::try_from(column)) else { continue };
        let to = Square { row, column };
        if bounds.contains(to) && (1..=3).contains(&from.distance(to)) {
            return to;
        }
    }
}

/// A result for every battle awaiting one: side A (the first army's team) wins, small losses.
pub fn battle_results(state: &CampaignState, rng: &mut Scenario) -> Vec<BattleResult> {
    state
        .battles
        .iter()
        .filter(|(_, link)| !link.applied)
        .map(|(battle, link)| {
            let team = |name: &String| state.armies.get(name).map(|army| army.army.team);
            let first = link.armies.first().and_then(team);
            let sides = link
                .armies
                .iter()
                .map(|name| BattleSideResult {
                    army: name.clone(),
                    side: if team(name) == first { SideId::A } else { SideId::B },
                    losses: vec![u32::try_from(1 + rng.below(50)).expect("below 51")],
                    killed: false,
                    killed_by_attempt: false,
                    captured_by: None,
                })
                .collect();
            BattleResult {
                battle: battle.clone(),
                winner: Some(SideId::A),
                sides,
                departure: None,
                withdrawn: Vec::new(),
            }
        })
        .collect()
}
