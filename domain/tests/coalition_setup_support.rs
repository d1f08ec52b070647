//! Shared helpers for the coalition setup tests: squares, a legal standard map, troop lines,
//! armies and players written the seed's way.
#![allow(dead_code)]

use herald_domain::coalition::{
    army::{Army, Color, RankClass, Team, TroopLine},
    map::{Faction, Map, Site, SiteKind, Square},
    rank::Rank,
    setup::Player,
};

/// A square written the seed's way (`14H`).
pub fn sq(text: &str) -> Square {
    match Square::parse(text) {
        Ok(square) => square,
        Err(error) => panic!("{error}"),
    }
}

/// A site on `square` that has not been destroyed.
pub fn site(name: &str, square: &str, kind: SiteKind, win_condition: bool) -> Site {
    Site { name: name.into(), square: sq(square), kind, destroyed: false, win_condition, description: String::new() }
}

/// The seven faction colors, in the order the seed lists them (§1.1.2).
pub const FACTIONS: [Faction; 7] = [
    Faction::Red,
    Faction::White,
    Faction::Blue,
    Faction::Green,
    Faction::Black,
    Faction::FiveColor,
    Faction::Colorless,
];

/// A legal map for a full round: 5 portals in rows 2–6, 7 bases in rows 30–36 (the first five
/// named win conditions), 3 towns in the middle rows (seed 003 §2.5.1).
pub fn standard_map() -> Map {
    let mut map = Map::default();
    let portals = ["2B", "4E", "3H", "6K", "2M"];
    for (n, square) in portals.iter().enumerate() {
        add(&mut map, site(&format!("Portal {}", n + 1), square, SiteKind::Portal, true));
    }
    let bases = ["30A", "32C", "34E", "36G", "34I", "32K", "30M"];
    for (n, (square, color)) in bases.iter().zip(FACTIONS).enumerate() {
        add(&mut map, site(&format!("{color:?} Base"), square, SiteKind::Base { color }, n < 5));
    }
    for (n, square) in ["18C", "19G", "18L"].iter().enumerate() {
        add(&mut map, site(&format!("Town {}", n + 1), square, SiteKind::Town, false));
    }
    map
}

/// Put `site` on the map under its own square.
pub fn add(map: &mut Map, site: Site) {
    map.sites.insert(site.square, site);
}

/// A full-strength troop line.
pub fn line(creature: &str, colors: &[Color], power: u32, toughness: u32, slot: u8, full: u32) -> TroopLine {
    TroopLine {
        creature: creature.into(),
        colors: colors.to_vec(),
        power,
        toughness,
        variable: false,
        slot,
        full,
        troops: full,
    }
}

/// A `*/*` troop line used at `size`/`size` (seed 003 §2.2.2).
pub fn variable(creature: &str, colors: &[Color], size: u32, slot: u8, full: u32) -> TroopLine {
    TroopLine { variable: true, ..line(creature, colors, size, size, slot, full) }
}

/// An army with the given troop lines and no legend.
pub fn army(name: &str, team: Team, rank: RankClass, colors: &[Faction], troops: Vec<TroopLine>) -> Army {
    Army { name: name.into(), team, rank, creator: Some(name.into()), colors: colors.to_vec(), legend: None, troops }
}

/// A full Centurion/Lt army of four red creatures and an artifact (members of Red and Colorless).
pub fn red_lieutenant(name: &str) -> Army {
    army(
        name,
        Team::Coalition,
        RankClass::CenturionLieutenant,
        &[Faction::Red, Faction::Colorless],
        vec![
            line("Kris Mage", &[Color::Red], 1, 1, 0, 5000),
            line("Mogg Fanatic", &[Color::Red], 1, 1, 1, 2500),
            line("Goblin Chieftain", &[Color::Red], 2, 2, 2, 1000),
            line("Ornithopter", &[Color::Artifact], 0, 2, 2, 500),
            line("Hill Giant", &[Color::Red], 3, 3, 3, 1000),
        ],
    )
}

/// A full Centurion/Lt Phyrexian army.
pub fn phyrexian_centurion(name: &str) -> Army {
    army(
        name,
        Team::Phyrexia,
        RankClass::CenturionLieutenant,
        &[],
        vec![
            line("Plague Rats", &[Color::Black], 1, 1, 0, 5000),
            line("Merfolk of the Pearl Trident", &[Color::Blue], 1, 1, 1, 2500),
            line("Phyrexian Walker", &[Color::Artifact], 0, 3, 2, 1500),
            line("Sengir Vampire", &[Color::Black], 4, 4, 3, 1000),
        ],
    )
}

/// A Phyrexian player.
pub fn phyrexian(name: &str, rank: Rank) -> Player {
    Player { name: name.into(), team: Team::Phyrexia, rank, factions: vec![], rank_faction: None }
}

/// A Coalition player holding `rank` in the first of `factions`.
pub fn coalitioner(name: &str, rank: Rank, factions: &[Faction]) -> Player {
    Player {
        name: name.into(),
        team: Team::Coalition,
        rank,
        factions: factions.to_vec(),
        rank_faction: factions.first().copied(),
    }
}

/// The code of an expected refusal.
pub fn code<T: std::fmt::Debug>(result: Result<T, herald_domain::RuleError>) -> String {
    match result {
        Ok(value) => panic!("expected a refusal, got {value:?}"),
        Err(error) => {
            assert!(error.rule.starts_with("seed 003 §"), "rule reference: {}", error.rule);
            error.code
        }
    }
}
