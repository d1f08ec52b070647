//! Movement (seed 002 "TURN", "RUNNING", "ROAD BONUS", "CROSSING WATER", "Speed", "Slow",
//! "Water walk", "Statue"): the allowance, running, the road bonus, water by size and width,
//! bridges, and facing.

#[path = "percentile_skirmish_support.rs"]
mod support;

use herald_domain::percentile_skirmish::{
    battle::SkirmishEvent,
    mini::{MiniProfile, MiniSpec, Size},
    rules::BattleOptions,
    spells::Spell,
    table::{Table, TerrainKind},
};
use support::*;

/// A red mini `profile` at (`x`, `y`) facing east, and a far blue archer.
fn alone(profile: MiniProfile, x: f64, y: f64) -> Vec<MiniSpec> {
    vec![mini("red-a", RED, profile, x, y, 0.0), mini("blue-z", BLUE, card("Archer", 0, 1, 10), 46.0, 46.0, 180.0)]
}

fn walker(size: Size) -> MiniProfile {
    sized(card("Walker", 1, 10, 20), size)
}

fn moved(events: &[SkirmishEvent]) -> (herald_domain::percentile_skirmish::table::Point, Option<String>, f64) {
    match find(events, "percentile-skirmish.Moved") {
        SkirmishEvent::Moved { to, stopped_at_water, allowance, .. } => {
            (*to, stopped_at_water.clone(), allowance.inches)
        }
        _ => unreachable!(),
    }
}

#[test]
fn a_mini_walks_up_to_its_movement_in_a_turn_per_seed_002_turn() {
    check(Case {
        rule: "TURN",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(14.0, 10.0)]))],
        then: holds(|battle, events| {
            assert_eq!(battle.mini("red-a").position, p(14.0, 10.0));
            assert_eq!(moved(events).2, 4.0);
        }),
    });
    check(Case {
        rule: "TURN",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(12.0, 10.0)])), (alice(), walk("red-a", &[(14.1, 10.0)]))],
        then: Then::Refused("percentile-skirmish.too_far", "TURN"),
    });
}

#[test]
fn a_running_mini_moves_one_and_a_half_times_its_movement_per_seed_002_running() {
    check(Case {
        rule: "RUNNING",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).acting("red-a"),
        when: vec![(alice(), run("red-a", &[(16.0, 10.0)]))],
        then: holds(|battle, events| {
            assert_eq!(moved(events).2, 6.0);
            assert!(battle.mini("red-a").this_turn.ran);
        }),
    });
    check(Case {
        rule: "RUNNING",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).acting("red-a"),
        when: vec![(alice(), run("red-a", &[(16.1, 10.0)]))],
        then: Then::Refused("percentile-skirmish.too_far", "RUNNING"),
    });
}

#[test]
fn a_running_mini_cannot_engage_in_combat_per_seed_002_running() {
    let minis = vec![
        mini("red-a", RED, walker(Size::Medium), 10.0, 10.0, 0.0),
        mini("blue-z", BLUE, card("Archer", 0, 1, 10), 17.0, 10.0, 180.0),
    ];
    check(Case {
        rule: "RUNNING",
        given: Given::minis(minis.clone()).acting("red-a"),
        when: vec![(alice(), run("red-a", &[(16.0, 10.0)])), (alice(), strike("red-a", "blue-z", "Sword"))],
        then: Then::Refused("percentile-skirmish.ran_this_turn", "RUNNING"),
    });
    check(Case {
        rule: "RUNNING",
        given: Given::minis(minis).acting("red-a"),
        when: vec![(alice(), shoot("red-a", "blue-z", "Bow")), (alice(), run("red-a", &[(12.0, 12.0)]))],
        then: Then::Refused("percentile-skirmish.run_after_combat", "RUNNING"),
    });
}

#[test]
fn a_running_mini_cannot_cast_spells_of_any_kind_per_seed_002_running() {
    let minis = vec![
        mini("red-a", RED, caster("Mage", 5, 10, &[Spell::MagicShield]), 10.0, 10.0, 0.0),
        mini("blue-z", BLUE, card("Archer", 0, 1, 10), 40.0, 40.0, 180.0),
    ];
    check(Case {
        rule: "RUNNING",
        given: Given::minis(minis).acting("red-a"),
        when: vec![(alice(), run("red-a", &[(15.0, 10.0)])), (alice(), cast_self("red-a", Spell::MagicShield))],
        then: Then::Refused("percentile-skirmish.ran_this_turn", "RUNNING"),
    });
}

