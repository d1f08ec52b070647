//! Destroying bases and winning the round (seed 003 §1.7), each test naming its rule.

#[path = "coalition_days_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{RankClass, Team},
    days::{army_destruction_victory, end_game_team, ArmyTurn, CountEnd, DaysEvent, Fight, Victory, VictoryReason},
    map::{Faction, SiteKind},
};
use support::*;

fn destroyed(events: &[DaysEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            DaysEvent::SiteDestroyed { site, .. } => Some(site.clone()),
            _ => None,
        })
        .collect()
}

/// Four turns in `square`: arriving, then three still.
fn four_days(game: &mut Campaign, army: &herald_domain::coalition::army::Army, square: &str) {
    game.turn(&[(army, ArmyTurn::moved_to(sq(square)))]);
    for _ in 0..3 {
        game.turn(&[(army, ArmyTurn::stayed(sq(square)))]);
    }
}

#[test]
fn an_army_that_counts_4_days_in_an_enemy_base_and_holds_still_the_next_turn_destroys_it_seed_003_1_7_1() {
    let army = simple("Crovax", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let mut game = Campaign::on(map());
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    assert_eq!(
        events,
        vec![DaysEvent::SiegeDayCounted {
            army: "Crovax".into(),
            square: sq(RED_BASE),
            site: SiteKind::Base { color: Faction::Red },
            days: 1
        }]
    );
    for _ in 0..3 {
        let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
        assert!(destroyed(&events).is_empty());
    }
    assert_eq!(game.siege_days("Crovax"), 4);
    assert_eq!(game.days("Crovax"), 0, "siege days are not healing days");
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    assert_eq!(destroyed(&events), vec!["Red Base".to_string()]);
    assert!(game.map.site_at(sq(RED_BASE)).is_some_and(|site| site.destroyed));
    assert_eq!(game.siege_days("Crovax"), 0);
}

#[test]
fn moving_on_the_turn_after_the_fourth_day_saves_the_base_seed_003_1_7_1() {
    let army = simple("Crovax", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let mut game = Campaign::on(map());
    four_days(&mut game, &army, RED_BASE);
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(OPEN)))]);
    assert!(destroyed(&events).is_empty());
    assert!(events.contains(&DaysEvent::SiegeLifted {
        army: "Crovax".into(),
        square: sq(RED_BASE),
        days: 4,
        reason: CountEnd::Moved
    }));
}

#[test]
fn being_attacked_on_the_holding_turn_is_allowed_and_winning_destroys_the_base_seed_003_1_7_1() {
    let army = simple("Crovax", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let mut game = Campaign::on(map());
    four_days(&mut game, &army, RED_BASE);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Undecided, vec![]))]);
    assert!(destroyed(&events).is_empty(), "the base stands while the battle is undecided");
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Won, vec![700]))]);
    assert_eq!(destroyed(&events), vec!["Red Base".to_string()]);
}

#[test]
fn a_besieger_defeated_on_the_holding_turn_destroys_nothing_and_starts_over_seed_003_1_7_1() {
    let army = simple("Crovax", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let mut game = Campaign::on(map());
    four_days(&mut game, &army, RED_BASE);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Lost, vec![1500]))]);
    assert!(destroyed(&events).is_empty());
    assert_eq!(game.siege_days("Crovax"), 0);
    game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    assert_eq!(game.siege_days("Crovax"), 1);
}

#[test]
fn a_coalition_army_destroys_a_portal_the_same_way_seed_003_1_7_1() {
    let army = simple("Gerrard", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Red]);
    let mut game = Campaign::on(map());
    four_days(&mut game, &army, PORTAL);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)))]);
    assert_eq!(
        events,
        vec![DaysEvent::SiteDestroyed {
            square: sq(PORTAL),
            site: "Portal of Yawgmoth".into(),
            kind: SiteKind::Portal,
            by: "Gerrard".into()
        }]
    );
}

