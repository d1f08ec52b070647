//! The warmachine battle decider's combat actions (seed 000 "Dice and Rounding", "Model
//! Statistics", "Weapon Statistics", "Measuring Distances", "Additional Dice and Boosted Rolls",
//! "L/R/H, Location", "Warjacks"): attack and damage rolls, ranges, rate of fire, boosts and
//! additional dice, blasts, damage grids, destruction and the end of the battle.

#[path = "warmachine_battle_support.rs"]
mod support;

use herald_domain::{
    dice::DieSource,
    warmachine::{
        battle::{
            command::ModelSpec,
            event::{Cost, DamageDealt},
            state::Phase,
            WarmachineEvent as E,
        },
        model::{BaseSize, Mechanic, ModelProfile, RollKind, SpecialRule, Weapon},
    },
};
use support::*;

const SMALL: f64 = 0.590_551_181_102_362_2;

/// A solo hit by anything (DEF 5) and hurt by nothing here (ARM 40).
fn dummy() -> ModelProfile {
    let mut profile = solo();
    profile.stats.def = 5;
    profile.stats.arm = 40;
    profile
}

/// A solo with one box, hit by anything and destroyed by any damage roll here.
fn fragile() -> ModelProfile {
    let mut profile = solo();
    profile.stats.def = 5;
    profile.stats.arm = 5;
    profile.damage = herald_domain::warmachine::model::DamageCapacity::Boxes { boxes: 1 };
    profile
}

/// Red's `attacker` at (10, 10) with `others`; red's turn has started and `attacker` has
/// activated and forfeited its movement.
fn ready(attacker: ModelSpec, others: Vec<ModelSpec>, n: u64) -> Battle {
    let id = attacker.id.clone();
    let mut models = vec![attacker];
    models.extend(others);
    let mut battle = Battle::on(table_with(vec![]), models, n);
    battle.play(start_turn());
    battle.play(activate(&id));
    battle.play(forfeit(&id));
    battle
}

fn resolved(events: &[E]) -> (&herald_domain::warmachine::rolls::AttackRoll, &Vec<DamageDealt>) {
    match find(events, "warmachine.AttackResolved") {
        E::AttackResolved { roll, damage, .. } => (roll, damage),
        _ => unreachable!(),
    }
}

fn sources(outcome: &herald_domain::dice::RollOutcome) -> Vec<DieSource> {
    outcome.dice.iter().map(|die| die.source.clone()).collect()
}

/// Red's solo (MAT 7) against a blue solo of DEF 16 in melee range: hits on 9+ on 2d6.
fn melee_duel(n: u64) -> (Battle, Vec<E>) {
    let mut target = solo();
    target.stats.def = 16;
    let mut battle = ready(
        model("red-solo", RED, solo(), 10.0, 10.0),
        vec![
            model("blue-target", BLUE, target, 10.0 + 2.0 * SMALL + 0.2, 10.0),
            model("blue-far", BLUE, dummy(), 44.0, 44.0),
        ],
        n,
    );
    let events = battle.play(attack("red-solo", "Blade", "blue-target"));
    (battle, events)
}

#[test]
fn a_melee_attack_roll_is_2d6_plus_mat_against_def_and_hits_on_equal_or_more_seed_000_model_statistics() {
    let hit = find_seed(|n| resolved(&melee_duel(n).1).0.hit);
    let miss = find_seed(|n| !resolved(&melee_duel(n).1).0.hit);
    for n in [hit, miss] {
        let (battle, events) = melee_duel(n);
        let (roll, damage) = resolved(&events);
        assert_eq!((roll.attack_stat, roll.target_def, roll.aim_bonus), (7, 16, 0));
        assert_eq!(roll.roll.expression.to_string(), "2d6+7");
        assert_eq!(roll.roll.draws.len(), 2);
        assert_eq!(roll.total, dice_sum(&roll.roll) + 7);
        assert_eq!(roll.hit, roll.total >= 16);
        assert!(roll.rule.contains(&heading("Dice and Rounding")));
        if roll.hit {
            // 2d6 + POW 11 against ARM 13: one damage point per point above ARM, 5 boxes.
            let dealt = &damage[0];
            assert_eq!((dealt.model.as_str(), dealt.source.as_str()), ("blue-target", "direct"));
            assert_eq!(dealt.roll.total, dice_sum(&dealt.roll.roll) + 11);
            let points = u16::try_from((dealt.roll.total - 13).max(0)).expect("small");
            assert_eq!(dealt.roll.damage, u32::from(points));
            assert_eq!(dealt.marked, points.min(5));
            assert_eq!(dealt.destroyed, points >= 5);
            assert_eq!(battle.model("blue-target").damage, points.min(5));
            assert_eq!(battle.model("blue-target").destroyed, points >= 5);
        } else {
            assert!(damage.is_empty(), "a miss rolls no damage");
            assert_eq!(battle.model("blue-target").damage, 0);
        }
    }
}

