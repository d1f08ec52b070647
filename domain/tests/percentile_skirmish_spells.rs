//! Spells (seed 002 "SPELL DESCRIPTIONS" and each spell's heading): cost in spell points,
//! range 12″ + caster's level, the ranged roll by band, durations on the turn count, and every
//! spell's effect.

#[path = "percentile_skirmish_support.rs"]
mod support;

use herald_domain::percentile_skirmish::{
    battle::{
        command::{FamiliarSpec, SkirmishCommand, Summons},
        event::SpellOutcome,
        SkirmishEvent,
    },
    mini::{ArmourSlot, MiniSpec, Resistance},
    rules::{BattleOptions, RangeBand, ResistanceApplied, ShortDuration, SpellRolls},
    spells::Spell,
};
use support::*;

/// Red's wizard of `level` at (10, 10) facing east knowing `spells`, blue's `target` card at
/// (`x`, 10) facing west.
fn wizard_and(
    level: u32,
    spells: &[Spell],
    target: herald_domain::percentile_skirmish::mini::MiniProfile,
    x: f64,
) -> Vec<MiniSpec> {
    vec![
        mini("red-wizard", RED, caster("Wizard", level, 20, spells), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, target, x, 10.0, 180.0),
    ]
}

fn cast(events: &[SkirmishEvent]) -> (u32, u32, Vec<SpellOutcome>) {
    match find(events, "percentile-skirmish.SpellCast") {
        SkirmishEvent::SpellCast { cost, spell_points_left, outcomes, .. } => {
            (*cost, *spell_points_left, outcomes.clone())
        }
        _ => unreachable!(),
    }
}

#[test]
fn a_spell_costs_its_spell_points_per_seed_002_spell_descriptions() {
    check(Case {
        rule: "Flying fist",
        given: Given::minis(wizard_and(20, &[Spell::FlyingFist], card("Target", 1, 5, 40), 14.0)).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::FlyingFist, "blue-b"))],
        then: holds(|battle, events| {
            assert_eq!(cast(events).0, 5);
            assert_eq!(cast(events).1, 195);
            assert_eq!(battle.mini("red-wizard").spell_points, 195);
        }),
    });
    let mut poor = caster("Wizard", 3, 20, &[Spell::Teleport]);
    poor.spell_points = 49;
    let minis = vec![
        mini("red-wizard", RED, poor, 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("T", 1, 5, 10), 40.0, 40.0, 0.0),
    ];
    check(Case {
        rule: "Teleport",
        given: Given::minis(minis).acting("red-wizard"),
        when: vec![(alice(), cast_to("red-wizard", Spell::Teleport, 12.0, 12.0))],
        then: Then::Refused("percentile-skirmish.not_enough_spell_points", "Teleport"),
    });
}

#[test]
fn a_caster_casts_only_the_spells_it_knows_and_as_many_as_its_spell_attacks() {
    check(Case {
        rule: "SPELL DESCRIPTIONS",
        given: Given::minis(wizard_and(20, &[Spell::FlyingFist], card("Target", 1, 5, 40), 14.0)).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::Fear, "blue-b"))],
        then: Then::Refused("percentile-skirmish.unknown_spell", "SPELL DESCRIPTIONS"),
    });
    check(Case {
        rule: "SPELL DESCRIPTIONS",
        given: Given::minis(wizard_and(20, &[Spell::FlyingFist], card("Target", 1, 5, 40), 14.0)).acting("red-wizard"),
        when: vec![
            (alice(), cast_at("red-wizard", Spell::FlyingFist, "blue-b")),
            (alice(), cast_at("red-wizard", Spell::FlyingFist, "blue-b")),
        ],
        then: Then::Refused("percentile-skirmish.no_spell_attacks_left", "SPELL DESCRIPTIONS"),
    });
}

#[test]
fn a_spell_reaches_twelve_inches_plus_the_casters_level_per_seed_002_spell_descriptions() {
    // Level 3: 15″. At exactly 15″ it is cast at long range; at 15.1″ it is refused.
    check(Case {
        rule: "Flying fist",
        given: Given::minis(wizard_and(3, &[Spell::FlyingFist], card("Target", 1, 5, 40), 25.0)).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::FlyingFist, "blue-b"))],
        then: holds(|_, events| {
            let outcome = &cast(events).2[0];
            assert_eq!(outcome.band, RangeBand::Long);
            assert_eq!(outcome.chance.map(|c| c.chance), Some(38), "35% + level");
        }),
    });
    check(Case {
        rule: "Flying fist",
        given: Given::minis(wizard_and(3, &[Spell::FlyingFist], card("Target", 1, 5, 40), 25.1)).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::FlyingFist, "blue-b"))],
        then: Then::Refused("percentile-skirmish.out_of_range", "Flying fist"),
    });
}

