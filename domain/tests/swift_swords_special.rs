//! Flyers, chariots, surprise, pools and skill rolls, healing over weeks, the end of the
//! encounter and its outcome, and the set-up's refusals (seed 004 "Flying", "Chariots.",
//! "Chariot Movement.", "Surprise", "Actions & Refresh", "Healing", "What It All Means.").

#[path = "swift_swords_support.rs"]
mod support;

use herald_domain::{
    ruleset::Ruleset,
    swift_swords::{
        battle::{
            command::{PoolKind, SwiftSwordsCommand as C},
            event::SwiftSwordsEvent as E,
            SwiftSwords,
        },
        chariot::{ChariotKind, ChariotSpec, DriveStep},
        figure::{ActionDiceSpec, FigureSpec, SkillSpec, WeaponKind},
        flight::{FlightSpec, FlightStep},
        ranks::RankSide,
        zones::{Direction, Going, ZoneMap},
    },
};
use support::*;

fn only(battle: &mut Battle, figure: &str, hand: &[u8]) {
    let ids: Vec<String> = battle.state.figures.keys().cloned().collect();
    for id in ids {
        battle.hand(&id, &[]);
    }
    battle.hand(figure, hand);
}

fn grid() -> ZoneMap {
    let mut zones = Vec::new();
    for row in 0..4u8 {
        for column in 0..4u8 {
            zones.push(zone(&format!("z{column}{row}"), column, row));
        }
    }
    ZoneMap { zones, ..ZoneMap::default() }
}

fn griffon(zone: &str) -> FigureSpec {
    FigureSpec {
        flight: Some(FlightSpec { speed: 2, turn_rate: 2, dive: 3 }),
        weapons: vec![weapon("Talons", 4, herald_domain::swift_swords::figure::Weight::Medium)],
        ..goblin("griffon", zone)
    }
}

fn sky() -> Setup {
    let mut flyer = griffon("z00");
    flyer.start.flying = true;
    flyer.start.facing = Some(Direction::E);
    Setup {
        map: grid(),
        ..Setup::of(vec![FigureSpec { weapons: vec![missile("Bow", 5, WeaponKind::Fired, 3)], ..roland("z30") }, flyer])
    }
}

#[test]
fn a_flyer_flies_its_speed_in_zones_and_turns_within_its_turn_rate_per_seed_004_flying() {
    let mut battle = Battle::begun(&sky(), 0);
    only(&mut battle, "griffon", &[6, 6, 6]);
    let fly =
        |steps: Vec<FlightStep>, dive: bool| C::Fly { figure: "griffon".into(), steps, dive, circle: false, pay: None };
    assert_refused(
        battle.attempt(gm(), fly(vec![FlightStep::Forward, FlightStep::Forward, FlightStep::Forward], false)),
        "swift-swords.flight_too_far",
        "Flying",
    );
    assert_refused(
        battle.attempt(gm(), fly(vec![FlightStep::Turn { to: Direction::W }, FlightStep::Forward], false)),
        "swift-swords.too_many_turns",
        "Flying",
    );
    battle.gm(fly(vec![FlightStep::Forward, FlightStep::Forward, FlightStep::Forward], true));
    assert_eq!(battle.figure("griffon").zone, "z30", "a dive of 3 zones (~2/2/3)");
    battle.gm(fly(vec![FlightStep::Turn { to: Direction::S }, FlightStep::Forward], false));
    assert_eq!((battle.figure("griffon").zone.as_str(), battle.figure("griffon").facing), ("z31", Direction::S));
}

#[test]
fn a_flyer_that_moves_no_zone_is_on_the_ground_and_circling_needs_a_turn_rate_of_six_per_seed_004_flying() {
    let mut battle = Battle::begun(&sky(), 0);
    only(&mut battle, "griffon", &[6, 6]);
    assert_refused(
        battle.attempt(gm(), C::Fly { figure: "griffon".into(), steps: vec![], dive: false, circle: true, pay: None }),
        "swift-swords.cannot_circle",
        "Flying",
    );
    battle.gm(C::Fly { figure: "griffon".into(), steps: vec![], dive: false, circle: false, pay: None });
    assert!(!battle.figure("griffon").flying, "hovering or landed: on the ground");
}

