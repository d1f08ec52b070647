//! Kills and captures applied to the round (seed 003 §4.3.3, §4.5), and a winning pair's named
//! departure (§4.4), through `CoalitionCampaign::decide`/`evolve` only.

#[path = "coalition_campaign_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{RankClass, Team},
    battle::{Departure, SideId},
    campaign::{capture::CaptureDestination, CampaignEvent},
    map::{Direction, Faction, Map, Site, SiteKind},
};
use support::*;

/// Sai Rei (Coalition, Red/Green/Blue) attacks Rag (Phyrexia) at 13E; two commanders far away.
fn attack_on_rag(map: Map) -> (Round, Announced) {
    let mut round = Round::create(
        map,
        vec![
            on(mages("Sai Rei", RankClass::CplLtCommander), "12E"),
            on(broodlings("Rag", RankClass::CplLtCommander), "13E"),
            on(broodlings("Vorn", RankClass::CplLtCommander), "27C"),
            on(mages("Gerrard", RankClass::EvincarCaptain), "20A"),
            on(broodlings("Crovax", RankClass::EvincarCaptain), "2A"),
        ],
    );
    let battle = the_battle(&round.play_orders(&["Sai Rei: 12E > 13E; engage Rag"], vec![]));
    (round, battle)
}

fn rag_captured(battle: &Announced) -> herald_domain::coalition::campaign::BattleResult {
    custom_result(
        &battle.battle,
        Some(SideId::B),
        &[
            ("Rag", SideId::A, vec![1000], false, false, Some("Sai Rei")),
            ("Sai Rei", SideId::B, vec![300], false, false, None),
        ],
    )
}

fn captured(events: &[CampaignEvent]) -> Vec<herald_domain::coalition::campaign::capture::ArmyCaptured> {
    of_kind(events, |event| match event {
        CampaignEvent::ArmyCaptured(captured) => Some(captured.clone()),
        _ => None,
    })
}

#[test]
fn a_captured_army_goes_to_the_captors_nearest_unoccupied_base_and_takes_its_color_seed_003_4_5() {
    let (mut round, battle) = attack_on_rag(map());
    let events = round.play_orders(&[], vec![rag_captured(&battle)]);
    let capture = captured(&events);
    assert_eq!(capture.len(), 1, "{events:?}");
    let capture = &capture[0];
    // 30C and 30G are both 19 steps from 13E; the tie goes to the first by row then column.
    assert_eq!((capture.to, capture.destination), (sq(RED_BASE), CaptureDestination::Base));
    let rag = &round.state.armies["Rag"];
    assert_eq!(rag.army.team, Team::Coalition, "controlled by the capturing side");
    assert_eq!(rag.army.colors, vec![Faction::Red], "the captor's color and no secondaries");
    assert_eq!(rag.controllers.iter().cloned().collect::<Vec<_>>(), vec!["sai rei".to_string()]);
    assert_eq!(rag.square, sq(RED_BASE));
    assert_eq!(round.square("Sai Rei"), sq("13E"), "the winner keeps the square");
    assert!(round.state.conversions.contains_key("Rag"), "partially converted");
    assert!(bumps(&events).is_empty(), "nobody retreats: the loser was taken away");
    round.assert_replays();
}

#[test]
fn a_partially_converted_army_counts_two_days_without_moving_then_is_fully_converted_and_healed_seed_003_4_5() {
    let (mut round, battle) = attack_on_rag(map());
    round.play_orders(&[], vec![rag_captured(&battle)]);
    round.open();
    let refused = round.post("sai rei", "Rag: 30C > 29C").expect_err("it must not move");
    assert_eq!(refused, "coalition.campaign.partially_converted");
    round.post("sai rei", "Rag: hold").expect("holding is fine");
    let first = round.adjudicate(vec![]).expect("adjudicated");
    let days = of_kind(&first, |e| match e {
        CampaignEvent::ConversionDayCounted(day) => Some(day.days),
        _ => None,
    });
    assert_eq!(days, vec![1]);
    assert_eq!(round.troops("Rag"), vec![4000], "no healing before the conversion is complete");
    let second = round.play_orders(&[], vec![]);
    let converted = of_kind(&second, |e| match e {
        CampaignEvent::ArmyFullyConverted(done) => Some(done.clone()),
        _ => None,
    });
    assert_eq!(converted.len(), 1);
    assert_eq!(round.troops("Rag"), vec![5000], "two days in a base: healed");
    assert!(!round.state.conversions.contains_key("Rag"));
    round.open();
    round.post("sai rei", "Rag: 30C > 29C").expect("fully converted: it moves like a normal army");
    round.assert_replays();
}

