//! Non-magic combat (seed 002 "4 TYPES OF NON MAGIC COMBAT", "Open combat", "Range attacks",
//! "Attack of opportunity", "Flank attack", "NON MEDIUM SIZED MINI'S", "RANGE OR SPELL ATTACKS ON
//! A FLANKED MINI", "RESISTANCES"): every percentile roll recorded and checked against its
//! chance, damage after resistances and armour, deaths and the end of the battle.

#[path = "percentile_skirmish_support.rs"]
mod support;

use herald_domain::percentile_skirmish::{
    battle::{
        event::{AttackKind, DamageDealt},
        SkirmishEvent,
    },
    mini::{Armour, ArmourSlot, Element, MiniProfile, MiniSpec, Resistance, Size},
    rules::{AttackOption, CombatChoice, Exchange, RangeBand, ResistanceApplied},
    spells::Spell,
};
use support::*;

use CombatChoice::{ParryAndCounterAttack as Parry, Random, SwingToTheHead as Swing, ThrustToTheBody as Thrust};

/// Red's fighter of `level` at (10, 10) facing east, blue's `defender` at (`x`, `y`) facing
/// `facing`.
fn duel(level: u32, defender: MiniProfile, x: f64, y: f64, facing: f64) -> Vec<MiniSpec> {
    vec![
        mini("red-a", RED, card("Fighter", level, 10, 30), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, defender, x, y, facing),
    ]
}

fn attacked(events: &[SkirmishEvent]) -> (AttackKind, Option<RangeBand>, u32, u32, bool, Option<DamageDealt>) {
    match find(events, "percentile-skirmish.Attacked") {
        SkirmishEvent::Attacked { kind, band, chance, roll, hit, damage, .. } => {
            (*kind, *band, chance.chance, roll.value, *hit, damage.clone())
        }
        _ => unreachable!(),
    }
}

#[test]
fn open_combat_from_the_front_waits_for_both_sides_options_per_seed_002_open_combat() {
    check(Case {
        rule: "Open combat",
        given: Given::minis(duel(3, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0)).acting("red-a"),
        when: vec![(alice(), strike("red-a", "blue-b", "Sword")), (alice(), pick("red-a", Swing))],
        then: holds(|battle, events| {
            assert!(has(events, "percentile-skirmish.CombatOptionChosen"));
            let combat = battle.state.combat.clone().expect("waiting for blue");
            assert_eq!((combat.attacker_choice, combat.defender_choice), (Some(Swing), None));
            assert_eq!(battle.mini("red-a").this_turn.attacks, 1, "the attack is counted when it begins");
        }),
    });
    // Nothing else happens until both have picked.
    check(Case {
        rule: "Open combat",
        given: Given::minis(duel(3, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0)).acting("red-a"),
        when: vec![(alice(), strike("red-a", "blue-b", "Sword")), (alice(), walk("red-a", &[(10.0, 11.0)]))],
        then: Then::Refused("percentile-skirmish.combat_pending", "Open combat"),
    });
}

#[test]
fn each_side_picks_for_its_own_mini_once_per_seed_002_open_combat() {
    let given = || Given::minis(duel(3, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0)).acting("red-a");
    let mut battle = given().battle();
    battle.by(alice(), strike("red-a", "blue-b", "Sword"));
    let error = battle.refused_by(alice(), pick("blue-b", Swing), "percentile-skirmish.not_your_mini", "herald");
    assert!(error.forbidden);
    battle.by(alice(), pick("red-a", Thrust));
    battle.refused_by(alice(), pick("red-a", Swing), "percentile-skirmish.already_chosen", "Open combat");
}