#[test]
fn spells_with_a_ranged_attack_roll_by_band_of_the_spells_range_per_seed_002_spell_descriptions() {
    // Level 3, 15″: short to 5″ (65 + 9), medium to 10″ (50 + 6), long to 15″ (35 + 3).
    for (x, band, chance) in [(15.0, RangeBand::Short, 74), (20.0, RangeBand::Medium, 56), (24.0, RangeBand::Long, 38)]
    {
        let given = Given::minis(wizard_and(3, &[Spell::FlyingFist], card("Target", 1, 5, 40), x)).acting("red-wizard");
        check(Case {
            rule: "SPELL DESCRIPTIONS",
            given,
            when: vec![(alice(), cast_at("red-wizard", Spell::FlyingFist, "blue-b"))],
            then: holds(move |_, events| {
                let outcome = &cast(events).2[0];
                assert_eq!((outcome.band, outcome.chance.map(|c| c.chance)), (band, Some(chance)));
                let roll = outcome.roll.clone().expect("a percentile die");
                assert_eq!(outcome.success, roll.value <= chance);
                assert_eq!(outcome.damage.is_some(), outcome.success);
            }),
        });
    }
}

#[test]
fn flying_fist_does_six_plus_the_casters_level_per_seed_002_flying_fist() {
    check(Case {
        rule: "Flying fist",
        given: Given::minis(wizard_and(20, &[Spell::FlyingFist], card("Target", 1, 5, 40), 14.0)).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::FlyingFist, "blue-b"))],
        then: holds(|battle, events| {
            let damage = cast(events).2[0].damage.clone().expect("a hit");
            assert_eq!((damage.damage.rolled, damage.damage.taken), (26, 26));
            assert_eq!(battle.mini("blue-b").life, 14);
        }),
    });
    // Resisting spells: half damage.
    let target = resisting(card("Target", 1, 5, 40), &[Resistance::Spells]);
    check(Case {
        rule: "RESISTANCES",
        given: Given::minis(wizard_and(20, &[Spell::FlyingFist], target, 14.0)).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::FlyingFist, "blue-b"))],
        then: holds(|_, events| {
            let damage = cast(events).2[0].damage.clone().expect("a hit");
            assert_eq!(damage.damage.resistance, ResistanceApplied::Halved { resistance: Resistance::Spells });
            assert_eq!(damage.damage.taken, 13);
        }),
    });
}

#[test]
fn lightning_bolt_ignores_non_magical_metal_armour_per_seed_002_lightning_bolt() {
    // (armour worn, protection counted).
    let rows = [
        (armour("Plate", ArmourSlot::Body, 3, true, false), 0),
        (armour("Leather", ArmourSlot::Body, 3, false, false), 3),
        (armour("Mithril", ArmourSlot::Body, 3, true, true), 3),
    ];
    for (piece, counted) in rows {
        let mut target = card("Target", 1, 5, 60);
        target.armour = vec![piece.clone()];
        let mut battle =
            Given::minis(wizard_and(20, &[Spell::LightningBolt], target, 14.0)).acting("red-wizard").battle();
        let events = battle.by(alice(), cast_at("red-wizard", Spell::LightningBolt, "blue-b"));
        let damage = cast(&events).2[0].damage.clone().expect("a hit");
        assert_eq!((damage.damage.armour, damage.damage.taken), (counted, 26 - counted), "{}", piece.name);
    }
    // Electricity resistance: no damage.
    let target = resisting(card("Target", 1, 5, 60), &[Resistance::Electricity, Resistance::Spells]);
    let mut battle = Given::minis(wizard_and(20, &[Spell::LightningBolt], target, 14.0)).acting("red-wizard").battle();
    let events = battle.by(alice(), cast_at("red-wizard", Spell::LightningBolt, "blue-b"));
    let damage = cast(&events).2[0].damage.clone().expect("a hit");
    assert_eq!(damage.damage.resistance, ResistanceApplied::Negated { resistance: Resistance::Electricity });
    assert_eq!(damage.damage.taken, 0);
}