#[test]
fn missiles_at_a_flyer_lose_its_speed_in_dice_and_only_a_held_action_strikes_it_in_melee_per_seed_004_flying() {
    let mut setup = sky();
    setup.figures[1].start.zone = "z20".into();
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6]);
    let events = battle.by(alice(), attack("roland", "Bow", "griffon"));
    let record = attacks(&events)[0];
    assert!(record.dice.penalties.iter().any(|penalty| penalty.dice == 2 && penalty.reason.contains("flyer")));
    let mut setup = sky();
    setup.figures[1].start.zone = "z30".into();
    setup.figures[0].weapons.push(weapon("Sword", 4, herald_domain::swift_swords::figure::Weight::Medium));
    let mut battle = Battle::begun(&setup, 0);
    only(&mut battle, "roland", &[6, 6]);
    assert_refused(
        battle.attempt(alice(), attack("roland", "Sword", "griffon")),
        "swift-swords.flyer_out_of_reach",
        "Flying",
    );
}

fn chariot_setup(kind: ChariotKind, horses: u8, crew: usize, going: Going) -> Setup {
    let mut map = grid();
    for zone in &mut map.zones {
        if zone.id == "z20" {
            zone.going = going;
        }
    }
    let team = FigureSpec {
        physical: 4,
        legs: 4,
        weapons: vec![weapon("Trample", 4, herald_domain::swift_swords::figure::Weight::Medium)],
        ..goblin("team", "z00")
    };
    let driver = FigureSpec { skills: vec![SkillSpec { name: "driving".into(), dice: 5 }], ..goblin("driver", "z00") };
    let mut figures = vec![team, driver];
    let mut aboard = vec!["driver".to_string()];
    for index in 0..crew.saturating_sub(1) {
        let id = format!("archer-{index}");
        figures.push(goblin(&id, "z00"));
        aboard.push(id);
    }
    figures.push(roland("z33"));
    let chariot = ChariotSpec {
        id: "chariot".into(),
        kind,
        horses,
        team: "team".into(),
        driver: "driver".into(),
        crew: aboard,
        facing: Direction::E,
    };
    Setup { map, chariots: vec![chariot], ..Setup::of(figures) }
}

#[test]
fn chariot_paces_and_crews_follow_the_seeds_numbers_per_seed_004_chariots() {
    let spec = |kind, horses, crew: usize| ChariotSpec {
        id: "c".into(),
        kind,
        horses,
        team: "t".into(),
        driver: "d".into(),
        crew: (0..crew).map(|index| format!("crew-{index}")).collect(),
        facing: Direction::N,
    };
    assert_eq!(spec(ChariotKind::Light, 2, 1).pace(), 9);
    assert_eq!(spec(ChariotKind::Light, 2, 2).pace(), 8, "each person over 1: -1 pace");
    assert_eq!(spec(ChariotKind::Light, 4, 2).pace(), 9, "a four-horse light chariot keeps its pace");
    assert_eq!(spec(ChariotKind::Heavy, 2, 2).pace(), 7);
    assert_eq!(spec(ChariotKind::Heavy, 4, 2).pace(), 9, "improved by 2");
    assert_eq!(spec(ChariotKind::Heavy, 2, 4).overloaded(), 2, "each person over 2");
    assert_eq!(spec(ChariotKind::Heavy, 2, 3).team_targets(), 2);
    assert_eq!(spec(ChariotKind::Light, 2, 1).team_targets(), 1);
    let mut battle = Battle::begun(&chariot_setup(ChariotKind::Light, 4, 2, Going::Open), 0);
    assert_eq!(battle.figure("team").physical.bonus, 3, "a four-horse team: +3 Toughness as bonus ranks");
    only(&mut battle, "driver", &[6, 6]);
    let drive = |steps: Vec<DriveStep>, dash: bool| C::Drive { chariot: "chariot".into(), steps, dash, pay: None };
    battle.gm(drive(vec![DriveStep::Forward], false));
    for figure in ["team", "driver", "archer-0"] {
        assert_eq!(battle.figure(figure).zone, "z10", "the chariot carries its crew and team");
    }
}

