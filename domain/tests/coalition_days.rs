//! Counting days (seed 003 §1.5, §2.3.1.2–2.3.1.3), each test naming its rule.

#[path = "coalition_days_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{RankClass, Team},
    days::{place_of, ArmyTurn, CountEnd, DaysEvent, Fight, NoCountReason, Place},
    map::{Faction, SiteKind},
};
use support::*;

#[test]
fn an_army_on_the_open_map_counts_no_days_seed_003_1_5() {
    let army = simple("Rag", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let mut game = Campaign::on(map());
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(OPEN)))]);
    assert!(events.is_empty());
    game.turn(&[(&army, ArmyTurn::stayed(sq(OPEN)))]);
    assert_eq!(game.days("Rag"), 0);
    assert_eq!(place_of(&army, &game.map, sq(OPEN)), Place::NoCount { reason: NoCountReason::OpenMap });
}

#[test]
fn moving_into_an_unattacked_portal_counts_a_day_and_sitting_still_one_more_each_turn_seed_003_1_5() {
    let army = simple("Rag", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let mut game = Campaign::on(map());
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(PORTAL)))]);
    assert_eq!(
        events,
        vec![DaysEvent::DayCounted { army: "Rag".into(), square: sq(PORTAL), site: SiteKind::Portal, days: 1 }]
    );
    for expected in 2..=5 {
        game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)))]);
        assert_eq!(game.days("Rag"), expected);
    }
}

#[test]
fn an_army_attacked_in_its_base_counts_its_day_only_when_it_defeats_the_attacker_seed_003_1_5() {
    let army = simple("Gerrard", Team::Coalition, RankClass::EvincarCaptain, &[Faction::Red]);
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Undecided, vec![]))]);
    assert!(events.is_empty(), "no day while the battle is undecided, and the count goes on: {events:?}");
    assert_eq!(game.days("Gerrard"), 1);
    game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Undecided, vec![]))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Won, vec![300]))]);
    assert_eq!(game.days("Gerrard"), 2, "one day, when it defeats the attacker");
}

#[test]
fn an_army_arriving_into_a_battle_has_no_count_until_it_wins_seed_003_1_5() {
    let army = simple("Gerrard", Team::Coalition, RankClass::EvincarCaptain, &[Faction::Red]);
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)).with_fight(Fight::Undecided, vec![]))]);
    assert_eq!(game.days("Gerrard"), 0);
    game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Won, vec![]))]);
    assert_eq!(game.days("Gerrard"), 1);
}

#[test]
fn an_army_attacked_in_its_base_that_loses_counts_no_day_and_its_count_ends_seed_003_1_5() {
    let army = simple("Gerrard", Team::Coalition, RankClass::EvincarCaptain, &[Faction::Red]);
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Lost, vec![800]))]);
    assert_eq!(
        events,
        vec![DaysEvent::DayCountReset {
            army: "Gerrard".into(),
            square: sq(RED_BASE),
            days: 2,
            reason: CountEnd::Defeated
        }]
    );
    assert_eq!(game.days("Gerrard"), 0);
}

#[test]
fn moving_out_of_a_base_resets_the_count_and_a_new_base_starts_again_at_one_seed_003_1_5() {
    let army = simple("Gerrard", Team::Coalition, RankClass::EvincarCaptain, &[Faction::Red, Faction::Green]);
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(GREEN_BASE)))]);
    assert!(events.contains(&DaysEvent::DayCountReset {
        army: "Gerrard".into(),
        square: sq(RED_BASE),
        days: 2,
        reason: CountEnd::Moved
    }));
    assert_eq!(game.days("Gerrard"), 1);
    game.turn(&[(&army, ArmyTurn::moved_to(sq(OPEN)))]);
    assert_eq!(game.days("Gerrard"), 0);
}

#[test]
fn leaving_and_coming_back_in_the_same_turn_restarts_the_count_seed_003_1_5() {
    let army = simple("Rag", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(PORTAL)))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)))]);
    game.turn(&[(&army, ArmyTurn::moved_to(sq(PORTAL)))]);
    assert_eq!(game.days("Rag"), 1);
}