#[test]
fn magic_shield_acts_as_a_large_shield_on_the_caster_per_seed_002_magic_shield() {
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 4, 20, &[Spell::MagicShield]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Archer", 20, 5, 40), 14.0, 10.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-wizard").battle();
    let events = battle.by(alice(), cast_self("red-wizard", Spell::MagicShield));
    let outcome = &cast(&events).2[0];
    assert!(outcome.roll.is_none(), "range NA: nothing to roll");
    assert_eq!(outcome.duration.map(|d| d.turns), Some(5), "1 turn + caster's level");
    let wizard = battle.mini("red-wizard");
    assert_eq!(wizard.effect(Spell::MagicShield).map(|e| e.turns_left), Some(5));
    battle.until_acting("blue-b");
    let events = battle.by(bob(), shoot("blue-b", "red-wizard", "Bow"));
    let SkirmishEvent::Attacked { damage, .. } = find(&events, "percentile-skirmish.Attacked") else { unreachable!() };
    let damage = damage.clone().expect("level 20 hits");
    assert_eq!((damage.damage.armour, damage.damage.taken), (2, 3), "the large shield stops 2");
    // Magic shield is cast on the caster only.
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 4, 20, &[Spell::MagicShield]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Archer", 20, 5, 40), 14.0, 10.0, 180.0),
    ];
    check(Case {
        rule: "Magic shield",
        given: Given::minis(minis).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::MagicShield, "blue-b"))],
        then: Then::Refused("percentile-skirmish.bad_aim", "Magic shield"),
    });
}

#[test]
fn protection_acts_as_magical_plate_mail_per_seed_002_protection() {
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 20, 20, &[Spell::Protection]), 10.0, 10.0, 0.0),
        mini("red-c", RED, card("Squire", 0, 15, 40), 11.0, 12.0, 0.0),
        mini("blue-b", BLUE, card("Archer", 20, 5, 40), 14.0, 10.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-wizard").battle();
    battle.by(alice(), cast_at("red-wizard", Spell::Protection, "red-c"));
    assert_eq!(battle.mini("red-c").effect(Spell::Protection).map(|e| e.turns_left), Some(21));
    battle.until_acting("blue-b");
    let events = battle.by(bob(), shoot("blue-b", "red-c", "Bow"));
    let SkirmishEvent::Attacked { damage, .. } = find(&events, "percentile-skirmish.Attacked") else { unreachable!() };
    assert_eq!(damage.clone().map(|d| (d.damage.armour, d.damage.taken)), Some((5, 0)), "magical plate stops 5");
}

#[test]
fn statue_lasts_one_turn_plus_the_level_difference_per_seed_002_statue() {
    // Caster level 20, target level 5: 1 + 15 = 16 turns.
    check(Case {
        rule: "Statue",
        given: Given::minis(wizard_and(20, &[Spell::Statue], card("Target", 5, 5, 40), 14.0)).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::Statue, "blue-b"))],
        then: holds(|battle, events| {
            let duration = cast(events).2[0].duration.expect("a lasting spell");
            assert_eq!((duration.formula, duration.turns), (16, 16));
            assert!(battle.mini("blue-b").under(Spell::Statue));
        }),
    });
}

#[test]
fn a_level_difference_spell_on_a_higher_level_mini_takes_no_effect_per_herald_reading_of_seed_002_statue() {
    // Caster level 2, target level 4: 1 + (2 − 4) = −1.
    let given = |n, short| {
        let options = BattleOptions { short_durations: short, ..BattleOptions::default() };
        Given::minis(wizard_and(2, &[Spell::Statue], card("Target", 4, 5, 40), 12.0))
            .options(options)
            .seed(n)
            .acting("red-wizard")
    };
    let succeeds = |n: u64, short| {
        let mut battle = given(n, short).battle();
        let events = battle.by(alice(), cast_at("red-wizard", Spell::Statue, "blue-b"));
        cast(&events).2[0].success
    };
    let n = find_seed(|n| succeeds(n, ShortDuration::NoEffect));
    let mut battle = given(n, ShortDuration::NoEffect).battle();
    let events = battle.by(alice(), cast_at("red-wizard", Spell::Statue, "blue-b"));
    let duration = cast(&events).2[0].duration.expect("worked out");
    assert_eq!((duration.formula, duration.turns), (-1, 0));
    assert!(!battle.mini("blue-b").under(Spell::Statue), "no effect");
    assert_eq!(battle.mini("red-wizard").spell_points, 180, "the points are spent all the same");
    let mut battle = given(n, ShortDuration::OneTurn).battle();
    battle.by(alice(), cast_at("red-wizard", Spell::Statue, "blue-b"));
    assert_eq!(battle.mini("blue-b").effect(Spell::Statue).map(|e| e.turns_left), Some(1), "the one-turn option");
}