#[test]
fn a_dashing_chariot_needs_a_driving_roll_for_a_second_turn_per_seed_004_chariot_movement() {
    let (_, (roll, facing, flipped)) = find_seed(500, |n| {
        let mut battle = Battle::begun(&chariot_setup(ChariotKind::Heavy, 2, 2, Going::Open), n);
        only(&mut battle, "driver", &[6, 6]);
        let steps =
            vec![DriveStep::Turn { to: Direction::Se }, DriveStep::Turn { to: Direction::S }, DriveStep::Forward];
        let events = battle.gm(C::Drive { chariot: "chariot".into(), steps, dash: true, pay: None });
        events.iter().find_map(|event| match event {
            E::Driven { roll: Some(roll), facing, flipped, .. } => Some((roll.clone(), *facing, *flipped)),
            _ => None,
        })
    });
    assert_eq!(roll.dice, 5 - 4, "heavy chariot: -4 for the second turn");
    assert_eq!(facing == Direction::S, roll.passed() && !flipped, "failed: it runs straight on");
    assert_eq!(flipped, roll.ones > roll.successes, "a fumble flips it");
    let mut battle = Battle::begun(&chariot_setup(ChariotKind::Light, 2, 1, Going::Impassable), 0);
    only(&mut battle, "driver", &[6, 6]);
    assert_refused(
        battle.attempt(
            gm(),
            C::Drive {
                chariot: "chariot".into(),
                steps: vec![DriveStep::Forward, DriveStep::Forward],
                dash: true,
                pay: None,
            },
        ),
        "swift-swords.impassable",
        "Chariots.",
    );
}

#[test]
fn the_surprised_get_no_action_dice_and_no_defence_in_the_surprise_round_per_seed_004_surprise() {
    let setup = Setup::of(vec![grouped(roland("a"), "melee"), grouped(goblin("goblin-1", "a"), "melee")]);
    let mut battle = Battle::seeded(&setup, 0);
    battle.gm(C::Begin { surprised: vec!["heroes".into()], surprise_dice: 0 });
    assert_eq!(battle.state.round, 0, "the surprise round");
    assert!(battle.figure("roland").hand.is_empty());
    assert_eq!(battle.figure("goblin-1").hand, vec![5, 4, 3]);
    let events = battle.gm(attack("goblin-1", "Spear", "roland"));
    assert_eq!(attacks(&events).len(), 1, "no defence awaited");
    assert_refused(
        Battle::seeded(&setup, 0)
            .attempt(gm(), C::Begin { surprised: vec!["heroes".into(), "goblins".into()], surprise_dice: 0 }),
        "swift-swords.everyone_surprised",
        "Surprise",
    );
}

#[test]
fn an_action_pool_gains_a_die_each_action_and_is_lost_to_any_other_action_per_seed_004_actions_and_refresh() {
    let mage = FigureSpec { skills: vec![SkillSpec { name: "fire".into(), dice: 3 }], ..roland("a") };
    let mut battle = Battle::begun(&Setup::of(vec![mage, goblin("goblin-1", "d")]), 0);
    only(&mut battle, "roland", &[6, 6, 6, 6, 6]);
    battle.by(alice(), C::StartPool { figure: "roland".into(), name: "fireball".into(), cost: 5, pay: None });
    battle.by(alice(), C::Pool { figure: "roland".into(), into: PoolKind::Action, pay: None });
    battle.by(alice(), C::Pool { figure: "roland".into(), into: PoolKind::Action, pay: None });
    assert_eq!(battle.figure("roland").action_pool.as_ref().map(|pool| pool.dice), Some(2));
    let events = battle.by(
        alice(),
        C::SkillRoll {
            figure: "roland".into(),
            skill: "fire".into(),
            cost: 2,
            purpose: "the fireball".into(),
            casting: true,
            from_pool: true,
            effort: false,
            bump: false,
            pay: None,
        },
    );
    let dice = events.iter().find_map(|event| match event {
        E::SkillRolled { roll, .. } => Some(roll.dice),
        _ => None,
    });
    assert_eq!(dice, Some(3 + 2), "each pooled die a bonus die");
    assert!(battle.figure("roland").action_pool.is_none(), "released");
}

#[test]
fn a_week_of_rest_heals_two_wounds_then_one_a_week_and_a_healer_one_more_per_seed_004_slow_healing() {
    let healer = FigureSpec {
        controller: Some("alice".into()),
        skills: vec![SkillSpec { name: "healing".into(), dice: 5 }],
        ..figure("healer", "heroes", "b")
    };
    let setup =
        Setup::of(vec![FigureSpec { stateless: true, physical: 6, ..roland("a") }, healer, goblin("goblin-1", "d")]);
    let mut battle = Battle::begun(&setup, 0);
    for _ in 0..5 {
        battle.gm(C::Inflict {
            figure: "roland".into(),
            damage: 1,
            ranks: RankSide::Physical,
            magic: false,
            massive: false,
            reason: "wounds".into(),
        });
    }
    assert_eq!(battle.figure("roland").physical.lost, 5);
    battle.gm(C::HealWeek { figure: "roland".into(), good_food_and_water: true, no_travel: true, healer: None });
    assert_eq!(battle.figure("roland").physical.lost, 3, "the first week: 2");
    battle.gm(C::HealWeek { figure: "roland".into(), good_food_and_water: true, no_travel: false, healer: None });
    assert_eq!(battle.figure("roland").physical.lost, 2, "later: 1, one requirement may be missed");
    let events = battle.gm(C::HealWeek {
        figure: "roland".into(),
        good_food_and_water: false,
        no_travel: false,
        healer: Some("healer".into()),
    });
    let healed = events.iter().find_map(|event| match event {
        E::HealerRolled { roll, .. } => Some(roll.passed()),
        _ => None,
    });
    assert_eq!(
        battle.figure("roland").physical.lost,
        2 - u32::from(healed == Some(true)),
        "no rest, only the healer's roll"
    );
    assert_eq!(
        battle.figure("roland").mental.crossover,
        battle.figure("roland").physical.lost / 2,
        "crossover regained with its cause"
    );
}

