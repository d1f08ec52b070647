//! Shared helpers for the campaign tests: a small map with portals and colored bases, armies built
//! from the seed's examples, and a `Round` that plays commands through `CoalitionCampaign::decide`
//! and `evolve` on a clock that only moves forward.
#![allow(dead_code)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use herald_domain::{
    coalition::{
        army::{Army, Color, RankClass, Team, TroopLine},
        battle::SideId,
        campaign::{
            mercenaries::MercenaryEntry, ArmyEntry, ArmyOrder, BattleResult, BattleSideResult, CampaignCommand,
            CampaignEvent, CampaignOptions, CampaignState, CoalitionCampaign, Start,
        },
        days::DaysEvent,
        map::{Faction, Map, Site, SiteKind, Square},
        movement::{EngagedSide, MoveReport},
        orders::{select::IgnoredOrder, Order},
        rank::Rank,
        setup::Player,
    },
    dice::DiceTape,
    Actor, Context, Decider, Role, RuleError,
};

/// A square written the seed's way.
pub fn sq(text: &str) -> Square {
    Square::parse(text).unwrap_or_else(|error| panic!("{error}"))
}

/// The Portal of Yawgmoth.
pub const PORTAL: &str = "5E";
/// A second portal, so destroying one does not end the round.
pub const PORTAL_2: &str = "5K";
/// Red Base.
pub const RED_BASE: &str = "30C";
/// Green Base.
pub const GREEN_BASE: &str = "30G";
/// Black Base.
pub const BLACK_BASE: &str = "30K";

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

/// The default 14 × 38 map with two portals and three bases (no base within 3 squares of an
/// enemy one, seed 003 §2.5.1.1).
pub fn map() -> Map {
    let mut map = Map::default();
    for site in [
        site("Portal of Yawgmoth", PORTAL, SiteKind::Portal, true),
        site("Portal of Rath", PORTAL_2, SiteKind::Portal, true),
        site("Red Base", RED_BASE, SiteKind::Base { color: Faction::Red }, true),
        site("Green Base", GREEN_BASE, SiteKind::Base { color: Faction::Green }, true),
        site("Black Base", BLACK_BASE, SiteKind::Base { color: Faction::Black }, false),
    ] {
        map.sites.insert(site.square, site);
    }
    map
}

/// A troop line: `size`/`size` creatures of `colors` in `slot`, `troops` of `full` left.
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

/// A Coalition proxy army of three factions (seed 003 §2.2.1.1).
pub fn coalition(name: &str, rank: RankClass, factions: [Faction; 3], troops: Vec<TroopLine>) -> Army {
    Army {
        name: name.to_string(),
        team: Team::Coalition,
        rank,
        creator: None,
        colors: factions.to_vec(),
        legend: None,
        troops,
    }
}

/// A Phyrexian army (seed 003 §2.2.1: no green or white creatures).
pub fn phyrexian(name: &str, rank: RankClass, troops: Vec<TroopLine>) -> Army {
    Army { name: name.to_string(), team: Team::Phyrexia, rank, creator: None, colors: vec![], legend: None, troops }
}

/// A Red/Green/Blue Coalition army of 5000 Kris Mages at full strength.
pub fn mages(name: &str, rank: RankClass) -> Army {
    let factions = [Faction::Red, Faction::Green, Faction::Blue];
    coalition(name, rank, factions, vec![line("Kris Mage", &[Color::Red], 1, 0, 5000, 5000)])
}

/// A Phyrexian army of 5000 Phyrexian Broodlings at full strength.
pub fn broodlings(name: &str, rank: RankClass) -> Army {
    phyrexian(name, rank, vec![line("Phyrexian Broodling", &[Color::Black], 1, 0, 5000, 5000)])
}

/// The player who controls `army` in these tests: its name in lower case.
pub fn controller(army: &str) -> String {
    army.to_lowercase()
}

/// `army` starting on `square`, controlled by [`controller`].
pub fn on(army: Army, square: &str) -> ArmyEntry {
    let controllers = vec![controller(&army.name)];
    ArmyEntry { army, controllers, start: Start::Square { square: sq(square) } }
}

/// The judge.
pub fn judge() -> Actor {
    Actor::new("judge", Role::Judge)
}

/// A player, signed in as themself.
pub fn player(name: &str) -> Actor {
    Actor::player(format!("token:{name}"), name)
}

/// The start of the round's clock.
pub fn at(hour: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).single().expect("a valid time") + Duration::hours(hour)
}