#[test]
fn a_ranged_weapon_makes_at_most_rof_initial_attacks_seed_000_weapon_statistics() {
    let mut battle =
        ready(model("red-solo", RED, solo(), 10.0, 10.0), vec![model("blue-target", BLUE, dummy(), 18.0, 10.0)], 0);
    for _ in 0..2 {
        let events = battle.play(attack("red-solo", "Carbine", "blue-target"));
        let (roll, _) = resolved(&events);
        assert_eq!((roll.attack_stat, roll.roll.expression.to_string()), (6, "2d6+6".to_string()));
    }
    battle.refused(attack("red-solo", "Carbine", "blue-target"), "warmachine.attack.rate_of_fire", "Weapon Statistics");
    battle.refused(attack("red-solo", "Blade", "blue-target"), "warmachine.mixed_combat_action", "herald:");
}

#[test]
fn range_is_measured_from_base_edge_to_base_edge_even_if_exact_seed_000_measuring_distances() {
    // The Carbine has RNG 12: a small base 12″ away edge to edge is in range, 12.01″ is not.
    let mut battle = ready(
        model("red-solo", RED, solo(), 10.0, 10.0),
        vec![
            model("blue-exact", BLUE, dummy(), 10.0 + 12.0 + 2.0 * SMALL, 10.0),
            model("blue-beyond", BLUE, dummy(), 10.0, 10.0 + 12.01 + 2.0 * SMALL),
            model("blue-close", BLUE, dummy(), 10.0 - 0.6 - 2.0 * SMALL, 10.0),
        ],
        0,
    );
    let error =
        battle.refused(attack("red-solo", "Carbine", "blue-beyond"), "warmachine.out_of_range", "Measuring Distances");
    assert!(error.rule.contains(&heading("RNG, Range")));
    // The Blade's melee range is 0.5″: 0.6″ away is out of it.
    battle.refused(attack("red-solo", "Blade", "blue-close"), "warmachine.out_of_range", "Measuring Distances");
    battle.play(attack("red-solo", "Carbine", "blue-exact"));
}

#[test]
fn boosting_costs_a_focus_point_and_adds_a_die_seed_000_additional_dice_and_boosted_rolls() {
    let mut battle = ready(
        model("red-caster", RED, warcaster(), 10.0, 10.0),
        vec![model("blue-target", BLUE, dummy(), 18.0, 10.0)],
        0,
    );
    assert_eq!(battle.model("red-caster").focus, 6);
    let events = battle.play(boosted_attack("red-caster", "Hand Cannon", "blue-target", true, true));
    let E::AttackResolved { roll, attack_boost, damage_boost, damage, .. } = find(&events, "warmachine.AttackResolved")
    else {
        unreachable!()
    };
    assert_eq!((*attack_boost, *damage_boost), (Some(Cost::Focus), Some(Cost::Focus)));
    assert!(roll.roll.options.boosted);
    assert_eq!(roll.roll.draws.len(), 3);
    assert_eq!(sources(&roll.roll), [DieSource::Written, DieSource::Written, DieSource::Boost]);
    assert_eq!(roll.total, dice_sum(&roll.roll) + 5);
    let damage = &damage[0].roll;
    assert!(damage.roll.options.boosted);
    assert_eq!(damage.roll.draws.len(), 3);
    assert_eq!(damage.total, dice_sum(&damage.roll) + 10);
    assert_eq!(battle.model("red-caster").focus, 4);
}