#[test]
fn spell_resistance_halves_a_spells_duration_per_seed_002_resistances() {
    let target = resisting(card("Target", 1, 5, 40), &[Resistance::Spells]);
    check(Case {
        rule: "RESISTANCES",
        given: Given::minis(wizard_and(20, &[Spell::Slow], target, 14.0)).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::Slow, "blue-b"))],
        then: holds(|battle, events| {
            let duration = cast(events).2[0].duration.expect("lasting");
            assert_eq!((duration.formula, duration.halved, duration.turns), (21, true, 10));
            assert_eq!(battle.mini("blue-b").effect(Spell::Slow).map(|e| e.turns_left), Some(10));
        }),
    });
}

#[test]
fn heal_restores_eight_plus_the_casters_level_up_to_the_starting_life_per_seed_002_heal() {
    let minis = vec![
        mini("red-wizard", RED, caster("Healer", 20, 20, &[Spell::Heal]), 10.0, 10.0, 0.0),
        mini("red-c", RED, card("Squire", 0, 15, 40), 11.0, 12.0, 0.0),
        mini("blue-b", BLUE, card("Archer", 0, 5, 40), 40.0, 40.0, 180.0),
    ];
    let mut battle = Given::minis(minis).battle();
    battle.judge(SkirmishCommand::SetLifePoints {
        mini: "red-c".into(),
        life: 5,
        reason: "wounded before the battle".into(),
    });
    battle.until_acting("red-wizard");
    let events = battle.by(alice(), cast_at("red-wizard", Spell::Heal, "red-c"));
    assert_eq!(cast(&events).2[0].healed, Some(28));
    assert_eq!(battle.mini("red-c").life, 33);
    battle.next_turn();
    battle.until_acting("red-wizard");
    let events = battle.by(alice(), cast_at("red-wizard", Spell::Heal, "red-c"));
    assert_eq!(cast(&events).2[0].healed, Some(7), "never above its starting life points");
    assert_eq!(battle.mini("red-c").life, 40);
}

#[test]
fn a_mini_under_fear_runs_directly_away_from_the_caster_per_seed_002_fear() {
    let mut battle =
        Given::minis(wizard_and(20, &[Spell::Fear], card("Target", 1, 5, 40), 14.0)).acting("red-wizard").battle();
    battle.by(alice(), cast_at("red-wizard", Spell::Fear, "blue-b"));
    assert!(battle.mini("blue-b").under(Spell::Fear));
    battle.judge(done("red-wizard"));
    // Round 5: the afraid mini must act, whether declared or not.
    let round = battle.state.round.clone().expect("round 5");
    assert_eq!(round.declarations[0].must_act, vec!["blue-b".to_string()]);
    assert_eq!(battle.acting().as_deref(), Some("blue-b"), "nobody had to declare it");
    battle.refused_by(bob(), walk("blue-b", &[(14.0, 12.0)]), "percentile-skirmish.must_flee", "Fear");
    battle.refused_by(bob(), done("blue-b"), "percentile-skirmish.must_flee", "Fear");
    let events = battle.by(bob(), SkirmishCommand::Flee { mini: "blue-b".into() });
    let SkirmishEvent::Moved { to, fled, allowance, facing, .. } = find(&events, "percentile-skirmish.Moved") else {
        unreachable!()
    };
    assert!(*fled && allowance.running);
    assert!((to.x - 20.0).abs() < 1e-9 && (to.y - 10.0).abs() < 1e-9, "6″ straight away: {to:?}");
    assert_eq!(*facing, 0.0);
    battle.refused_by(bob(), shoot("blue-b", "red-wizard", "Bow"), "percentile-skirmish.ran_this_turn", "RUNNING");
    battle.by(bob(), done("blue-b"));
}