/// The key of the tests' dice tape.
pub const KEY: [u8; 32] = [9; 32];

/// A campaign round played command by command through the decider.
#[derive(Debug, Clone)]
pub struct Round {
    /// The state after every event so far.
    pub state: CampaignState,
    /// Every event so far.
    pub events: Vec<CampaignEvent>,
    /// The dice key.
    pub key: [u8; 32],
    /// The clock, in hours from [`at`]`(0)`.
    pub hour: i64,
    /// Every command decided, with its actor, time and outcome, for replays.
    pub log: Vec<Logged>,
}

/// A command as it was decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Logged {
    /// The command.
    pub command: CampaignCommand,
    /// Who sent it.
    pub actor: Actor,
    /// When.
    pub time: DateTime<Utc>,
    /// Its events, or the code of its refusal.
    pub outcome: Result<Vec<CampaignEvent>, String>,
}

impl Round {
    /// An empty stream with the given dice key.
    pub fn empty(key: [u8; 32]) -> Self {
        Self { state: CampaignState::default(), events: Vec::new(), key, hour: 0, log: Vec::new() }
    }

    /// A round on `map` with `armies`, options relaxed for a small test round.
    pub fn create(map: Map, armies: Vec<ArmyEntry>) -> Self {
        Self::create_with(KEY, map, armies).expect("the round is set up")
    }

    /// A round on `map` with `armies` and dice key `key`, or why it was refused.
    pub fn create_with(key: [u8; 32], map: Map, armies: Vec<ArmyEntry>) -> Result<Self, String> {
        Self::set_up(key, map, armies, vec![], vec![])
    }

    /// A round with a roster of `players` and `mercenaries`, options relaxed for a small round.
    pub fn set_up(
        key: [u8; 32],
        map: Map,
        armies: Vec<ArmyEntry>,
        players: Vec<Player>,
        mercenaries: Vec<MercenaryEntry>,
    ) -> Result<Self, String> {
        let mut round = Self::empty(key);
        let options = CampaignOptions { enforce_army_counts: false, enforce_site_counts: false, ..Default::default() };
        let create = CampaignCommand::CreateCampaign {
            name: "Round 7".into(),
            map,
            players,
            armies,
            options,
            seed_commitment: "00".repeat(32),
            positions_record: herald_domain::coalition::campaign::PositionsRecord::BeyondReports,
            mercenaries,
            interval_commitment: None,
        };
        round.run(create, judge())?;
        Ok(round)
    }

    /// The time now, advancing the clock by an hour.
    pub fn tick(&mut self) -> DateTime<Utc> {
        self.hour += 1;
        at(self.hour)
    }

    /// Decide `command` at `time` without evolving the state.
    pub fn decide_at(
        &self,
        command: &CampaignCommand,
        actor: Actor,
        time: DateTime<Utc>,
    ) -> Result<Vec<CampaignEvent>, RuleError> {
        let dice = DiceTape::new(self.key, self.state.next_word);
        let mut ctx = Context { stream: "campaign-test".into(), actor, recorded_at: time, dice };
        CoalitionCampaign::decide(&self.state, command, &mut ctx)
    }

    /// Decide `command` at `time` and evolve the state with its events; refusals by code.
    pub fn run_at(
        &mut self,
        command: CampaignCommand,
        actor: Actor,
        time: DateTime<Utc>,
    ) -> Result<Vec<CampaignEvent>, String> {
        let outcome = self.decide_at(&command, actor.clone(), time).map_err(|error| error.code);
        if let Ok(events) = &outcome {
            for event in events {
                CoalitionCampaign::evolve(&mut self.state, event);
            }
            self.events.extend(events.iter().cloned());
        }
        self.log.push(Logged { command, actor, time, outcome: outcome.clone() });
        outcome
    }

    /// The same commands, at the same times, decided again from an empty stream with `key`.
    pub fn replay_log(&self, key: [u8; 32]) -> Round {
        let mut again = Round::empty(key);
        for logged in &self.log {
            // Refusals are part of the log: the replay meets them again.
            let _ = again.run_at(logged.command.clone(), logged.actor.clone(), logged.time);
        }
        again
    }

    /// Decide `command` an hour after the last one.
    pub fn run(&mut self, command: CampaignCommand, actor: Actor) -> Result<Vec<CampaignEvent>, String> {
        let time = self.tick();
        self.run_at(command, actor, time)
    }