#[test]
fn the_triangle_decides_an_open_combat_of_different_options_per_seed_002_open_combat() {
    use AttackOption as O;
    // (A's pick, B's pick, A hits, B hits).
    let table = [
        (Swing, Parry, true, false),
        (Thrust, Swing, true, false),
        (Parry, Thrust, true, false),
        (Parry, Swing, false, true),
    ];
    for (a, b, a_hits, b_hits) in table {
        let mut battle = Given::minis(duel(3, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0)).acting("red-a").battle();
        battle.by(alice(), strike("red-a", "blue-b", "Sword"));
        battle.by(alice(), pick("red-a", a));
        let events = battle.by(bob(), pick("blue-b", b));
        let SkirmishEvent::OpenCombatResolved {
            exchange, percentile, damage, attacker_option, defender_option, ..
        } = find(&events, "percentile-skirmish.OpenCombatResolved")
        else {
            unreachable!()
        };
        assert_eq!((a.option(), b.option()), (Some(*attacker_option), Some(*defender_option)));
        assert!(percentile.is_none(), "no dice when the options differ");
        assert_eq!((exchange.a_hits(), exchange.b_hits()), (a_hits, b_hits), "{a:?} against {b:?}");
        let hit: Vec<&str> = damage.iter().map(|d| d.mini.as_str()).collect();
        let expected: Vec<&str> = if a_hits { vec!["blue-b"] } else { vec!["red-a"] };
        assert_eq!(hit, expected);
        assert_eq!(damage[0].damage.taken, 5, "the Sword does 5");
        let _ = O::SwingToTheHead;
    }
}

#[test]
fn the_same_option_rolls_percentile_dice_per_seed_002_open_combat() {
    let mut seen = std::collections::BTreeSet::new();
    for n in 0..40 {
        let given = Given::minis(duel(3, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0)).acting("red-a").seed(n);
        let mut battle = given.battle();
        battle.by(alice(), strike("red-a", "blue-b", "Sword"));
        battle.by(alice(), pick("red-a", Thrust));
        let events = battle.by(bob(), pick("blue-b", Thrust));
        let SkirmishEvent::OpenCombatResolved { exchange, percentile, damage, .. } =
            find(&events, "percentile-skirmish.OpenCombatResolved")
        else {
            unreachable!()
        };
        let roll = percentile.clone().expect("a percentile die");
        assert_eq!(roll.sides, 100);
        assert_eq!(*exchange, Exchange::from_percentile(roll.value), "{:02}", roll.value);
        assert_eq!(damage.len(), usize::from(exchange.a_hits()) + usize::from(exchange.b_hits()));
        if exchange.a_hits() && exchange.b_hits() {
            // Both hit at once: the attacker's blow first, then the defender's.
            assert_eq!((damage[0].mini.as_str(), damage[1].mini.as_str()), ("blue-b", "red-a"));
        }
        seen.insert(format!("{exchange:?}"));
    }
    assert_eq!(seen.len(), 4, "every row of the table came up: {seen:?}");
}

#[test]
fn a_random_pick_rolls_a_d6_on_the_seeds_table_per_seed_002_open_combat() {
    let mut battle = Given::minis(duel(3, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0)).acting("red-a").battle();
    battle.by(alice(), strike("red-a", "blue-b", "Sword"));
    battle.by(alice(), pick("red-a", Random));
    let events = battle.by(bob(), pick("blue-b", Parry));
    let SkirmishEvent::OpenCombatResolved { option_rolls, attacker_option, .. } =
        find(&events, "percentile-skirmish.OpenCombatResolved")
    else {
        unreachable!()
    };
    assert_eq!(option_rolls.len(), 1);
    assert_eq!((option_rolls[0].mini.as_str(), option_rolls[0].draw.sides), ("red-a", 6));
    assert_eq!(*attacker_option, AttackOption::from_d6(option_rolls[0].draw.value));
}