#[test]
fn a_mini_that_begins_and_ends_on_the_road_adds_one_inch_per_seed_002_road_bonus() {
    let table = table_with(vec![road("King's road", 10.0)]);
    check(Case {
        rule: "ROAD BONUS",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).on(table.clone()).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(13.0, 10.0)])), (alice(), walk("red-a", &[(15.0, 10.0)]))],
        then: holds(|battle, events| {
            assert!(battle.mini("red-a").this_turn.moved > 4.0);
            assert_eq!(moved(events).2, 5.0, "4″ + 1″ on the road");
        }),
    });
    // Leaving the road ends the movement off it: no bonus.
    check(Case {
        rule: "ROAD BONUS",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).on(table.clone()).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(14.0, 10.0), (14.0, 12.0)]))],
        then: Then::Refused("percentile-skirmish.too_far", "TURN"),
    });
    // Beginning off the road gives no bonus either.
    check(Case {
        rule: "ROAD BONUS",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 13.0)).on(table).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(10.0, 10.0), (12.0, 10.0)]))],
        then: Then::Refused("percentile-skirmish.too_far", "TURN"),
    });
}

#[test]
fn a_medium_mini_stops_at_the_edge_of_any_water_per_seed_002_crossing_water() {
    let table = table_with(vec![stream("Brook", 12.0, 0.5)]);
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).on(table.clone()).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(14.0, 10.0)]))],
        then: holds(|battle, events| {
            let (to, stopped, _) = moved(events);
            assert_eq!(stopped.as_deref(), Some("Brook"));
            assert!((to.x - 11.75).abs() < 1e-9 && to.y == 10.0, "at the water's edge: {to:?}");
            assert!(battle.mini("red-a").this_turn.movement_ended);
        }),
    });
    // "even if they have movement points left".
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).on(table).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(14.0, 10.0)])), (alice(), walk("red-a", &[(11.0, 11.0)]))],
        then: Then::Refused("percentile-skirmish.movement_over", "CROSSING WATER"),
    });
}

#[test]
fn a_mini_wading_through_water_that_hinders_it_has_half_movement_for_the_turn_per_seed_002_crossing_water() {
    // Turn 2: the mini set out at the brook's edge, so it does not "encounter" it: it wades in,
    // at half movement (2″) for the whole turn.
    let table = table_with(vec![stream("Brook", 12.0, 0.5)]);
    let mut battle = Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).on(table).acting("red-a").battle();
    battle.by(alice(), walk("red-a", &[(14.0, 10.0)]));
    battle.next_turn();
    battle.until_acting("red-a");
    battle.refused_by(alice(), walk("red-a", &[(13.9, 10.0)]), "percentile-skirmish.too_far", "TURN");
    let events = battle.by(alice(), walk("red-a", &[(13.75, 10.0)]));
    let (to, stopped, inches) = moved(&events);
    assert_eq!((to, stopped, inches), (p(13.75, 10.0), None, 2.0));
    assert!(battle.mini("red-a").this_turn.through_water);
}

#[test]
fn a_large_mini_crosses_water_up_to_one_inch_wide_freely_per_seed_002_crossing_water() {
    let table = table_with(vec![stream("Brook", 12.0, 1.0)]);
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Large), 10.0, 10.0)).on(table).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(14.0, 10.0)]))],
        then: holds(|battle, events| {
            assert_eq!(moved(events), (p(14.0, 10.0), None, 4.0), "exactly 1″ is not larger than 1″");
            assert!(!battle.mini("red-a").this_turn.through_water);
        }),
    });
}

#[test]
fn a_large_mini_stops_at_water_wider_than_one_inch_per_seed_002_crossing_water() {
    let table = table_with(vec![stream("River", 13.0, 2.0)]);
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Large), 10.0, 10.0)).on(table).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(14.0, 10.0)]))],
        then: holds(|_, events| {
            let (to, stopped, _) = moved(events);
            assert_eq!((to, stopped.as_deref()), (p(12.0, 10.0), Some("River")));
        }),
    });
}

