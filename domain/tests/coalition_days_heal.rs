//! Healing and changing troops (seed 003 §2.3.1–2.3.2), with the seed's two examples and their
//! numbers; each test names its rule.

#[path = "coalition_days_support.rs"]
mod support;

use herald_domain::coalition::{
    army::{Color, RankClass, Team},
    days::{has_base_color, may_change_troops, ArmyTurn, DayCount, DaysEvent, Fight},
    map::{Faction, SiteKind},
};
use support::*;

#[test]
fn the_phyrexian_example_heals_from_3500_up_to_4500_seed_003_2_3_1_1() {
    // "an army with only 4000 of its 5000 smallest troops goes to a Portal to heal. While
    // waiting, it fights a battle and loses another 500, but wins the battle. When it is healed,
    // it will be raised from 3500 up to 4500 of its smallest troops"
    let mut army = phyrexian_example();
    let mut game = Campaign::on(map());
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(PORTAL)))]);
    assert!(!events.iter().any(|event| matches!(event, DaysEvent::ArmyHealed { .. })), "no healing after 1 day");
    lose(&mut army, &[500]);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)).with_fight(Fight::Won, vec![500]))]);
    assert_eq!(game.days("Vorthos"), 2);
    assert_eq!(troops(&army), vec![3500, 2500]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![4500, 2500]);
    // "Troops lost on the second day can be replaced once the army counts 2 more days and heals
    // again."
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![4500, 2500], "day 3: only one day after the loss");
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000, 2500], "day 4: two days after the loss");
    assert!(game.state.armies.get("Vorthos").is_some_and(|days| days.ledger.is_empty()));
}

#[test]
fn the_phyrexian_example_heals_the_same_when_the_battle_spans_a_turn_seed_003_2_3_1_1() {
    let mut army = phyrexian_example();
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(PORTAL)))]);
    game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)).with_fight(Fight::Undecided, vec![]))]);
    lose(&mut army, &[500]);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(PORTAL)).with_fight(Fight::Won, vec![500]))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![4500, 2500]);
}

#[test]
fn the_kris_mages_example_heals_the_red_line_after_one_day_and_the_bears_after_two_seed_003_2_3_1_2() {
    // "an army with 3000 Kris Mages left of 5000 and 2000 Grizzly Bears left of 2500 counts one
    // day in Red Base. The Kris Mages will be healed, because they are the same color as the base,
    // but the Grizzly Bears must wait one more day."
    let mut army = kris_mages_example();
    let mut game = Campaign::on(map());
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000, 2000]);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000, 2500]);
}

#[test]
fn troops_of_the_base_color_lost_during_the_count_wait_one_day_after_their_loss_seed_003_2_3_1_2() {
    let mut army = kris_mages_example();
    let mut game = Campaign::on(map());
    game.turn(&[(&army, ArmyTurn::moved_to(sq(RED_BASE)))]);
    lose(&mut army, &[1000, 500]);
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)).with_fight(Fight::Won, vec![1000, 500]))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000 - 1000, 2500 - 500], "day 2: the day-2 losses wait, the rest heal");
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000, 2000], "day 3: red one day after, green not yet two");
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(RED_BASE)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000, 2500]);
}

#[test]
fn a_multicolored_creature_is_of_each_of_its_colors_and_of_the_5_color_base_seed_003_2_3_1_2() {
    let red_green = [Color::Red, Color::Green];
    assert!(has_base_color(&red_green, Faction::Red));
    assert!(has_base_color(&red_green, Faction::Green));
    assert!(has_base_color(&red_green, Faction::FiveColor));
    assert!(!has_base_color(&red_green, Faction::Blue));
    assert!(!has_base_color(&[Color::Red], Faction::FiveColor));
    assert!(!has_base_color(&[Color::Artifact, Color::Blue], Faction::FiveColor));
    assert!(has_base_color(&[Color::Artifact], Faction::Colorless));
    assert!(!has_base_color(&[Color::Black], Faction::Colorless));

    let mut army = army(
        "Jhoira",
        Team::Coalition,
        RankClass::CenturionLieutenant,
        &[Faction::FiveColor, Faction::Colorless],
        vec![
            line("Mogg Sentry", &[Color::Red, Color::Green], 1, 0, 5000, 1000),
            line("Ornithopter", &[Color::Artifact], 2, 1, 2500, 500),
        ],
    );
    let mut game = Campaign::on(map());
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(FIVE_COLOR_BASE)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000, 500]);
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(COLORLESS_BASE)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000, 2500]);
}

#[test]
fn a_low_rank_army_heals_in_a_neutral_town_after_two_days_but_may_not_change_troops_seed_003_2_3_1_3() {
    let mut army = kris_mages_example();
    let mut game = Campaign::on(map());
    let (events, _) = game.turn(&[(&army, ArmyTurn::moved_to(sq(TOWN)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![3000, 2000], "a town has no color: nothing after one day");
    let (events, _) = game.turn(&[(&army, ArmyTurn::stayed(sq(TOWN)))]);
    apply_heals(&mut army, &events);
    assert_eq!(troops(&army), vec![5000, 2500]);
    let count = game.state.armies.get("Sai Rei").and_then(|days| days.count.clone());
    let refused = may_change_troops(&army, count.as_ref(), &game.map).expect_err("no troop change in a town");
    assert_eq!((refused.code.as_str(), refused.rule.as_str()), ("coalition.troops.in_town", "seed 003 §2.3.1.3"));
}

#[test]
fn an_army_may_change_troops_after_two_days_in_a_base_it_could_heal_at_seed_003_2_3_2() {
    let army = kris_mages_example();
    let map = map();
    let count =
        |square: &str, days| DayCount { square: sq(square), site: SiteKind::Base { color: Faction::Red }, days };
    assert_eq!(may_change_troops(&army, Some(&count(RED_BASE, 2)), &map), Ok(()));
    assert_eq!(may_change_troops(&army, Some(&count(RED_BASE, 5)), &map), Ok(()));
    let code = |result: Result<(), herald_domain::RuleError>| result.map_err(|error| error.code);
    assert_eq!(
        code(may_change_troops(&army, Some(&count(RED_BASE, 1)), &map)),
        Err("coalition.troops.too_few_days".into())
    );
    assert_eq!(code(may_change_troops(&army, None, &map)), Err("coalition.troops.not_counting_days".into()));
    assert_eq!(
        code(may_change_troops(&army, Some(&count(BLACK_BASE, 2)), &map)),
        Err("coalition.troops.not_a_healing_base".into())
    );
    let mut ruined = map.clone();
    destroy(&mut ruined, RED_BASE);
    assert_eq!(
        code(may_change_troops(&army, Some(&count(RED_BASE, 2)), &ruined)),
        Err("coalition.troops.not_a_healing_base".into())
    );
    let phyrexian = phyrexian_example();
    let portal = DayCount { square: sq(PORTAL), site: SiteKind::Portal, days: 2 };
    assert_eq!(may_change_troops(&phyrexian, Some(&portal), &map), Ok(()));
}