#[test]
fn a_model_without_focus_left_cannot_boost_again_seed_000_additional_dice_and_boosted_rolls() {
    // The warjack powers up to 1 focus: enough for one boost, not two.
    let mut battle = ready(
        in_battlegroup(model("red-jack", RED, warjack(), 10.0, 10.0), "red-caster"),
        vec![model("red-caster", RED, warcaster(), 10.0, 14.0), model("blue-target", BLUE, dummy(), 18.0, 10.0)],
        0,
    );
    assert_eq!(battle.model("red-jack").focus, 1);
    battle.refused(
        boosted_attack("red-jack", "Cannon", "blue-target", true, true),
        "warmachine.cannot_boost",
        "Additional Dice and Boosted Rolls",
    );
    let events = battle.play(boosted_attack("red-jack", "Cannon", "blue-target", true, false));
    let E::AttackResolved { attack_boost, .. } = find(&events, "warmachine.AttackResolved") else { unreachable!() };
    assert_eq!(*attack_boost, Some(Cost::Focus));
    assert_eq!(battle.model("red-jack").focus, 0);
}

#[test]
fn a_model_without_focus_or_a_boosting_rule_cannot_boost_seed_000_additional_dice_and_boosted_rolls() {
    let mut battle =
        ready(model("red-solo", RED, solo(), 10.0, 10.0), vec![model("blue-target", BLUE, dummy(), 18.0, 10.0)], 0);
    battle.refused(
        boosted_attack("red-solo", "Carbine", "blue-target", true, false),
        "warmachine.cannot_boost",
        "Additional Dice and Boosted Rolls",
    );
    // A rule granting the boost makes it free.
    let mut marksman = solo();
    marksman.special_rules.push(SpecialRule::with("Deadeye", vec![Mechanic::Boost { roll: RollKind::RangedAttack }]));
    let mut battle =
        ready(model("red-solo", RED, marksman, 10.0, 10.0), vec![model("blue-target", BLUE, dummy(), 18.0, 10.0)], 0);
    let events = battle.play(boosted_attack("red-solo", "Carbine", "blue-target", true, false));
    let E::AttackResolved { attack_boost, roll, .. } = find(&events, "warmachine.AttackResolved") else {
        unreachable!()
    };
    assert_eq!(*attack_boost, Some(Cost::Free));
    assert_eq!(roll.roll.draws.len(), 3);
}

#[test]
fn a_roll_can_be_boosted_and_gain_additional_dice_seed_000_additional_dice_and_boosted_rolls() {
    // "A roll can be boosted and gain additional dice": the Sword carries Brutal and Crushing
    // (an additional damage die each) and the caster's own Brutal does not add a second die
    // ("as long as each additional die comes from a different rule").
    let die = |name: &str| SpecialRule::with(name, vec![Mechanic::AdditionalDie { roll: RollKind::Damage }]);
    let mut caster = warcaster();
    caster.special_rules.push(die("Brutal"));
    let sword: &mut Weapon = caster.weapons.iter_mut().find(|w| w.name == "Sword").expect("a sword");
    sword.special_rules.push(die("Brutal"));
    sword.special_rules.push(die("Crushing"));
    let mut battle = ready(
        model("red-caster", RED, caster, 10.0, 10.0),
        vec![model("blue-target", BLUE, dummy(), 10.0 + 2.0 * SMALL + 0.1, 10.0)],
        0,
    );
    let events = battle.play(boosted_attack("red-caster", "Sword", "blue-target", false, true));
    let (roll, damage) = resolved(&events);
    assert_eq!(roll.roll.draws.len(), 2, "no additional die on the attack roll");
    let damage = &damage[0].roll;
    assert_eq!(damage.roll.options.additional_dice, ["Brutal".to_string(), "Crushing".to_string()]);
    assert!(damage.roll.options.boosted);
    assert_eq!(
        sources(&damage.roll),
        [
            DieSource::Written,
            DieSource::Written,
            DieSource::Additional { rule: "Brutal".into() },
            DieSource::Additional { rule: "Crushing".into() },
            DieSource::Boost
        ]
    );
    assert_eq!(damage.total, dice_sum(&damage.roll) + 12);
    assert!(damage.rule.contains(&heading("Additional Dice and Boosted Rolls")));
    assert_eq!(battle.model("red-caster").focus, 5);
}