#[test]
fn a_coalition_army_counts_no_days_in_a_base_of_a_color_it_is_not_a_member_of_seed_003_2_3_1_2() {
    let army = simple("Gerrard", Team::Coalition, RankClass::EvincarCaptain, &[Faction::Red]);
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(BLACK_BASE)))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(BLACK_BASE)))]);
    assert_eq!(game.days("Gerrard"), 0);
    assert_eq!(game.siege_days("Gerrard"), 0, "a friendly base is not besieged");
    assert_eq!(
        place_of(&army, &game.map, sq(BLACK_BASE)),
        Place::NoCount { reason: NoCountReason::BaseNotOfItsColors }
    );
}

#[test]
fn only_the_two_lowest_rank_classes_count_days_in_a_neutral_town_seed_003_2_3_1_3() {
    let map = map();
    for (rank, counts) in [
        (RankClass::CenturionLieutenant, true),
        (RankClass::CplLtCommander, true),
        (RankClass::PlaguelordCommander, false),
        (RankClass::EvincarCaptain, false),
        (RankClass::ChiefPraetorGeneral, false),
    ] {
        for team in [Team::Phyrexia, Team::Coalition] {
            let army = simple("Scout", team, rank, &[Faction::Blue]);
            let mut game = Campaign::on(map.clone());
            game.turn(&[(&army, ArmyTurn::moved_to(sq(TOWN)))]);
            game.turn(&[(&army, ArmyTurn::stayed(sq(TOWN)))]);
            assert_eq!(game.days("Scout"), if counts { 2 } else { 0 }, "{team:?} {rank:?}");
        }
    }
    let captain = simple("Scout", Team::Coalition, RankClass::EvincarCaptain, &[]);
    assert_eq!(place_of(&captain, &map, sq(TOWN)), Place::NoCount { reason: NoCountReason::TownAboveLowestRanks });
}

#[test]
fn a_destroyed_base_of_its_color_counts_no_days_and_cannot_heal_seed_003_1_7_1() {
    let mut map = map();
    destroy(&mut map, RED_BASE);
    let mut army = kris_mages_example();
    let mut game = Campaign::on(map);
    for turn in [ArmyTurn::moved_to(sq(RED_BASE)), ArmyTurn::stayed(sq(RED_BASE)), ArmyTurn::stayed(sq(RED_BASE))] {
        let (events, _) = game.turn(&[(&army, turn)]);
        apply_heals(&mut army, &events);
        assert!(events.is_empty(), "{events:?}");
    }
    assert_eq!(troops(&army), vec![3000, 2000]);
    assert_eq!(place_of(&army, &game.map, sq(RED_BASE)), Place::NoCount { reason: NoCountReason::Destroyed });
}

#[test]
fn a_count_ends_when_its_base_is_destroyed_under_it_seed_003_1_7_1() {
    let army = simple("Gerrard", Team::Coalition, RankClass::EvincarCaptain, &[Faction::Red]);
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    destroy(&mut game.map, RED_BASE);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    assert_eq!(
        events,
        vec![DaysEvent::DayCountReset {
            army: "Gerrard".into(),
            square: sq(RED_BASE),
            days: 1,
            reason: CountEnd::CannotCount
        }]
    );
}

#[test]
fn mercenaries_count_no_days_seed_003_ch_6() {
    let army = simple("Raider", Team::Mercenary, RankClass::CenturionLieutenant, &[]);
    assert_eq!(place_of(&army, &map(), sq(TOWN)), Place::NoCount { reason: NoCountReason::Mercenary });
}

#[test]
fn days_events_serialize_with_a_type_tag_and_the_seed_square_format() {
    let event = DaysEvent::DayCounted { army: "Rag".into(), square: sq("14H"), site: SiteKind::Portal, days: 2 };
    let json = serde_json::to_value(&event).expect("serializes");
    assert_eq!(
        json,
        serde_json::json!({"type": "coalition.DayCounted", "army": "Rag", "square": "14H", "site": {"kind": "portal"}, "days": 2})
    );
    let back: DaysEvent = serde_json::from_value(json).expect("deserializes");
    assert_eq!(back, event);
    assert_eq!(herald_domain::EventType::event_type(&event), "coalition.DayCounted");
}
