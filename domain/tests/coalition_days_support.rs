//! Shared helpers for the days tests: a small map with a portal, colored bases and a town, armies
//! built from the seed's examples, and a runner that plays turns through `count_turn` and checks
//! that folding the events gives the same state.
#![allow(dead_code)]

use herald_domain::coalition::{
    army::{Army, Color, RankClass, Team, TroopLine},
    days::{count_turn, ArmyTurn, DaysEvent, DaysState, Victory},
    map::{Faction, Map, Site, SiteKind, Square},
};

/// A square written the seed's way.
pub fn sq(text: &str) -> Square {
    Square::parse(text).unwrap_or_else(|error| panic!("{error}"))
}

/// Portal of Yawgmoth.
pub const PORTAL: &str = "5A";
/// A second portal.
pub const PORTAL_2: &str = "5E";
/// Red Base (a win condition).
pub const RED_BASE: &str = "30C";
/// Green Base (a win condition).
pub const GREEN_BASE: &str = "30G";
/// Black Base (not a win condition).
pub const BLACK_BASE: &str = "30K";
/// 5-Color Base.
pub const FIVE_COLOR_BASE: &str = "34C";
/// Colorless Base.
pub const COLORLESS_BASE: &str = "34G";
/// A neutral town.
pub const TOWN: &str = "18G";
/// An open square.
pub const OPEN: &str = "18B";

fn site(name: &str, square: &str, kind: SiteKind, win_condition: bool) -> Site {
    Site {
        name: name.to_string(),
        square: sq(square),
        kind,
        destroyed: false,
        win_condition,
        description: String::new(),
    }
}

/// The test map: two portals, five bases, one town.
pub fn map() -> Map {
    let mut map = Map::default();
    for site in [
        site("Portal of Yawgmoth", PORTAL, SiteKind::Portal, true),
        site("Portal of Rath", PORTAL_2, SiteKind::Portal, true),
        site("Red Base", RED_BASE, SiteKind::Base { color: Faction::Red }, true),
        site("Green Base", GREEN_BASE, SiteKind::Base { color: Faction::Green }, true),
        site("Black Base", BLACK_BASE, SiteKind::Base { color: Faction::Black }, false),
        site("5-Color Base", FIVE_COLOR_BASE, SiteKind::Base { color: Faction::FiveColor }, false),
        site("Colorless Base", COLORLESS_BASE, SiteKind::Base { color: Faction::Colorless }, false),
        site("Northtown", TOWN, SiteKind::Town, false),
    ] {
        map.sites.insert(site.square, site);
    }
    map
}

/// Mark the site on `square` destroyed.
pub fn destroy(map: &mut Map, square: &str) {
    if let Some(site) = map.sites.get_mut(&sq(square)) {
        site.destroyed = true;
    }
}

/// A troop line.
pub fn line(creature: &str, colors: &[Color], size: u32, slot: u8, full: u32, troops: u32) -> TroopLine {
    TroopLine {
        creature: creature.to_string(),
        colors: colors.to_vec(),
        power: size,
        toughness: size,
        variable: false,
        slot,
        full,
        troops,
    }
}

/// An army.
pub fn army(name: &str, team: Team, rank: RankClass, colors: &[Faction], troops: Vec<TroopLine>) -> Army {
    Army {
        name: name.to_string(),
        team,
        rank,
        creator: Some(name.to_string()),
        colors: colors.to_vec(),
        legend: None,
        troops,
    }
}

/// The Phyrexian army of §2.3.1.1's example: 4000 of its 5000 smallest troops left.
pub fn phyrexian_example() -> Army {
    army(
        "Vorthos",
        Team::Phyrexia,
        RankClass::CenturionLieutenant,
        &[],
        vec![
            line("Phyrexian Rager", &[Color::Black], 1, 0, 5000, 4000),
            line("Phyrexian Ghoul", &[Color::Black], 2, 1, 2500, 2500),
        ],
    )
}

/// The Coalition army of §2.3.1.2's example: 3000/5000 Kris Mages, 2000/2500 Grizzly Bears.
pub fn kris_mages_example() -> Army {
    army(
        "Sai Rei",
        Team::Coalition,
        RankClass::CenturionLieutenant,
        &[Faction::Red, Faction::Green],
        vec![
            line("Kris Mage", &[Color::Red], 1, 0, 5000, 3000),
            line("Grizzly Bears", &[Color::Green], 2, 1, 2500, 2000),
        ],
    )
}

/// A full-strength army of `team`, `rank` and Coalition `colors`.
pub fn simple(name: &str, team: Team, rank: RankClass, colors: &[Faction]) -> Army {
    army(name, team, rank, colors, vec![line("Soldier", &[Color::Black], 1, 0, 5000, 5000)])
}

/// Plays turns, keeping the state, and checks after each that the events fold into it.
#[derive(Debug, Clone)]
pub struct Campaign {
    /// The map, with sites destroyed as events say.
    pub map: Map,
    /// The days state.
    pub state: DaysState,
    /// Every event so far.
    pub log: Vec<DaysEvent>,
}

impl Campaign {
    /// A campaign on `map`.
    pub fn on(map: Map) -> Self {
        Self { map, state: DaysState::default(), log: Vec::new() }
    }

    /// Count one turn; return its events and victory.
    pub fn turn(&mut self, turns: &[(&Army, ArmyTurn)]) -> (Vec<DaysEvent>, Option<Victory>) {
        let result = count_turn(&self.state, &self.map, turns.iter().map(|(army, turn)| (*army, turn)));
        let mut folded = self.state.clone();
        for event in &result.events {
            folded.apply(event);
            if let DaysEvent::SiteDestroyed { square, .. } = event {
                if let Some(site) = self.map.sites.get_mut(square) {
                    site.destroyed = true;
                }
            }
        }
        assert_eq!(folded, result.state, "folding the events gives the state count_turn returned");
        self.state = result.state;
        self.log.extend(result.events.iter().cloned());
        (result.events, result.victory)
    }

    /// Days of `army`'s healing count.
    pub fn days(&self, army: &str) -> u32 {
        self.state.armies.get(army).and_then(|days| days.count.as_ref()).map_or(0, |count| count.days)
    }

    /// Days of `army`'s siege.
    pub fn siege_days(&self, army: &str) -> u32 {
        self.state.armies.get(army).and_then(|days| days.siege.as_ref()).map_or(0, |siege| siege.days)
    }
}

/// Apply the `ArmyHealed` events of `events` for `army`.
pub fn apply_heals(army: &mut Army, events: &[DaysEvent]) {
    for event in events {
        if let DaysEvent::ArmyHealed { army: name, lines, .. } = event {
            if *name == army.name {
                herald_domain::coalition::days::apply_healing(army, lines);
            }
        }
    }
}

/// Take `losses` off `army`'s lines, as a battle would.
pub fn lose(army: &mut Army, losses: &[u32]) {
    for (line, lost) in army.troops.iter_mut().zip(losses) {
        line.troops = line.troops.saturating_sub(*lost);
    }
}

/// Troops per line.
pub fn troops(army: &Army) -> Vec<u32> {
    army.troops.iter().map(|line| line.troops).collect()
}