#[test]
fn a_statue_defends_with_a_rolled_option_and_its_hit_does_nothing_per_seed_002_statue() {
    let minis = vec![
        mini("red-a", RED, caster("Fighter", 20, 10, &[Spell::Statue]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-a").battle();
    battle.by(alice(), cast_at("red-a", Spell::Statue, "blue-b"));
    assert!(battle.mini("blue-b").under(Spell::Statue));
    let events = battle.by(alice(), strike("red-a", "blue-b", "Sword"));
    let SkirmishEvent::OpenCombatStarted { defender_helpless, .. } =
        find(&events, "percentile-skirmish.OpenCombatStarted")
    else {
        unreachable!()
    };
    assert!(*defender_helpless);
    let events = battle.by(alice(), pick("red-a", Swing));
    let SkirmishEvent::OpenCombatResolved { option_rolls, damage, .. } =
        find(&events, "percentile-skirmish.OpenCombatResolved")
    else {
        unreachable!()
    };
    assert_eq!(option_rolls[0].mini, "blue-b", "the statue's option is rolled");
    assert!(damage.iter().all(|d| d.mini == "blue-b"), "the statue hits nobody");
}

#[test]
fn an_attack_from_outside_the_front_arc_is_a_flank_attack_per_seed_002_flank_attack() {
    // The guard faces east, away from the fighter standing west of it.
    let given = Given::minis(duel(2, card("Guard", 1, 5, 30), 11.0, 10.0, 0.0)).acting("red-a");
    check(Case {
        rule: "Flank attack",
        given,
        when: vec![(alice(), strike("red-a", "blue-b", "Sword"))],
        then: holds(|battle, events| {
            let (kind, band, chance, roll, hit, damage) = attacked(events);
            assert_eq!((kind, band, chance), (AttackKind::Flank, None, 71), "65% + level × 3");
            assert_eq!(hit, roll <= chance);
            assert_eq!(damage.is_some(), hit);
            assert!(battle.state.combat.is_none(), "no open combat");
        }),
    });
}

#[test]
fn shields_and_forward_facing_armour_do_not_protect_from_flank_attacks_per_seed_002_flank_attack() {
    let mut guard = card("Guard", 1, 5, 30);
    guard.armour = vec![
        Armour {
            name: "Tower shield".into(),
            slot: ArmourSlot::Shield,
            protection: 2,
            metal: false,
            magical: false,
            forward_facing: true,
        },
        Armour {
            name: "Breastplate".into(),
            slot: ArmourSlot::Body,
            protection: 1,
            metal: true,
            magical: false,
            forward_facing: true,
        },
        armour("Helm", ArmourSlot::Body, 1, true, false),
    ];
    // Level 20: the flank attack's chance is 100.
    let given = Given::minis(duel(20, guard, 11.0, 10.0, 0.0)).acting("red-a");
    check(Case {
        rule: "Flank attack",
        given,
        when: vec![(alice(), strike("red-a", "blue-b", "Sword"))],
        then: holds(|battle, events| {
            let damage = attacked(events).5.expect("a hit");
            assert_eq!(
                (damage.damage.rolled, damage.damage.armour, damage.damage.taken),
                (5, 1, 4),
                "only the helm counts"
            );
            assert_eq!(battle.mini("blue-b").life, 26);
        }),
    });
}

#[test]
fn melee_needs_the_target_within_reach_and_an_enemy() {
    check(Case {
        rule: "4 TYPES OF NON MAGIC COMBAT",
        given: Given::minis(duel(2, card("Guard", 1, 5, 30), 11.5, 10.0, 180.0)).acting("red-a"),
        when: vec![(alice(), strike("red-a", "blue-b", "Sword"))],
        then: Then::Refused("percentile-skirmish.out_of_reach", "4 TYPES OF NON MAGIC COMBAT"),
    });
    let mut minis = duel(2, card("Guard", 1, 5, 30), 30.0, 10.0, 180.0);
    minis.push(mini("red-c", RED, card("Friend", 1, 5, 30), 11.0, 10.0, 180.0));
    check(Case {
        rule: "4 TYPES OF NON MAGIC COMBAT",
        given: Given::minis(minis).acting("red-a"),
        when: vec![(alice(), strike("red-a", "red-c", "Sword"))],
        then: Then::Refused("percentile-skirmish.friendly_target", "4 TYPES OF NON MAGIC COMBAT"),
    });
    check(Case {
        rule: "4 TYPES OF NON MAGIC COMBAT",
        given: Given::minis(duel(2, card("Guard", 1, 5, 30), 11.0, 10.0, 180.0)).acting("red-a"),
        when: vec![(alice(), strike("red-a", "blue-b", "Bow"))],
        then: Then::Refused("percentile-skirmish.not_melee_weapon", "4 TYPES OF NON MAGIC COMBAT"),
    });
}

#[test]
fn a_range_attack_rolls_against_its_bands_chance_per_seed_002_range_attacks() {
    // The Bow reaches 24″: 6″ is short, 12″ medium, 20″ long; the target faces the archer.
    for (x, band, chance) in [(16.0, RangeBand::Short, 71), (22.0, RangeBand::Medium, 54), (30.0, RangeBand::Long, 37)]
    {
        let given = Given::minis(duel(2, card("Target", 1, 5, 30), x, 10.0, 180.0)).acting("red-a");
        check(Case {
            rule: "Range attacks",
            given,
            when: vec![(alice(), shoot("red-a", "blue-b", "Bow"))],
            then: holds(move |_, events| {
                let (kind, got_band, got_chance, roll, hit, _) = attacked(events);
                assert_eq!((kind, got_band, got_chance), (AttackKind::Ranged, Some(band), chance));
                assert_eq!(hit, roll <= chance);
            }),
        });
    }
    check(Case {
        rule: "Range attacks",
        given: Given::minis(duel(2, card("Target", 1, 5, 30), 34.5, 10.0, 180.0)).acting("red-a"),
        when: vec![(alice(), shoot("red-a", "blue-b", "Bow"))],
        then: Then::Refused("percentile-skirmish.out_of_range", "Range attacks"),
    });
}

#[test]
fn size_and_flank_modify_a_range_attack_per_seed_002_non_medium_sized_minis() {
    // A small target seen from behind at short range: 65 + 6 − 5 + 15.
    let small = sized(card("Imp", 1, 5, 30), Size::Small);
    check(Case {
        rule: "NON MEDIUM SIZED MINI'S",
        given: Given::minis(duel(2, small, 16.0, 10.0, 0.0)).acting("red-a"),
        when: vec![(alice(), shoot("red-a", "blue-b", "Bow"))],
        then: holds(|_, events| assert_eq!(attacked(events).2, 81)),
    });
    // A large target facing the archer at long range: 35 + 2 + 5.
    let large = sized(card("Ogre", 1, 5, 30), Size::Large);
    check(Case {
        rule: "NON MEDIUM SIZED MINI'S",
        given: Given::minis(duel(2, large, 30.0, 10.0, 180.0)).acting("red-a"),
        when: vec![(alice(), shoot("red-a", "blue-b", "Bow"))],
        then: holds(|_, events| assert_eq!(attacked(events).2, 42)),
    });
}

#[test]
fn resistances_halve_or_stop_damage_per_seed_002_resistances() {
    // (the attacker's Bow, the target's resistances, damage rolled, resistance applied, taken).
    let flaming = |magical| herald_domain::percentile_skirmish::mini::Weapon {
        element: Some(Element::Fire),
        magical,
        ..ranged("Bow", 24.0, "9")
    };
    let plain = ranged("Bow", 24.0, "9");
    let magic = herald_domain::percentile_skirmish::mini::Weapon { magical: true, ..ranged("Bow", 24.0, "9") };
    let rows = [
        (plain.clone(), vec![], ResistanceApplied::None, 9),
        (
            plain,
            vec![Resistance::NonMagicWeapons],
            ResistanceApplied::Halved { resistance: Resistance::NonMagicWeapons },
            4,
        ),
        (magic, vec![Resistance::NonMagicWeapons], ResistanceApplied::None, 9),
        (flaming(false), vec![Resistance::Fire], ResistanceApplied::Negated { resistance: Resistance::Fire }, 0),
        (flaming(true), vec![Resistance::Poison], ResistanceApplied::None, 9),
        (flaming(false), vec![Resistance::Spells], ResistanceApplied::None, 9),
    ];
    for (bow, resistances, applied, taken) in rows {
        let mut archer = card("Archer", 20, 10, 30);
        archer.weapons = vec![bow];
        let minis = vec![
            mini("red-a", RED, archer, 10.0, 10.0, 0.0),
            mini("blue-b", BLUE, resisting(card("Target", 1, 5, 30), &resistances), 14.0, 10.0, 180.0),
        ];
        let mut battle = Given::minis(minis).acting("red-a").battle();
        let events = battle.by(alice(), shoot("red-a", "blue-b", "Bow"));
        let damage = attacked(&events).5.expect("level 20 always hits at short range");
        assert_eq!((damage.damage.resistance, damage.damage.taken), (applied, taken), "{resistances:?}");
        assert_eq!(battle.mini("blue-b").life, 30 - taken);
    }
}

#[test]
fn armour_subtracts_its_protection_after_resistances() {
    let mut target = resisting(card("Knight", 1, 5, 30), &[Resistance::NonMagicWeapons]);
    target.armour =
        vec![armour("Mail", ArmourSlot::Body, 2, true, false), armour("Shield", ArmourSlot::Shield, 1, false, false)];
    let mut archer = card("Archer", 20, 10, 30);
    archer.weapons = vec![ranged("Bow", 24.0, "11")];
    let minis = vec![mini("red-a", RED, archer, 10.0, 10.0, 0.0), mini("blue-b", BLUE, target, 14.0, 10.0, 180.0)];
    check(Case {
        rule: "RESISTANCES",
        given: Given::minis(minis).acting("red-a"),
        when: vec![(alice(), shoot("red-a", "blue-b", "Bow"))],
        then: holds(|_, events| {
            let damage = attacked(events).5.expect("a hit");
            // 11 halved (rounded down) is 5; mail and shield stop 3.
            assert_eq!((damage.damage.after_resistance, damage.damage.armour, damage.damage.taken), (5, 3, 2));
        }),
    });
}

#[test]
fn a_mini_at_zero_life_points_is_killed_and_the_last_side_standing_wins() {
    let mut archer = card("Archer", 20, 10, 30);
    archer.weapons = vec![ranged("Bow", 24.0, "50")];
    let minis = vec![
        mini("red-a", RED, archer, 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Target", 1, 5, 30), 14.0, 10.0, 180.0),
    ];
    check(Case {
        rule: "4 TYPES OF NON MAGIC COMBAT",
        given: Given::minis(minis).acting("red-a"),
        when: vec![(alice(), shoot("red-a", "blue-b", "Bow"))],
        then: holds(|battle, events| {
            let damage = attacked(events).5.expect("a hit");
            assert!(damage.killed && damage.life_left == 0);
            assert!(battle.mini("blue-b").killed);
            assert!(battle.state.ended());
            assert_eq!(battle.state.winner.as_deref(), Some(RED));
            let cursor = battle.state.dice_cursor().expect("dice");
            assert!(cursor.reveal_due, "the seed is due to be revealed when the battle ends");
        }),
    });
}

/// Red's runner of `level` next to blue's guard of `guard_level` who faces it.
fn passing(guard_level: u32) -> Vec<MiniSpec> {
    vec![
        mini("red-a", RED, card("Runner", 1, 10, 30), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", guard_level, 5, 30), 11.0, 10.0, 180.0),
    ]
}

#[test]
fn moving_out_of_an_enemys_reach_offers_an_attack_of_opportunity_per_seed_002_attack_of_opportunity() {
    check(Case {
        rule: "Attack of opportunity",
        given: Given::minis(passing(3)).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(10.0, 13.0)])), (bob(), opportunity("blue-b", "red-a"))],
        then: holds(|battle, events| {
            let (kind, _, chance, roll, hit, damage) = attacked(events);
            assert_eq!((kind, chance), (AttackKind::Opportunity, 56), "50% + level × 2");
            assert_eq!(hit, roll <= chance);
            assert_eq!(damage.is_some(), hit);
            assert!(battle.state.opportunities.is_empty());
            assert_eq!(battle.mini("blue-b").this_turn.attacks, 0, "it uses none of the guard's own attacks");
        }),
    });
    // The runner waits until the guard takes or lets go its chance.
    check(Case {
        rule: "Attack of opportunity",
        given: Given::minis(passing(3)).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(10.0, 12.0)])), (alice(), walk("red-a", &[(10.0, 13.0)]))],
        then: Then::Refused("percentile-skirmish.opportunity_pending", "Attack of opportunity"),
    });
    check(Case {
        rule: "Attack of opportunity",
        given: Given::minis(passing(3)).acting("red-a"),
        when: vec![
            (alice(), walk("red-a", &[(10.0, 12.0)])),
            (bob(), decline("blue-b", "red-a")),
            (alice(), walk("red-a", &[(10.0, 13.0)])),
        ],
        then: holds(|battle, _| assert_eq!(battle.mini("red-a").position, p(10.0, 13.0))),
    });
}

#[test]
fn only_the_mini_passed_may_make_the_attack_of_opportunity() {
    check(Case {
        rule: "Attack of opportunity",
        given: Given::minis(passing(3)).acting("red-a"),
        when: vec![(bob(), opportunity("blue-b", "red-a"))],
        then: Then::Refused("percentile-skirmish.no_opportunity", "Attack of opportunity"),
    });
    // Moving within reach offers nothing.
    check(Case {
        rule: "Attack of opportunity",
        given: Given::minis(passing(3)).acting("red-a"),
        when: vec![(alice(), walk("red-a", &[(10.5, 10.5)]))],
        then: holds(|battle, events| {
            assert!(battle.state.opportunities.is_empty());
            let SkirmishEvent::Moved { provoked, .. } = find(events, "percentile-skirmish.Moved") else {
                unreachable!()
            };
            assert!(provoked.is_empty());
        }),
    });
}