#[test]
fn a_small_mini_cannot_travel_across_water_wider_than_one_inch_per_seed_002_crossing_water() {
    let table = table_with(vec![stream("River", 13.0, 2.0)]);
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Small), 10.0, 10.0)).on(table.clone()).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(13.0, 10.0)]))],
        then: Then::Refused("percentile-skirmish.water_barred", "CROSSING WATER"),
    });
    // It may walk up to the edge, and along the bank.
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Small), 10.0, 10.0)).on(table).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(12.0, 10.0), (12.0, 12.0)]))],
        then: holds(|battle, _| assert_eq!(battle.mini("red-a").position, p(12.0, 12.0))),
    });
    // Narrow water stops it like a medium mini.
    let brook = table_with(vec![stream("Brook", 12.0, 0.5)]);
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Small), 10.0, 10.0)).on(brook).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(14.0, 10.0)]))],
        then: holds(|_, events| assert_eq!(moved(events).1.as_deref(), Some("Brook"))),
    });
}

#[test]
fn a_mini_in_water_that_hinders_it_attacks_only_if_it_did_not_move_per_seed_002_crossing_water() {
    // The archer stands in a pond from the start.
    let table = Table { terrain: vec![rect("Pond", TerrainKind::Water, (8.0, 8.0), (12.0, 12.0))], ..Table::default() };
    let minis = vec![
        mini("red-a", RED, walker(Size::Medium), 10.0, 10.0, 0.0),
        mini("blue-z", BLUE, card("Archer", 0, 1, 10), 20.0, 10.0, 180.0),
    ];
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(minis.clone()).on(table.clone()).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(11.0, 10.0)])), (alice(), shoot("red-a", "blue-z", "Bow"))],
        then: Then::Refused("percentile-skirmish.moved_in_water", "CROSSING WATER"),
    });
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(minis).on(table).acting("red-a"),
        when: vec![(alice(), shoot("red-a", "blue-z", "Bow")), (alice(), walk("red-a", &[(11.0, 10.0)]))],
        then: Then::Refused("percentile-skirmish.attacked_in_water", "CROSSING WATER"),
    });
}

#[test]
fn a_road_across_water_is_a_bridge_per_herald_reading_of_seed_002_crossing_water() {
    let table = table_with(vec![stream("Brook", 12.0, 0.5), road("Bridge road", 10.0)]);
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).on(table.clone()).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(14.0, 10.0)]))],
        then: holds(|_, events| assert_eq!(moved(events), (p(14.0, 10.0), None, 5.0))),
    });
    // Stepping off the bridge into the brook stops the mini where it leaves the road.
    check(Case {
        rule: "CROSSING WATER",
        given: Given::minis(alone(walker(Size::Medium), 12.0, 10.0)).on(table).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(12.0, 13.0)]))],
        then: holds(|_, events| {
            let (to, stopped, _) = moved(events);
            assert_eq!(stopped.as_deref(), Some("Brook"));
            assert!((to.y - 11.0).abs() < 1e-9, "{to:?}");
        }),
    });
}

#[test]
fn water_walk_makes_small_and_medium_minis_large_and_large_ones_treat_water_as_clear_per_seed_002_water_walk() {
    let wizard = caster("Wizard", 20, 20, &[Spell::WaterWalk]);
    let cases = [
        // (size of the walker, river width, stopped at the water, halved)
        (Size::Medium, 0.5, None),
        (Size::Small, 2.0, Some("River")),
        (Size::Large, 3.0, None),
    ];
    for (size, width, stopped) in cases {
        let table = table_with(vec![stream("River", 12.0 + width / 2.0, width)]);
        let minis = vec![
            mini("red-wizard", RED, wizard.clone(), 10.0, 14.0, 0.0),
            mini("red-a", RED, walker(size), 10.0, 10.0, 0.0),
            mini("blue-z", BLUE, card("Archer", 0, 1, 10), 46.0, 46.0, 180.0),
        ];
        let mut battle = Given::minis(minis).on(table).acting("red-wizard").battle();
        battle.by(alice(), cast_at("red-wizard", Spell::WaterWalk, "red-a"));
        assert!(battle.mini("red-a").under(Spell::WaterWalk), "{size:?}: the spell took");
        battle.until_acting("red-a");
        let events = battle.by(alice(), walk("red-a", &[(14.0, 10.0)]));
        let (_, stopped_at, _) = moved(&events);
        assert_eq!(stopped_at.as_deref(), stopped, "{size:?} across {width}″");
    }
}