#[test]
fn a_damage_boost_is_not_paid_for_when_the_attack_misses_seed_000_additional_dice_and_boosted_rolls() {
    // Boosting a roll adds a die to that roll; a miss makes no damage roll, so nothing is boosted
    // and no focus is spent on it.
    let mut target = dummy();
    target.stats.def = 30; // a boosted 3d6 + RAT 5 never reaches 30
    let mut battle = ready(
        model("red-caster", RED, warcaster(), 10.0, 10.0),
        vec![model("blue-target", BLUE, target, 18.0, 10.0)],
        0,
    );
    let events = battle.play(boosted_attack("red-caster", "Hand Cannon", "blue-target", true, true));
    let E::AttackResolved { roll, attack_boost, damage_boost, damage, .. } = find(&events, "warmachine.AttackResolved")
    else {
        unreachable!()
    };
    assert!(!roll.hit && damage.is_empty());
    assert_eq!((*attack_boost, *damage_boost), (Some(Cost::Focus), None));
    assert_eq!(battle.model("red-caster").focus, 5, "only the attack roll's boost is paid");
}

#[test]
fn an_aoe_direct_hit_deals_blast_damage_to_every_other_model_within_the_aoe_seed_000_weapon_statistics() {
    let mut bomber = solo();
    bomber.weapons.push(Weapon { aoe: Some(3), blast_pow: Some(6), ..ranged("Bombard", 12.0, 1, 12) });
    let mut battle = ready(
        model("red-solo", RED, bomber, 10.0, 10.0),
        vec![
            model("blue-a", BLUE, dummy(), 18.0, 10.0),
            model("blue-b", BLUE, dummy(), 18.0, 13.5), // 2.32″ from blue-a: in the AOE
            model("red-pal", RED, dummy(), 21.5, 10.0), // a friendly model in the AOE suffers it too
            model("blue-c", BLUE, dummy(), 18.0, 5.0),  // 3.82″ away: outside
        ],
        0,
    );
    let events = battle.play(attack("red-solo", "Bombard", "blue-a"));
    let (roll, damage) = resolved(&events);
    assert!(roll.hit);
    let hit: Vec<(&str, &str, String)> =
        damage.iter().map(|d| (d.model.as_str(), d.source.as_str(), d.roll.roll.expression.to_string())).collect();
    assert_eq!(
        hit,
        [
            ("blue-a", "direct", "2d6+12".to_string()),
            ("blue-b", "blast", "2d6+6".to_string()),
            ("red-pal", "blast", "2d6+6".to_string())
        ]
    );
    for dealt in damage {
        assert_eq!(dealt.roll.roll.draws.len(), 2, "blast rolls are not boosted with the direct hit");
    }
}

/// Red's wrecker (MAT 10, a POW 22 hammer) against a blue warjack (DEF 12, ARM 18): always a
/// hit, 6 to 16 damage on a 30-box grid.
fn wreck(n: u64) -> (Battle, Vec<E>) {
    let mut wrecker = solo();
    wrecker.stats.mat = 10;
    wrecker.weapons = vec![melee("Hammer", 22)];
    let mut battle = ready(
        model("red-wrecker", RED, wrecker, 10.0, 10.0),
        vec![model("blue-jack", BLUE, warjack(), 10.0 + SMALL + BaseSize::Medium.radius_inches() + 0.1, 10.0)],
        n,
    );
    let events = battle.play(attack("red-wrecker", "Hammer", "blue-jack"));
    (battle, events)
}

#[test]
fn damage_to_a_warjack_marks_its_grid_from_the_rolled_column_and_cripples_systems_seed_000_location() {
    let n = find_seed(|n| resolved(&wreck(n).1).1.first().is_some_and(|d| !d.crippled.is_empty()));
    let (battle, events) = wreck(n);
    let dealt = &resolved(&events).1[0];
    let column = dealt.column.as_ref().expect("a grid column die");
    assert_eq!(column.draws.len(), 1);
    assert!((1..=6).contains(&column.total));
    // Mark a fresh copy of the grid the same way: the same boxes, the same crippled systems.
    let mut expected = jack_grid();
    let points = u16::try_from(dealt.roll.damage).expect("small");
    let marked = expected.mark(u8::try_from(column.total).expect("a d6"), points).expect("marks");
    assert_eq!(dealt.marked, marked.marked);
    assert_eq!(dealt.marked, points, "30 boxes hold 16 points");
    assert_eq!(dealt.crippled, marked.newly_crippled);
    assert!(!dealt.destroyed);
    let jack = battle.model("blue-jack");
    assert_eq!(jack.grid.as_ref(), Some(&expected));
    assert_eq!(jack.crippled(), expected.crippled());
    assert!(!jack.crippled().is_empty());
    assert_eq!(jack.boxes_left(), 30 - u32::from(points));
    // Recheck on the grid itself: a crippled system has every one of its boxes marked.
    for system in jack.crippled() {
        let grid = jack.grid.as_ref().expect("a grid");
        assert!(grid.columns.iter().flatten().filter(|b| b.system == Some(system)).all(|b| b.damaged));
    }
}

