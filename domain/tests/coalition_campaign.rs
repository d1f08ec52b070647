//! A small campaign round played through the decider: setup, orders in the seed's text format,
//! lock, adjudication with a battle announced, the battle's result applied next turn and the
//! loser bumped (seed 003 §2.5, §3.1–3.3, §4.2.5).

use chrono::{DateTime, TimeZone, Utc};
use herald_domain::{
    coalition::{
        army::{Army, Color, RankClass, Team, TroopLine},
        battle::SideId,
        campaign::{
            ArmyEntry, BattleResult, BattleSideResult, CampaignCommand, CampaignEvent, CampaignOptions, CampaignState,
            CoalitionCampaign, Start,
        },
        map::{Faction, Map, Square},
    },
    dice::DiceTape,
    Actor, Context, Decider, Role,
};

fn at(hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, hour, 0, 0).single().expect("a valid time")
}

fn sq(text: &str) -> Square {
    Square::parse(text).expect("a square")
}

fn army(name: &str, team: Team, colors: Vec<Faction>, creature: &str, color: Color) -> Army {
    Army {
        name: name.into(),
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

struct Round {
    state: CampaignState,
    events: Vec<CampaignEvent>,
}

impl Round {
    fn run(
        &mut self,
        command: CampaignCommand,
        actor: Actor,
        time: DateTime<Utc>,
    ) -> Result<Vec<CampaignEvent>, String> {
        let dice = DiceTape::new([9; 32], self.state.next_word);
        let mut ctx = Context { stream: "campaign-test".into(), actor, recorded_at: time, dice };
        let events = CoalitionCampaign::decide(&self.state, &command, &mut ctx).map_err(|e| e.code)?;
        for event in &events {
            CoalitionCampaign::evolve(&mut self.state, event);
        }
        self.events.extend(events.clone());
        Ok(events)
    }
}

fn judge() -> Actor {
    Actor::new("judge", Role::Judge)
}

fn setup() -> Round {
    let proxy_colors = vec![Faction::Red, Faction::Green, Faction::Blue];
    let armies = vec![
        ArmyEntry {
            army: army("Sai Rei", Team::Coalition, proxy_colors, "Kris Mage", Color::Red),
            controllers: vec!["alice".into()],
            start: Start::Square { square: sq("5E") },
        },
        ArmyEntry {
            army: army("Plague Host", Team::Phyrexia, vec![], "Phyrexian Broodling", Color::Black),
            controllers: vec!["bob".into()],
            start: Start::Square { square: sq("9E") },
        },
    ];
    let mut round = Round { state: CampaignState::default(), events: Vec::new() };
    round
        .run(
            CampaignCommand::CreateCampaign {
                name: "Round 1".into(),
                map: Map::default(),
                players: vec![],
                armies,
                options: CampaignOptions {
                    enforce_army_counts: false,
                    enforce_site_counts: false,
                    ..Default::default()
                },
                seed_commitment: "00".repeat(32),
                positions_record: herald_domain::coalition::campaign::PositionsRecord::BeyondReports,
                mercenaries: vec![],
                interval_commitment: None,
            },
            judge(),
            at(8),
        )
        .expect("created");
    round
}

#[test]
fn a_turn_of_text_orders_moves_armies_and_announces_the_battle_they_meet_in() {
    let mut round = setup();
    round.run(CampaignCommand::OpenTurn { deadline: at(20), turn_key: None }, judge(), at(9)).expect("opened");
    // seed 003 §3.2.2.5: "Sai Rei: 5E > 8E"; Plague Host steps into 8E too: a no-attacker battle.
    let alice = Actor::player("token:a", "alice");
    let post = CampaignCommand::PostOrders {
        text: Some("Sai Rei: 5E > 8E".into()),
        orders: vec![],
        private: false,
        on_behalf_of: None,
    };
    round.run(post, alice.clone(), at(10)).expect("alice posts");
    let bob = Actor::player("token:b", "bob");
    let post = CampaignCommand::PostOrders {
        text: Some("Plague Host: 9E > 8E".into()),
        orders: vec![],
        private: true,
        on_behalf_of: None,
    };
    round.run(post, bob, at(11)).expect("bob posts privately");
    // A player may not order an army they do not control (seed 003 §5.2.1).
    let stolen = CampaignCommand::PostOrders {
        text: Some("Plague Host: 9E > 9F".into()),
        orders: vec![],
        private: false,
        on_behalf_of: None,
    };
    assert_eq!(round.run(stolen, alice, at(12)).expect_err("refused"), "coalition.campaign.not_controller");
    round.run(CampaignCommand::LockTurn, judge(), at(21)).expect("locked");
    let events = round
        .run(CampaignCommand::AdjudicateTurn { battle_results: vec![], interval_seed: None }, judge(), at(21))
        .expect("adjudicated");
    assert_eq!(round.state.armies["Sai Rei"].square, sq("8E"));
    assert_eq!(round.state.armies["Plague Host"].square, sq("8E"));
    let announced = events.iter().find_map(|e| match e {
        CampaignEvent::BattleAnnounced { battle, automatic, .. } => Some((battle.clone(), *automatic)),
        _ => None,
    });
    let (battle, automatic) = announced.expect("a battle is announced");
    assert!(automatic && battle.starts_with("battle-"));

    // Next turn: the battle's result is applied, the loser is bumped to an empty square next to it.
    round.run(CampaignCommand::OpenTurn { deadline: at(23), turn_key: None }, judge(), at(22)).expect("opened");
    round.run(CampaignCommand::LockTurn, judge(), at(23)).expect("locked");
    let missing =
        round.run(CampaignCommand::AdjudicateTurn { battle_results: vec![], interval_seed: None }, judge(), at(23));
    assert_eq!(missing.expect_err("refused"), "coalition.campaign.battle_unresolved");
    let result = BattleResult {
        battle: battle.clone(),
        winner: Some(SideId::A),
        sides: vec![
            BattleSideResult {
                army: "Sai Rei".into(),
                side: SideId::A,
                losses: vec![500],
                killed: false,
                killed_by_attempt: false,
                captured_by: None,
            },
            BattleSideResult {
                army: "Plague Host".into(),
                side: SideId::B,
                losses: vec![1200],
                killed: false,
                killed_by_attempt: false,
                captured_by: None,
            },
        ],
        departure: None,
        withdrawn: vec![],
    };
    round
        .run(CampaignCommand::AdjudicateTurn { battle_results: vec![result], interval_seed: None }, judge(), at(23))
        .expect("adjudicated");
    assert_eq!(round.state.armies["Sai Rei"].army.troops[0].troops, 3500);
    assert_eq!(round.state.armies["Plague Host"].army.troops[0].troops, 2800);
    let loser = round.state.armies["Plague Host"].square;
    assert_eq!(loser.distance(sq("8E")).min(2), loser.distance(sq("8E")), "bumped next to the battle");
    assert_ne!(loser, sq("8E"));
    assert!(round.state.battles[&battle].applied);
}

#[test]
fn replaying_the_events_gives_the_same_state() {
    let mut round = setup();
    round.run(CampaignCommand::OpenTurn { deadline: at(20), turn_key: None }, judge(), at(9)).expect("opened");
    let alice = Actor::player("token:a", "alice");
    let post = CampaignCommand::PostOrders {
        text: Some("Sai Rei: 5E > 5F > 5I".into()),
        orders: vec![],
        private: false,
        on_behalf_of: None,
    };
    round.run(post, alice, at(10)).expect("a long move");
    round.run(CampaignCommand::LockTurn, judge(), at(21)).expect("locked");
    round
        .run(CampaignCommand::AdjudicateTurn { battle_results: vec![], interval_seed: None }, judge(), at(21))
        .expect("adjudicated");
    assert_eq!(round.state.armies["Sai Rei"].square, sq("5F"));
    assert_eq!(round.state.armies["Sai Rei"].long_move.len(), 1, "the second leg waits for next turn (§3.2.2.3)");
    let replayed = CoalitionCampaign::fold(round.events.iter());
    assert_eq!(replayed, round.state);
}

#[test]
fn troops_change_only_after_two_days_in_a_base_the_army_heals_at_seed_003_2_3_2() {
    use herald_domain::coalition::map::{Site, SiteKind};
    let base = sq("20K");
    let mut map = Map::default();
    let site = Site {
        name: "Red Base".into(),
        square: base,
        kind: SiteKind::Base { color: Faction::Red },
        destroyed: false,
        win_condition: true,
        description: String::new(),
    };
    map.sites.insert(base, site);
    let mut round = Round { state: CampaignState::default(), events: Vec::new() };
    let entry = ArmyEntry {
        army: army(
            "Sai Rei",
            Team::Coalition,
            vec![Faction::Red, Faction::Green, Faction::Blue],
            "Kris Mage",
            Color::Red,
        ),
        controllers: vec!["alice".into()],
        start: Start::Square { square: base },
    };
    let create = CampaignCommand::CreateCampaign {
        name: "Round 1".into(),
        map,
        players: vec![],
        armies: vec![entry],
        options: CampaignOptions { enforce_army_counts: false, enforce_site_counts: false, ..Default::default() },
        seed_commitment: "00".repeat(32),
        positions_record: herald_domain::coalition::campaign::PositionsRecord::BeyondReports,
        mercenaries: vec![],
        interval_commitment: None,
    };
    round.run(create, judge(), at(1)).expect("created");
    let new_lines = vec![TroopLine {
        creature: "Grizzly Bears".into(),
        colors: vec![Color::Green],
        power: 2,
        toughness: 2,
        variable: false,
        slot: 0,
        full: 5000,
        troops: 0,
    }];
    let change = CampaignCommand::ChangeTroops { army: "Sai Rei".into(), troops: new_lines.clone(), legend: None };
    let alice = Actor::player("token:a", "alice");
    for (hour, days) in [(2, 1), (5, 2)] {
        let refused = round.run(change.clone(), alice.clone(), at(hour)).expect_err("too early");
        assert!(refused.starts_with("coalition.troops."), "{refused} after {} days", days - 1);
        round
            .run(CampaignCommand::OpenTurn { deadline: at(hour + 1), turn_key: None }, judge(), at(hour))
            .expect("opened");
        round.run(CampaignCommand::LockTurn, judge(), at(hour + 2)).expect("locked");
        round
            .run(CampaignCommand::AdjudicateTurn { battle_results: vec![], interval_seed: None }, judge(), at(hour + 2))
            .expect("adjudicated");
        let counted = round.state.days.armies["Sai Rei"].count.as_ref().expect("counting").days;
        assert_eq!(counted, days);
    }
    round.run(change, alice, at(9)).expect("two days in Red Base: the makeup may change");
    let lines = &round.state.armies["Sai Rei"].army.troops;
    assert_eq!((lines[0].creature.as_str(), lines[0].troops), ("Grizzly Bears", 5000), "new lines at full strength");
}

#[test]
fn a_map_wider_than_the_alphabet_is_refused_because_its_squares_could_not_be_written_seed_003_1_2() {
    use herald_domain::coalition::map::MapBounds;
    let mut round = Round { state: CampaignState::default(), events: Vec::new() };
    let map = Map { bounds: MapBounds { columns: 27, rows: 38 }, ..Map::default() };
    let create = CampaignCommand::CreateCampaign {
        name: "Too wide".into(),
        map,
        players: vec![],
        armies: vec![],
        options: CampaignOptions { enforce_army_counts: false, enforce_site_counts: false, ..Default::default() },
        seed_commitment: "00".repeat(32),
        positions_record: herald_domain::coalition::campaign::PositionsRecord::BeyondReports,
        mercenaries: vec![],
        interval_commitment: None,
    };
    assert_eq!(round.run(create, judge(), at(1)).expect_err("refused"), "coalition.campaign.map_bounds");
}