#[test]
fn first_aid_removes_a_stun_and_the_wound_of_one_lost_rank_per_seed_004_fast_healing() {
    let mut battle = Battle::begun(&Setup::of(vec![roland("a"), goblin("goblin-1", "d")]), 0);
    battle.gm(C::Inflict {
        figure: "roland".into(),
        damage: 1,
        ranks: RankSide::Physical,
        magic: false,
        massive: false,
        reason: "a cut".into(),
    });
    battle.gm(C::Inflict {
        figure: "roland".into(),
        damage: 1,
        ranks: RankSide::Physical,
        magic: false,
        massive: false,
        reason: "a cut".into(),
    });
    battle.gm(C::FirstAid { figure: "roland".into() });
    assert!(battle.figure("roland").states.is_empty());
    assert_eq!(battle.figure("roland").physical.lost, 0);
}

#[test]
fn the_gm_ends_the_encounter_and_a_player_may_only_concede_per_seed_004_what_it_all_means() {
    let setup = Setup::of(vec![roland("a"), goblin("goblin-1", "d")]);
    let mut battle = Battle::begun(&setup, 0);
    assert_refused(
        battle.attempt(alice(), C::EndBattle { winner: Some("heroes".into()), reason: "we win".into() }),
        "swift-swords.judge_only",
        "swift-swords",
    );
    battle.by(alice(), C::EndBattle { winner: Some("goblins".into()), reason: "we flee".into() });
    assert!(battle.state.ended());
    let outcome = SwiftSwords::outcome(&battle.state).expect("an outcome");
    assert_eq!(outcome.winner.as_deref(), Some("goblins"));
    let heroes = outcome.participants.iter().find(|participant| participant.name == "heroes").expect("heroes");
    assert_eq!((heroes.controller.as_str(), heroes.fielded, heroes.lost), ("alice", 1, 0));
    assert_refused(battle.attempt(gm(), begin()), "swift-swords.ended", "swift-swords");
}

#[test]
fn a_set_up_that_breaks_the_seed_is_refused_with_its_rule_per_seed_004_ranks() {
    let too_high = Setup::of(vec![FigureSpec { physical: 10, ..roland("a") }, goblin("goblin-1", "d")]);
    let mut battle = Battle::empty(0);
    assert_refused(battle.attempt(gm(), too_high.command(0)), "swift-swords.bad_profile", "Ranks.");
    let too_many_dice = Setup::of(vec![
        FigureSpec { action_dice: ActionDiceSpec::Roll { dice: 7 }, ..roland("a") },
        goblin("goblin-1", "d"),
    ]);
    assert_refused(battle.attempt(gm(), too_many_dice.command(0)), "swift-swords.bad_profile", "Initiative");
    let nowhere = Setup::of(vec![roland("nowhere"), goblin("goblin-1", "d")]);
    assert_refused(battle.attempt(gm(), nowhere.command(0)), "swift-swords.unknown_zone", "swift-swords");
    assert_refused(
        battle.attempt(alice(), Setup::of(vec![roland("a")]).command(0)),
        "swift-swords.judge_only",
        "swift-swords",
    );
}

#[test]
fn entropy_is_taken_from_players_before_the_first_die_only() {
    let setup = Setup::of(vec![roland("a"), goblin("goblin-1", "d")]);
    let mut battle = Battle::seeded(&setup, 0);
    battle.by(alice(), C::ContributeEntropy { entropy: "alice's lucky string".into() });
    battle.gm(begin());
    assert_refused(
        battle.attempt(alice(), C::ContributeEntropy { entropy: "too late".into() }),
        "swift-swords.entropy_after_first_roll",
        "DICE.md",
    );
}