#[test]
fn a_destroyed_warcaster_leaves_its_warjacks_inert_seed_000_warjacks() {
    let mut caster = warcaster();
    caster.stats.def = 5;
    caster.stats.arm = 5;
    caster.damage = herald_domain::warmachine::model::DamageCapacity::Boxes { boxes: 1 };
    let mut battle = ready(
        model("red-solo", RED, solo(), 10.0, 10.0),
        vec![
            model("blue-caster", BLUE, caster, 10.0 + 2.0 * SMALL + 0.1, 10.0),
            in_battlegroup(model("blue-jack", BLUE, warjack(), 30.0, 30.0), "blue-caster"),
            model("blue-solo", BLUE, dummy(), 40.0, 40.0),
        ],
        0,
    );
    let events = battle.play(attack("red-solo", "Blade", "blue-caster"));
    assert_eq!(types(&events), ["warmachine.AttackResolved", "warmachine.ModelDestroyed", "warmachine.WarjacksInert"]);
    assert_eq!(events[2], E::WarjacksInert { warcaster: "blue-caster".into(), warjacks: vec!["blue-jack".into()] });
    assert!(battle.model("blue-caster").destroyed);
    assert!(battle.model("blue-jack").inert && battle.model("blue-jack").in_play());
    assert_eq!(battle.state.phase, Phase::Activation, "blue still has a solo");
    battle.finish_turn();
    let events = battle.play(start_turn());
    assert!(!events.iter().any(|e| matches!(e, E::PoweredUp { .. })));
    assert_eq!(battle.state.to_activate(BLUE).into_iter().collect::<Vec<_>>(), ["blue-solo".to_string()]);
    battle.refused(activate("blue-jack"), "warmachine.cannot_activate", "Activation Phase");
    battle.finish_turn();
}

#[test]
fn the_battle_ends_when_only_one_player_has_models_left() {
    let mut battle = ready(
        model("red-solo", RED, solo(), 10.0, 10.0),
        vec![model("blue-last", BLUE, fragile(), 10.0 + 2.0 * SMALL + 0.1, 10.0)],
        0,
    );
    let events = battle.play(attack("red-solo", "Blade", "blue-last"));
    assert_eq!(types(&events), ["warmachine.AttackResolved", "warmachine.ModelDestroyed", "warmachine.BattleEnded"]);
    let E::BattleEnded { winner, reason } = &events[2] else { unreachable!() };
    assert_eq!(winner.as_deref(), Some(RED));
    assert!(reason.contains("only red"), "{reason}");
    assert!(battle.state.ended());
    assert!(battle.state.dice_cursor().is_some_and(|cursor| cursor.reveal_due), "the seed is now due");
    battle.refused(end_activation(), "warmachine.ended", "herald:");
    battle.refused(start_turn(), "warmachine.ended", "herald:");
}

/// Red's warjack with 4 focus (powered up, 3 allocated), activated; then a judge's 0″ slam at
/// POW 30 damages it.
fn focused_jack_slammed(n: u64) -> Battle {
    let mut battle = Battle::on(
        table_with(vec![]),
        vec![
            model("red-caster", RED, warcaster(), 10.0, 14.0),
            in_battlegroup(model("red-jack", RED, warjack(), 10.0, 10.0), "red-caster"),
            model("blue-target", BLUE, dummy(), 18.0, 10.0),
        ],
        n,
    );
    let control = herald_domain::warmachine::battle::command::ControlChoices {
        allocate: vec![herald_domain::warmachine::battle::command::FocusAllocation {
            warjack: "red-jack".into(),
            focus: 3,
        }],
        ..Default::default()
    };
    battle.play(start_turn_with(control));
    battle.play(activate("red-jack"));
    battle.judge(displace("red-jack", Kind::Slam, (0.0, 0.0), 0.0, Some(30), Some(0)));
    battle
}