#[test]
fn a_partially_converted_army_that_loses_is_liberated_by_its_former_team_seed_003_4_5() {
    let (mut round, battle) = attack_on_rag(map());
    round.play_orders(&[], vec![rag_captured(&battle)]);
    let attacked = the_battle(&round.play_orders(&["Vorn: 27C > 30C; engage Rag"], vec![]));
    assert_eq!(attacked.square, sq(RED_BASE), "its former team may attack it");
    let result = custom_result(
        &attacked.battle,
        Some(SideId::A),
        &[("Vorn", SideId::A, vec![200], false, false, None), ("Rag", SideId::B, vec![500], false, false, None)],
    );
    let events = round.play_orders(&[], vec![result]);
    let liberated = of_kind(&events, |e| match e {
        CampaignEvent::ArmyLiberated(freed) => Some(freed.clone()),
        _ => None,
    });
    assert_eq!(liberated.len(), 1);
    let rag = &round.state.armies["Rag"];
    assert_eq!(rag.army.team, Team::Phyrexia);
    assert!(rag.army.colors.is_empty(), "its old colors");
    assert_eq!(rag.controllers.iter().cloned().collect::<Vec<_>>(), vec!["rag".to_string()]);
    assert_ne!(rag.square, sq(RED_BASE), "a loser retreats");
    assert!(!round.state.conversions.contains_key("Rag"));
    round.assert_replays();
}

#[test]
fn with_no_open_base_a_captured_army_goes_to_the_nearest_town_else_it_stays_and_the_winner_is_bumped_seed_003_4_5() {
    let mut towns = Map::default();
    for (name, square, kind) in [("Portal", "5E", SiteKind::Portal), ("Town", "20H", SiteKind::Town)] {
        towns.sites.insert(
            sq(square),
            Site {
                name: name.into(),
                square: sq(square),
                kind,
                destroyed: false,
                win_condition: false,
                description: String::new(),
            },
        );
    }
    let (mut round, battle) = attack_on_rag(towns);
    let capture = captured(&round.play_orders(&[], vec![rag_captured(&battle)]));
    assert_eq!((capture[0].to, capture[0].destination), (sq("20H"), CaptureDestination::Town));

    let mut bare = Map::default();
    bare.sites.insert(
        sq("5E"),
        Site {
            name: "Portal".into(),
            square: sq("5E"),
            kind: SiteKind::Portal,
            destroyed: false,
            win_condition: true,
            description: String::new(),
        },
    );
    let (mut round, battle) = attack_on_rag(bare);
    let events = round.play_orders(&[], vec![rag_captured(&battle)]);
    let capture = captured(&events);
    assert_eq!((capture[0].to, capture[0].destination), (sq("13E"), CaptureDestination::Stays));
    assert_eq!(round.square("Rag"), sq("13E"));
    let bumped = bumps(&events);
    assert_eq!(bumped.len(), 1);
    assert_eq!(bumped[0].0, "Sai Rei", "the winning army is bumped out of the square");
    round.assert_replays();
}

#[test]
fn a_coalition_army_recaptured_by_the_coalition_regains_its_old_colors_seed_003_4_5() {
    let mut round = Round::create(
        map(),
        vec![
            on(broodlings("Vorn", RankClass::CplLtCommander), "12E"),
            on(mages("Tahngarth", RankClass::CplLtCommander), "13E"),
            on(mages("Gerrard", RankClass::EvincarCaptain), "20A"),
            on(broodlings("Crovax", RankClass::EvincarCaptain), "2A"),
        ],
    );
    let battle = the_battle(&round.play_orders(&["Vorn: 12E > 13E; engage Tahngarth"], vec![]));
    let result = custom_result(
        &battle.battle,
        Some(SideId::A),
        &[
            ("Vorn", SideId::A, vec![100], false, false, None),
            ("Tahngarth", SideId::B, vec![800], false, false, Some("Vorn")),
        ],
    );
    let events = round.play_orders(&[], vec![result]);
    assert_eq!(captured(&events)[0].to, sq(PORTAL), "a Phyrexian captor's nearest unoccupied portal");
    assert_eq!(round.state.armies["Tahngarth"].army.team, Team::Phyrexia);
    round.play_orders(&[], vec![]);
    round.play_orders(&[], vec![]);
    assert!(!round.state.conversions.contains_key("Tahngarth"), "fully converted to Phyrexia");
    // Gerrard comes to take it back.
    round
        .run(
            herald_domain::coalition::campaign::CampaignCommand::RuleOnArmy {
                army: "Gerrard".into(),
                square: sq("6E"),
                reason: "the Coalition's raid party arrives".into(),
            },
            judge(),
        )
        .expect("moved");
    let again = the_battle(&round.play_orders(&["Gerrard: 6E > 5E; engage Tahngarth"], vec![]));
    let result = custom_result(
        &again.battle,
        Some(SideId::B),
        &[
            ("Tahngarth", SideId::A, vec![300], false, false, Some("Gerrard")),
            ("Gerrard", SideId::B, vec![0], false, false, None),
        ],
    );
    round.play_orders(&[], vec![result]);
    let tahngarth = &round.state.armies["Tahngarth"];
    assert_eq!(tahngarth.army.team, Team::Coalition);
    assert_eq!(tahngarth.army.colors, vec![Faction::Red, Faction::Green, Faction::Blue], "its old colors");
    round.assert_replays();
}