#[test]
fn speed_adds_one_inch_and_three_initiative_and_slow_takes_them_away_per_seed_002_speed_and_slow() {
    let wizard = caster("Wizard", 20, 20, &[Spell::Speed, Spell::Slow]);
    let minis = vec![
        mini("red-wizard", RED, wizard, 10.0, 14.0, 0.0),
        mini("red-a", RED, walker(Size::Medium), 10.0, 10.0, 0.0),
        mini("blue-z", BLUE, card("Archer", 0, 9, 10), 20.0, 14.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-wizard").battle();
    battle.by(alice(), cast_at("red-wizard", Spell::Speed, "red-a"));
    let a = battle.mini("red-a");
    assert_eq!((a.movement(), a.initiative()), (5.0, 13));
    battle.until_acting("red-a");
    battle.by(alice(), walk("red-a", &[(15.0, 10.0)]));
    battle.next_turn();
    // Turn 2: the wizard (20), then the sped walker (13), then the archer (9).
    battle.until_acting("red-wizard");
    battle.by(alice(), cast_at("red-wizard", Spell::Slow, "blue-z"));
    let z = battle.mini("blue-z");
    assert_eq!((z.movement(), z.initiative()), (3.0, 6));
    battle.judge(done("red-wizard"));
    let rounds: Vec<i32> = battle.state.round.iter().map(|r| r.value).collect();
    assert_eq!(rounds, vec![13], "the next round is the sped walker's");
}

#[test]
fn a_statue_cannot_move_per_seed_002_statue() {
    let wizard = caster("Wizard", 20, 20, &[Spell::Statue]);
    let minis = vec![
        mini("red-wizard", RED, wizard, 10.0, 14.0, 0.0),
        mini("blue-z", BLUE, card("Archer", 0, 9, 10), 14.0, 14.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-wizard").battle();
    battle.by(alice(), cast_at("red-wizard", Spell::Statue, "blue-z"));
    assert!(battle.mini("blue-z").under(Spell::Statue));
    battle.until_acting("blue-z");
    battle.refused_by(bob(), walk("blue-z", &[(16.0, 14.0)]), "percentile-skirmish.statue", "Statue");
    battle.refused_by(bob(), strike("blue-z", "red-wizard", "Sword"), "percentile-skirmish.statue", "Statue");
}

#[test]
fn a_mini_faces_the_way_it_moved_unless_told_otherwise() {
    check(Case {
        rule: "Flank attack",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(10.0, 13.0)]))],
        then: holds(|battle, _| assert_eq!(battle.mini("red-a").facing, 90.0)),
    });
    check(Case {
        rule: "Flank attack",
        given: Given::minis(alone(walker(Size::Medium), 10.0, 10.0)).acting("red-a"),
        when: vec![(alice(), turn_to("red-a", -90.0))],
        then: holds(|battle, _| {
            assert_eq!(battle.mini("red-a").facing, 270.0);
            assert_eq!(battle.mini("red-a").this_turn.moved, 0.0, "turning in place costs nothing");
        }),
    });
}

#[test]
fn a_path_off_the_table_is_refused() {
    check(Case {
        rule: "TURN",
        given: Given::minis(alone(walker(Size::Medium), 1.0, 10.0)).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(-1.0, 10.0)]))],
        then: Then::Refused("percentile-skirmish.off_table", "herald"),
    });
}

#[test]
fn options_default_to_herald_readings() {
    let options = BattleOptions::default();
    assert_eq!((options.melee_reach, options.front_arc, options.fireball_width), (1.0, 180.0, 1.0));
    assert_eq!((options.large_shield, options.magical_plate), (2, 5));
}