#[test]
fn a_fleeing_mini_stops_at_the_tables_edge() {
    let mut battle = Given::minis(vec![
        mini("red-wizard", RED, caster("Wizard", 20, 20, &[Spell::Fear]), 40.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Target", 1, 5, 40), 45.0, 10.0, 180.0),
    ])
    .acting("red-wizard")
    .battle();
    battle.by(alice(), cast_at("red-wizard", Spell::Fear, "blue-b"));
    battle.judge(done("red-wizard"));
    let events = battle.by(bob(), SkirmishCommand::Flee { mini: "blue-b".into() });
    let SkirmishEvent::Moved { to, distance, .. } = find(&events, "percentile-skirmish.Moved") else { unreachable!() };
    assert_eq!((*to, *distance), (p(48.0, 10.0), 3.0));
}

#[test]
fn fireball_rolls_separately_for_every_mini_in_its_path_per_seed_002_fireball() {
    // A line east from the wizard: a blue mini at 4″, a red friend at 8″ (also in the path),
    // one off the path; non-metal armour does not protect, metal armour does.
    let mut leather = card("Scout", 0, 5, 60);
    leather.armour = vec![armour("Leather", ArmourSlot::Body, 2, false, false)];
    let mut mail = card("Knight", 0, 5, 60);
    mail.armour = vec![armour("Mail", ArmourSlot::Body, 2, true, false)];
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 20, 20, &[Spell::Fireball]), 10.0, 10.0, 0.0),
        mini("blue-scout", BLUE, leather, 14.0, 10.3, 180.0),
        mini("red-knight", RED, mail, 18.0, 9.6, 180.0),
        mini("blue-far", BLUE, card("Far", 0, 5, 60), 14.0, 13.0, 180.0),
    ];
    check(Case {
        rule: "Fireball",
        given: Given::minis(minis).acting("red-wizard"),
        when: vec![(alice(), cast_to("red-wizard", Spell::Fireball, 20.0, 10.0))],
        then: holds(|battle, events| {
            let outcomes = cast(events).2;
            let hit: Vec<&str> = outcomes.iter().filter_map(|o| o.mini.as_deref()).collect();
            assert_eq!(hit, vec!["blue-scout", "red-knight"], "every mini in the path, nearest first");
            for outcome in &outcomes {
                assert!(outcome.roll.is_some(), "each rolled separately");
            }
            let taken: Vec<(u32, u32)> =
                outcomes.iter().filter_map(|o| o.damage.as_ref()).map(|d| (d.damage.armour, d.damage.taken)).collect();
            assert_eq!(taken, vec![(0, 28), (2, 26)], "8 + level 20; leather gives no protection, mail does");
            assert_eq!(battle.mini("blue-far").life, 60);
        }),
    });
}

#[test]
fn command_passes_a_mini_to_the_caster_until_it_ends_per_seed_002_command() {
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 20, 20, &[Spell::Command]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 14.0, 10.0, 180.0),
        mini("blue-c", BLUE, card("Archer", 1, 5, 40), 40.0, 40.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-wizard").battle();
    battle.refused_by(
        alice(),
        cast_at("red-wizard", Spell::Command, "blue-b"),
        "percentile-skirmish.command_required",
        "Command",
    );
    let command = SkirmishCommand::CastSpell {
        caster: "red-wizard".into(),
        spell: Spell::Command,
        target: Some("blue-b".into()),
        at: None,
        command: Some("guard the ford".into()),
    };
    battle.by(alice(), command);
    let guard = battle.mini("blue-b");
    assert_eq!((guard.commanded_by.as_deref(), guard.order.as_deref()), (Some("red-wizard"), Some("guard the ford")));
    assert_eq!(battle.state.acting_participant(guard), RED, "red now acts for it");
    battle.judge(done("red-wizard"));
    // Round 5: red declares the guard, blue declares only its archer.
    let round = battle.state.round.clone().expect("round 5");
    let red = round.declarations.iter().find(|d| d.participant == RED).expect("red is awaited");
    assert_eq!(red.eligible, vec!["blue-b".to_string()]);
    battle.refused_by(bob(), declare(BLUE, &["blue-b"]), "percentile-skirmish.mini_of_another_participant", "herald");
    battle.by(alice(), declare(RED, &["blue-b"]));
    battle.by(bob(), declare(BLUE, &[]));
    assert_eq!(battle.acting().as_deref(), Some("blue-b"));
    // Walking it within the wizard's 32″ keeps it under the spell; the wizard's death ends it.
    let events = battle.by(alice(), walk("blue-b", &[(14.0, 14.0)]));
    assert!(!has(&events, "percentile-skirmish.CommandEnded"));
    battle.judge(SkirmishCommand::SetLifePoints {
        mini: "red-wizard".into(),
        life: 0,
        reason: "struck by lightning".into(),
    });
    let guard = battle.mini("blue-b");
    assert_eq!(guard.commanded_by, None, "its caster killed, the command ends");
    assert_eq!(battle.state.acting_participant(guard), BLUE);
}