    /// Open a turn whose deadline is 12 hours away; returns the deadline.
    pub fn open(&mut self) -> DateTime<Utc> {
        let deadline = at(self.hour + 12);
        self.run(CampaignCommand::OpenTurn { deadline, turn_key: None }, judge()).expect("the turn opens");
        deadline
    }

    /// `poster` posts `text` in the seed's format.
    pub fn post(&mut self, poster: &str, text: &str) -> Result<Vec<CampaignEvent>, String> {
        self.run(posting(Some(text), vec![], false), player(poster))
    }

    /// `poster` posts one structured order.
    pub fn order(&mut self, poster: &str, army: &str, order: Order) -> Result<Vec<CampaignEvent>, String> {
        let orders = vec![ArmyOrder { army: army.to_string(), order }];
        self.run(posting(None, orders, false), player(poster))
    }

    /// Lock the turn after its deadline and adjudicate it with `results`.
    pub fn adjudicate(&mut self, results: Vec<BattleResult>) -> Result<Vec<CampaignEvent>, String> {
        if let herald_domain::coalition::campaign::TurnPhase::Open { deadline } = self.state.phase {
            self.hour = self.hour.max((deadline - at(0)).num_hours());
            self.run(CampaignCommand::LockTurn, judge())?;
        }
        self.run(CampaignCommand::AdjudicateTurn { battle_results: results, interval_seed: None }, judge())
    }

    /// A whole turn: open, each `(player, text)` post, lock, adjudicate with `results`.
    pub fn play(&mut self, posts: &[(&str, &str)], results: Vec<BattleResult>) -> Vec<CampaignEvent> {
        self.open();
        for (poster, text) in posts {
            self.post(poster, text).unwrap_or_else(|code| panic!("{poster} posts {text:?}: refused {code}"));
        }
        self.adjudicate(results).expect("the turn is adjudicated")
    }

    /// A whole turn in which each army's controller posts its own order.
    pub fn play_orders(&mut self, orders: &[&str], results: Vec<BattleResult>) -> Vec<CampaignEvent> {
        let posts: Vec<(String, &str)> =
            orders.iter().map(|text| (controller(text.split(':').next().unwrap_or_default().trim()), *text)).collect();
        let posts: Vec<(&str, &str)> = posts.iter().map(|(poster, text)| (poster.as_str(), *text)).collect();
        self.play(&posts, results)
    }

    /// Where `army` stands.
    pub fn square(&self, army: &str) -> Square {
        self.state.armies.get(army).unwrap_or_else(|| panic!("{army} is on the map")).square
    }

    /// `army`'s troops per line.
    pub fn troops(&self, army: &str) -> Vec<u32> {
        let state = self.state.armies.get(army).unwrap_or_else(|| panic!("{army} is on the map"));
        state.army.troops.iter().map(|line| line.troops).collect()
    }

    /// Folding every event again gives the state the round holds.
    pub fn assert_replays(&self) {
        assert_eq!(CoalitionCampaign::fold(self.events.iter()), self.state, "folding the events gives the state");
    }
}

/// A `PostOrders` command.
pub fn posting(text: Option<&str>, orders: Vec<ArmyOrder>, private: bool) -> CampaignCommand {
    CampaignCommand::PostOrders { text: text.map(str::to_string), orders, private, on_behalf_of: None }
}

/// A battle the campaign announced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announced {
    /// The battle stream.
    pub battle: String,
    /// Where.
    pub square: Square,
    /// The armies of each team.
    pub sides: Vec<EngagedSide>,
    /// A joint engagement.
    pub joint: bool,
    /// Opened automatically.
    pub automatic: bool,
}

impl Announced {
    /// Every army in the battle.
    pub fn armies(&self) -> Vec<String> {
        self.sides.iter().flat_map(|side| side.armies.iter().cloned()).collect()
    }

    /// The result: `winner`'s team wins; each listed army loses its troops (others lose nothing)
    /// and the armies in `killed` are killed. Side A is the first team announced.
    pub fn result(&self, winner: Team, losses: &[(&str, Vec<u32>)], killed: &[&str]) -> BattleResult {
        let side_of =
            |team: Team| if self.sides.first().is_some_and(|side| side.team == team) { SideId::A } else { SideId::B };
        let sides = self
            .sides
            .iter()
            .flat_map(|side| side.armies.iter().map(move |army| (side.team, army)))
            .map(|(team, army)| BattleSideResult {
                army: army.clone(),
                side: side_of(team),
                losses: losses.iter().find(|(name, _)| name == army).map(|(_, lost)| lost.clone()).unwrap_or_default(),
                killed: killed.contains(&army.as_str()),
                killed_by_attempt: false,
                captured_by: None,
            })
            .collect();
        BattleResult {
            battle: self.battle.clone(),
            winner: Some(side_of(winner)),
            sides,
            departure: None,
            withdrawn: vec![],
        }
    }
}