#[test]
fn an_army_killed_by_a_kill_attempt_leaves_the_map_for_good_seed_003_4_3_3() {
    let (mut round, battle) = attack_on_rag(map());
    let result = custom_result(
        &battle.battle,
        Some(SideId::B),
        &[("Rag", SideId::A, vec![5000], true, true, None), ("Sai Rei", SideId::B, vec![300], false, false, None)],
    );
    let events = round.play_orders(&[], vec![result]);
    let killed = of_kind(&events, |e| match e {
        CampaignEvent::ArmyKilled { army, rule, .. } => Some((army.clone(), rule.clone())),
        _ => None,
    });
    assert_eq!(killed, vec![("Rag".to_string(), "seed 003 §4.3.3".to_string())]);
    assert!(!round.state.armies.contains_key("Rag") && round.state.killed.contains("Rag"));
    round.play_orders(&[], vec![]);
    assert!(!round.state.armies.contains_key("Rag"), "a killed army never reappears");
    round.open();
    assert_eq!(round.post("rag", "Rag: 13E > 14E").expect_err("gone"), "coalition.campaign.unknown_army");
    round.assert_replays();
}

#[test]
fn the_second_winner_leaves_in_the_direction_its_strategy_named_before_the_loser_retreats_seed_003_4_4() {
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Sai Rei", RankClass::CplLtCommander), "10B"),
            on(mages("Tahngarth", RankClass::CplLtCommander), "10H"),
            on(broodlings("Rag", RankClass::CplLtCommander), "10E"),
            on(broodlings("Crovax", RankClass::PlaguelordCommander), "30E"),
        ],
    );
    let battle = the_battle(
        &round.play_orders(&["Sai Rei: 10B > 10E; Joint Engage", "Tahngarth: 10H > 10E; Joint Engage"], vec![]),
    );
    let mut result = battle.result(Team::Coalition, &[("Rag", vec![3000])], &[]);
    result.departure = Some(Departure { army: "Tahngarth".into(), direction: Direction::NorthEast });
    let events = round.play_orders(&[], vec![result]);
    let bumped = bumps(&events);
    assert_eq!(bumped[0], ("Tahngarth".to_string(), sq("10E"), sq("9F"), false), "the named direction, no die");
    assert_eq!(bumped[1].0, "Rag");
    assert_ne!(bumped[1].2, sq("9F"), "the chosen retreat is decided first");
    // A direction that is not available (occupied) falls back to the die.
    let mut round = Round::create(
        map(),
        vec![
            on(mages("Sai Rei", RankClass::CplLtCommander), "10B"),
            on(mages("Tahngarth", RankClass::CplLtCommander), "10H"),
            on(broodlings("Rag", RankClass::CplLtCommander), "10E"),
            on(broodlings("Guard", RankClass::CplLtCommander), "9F"),
            on(broodlings("Crovax", RankClass::PlaguelordCommander), "30E"),
        ],
    );
    let battle = the_battle(
        &round.play_orders(&["Sai Rei: 10B > 10E; Joint Engage", "Tahngarth: 10H > 10E; Joint Engage"], vec![]),
    );
    let mut result = battle.result(Team::Coalition, &[], &[]);
    result.departure = Some(Departure { army: "Tahngarth".into(), direction: Direction::NorthEast });
    let bumped = bumps(&round.play_orders(&[], vec![result]));
    assert_ne!(bumped[0].2, sq("9F"));
    round.assert_replays();
}

#[test]
fn the_turn_report_says_who_was_captured_and_where_they_were_taken_seed_003_4_5() {
    let (mut round, battle) = attack_on_rag(map());
    round.play_orders(&[], vec![rag_captured(&battle)]);
    let turn = round.state.turn;
    let report =
        herald_domain::coalition::campaign::view::turn_report(turn, round.events.iter()).expect("the turn's report");
    assert!(
        report.notes.iter().any(|line| line.starts_with("Rag is captured by Sai Rei and taken to 30C")),
        "{:?}",
        report.notes
    );
    let text = herald_domain::coalition::campaign::view::turn_report_text(&report);
    assert!(text.contains("\nAlso\n  Rag is captured by Sai Rei"), "{text}");
}