#[test]
fn a_commanded_mini_out_of_its_casters_range_is_freed_per_seed_002_command() {
    let mut wizard = caster("Wizard", 20, 20, &[Spell::Command, Spell::Teleport]);
    wizard.spell_attacks = 2;
    let minis = vec![
        mini("red-wizard", RED, wizard, 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 4.0, 10.0, 0.0),
    ];
    // The teleport (not hostile) needs no roll under this option; the command still rolls.
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    let mut battle = Given::minis(minis).options(options).acting("red-wizard").battle();
    battle.by(
        alice(),
        SkirmishCommand::CastSpell {
            caster: "red-wizard".into(),
            spell: Spell::Command,
            target: Some("blue-b".into()),
            at: None,
            command: Some("follow me".into()),
        },
    );
    // Teleported 36″ away, beyond its 32″: "the spell is considered terminated".
    let events = battle.by(alice(), cast_to("red-wizard", Spell::Teleport, 40.0, 10.0));
    let SkirmishEvent::CommandEnded { mini, .. } = find(&events, "percentile-skirmish.CommandEnded") else {
        unreachable!()
    };
    assert_eq!(mini, "blue-b");
    let guard = battle.mini("blue-b");
    assert!(guard.commanded_by.is_none() && !guard.under(Spell::Command));
    assert_eq!(battle.state.acting_participant(guard), BLUE);
}

#[test]
fn issuing_a_new_command_rolls_as_if_casting_a_spell_per_seed_002_command() {
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 20, 20, &[Spell::Command]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 14.0, 10.0, 180.0),
    ];
    let mut battle = Given::minis(minis).acting("red-wizard").battle();
    battle.by(
        alice(),
        SkirmishCommand::CastSpell {
            caster: "red-wizard".into(),
            spell: Spell::Command,
            target: Some("blue-b".into()),
            at: None,
            command: Some("stand still".into()),
        },
    );
    battle.next_turn();
    battle.until_acting("red-wizard");
    let events = battle.by(
        alice(),
        SkirmishCommand::IssueCommand {
            caster: "red-wizard".into(),
            mini: "blue-b".into(),
            command: "walk north".into(),
        },
    );
    let SkirmishEvent::CommandIssued { outcome, .. } = find(&events, "percentile-skirmish.CommandIssued") else {
        unreachable!()
    };
    assert!(outcome.roll.is_some(), "rolled as if casting a spell");
    assert_eq!(outcome.chance.map(|c| c.chance), Some(100));
    assert_eq!(battle.mini("blue-b").order.as_deref(), Some("walk north"));
    assert_eq!(battle.mini("red-wizard").spell_points, 180, "no spell points, one spell attack");
    assert_eq!(battle.mini("red-wizard").this_turn.spell_attacks, 1);
}

fn golem_summons() -> Summons {
    let mut golem = card("Clay golem", 2, 6, 30);
    golem.size = herald_domain::percentile_skirmish::mini::Size::Large;
    let familiar = FamiliarSpec { profile: card("Raven", 0, 12, 3), effect: "sees for its caster".into() };
    Summons { golem: Some(Box::new(golem)), familiar: Some(Box::new(familiar)) }
}

fn summon_golem(x: f64, y: f64) -> SkirmishCommand {
    SkirmishCommand::CastSpell {
        caster: "red-wizard".into(),
        spell: Spell::Golem,
        target: None,
        at: Some(p(x, y)),
        command: Some("hold the bridge".into()),
    }
}