#[test]
fn a_warjack_whose_cortex_is_crippled_loses_its_focus_seed_000_warjacks() {
    // "A warjack whose cortex is crippled cannot have focus points."
    let n = find_seed(|n| {
        let battle = focused_jack_slammed(n);
        let jack = battle.model("red-jack");
        jack.in_play() && !jack.functional_cortex()
    });
    let mut battle = focused_jack_slammed(n);
    assert_eq!(battle.model("red-jack").focus, 0);
    battle.refused(run("red-jack", &[(10.0, 4.0)]), "warmachine.run_needs_focus", "\"Run\"");
    battle.play(forfeit("red-jack"));
    battle.refused(
        boosted_attack("red-jack", "Cannon", "blue-target", true, false),
        "warmachine.cannot_boost",
        "Additional Dice and Boosted Rolls",
    );
    // A jack whose cortex still works keeps its focus.
    let n = find_seed(|n| {
        let battle = focused_jack_slammed(n);
        let jack = battle.model("red-jack");
        jack.in_play() && jack.functional_cortex()
    });
    assert_eq!(focused_jack_slammed(n).model("red-jack").focus, 4);
}

#[test]
fn a_warlock_spends_fury_to_boost_seed_000_warlocks() {
    // "A warlock can use fury points ... to enhance its own combat abilities" (seed 000
    // "Warlocks"): with no fury it cannot boost; with fury each boost spends one.
    let mut battle = ready(
        model("red-lock", RED, warlock(), 10.0, 10.0),
        vec![model("blue-target", BLUE, dummy(), 10.0 + 2.0 * SMALL + 0.2, 10.0)],
        0,
    );
    battle.refused(
        boosted_attack("red-lock", "Staff", "blue-target", true, false),
        "warmachine.cannot_boost",
        "Additional Dice and Boosted Rolls",
    );
    battle.inject(E::SpiritBond { warlock: "red-lock".into(), fury: 2 });
    let events = battle.play(boosted_attack("red-lock", "Staff", "blue-target", true, false));
    let E::AttackResolved { attack_boost, roll, .. } = find(&events, "warmachine.AttackResolved") else {
        unreachable!()
    };
    assert_eq!(*attack_boost, Some(Cost::Fury));
    assert_eq!(roll.roll.draws.len(), 3);
    assert_eq!(battle.model("red-lock").fury, 1);
}

#[test]
fn a_weapon_whose_rng_is_reduced_to_0_cannot_attack_and_pow_never_drops_below_0_seed_000_weapon_statistics() {
    use herald_domain::warmachine::battle::state::Condition;
    let mut battle =
        ready(model("red-solo", RED, solo(), 10.0, 10.0), vec![model("blue-target", BLUE, dummy(), 18.0, 10.0)], 0);
    // An effect takes 12″ off the Carbine's RNG 12: it "cannot be used to make attacks".
    let shortened = Condition::WeaponModifier { weapon: Some("Carbine".into()), rng: -12.0, pow: 0 };
    battle.judge(set_condition("red-solo", shortened.clone(), None));
    battle.refused(attack("red-solo", "Carbine", "blue-target"), "warmachine.attack.range_zero", "Weapon Statistics");
    // Lifted, and POW 10 reduced by 15 instead: the damage roll is made at POW 0, not -5.
    let mut lifted = set_condition("red-solo", shortened, None);
    if let herald_domain::warmachine::battle::WarmachineCommand::SetCondition { active, .. } = &mut lifted {
        *active = false;
    }
    battle.judge(lifted);
    battle.judge(set_condition("red-solo", Condition::WeaponModifier { weapon: None, rng: 0.0, pow: -15 }, None));
    let events = battle.play(attack("red-solo", "Carbine", "blue-target"));
    let (roll, damage) = resolved(&events);
    assert!(roll.hit, "DEF 5 is always hit");
    assert_eq!(damage[0].roll.pow, 0);
    assert_eq!(damage[0].roll.total, dice_sum(&damage[0].roll.roll));
}