#[test]
fn an_army_attacked_while_besieging_counts_its_siege_day_only_when_it_wins_seed_003_1_5_and_1_7_1() {
    let army = simple("Crovax", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(GREEN_BASE)))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(GREEN_BASE)).with_fight(Fight::Undecided, vec![]))]);
    assert_eq!(game.siege_days("Crovax"), 1);
    game.turn(&[(&army, ArmyTurn::stayed(sq(GREEN_BASE)).with_fight(Fight::Won, vec![]))]);
    assert_eq!(game.siege_days("Crovax"), 2);
}

/// A map whose portals are all destroyed but `left`.
fn portals_fallen_but(left: Option<&str>) -> herald_domain::coalition::map::Map {
    let mut map = map();
    for portal in [PORTAL, PORTAL_2] {
        if Some(portal) != left {
            destroy(&mut map, portal);
        }
    }
    map
}

#[test]
fn destroying_the_last_portal_begins_the_end_game_for_the_coalition_seed_003_1_7_2() {
    assert_eq!(end_game_team(&map()), None);
    assert_eq!(end_game_team(&portals_fallen_but(Some(PORTAL))), None);
    assert_eq!(end_game_team(&portals_fallen_but(None)), Some(Team::Coalition));
    let army = simple("Gerrard", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Red]);
    let mut game = Campaign::on(portals_fallen_but(Some(PORTAL)));
    four_days(&mut game, &army, PORTAL);
    let (events, victory) = game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)))]);
    assert_eq!(events.last(), Some(&DaysEvent::EndGameBegan { team: Team::Coalition }));
    assert_eq!(victory, None);
}

#[test]
fn counting_4_days_in_its_own_win_condition_after_the_enemy_lost_theirs_wins_the_round_seed_003_1_7_2() {
    let army = simple("Gerrard", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Red]);
    let mut game = Campaign::on(portals_fallen_but(Some(PORTAL)));
    four_days(&mut game, &army, RED_BASE);
    game.map = portals_fallen_but(None);
    let (events, victory) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    assert!(events.contains(&DaysEvent::EndGameBegan { team: Team::Coalition }));
    assert_eq!(victory, None, "days counted before the end game began do not count towards it");
    for _ in 0..3 {
        let (_, victory) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
        assert_eq!(victory, None);
    }
    let (events, victory) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    let expected = Victory {
        team: Team::Coalition,
        reason: VictoryReason::WinConditionHeld { army: "Gerrard".into(), square: sq(RED_BASE), days: 4 },
        rule: "seed 003 §1.7.2".into(),
    };
    assert_eq!(victory, Some(expected.clone()));
    assert_eq!(events.last(), Some(&DaysEvent::RoundWon { victory: expected }));
}

#[test]
fn an_army_counting_to_win_that_is_defeated_starts_again_from_0_seed_003_1_7_2() {
    let army = simple("Gerrard", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Red]);
    let mut game = Campaign::on(portals_fallen_but(None));
    game.turn(&[]);
    game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    game.turn(&[(&army, ArmyTurn::moved_to(sq(OPEN)).with_fight(Fight::Lost, vec![1000]))]);
    assert!(game.state.end_game.as_ref().is_some_and(|end_game| end_game.counts.is_empty()));
    for _ in 0..3 {
        let (_, victory) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
        assert_eq!(victory, None);
    }
    let (_, victory) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    assert!(victory.is_some());
}

#[test]
fn several_armies_may_count_at_once_and_any_one_of_them_wins_seed_003_1_7_2() {
    let red = simple("Gerrard", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Red]);
    let green = simple("Mirri", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Green]);
    let mut game = Campaign::on(portals_fallen_but(None));
    game.turn(&[]);
    game.turn(&[(&red, ArmyTurn::moved_to(sq(RED_BASE)))]);
    game.turn(&[(&red, ArmyTurn::stayed(sq(RED_BASE))), (&green, ArmyTurn::moved_to(sq(GREEN_BASE)))]);
    game.turn(&[(&red, ArmyTurn::moved_to(sq(OPEN))), (&green, ArmyTurn::stayed(sq(GREEN_BASE)))]);
    game.turn(&[(&green, ArmyTurn::stayed(sq(GREEN_BASE)))]);
    let (_, victory) = game.turn(&[(&green, ArmyTurn::stayed(sq(GREEN_BASE)))]);
    assert!(
        matches!(victory, Some(Victory { team: Team::Coalition, reason: VictoryReason::WinConditionHeld { ref army, .. }, .. }) if army == "Mirri")
    );
}