#[test]
fn a_golem_comes_from_the_set_ups_stats_and_obeys_its_caster_per_seed_002_golem() {
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 4, 20, &[Spell::Golem, Spell::Familiar]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 40.0, 40.0, 180.0),
    ];
    // Without the set-up's stats, there is no golem.
    check(Case {
        rule: "Golem",
        given: Given::minis(minis.clone()).acting("red-wizard"),
        when: vec![(alice(), summon_golem(12.0, 10.0))],
        then: Then::Refused("percentile-skirmish.no_summon_stats", "Golem"),
    });
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    let mut battle = Given::minis(minis).summons(golem_summons()).options(options).acting("red-wizard").battle();
    let events = battle.by(alice(), summon_golem(12.0, 10.0));
    let SkirmishEvent::Summoned { mini, turns, .. } = find(&events, "percentile-skirmish.Summoned") else {
        unreachable!()
    };
    assert_eq!((mini.id.as_str(), mini.participant.as_str(), *turns), ("red-wizard-golem-1", RED, 5));
    let golem = battle.mini("red-wizard-golem-1");
    assert!(golem.golem_active);
    assert_eq!(golem.order.as_deref(), Some("hold the bridge"));
    assert_eq!(golem.spec.profile.name, "Clay golem");
    battle.judge(done("red-wizard"));
    // It acts for red in its own round (initiative 6), and walking within its caster's 16″
    // keeps it under control.
    battle.until_acting("red-wizard-golem-1");
    let events = battle.by(alice(), walk("red-wizard-golem-1", &[(12.0, 13.9)]));
    assert!(!has(&events, "percentile-skirmish.GolemInactive"));
    assert!(battle.mini("red-wizard-golem-1").golem_active);
}

#[test]
fn a_golem_out_of_range_goes_inactive_until_commanded_again_per_seed_002_golem() {
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 4, 20, &[Spell::Golem]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 40.0, 40.0, 180.0),
    ];
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    let mut battle = Given::minis(minis).summons(golem_summons()).options(options).acting("red-wizard").battle();
    battle.by(alice(), summon_golem(25.0, 10.0));
    // The wizard walks away: 19″ from its golem, beyond 16″.
    let events = battle.by(alice(), walk("red-wizard", &[(6.0, 10.0)]));
    let SkirmishEvent::GolemInactive { golem, .. } = find(&events, "percentile-skirmish.GolemInactive") else {
        unreachable!()
    };
    assert_eq!(golem, "red-wizard-golem-1");
    let golem = battle.mini("red-wizard-golem-1");
    assert!(!golem.golem_active && golem.order.is_none(), "it does not go on with its old command");
    battle.judge(done("red-wizard"));
    // An inactive golem is never declared: round 6 does not happen.
    assert_ne!(battle.state.round.as_ref().map(|r| r.value), Some(6));
    battle.next_turn();
    battle.until_acting("red-wizard");
    battle.refused_by(
        alice(),
        SkirmishCommand::IssueCommand {
            caster: "red-wizard".into(),
            mini: "red-wizard-golem-1".into(),
            command: "come back".into(),
        },
        "percentile-skirmish.out_of_range",
        "Golem",
    );
    battle.by(alice(), walk("red-wizard", &[(10.0, 10.0)]));
    let events = battle.by(
        alice(),
        SkirmishCommand::IssueCommand {
            caster: "red-wizard".into(),
            mini: "red-wizard-golem-1".into(),
            command: "come back".into(),
        },
    );
    let SkirmishEvent::CommandIssued { outcome, .. } = find(&events, "percentile-skirmish.CommandIssued") else {
        unreachable!()
    };
    assert_eq!(
        battle.mini("red-wizard-golem-1").golem_active,
        outcome.success,
        "control regained on a successful roll"
    );
}