/// The battles announced among `events`.
pub fn announced(events: &[CampaignEvent]) -> Vec<Announced> {
    events
        .iter()
        .filter_map(|event| match event {
            CampaignEvent::BattleAnnounced { battle, square, sides, joint, automatic, .. } => Some(Announced {
                battle: battle.clone(),
                square: *square,
                sides: sides.clone(),
                joint: *joint,
                automatic: *automatic,
            }),
            _ => None,
        })
        .collect()
}

/// The one battle announced among `events`.
pub fn the_battle(events: &[CampaignEvent]) -> Announced {
    let battles = announced(events);
    assert_eq!(battles.len(), 1, "one battle is announced: {battles:?}");
    battles.into_iter().next().expect("one battle")
}

/// The days events among `events`.
pub fn days(events: &[CampaignEvent]) -> Vec<DaysEvent> {
    events
        .iter()
        .filter_map(|event| match event {
            CampaignEvent::Days(event) => Some(event.clone()),
            _ => None,
        })
        .collect()
}

/// The movement report and ignored orders among `events`.
pub fn movement(events: &[CampaignEvent]) -> (Vec<MoveReport>, Vec<IgnoredOrder>) {
    events
        .iter()
        .find_map(|event| match event {
            CampaignEvent::MovementAdjudicated { moves, ignored, .. } => Some((moves.clone(), ignored.clone())),
            _ => None,
        })
        .expect("movement was adjudicated")
}

/// The report line of `army` in `events`.
pub fn report(events: &[CampaignEvent], army: &str) -> MoveReport {
    movement(events).0.into_iter().find(|line| line.army == army).unwrap_or_else(|| panic!("{army} has a line"))
}

/// The `ArmyBumped` events among `events`: army, from, to, pushed.
pub fn bumps(events: &[CampaignEvent]) -> Vec<(String, Square, Square, bool)> {
    events
        .iter()
        .filter_map(|event| match event {
            CampaignEvent::ArmyBumped { army, from, to, pushed, .. } => Some((army.clone(), *from, *to, *pushed)),
            _ => None,
        })
        .collect()
}

/// A roster entry: Phyrexians claim no factions; Coalition players claim Red, Green and Blue and
/// hold their rank in Red.
pub fn roster(name: &str, team: Team, rank: Rank) -> Player {
    let coalition = team == Team::Coalition;
    Player {
        name: name.to_string(),
        team,
        rank,
        factions: if coalition { vec![Faction::Red, Faction::Green, Faction::Blue] } else { vec![] },
        rank_faction: (coalition && !rank.is_leader()).then_some(Faction::Red),
    }
}

/// `army` on `square`, controlled by `controllers`.
pub fn held(army: Army, square: &str, controllers: &[&str]) -> ArmyEntry {
    ArmyEntry {
        army,
        controllers: controllers.iter().map(|c| c.to_string()).collect(),
        start: Start::Square { square: sq(square) },
    }
}

/// The events of one kind among `events`.
pub fn of_kind<T>(events: &[CampaignEvent], pick: impl Fn(&CampaignEvent) -> Option<T>) -> Vec<T> {
    events.iter().filter_map(pick).collect()
}

/// One army's fate in a battle: `(army, side, losses, killed, by attempt, captured by)`.
pub type ArmyFate<'a> = (&'a str, SideId, Vec<u32>, bool, bool, Option<&'a str>);

/// A result in which each army of `armies` has its own fate.
pub fn custom_result(battle: &str, winner: Option<SideId>, armies: &[ArmyFate<'_>]) -> BattleResult {
    BattleResult {
        battle: battle.to_string(),
        winner,
        sides: armies
            .iter()
            .map(|(army, side, losses, killed, by_attempt, captured_by)| BattleSideResult {
                army: army.to_string(),
                side: *side,
                losses: losses.clone(),
                killed: *killed,
                killed_by_attempt: *by_attempt,
                captured_by: captured_by.map(str::to_string),
            })
            .collect(),
        departure: None,
        withdrawn: vec![],
    }
}