#[test]
fn only_a_standing_win_condition_of_its_colors_counts_towards_winning_seed_003_1_7_2_and_2_5_1_3() {
    let red = simple("Gerrard", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Red]);
    let black = simple("Lyna", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Black]);
    let mut game = Campaign::on(portals_fallen_but(None));
    game.turn(&[]);
    game.turn(&[(&red, ArmyTurn::moved_to(sq(GREEN_BASE))), (&black, ArmyTurn::moved_to(sq(BLACK_BASE)))]);
    for _ in 0..5 {
        let (_, victory) =
            game.turn(&[(&red, ArmyTurn::stayed(sq(GREEN_BASE))), (&black, ArmyTurn::stayed(sq(BLACK_BASE)))]);
        assert_eq!(victory, None, "Green Base is not of Gerrard's colors; Black Base is no win condition");
    }
    assert_eq!(game.days("Lyna"), 6);
}

#[test]
fn a_side_that_loses_all_armies_ranked_captain_evincar_or_higher_loses_seed_003_1_7_3() {
    let captain = simple("Gerrard", Team::Coalition, RankClass::EvincarCaptain, &[Faction::Red]);
    let admiral = simple("Barrin", Team::Coalition, RankClass::PraetorAdmiral, &[Faction::Blue]);
    let evincar = simple("Crovax", Team::Phyrexia, RankClass::EvincarCaptain, &[]);
    let plaguelord = simple("Greven", Team::Phyrexia, RankClass::PlaguelordCommander, &[]);
    let lieutenant = simple("Tahngarth", Team::Coalition, RankClass::CenturionLieutenant, &[Faction::Red]);
    let both: std::collections::BTreeSet<Team> = [Team::Phyrexia, Team::Coalition].into_iter().collect();
    assert_eq!(army_destruction_victory([&captain, &evincar, &plaguelord], &both), None);
    let victory = army_destruction_victory([&captain, &admiral, &plaguelord], &both);
    assert_eq!(
        victory,
        Some(Victory {
            team: Team::Coalition,
            reason: VictoryReason::CommandersDestroyed { loser: Team::Phyrexia },
            rule: "seed 003 §1.7.3".into()
        })
    );
    assert_eq!(
        army_destruction_victory([&lieutenant, &evincar], &both).map(|victory| victory.team),
        Some(Team::Phyrexia)
    );
    assert_eq!(
        army_destruction_victory([&lieutenant, &plaguelord], &both),
        None,
        "neither side has one: the judge rules"
    );
}

#[test]
fn a_side_that_never_had_an_army_ranked_captain_evincar_or_higher_does_not_lose_seed_003_1_7_3() {
    // A small round: only the Coalition ever had a Captain. Phyrexia has lost nothing, so nobody wins.
    let captain = simple("Gerrard", Team::Coalition, RankClass::EvincarCaptain, &[Faction::Red]);
    let plaguelord = simple("Greven", Team::Phyrexia, RankClass::PlaguelordCommander, &[]);
    let coalition_only: std::collections::BTreeSet<Team> = [Team::Coalition].into_iter().collect();
    assert_eq!(army_destruction_victory([&captain, &plaguelord], &coalition_only), None);
    // Once the Coalition's Captain is gone, it has lost them: Phyrexia wins.
    let victory = army_destruction_victory([&plaguelord], &coalition_only).map(|victory| victory.team);
    assert_eq!(victory, Some(Team::Phyrexia));
}