#[test]
fn golems_and_teleports_reach_from_the_familiar_per_seed_002_golem_and_teleport() {
    let mut wizard = caster("Wizard", 4, 20, &[Spell::Golem, Spell::Familiar, Spell::Teleport]);
    wizard.spell_attacks = 3;
    let minis = vec![
        mini("red-wizard", RED, wizard, 10.0, 10.0, 90.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 46.0, 46.0, 180.0),
    ];
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    let mut battle = Given::minis(minis).summons(golem_summons()).options(options).acting("red-wizard").battle();
    // 30″ away is beyond the wizard's 16″.
    battle.refused_by(
        alice(),
        cast_to("red-wizard", Spell::Teleport, 40.0, 10.0),
        "percentile-skirmish.out_of_range",
        "Teleport",
    );
    battle.by(alice(), cast_to("red-wizard", Spell::Familiar, 26.0, 10.0));
    assert!(battle.state.minis.contains_key("red-wizard-familiar-1"));
    // Now 14″ from the familiar: the teleport reaches, and the wizard keeps its facing.
    let events = battle.by(alice(), cast_to("red-wizard", Spell::Teleport, 40.0, 10.0));
    let SkirmishEvent::Teleported { to, .. } = find(&events, "percentile-skirmish.Teleported") else { unreachable!() };
    assert_eq!(*to, p(40.0, 10.0));
    assert_eq!(battle.mini("red-wizard").position, p(40.0, 10.0));
    assert_eq!(battle.mini("red-wizard").facing, 90.0, "the same direction as before the teleport");
}

#[test]
fn lasting_spells_expire_on_the_turn_count_per_seed_002_spell_descriptions() {
    // Speed from a level-1 caster lasts 1 + 1 = 2 turns: this one and the next.
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 1, 20, &[Spell::Speed]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 40.0, 40.0, 180.0),
    ];
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    let mut battle = Given::minis(minis).options(options).acting("red-wizard").battle();
    battle.by(alice(), cast_self_speed());
    assert_eq!(battle.mini("red-wizard").effect(Spell::Speed).map(|e| e.turns_left), Some(2));
    battle.next_turn();
    assert_eq!(battle.state.turn, 2);
    assert_eq!(battle.mini("red-wizard").effect(Spell::Speed).map(|e| e.turns_left), Some(1));
    battle.next_turn();
    assert!(!battle.mini("red-wizard").under(Spell::Speed));
    let expired = battle.events.iter().rev().find_map(|event| match event {
        SkirmishEvent::TurnEnded { turn, expired, .. } => Some((*turn, expired.clone())),
        _ => None,
    });
    let (turn, expired) = expired.expect("a turn ended");
    assert_eq!(turn, 2);
    assert_eq!(expired.len(), 1);
    assert_eq!((expired[0].mini.as_str(), expired[0].spell), ("red-wizard", Spell::Speed));
}

fn cast_self_speed() -> SkirmishCommand {
    cast_at("red-wizard", Spell::Speed, "red-wizard")
}

#[test]
fn summoned_minis_leave_when_their_time_is_up_per_seed_002_golem() {
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 0, 20, &[Spell::Familiar]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 40.0, 40.0, 180.0),
    ];
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    let mut battle = Given::minis(minis).summons(golem_summons()).options(options).acting("red-wizard").battle();
    battle.by(alice(), cast_to("red-wizard", Spell::Familiar, 11.0, 11.0));
    battle.next_turn();
    let familiar = battle.mini("red-wizard-familiar-1");
    assert!(familiar.dismissed && !familiar.in_play(), "1 turn + level 0: gone when the turn ends");
    assert!(!familiar.killed, "dismissed, not lost");
}

#[test]
fn friendly_spells_need_no_roll_under_the_hostile_only_option() {
    let minis = vec![
        mini("red-wizard", RED, caster("Wizard", 0, 20, &[Spell::Speed]), 10.0, 10.0, 0.0),
        mini("blue-b", BLUE, card("Guard", 1, 5, 40), 40.0, 40.0, 180.0),
    ];
    let options = BattleOptions { spell_rolls: SpellRolls::HostileOnly, ..BattleOptions::default() };
    check(Case {
        rule: "SPELL DESCRIPTIONS",
        given: Given::minis(minis.clone()).options(options).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::Speed, "red-wizard"))],
        then: holds(|_, events| assert!(cast(events).2[0].roll.is_none())),
    });
    check(Case {
        rule: "SPELL DESCRIPTIONS",
        given: Given::minis(minis).acting("red-wizard"),
        when: vec![(alice(), cast_at("red-wizard", Spell::Speed, "red-wizard"))],
        then: holds(|_, events| assert!(cast(events).2[0].roll.is_some(), "every cast rolls by default")),
    });
}
