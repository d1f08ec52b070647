//! Warmachine's attack, damage, d3, blast and unintentional-movement rolls (seed 000), on a fixed
//! key whose first d6 are 2 6 6 3 3 1 5 (docs/DICE.md test vectors).

use herald_domain::dice::{DiceTape, DieSource, RollOptions, RollOutcome};
use herald_domain::warmachine::rolls::{
    aim_bonus, aoe_direct_hit, attack_roll, charge_damage_options, check_rate_of_fire, check_weapon_range,
    contact_die_rule, damage_points, damage_roll, damage_rolls_per_model, effective_pow, fall_damage, fall_extra_dice,
    halve_distance, halve_stat, is_fall, roll_d3, slam_damage, AttackKind, AttackSpec, Contact, ContactedModel,
    DamageTarget, Displacement, FallSpec, SlamSpec, BOOSTED_ROLLS_RULE,
};

const SEED_000_BOOST: &str = "seed 000 \"Additional Dice and Boosted Rolls\"";

fn key() -> [u8; 32] {
    std::array::from_fn(|index| index as u8)
}

fn tape() -> DiceTape {
    DiceTape::new(key(), 0)
}

fn drawn(outcome: &RollOutcome) -> Vec<u32> {
    outcome.draws.iter().map(|draw| draw.value).collect()
}

fn spec(kind: AttackKind, stat: u32, def: u32) -> AttackSpec {
    AttackSpec { kind, attack_stat: stat, target_def: def, weapon_rng: 12.0, aiming: false, engaged: false }
}

fn target(model: &str, arm: u32) -> DamageTarget {
    DamageTarget { model: model.into(), arm, options: RollOptions::default() }
}

fn contacted(model: &str, base_mm: u32, arm: u32) -> ContactedModel {
    ContactedModel { model: model.into(), base_mm, arm }
}

#[test]
fn a_melee_attack_roll_is_2d6_plus_mat_and_hits_on_equal_def_seed_000_dice_and_rounding() {
    let roll = attack_roll(&mut tape(), &spec(AttackKind::Melee, 6, 14), &RollOptions::default()).expect("rolls");
    assert_eq!(drawn(&roll.roll), [2, 6]);
    assert_eq!((roll.total, roll.hit, roll.aim_bonus), (14, true, 0));
    assert_eq!(roll.roll.expression.to_string(), "2d6+6");
    assert_eq!(roll.roll.draws[0].purpose, "melee attack roll, die 1");
    assert_eq!(roll.roll.draws[1].purpose, "melee attack roll, die 2");
    assert!(roll.rule.contains("seed 000 \"Dice and Rounding\""));
    let miss = attack_roll(&mut tape(), &spec(AttackKind::Melee, 6, 15), &RollOptions::default()).expect("rolls");
    assert!(!miss.hit);
}

#[test]
fn a_ranged_attack_roll_is_2d6_plus_rat_plus_2_when_aiming_seed_000_aim() {
    let aimed = AttackSpec { aiming: true, ..spec(AttackKind::Ranged, 5, 15) };
    let roll = attack_roll(&mut tape(), &aimed, &RollOptions::default()).expect("rolls");
    assert_eq!(
        (roll.roll.expression.to_string(), roll.total, roll.aim_bonus, roll.hit),
        ("2d6+5+2".into(), 15, 2, true)
    );
    assert_eq!(roll.roll.draws[0].purpose, "ranged attack roll, die 1");
    assert!(roll.rule.contains("seed 000 \"Aim\""));
}

#[test]
fn an_engaged_model_does_not_gain_the_aim_bonus_seed_000_aim() {
    let engaged = AttackSpec { aiming: true, engaged: true, ..spec(AttackKind::Ranged, 5, 14) };
    let roll = attack_roll(&mut tape(), &engaged, &RollOptions::default()).expect("rolls");
    assert_eq!((roll.aim_bonus, roll.total, roll.hit), (0, 13, false));
    assert_eq!(aim_bonus(AttackKind::Melee, true, false), 0);
    assert_eq!(aim_bonus(AttackKind::Ranged, true, false), 2);
    assert_eq!(aim_bonus(AttackKind::Ranged, false, false), 0);
}

#[test]
fn a_weapon_reduced_to_rng_0_cannot_make_attacks_and_draws_nothing_seed_000_weapon_statistics() {
    for rng in [0.0, -2.0, f64::NAN] {
        let mut tape = tape();
        let zero = AttackSpec { weapon_rng: rng, ..spec(AttackKind::Ranged, 5, 14) };
        let error = attack_roll(&mut tape, &zero, &RollOptions::default()).expect_err("refused");
        assert_eq!(
            (error.code.as_str(), error.rule.as_str()),
            ("warmachine.attack.range_zero", "seed 000 \"Weapon Statistics\"")
        );
        assert_eq!(tape.draws().len(), 0);
    }
    assert!(check_weapon_range(0.5).is_ok());
}

#[test]
fn rof_counts_the_initial_attacks_of_an_activation_seed_000_weapon_statistics() {
    assert_eq!(check_rate_of_fire(2, 0), Ok(1));
    assert_eq!(check_rate_of_fire(2, 1), Ok(0));
    assert_eq!(check_rate_of_fire(2, 2).expect_err("refused").code, "warmachine.attack.rate_of_fire");
    assert!(check_rate_of_fire(0, 0).is_err());
}

#[test]
fn an_attack_roll_can_gain_additional_dice_and_a_boost_seed_000_additional_dice_and_boosted_rolls() {
    let options = RollOptions::boosted().with_additional_die("Weapon Master");
    let roll = attack_roll(&mut tape(), &spec(AttackKind::Melee, 6, 20), &options).expect("rolls");
    assert_eq!(drawn(&roll.roll), [2, 6, 6, 3]);
    assert_eq!((roll.total, roll.hit), (23, true));
    assert_eq!(roll.roll.draws[3].purpose, "melee attack roll, boost die");
    assert!(roll.rule.contains(SEED_000_BOOST));
    let twice = RollOptions::default().with_additional_die("Weapon Master").with_additional_die("Weapon Master");
    let error = attack_roll(&mut tape(), &spec(AttackKind::Melee, 6, 20), &twice).expect_err("refused");
    assert_eq!((error.code.as_str(), error.rule.as_str()), ("dice.additional_die_same_rule", SEED_000_BOOST));
}

#[test]
fn a_damage_roll_deals_one_point_per_point_over_arm_and_none_otherwise_seed_000_model_statistics() {
    let roll = damage_roll(&mut tape(), "damage roll", 12, 16, &RollOptions::default()).expect("rolls");
    assert_eq!((drawn(&roll.roll), roll.total, roll.damage), (vec![2, 6], 20, 4));
    assert_eq!(roll.roll.draws[0].purpose, "damage roll, die 1");
    let exact = damage_roll(&mut tape(), "damage roll", 12, 20, &RollOptions::default()).expect("rolls");
    assert_eq!(exact.damage, 0);
    let under = damage_roll(&mut tape(), "damage roll", 0, 25, &RollOptions::default()).expect("rolls");
    assert_eq!((under.total, under.damage), (8, 0));
    assert_eq!(damage_points(-3, 0), 0);
}

#[test]
fn pow_is_never_reduced_below_0_seed_000_weapon_statistics() {
    assert_eq!(effective_pow(10, -3), 7);
    assert_eq!(effective_pow(3, -5), 0);
    assert_eq!(effective_pow(3, 2), 5);
    let roll =
        damage_roll(&mut tape(), "damage roll", effective_pow(3, -5), 0, &RollOptions::default()).expect("rolls");
    assert_eq!((roll.pow, roll.total, roll.damage), (0, 8, 8));
    assert_eq!(roll.roll.expression.to_string(), "2d6");
}

#[test]
fn a_charge_damage_roll_already_boosted_cannot_be_boosted_again_seed_000_additional_dice_and_boosted_rolls_example() {
    let error = charge_damage_options(&RollOptions::boosted()).expect_err("refused");
    assert_eq!(
        (error.code.as_str(), error.rule.as_str()),
        ("warmachine.damage.charge_already_boosted", SEED_000_BOOST)
    );
    let mut tape = tape();
    let both = RollOptions { boosted: true, ..RollOptions::auto_boosted() };
    let error = damage_roll(&mut tape, "damage roll", 12, 16, &both).expect_err("refused");
    assert_eq!((error.code.as_str(), error.rule.as_str()), ("dice.already_boosted", SEED_000_BOOST));
    assert_eq!(tape.draws().len(), 0);
}

#[test]
fn a_charge_damage_roll_with_an_additional_die_can_still_be_boosted_4_dice_seed_000_additional_dice_and_boosted_rolls_example(
) {
    // The charge's own boost, plus an additional die from another rule: 2d6 + 1 + 1 = 4 dice.
    let options = charge_damage_options(&RollOptions::default().with_additional_die("Berserk")).expect("allowed");
    assert!(options.auto_boosted && !options.boosted);
    let roll = damage_roll(&mut tape(), "charge damage roll", 12, 18, &options).expect("rolls");
    assert_eq!(drawn(&roll.roll), [2, 6, 6, 3]);
    let sources: Vec<&DieSource> = roll.roll.dice.iter().map(|die| &die.source).collect();
    assert_eq!(
        sources,
        [
            &DieSource::Written,
            &DieSource::Written,
            &DieSource::Additional { rule: "Berserk".into() },
            &DieSource::Boost
        ]
    );
    assert_eq!((roll.total, roll.damage), (29, 11));
    assert_eq!(roll.rule, format!("seed 000 \"Model Statistics\"; {BOOSTED_ROLLS_RULE}"));
}

#[test]
fn a_model_with_an_additional_die_can_also_boost_the_roll_seed_000_additional_dice_and_boosted_rolls_example() {
    let options = RollOptions::boosted().with_additional_die("Powerful Attack");
    let roll = damage_roll(&mut tape(), "damage roll", 10, 15, &options).expect("rolls");
    assert_eq!((roll.roll.dice.len(), roll.total, roll.damage), (4, 27, 12));
}

#[test]
fn boosting_applies_per_model_when_an_attack_affects_several_seed_000_additional_dice_and_boosted_rolls() {
    let targets = [DamageTarget { options: RollOptions::boosted(), ..target("a", 14) }, target("b", 14)];
    let rolls = damage_rolls_per_model(&mut tape(), "damage roll", 10, &targets).expect("rolls");
    assert_eq!(drawn(&rolls[0].damage.roll), [2, 6, 6]);
    assert_eq!(drawn(&rolls[1].damage.roll), [3, 3]);
    assert_eq!((rolls[0].damage.damage, rolls[1].damage.damage), (10, 2));
    assert_eq!(rolls[0].damage.roll.draws[2].purpose, "damage roll against a, boost die");
    assert_eq!(rolls[1].damage.roll.draws[0].purpose, "damage roll against b, die 1");
    // A refused option on any model refuses the whole command before any die is drawn.
    let mut tape = tape();
    let bad = [
        target("a", 14),
        DamageTarget {
            options: RollOptions { boosted: true, auto_boosted: true, ..Default::default() },
            ..target("b", 14)
        },
    ];
    assert!(damage_rolls_per_model(&mut tape, "damage roll", 10, &bad).is_err());
    assert_eq!(tape.draws().len(), 0);
}

#[test]
fn a_d3_is_a_d6_halved_and_rounded_up_seed_000_dice_and_rounding() {
    let mut tape = tape();
    let faces: Vec<(u32, i64)> = (0..7)
        .map(|_| roll_d3(&mut tape, "d3").map(|outcome| (outcome.draws[0].value, outcome.total)).expect("rolls"))
        .collect();
    assert_eq!(faces, [(2, 1), (6, 3), (6, 3), (3, 2), (3, 2), (1, 1), (5, 3)]);
}

#[test]
fn halving_rounds_stats_up_and_keeps_distances_exact_seed_000_dice_and_rounding() {
    assert_eq!([halve_stat(7), halve_stat(5), halve_stat(1), halve_stat(0), halve_stat(12)], [4, 3, 1, 0, 6]);
    assert_eq!(
        [halve_distance(7.0), halve_distance(5.0), halve_distance(1.0), halve_distance(3.5)],
        [3.5, 2.5, 0.5, 1.75]
    );
}

#[test]
fn a_direct_aoe_hit_deals_pow_to_the_target_and_separate_blast_rolls_to_others_seed_000_weapon_statistics() {
    let direct = DamageTarget { options: RollOptions::boosted(), ..target("t", 15) };
    let others = [target("x", 12), target("y", 20)];
    let blast = aoe_direct_hit(&mut tape(), 14, 7, &direct, &others).expect("rolls");
    assert_eq!((blast.direct_hit.model.as_str(), drawn(&blast.direct_hit.damage.roll)), ("t", vec![2, 6, 6]));
    assert_eq!((blast.direct_hit.damage.total, blast.direct_hit.damage.damage), (28, 13));
    assert_eq!(blast.blast_pow, 7);
    // The direct hit's boost does not carry over: each blast roll is plain 2d6 + 7.
    assert_eq!(drawn(&blast.blasts[0].damage.roll), [3, 3]);
    assert_eq!((blast.blasts[0].damage.total, blast.blasts[0].damage.damage), (13, 1));
    assert_eq!(drawn(&blast.blasts[1].damage.roll), [1, 5]);
    assert_eq!((blast.blasts[1].damage.total, blast.blasts[1].damage.damage), (13, 0));
    assert_eq!(blast.blasts[1].damage.roll.draws[0].purpose, "blast damage roll against y, die 1");
}

#[test]
fn a_2_inch_fall_is_2d6_plus_12_seed_000_falling() {
    let fall = fall_spec(2.0, Vec::new());
    let result = fall_damage(&mut tape(), &fall).expect("rolls").expect("falls");
    assert_eq!(result.fall_dice, 0);
    assert_eq!(result.falling.damage.roll.expression.to_string(), "2d6+12");
    assert_eq!((result.falling.damage.total, result.falling.damage.damage), (20, 7));
    assert_eq!(result.falling.damage.roll.draws[0].purpose, "falling damage roll against m, die 1");
}

#[test]
fn a_5_inch_fall_is_4d6_plus_12_seed_000_falling() {
    let result = fall_damage(&mut tape(), &fall_spec(5.0, Vec::new())).expect("rolls").expect("falls");
    assert_eq!(result.fall_dice, 2);
    assert_eq!(result.falling.damage.roll.expression.to_string(), "4d6+12");
    assert_eq!(drawn(&result.falling.damage.roll), [2, 6, 6, 3]);
    assert_eq!(result.falling.damage.total, 29);
}

#[test]
fn falls_of_1_4_and_6_inches_roll_2_3_and_4_dice_and_less_than_a_full_inch_is_no_fall_seed_000_falling() {
    let dice = |inches: f64| {
        fall_damage(&mut tape(), &fall_spec(inches, Vec::new()))
            .expect("rolls")
            .map(|fall| fall.falling.damage.roll.expression.to_string())
    };
    assert_eq!(dice(1.0).as_deref(), Some("2d6+12"));
    assert_eq!(dice(4.0).as_deref(), Some("3d6+12"));
    assert_eq!(dice(4.5).as_deref(), Some("4d6+12"));
    assert_eq!(dice(6.0).as_deref(), Some("4d6+12"));
    assert_eq!(dice(0.99), None);
    assert_eq!(dice(0.0), None);
    assert!(!is_fall(0.5) && is_fall(1.0));
    assert_eq!([fall_extra_dice(2.0), fall_extra_dice(2.1), fall_extra_dice(8.0)], [0, 1, 3]);
    assert_eq!(
        fall_damage(&mut tape(), &fall_spec(f64::NAN, Vec::new())).expect_err("refused").code,
        "warmachine.fall.bad_distance"
    );
}

#[test]
fn a_fall_damages_contacted_models_with_an_equal_or_smaller_base_but_not_larger_seed_000_falling() {
    let contacts = vec![contacted("small", 30, 13), contacted("equal", 40, 13), contacted("large", 50, 13)];
    let result = fall_damage(&mut tape(), &fall_spec(3.0, contacts)).expect("rolls").expect("falls");
    assert_eq!(result.fall_dice, 1);
    let models: Vec<&str> = result.contacted.iter().map(|hit| hit.model.as_str()).collect();
    assert_eq!(models, ["small", "equal"]);
    assert_eq!(result.unaffected, ["large"]);
    for hit in &result.contacted {
        assert_eq!(hit.damage.roll.expression.to_string(), "3d6+12");
        assert_eq!(hit.damage.roll.dice.len(), 3);
    }
}

#[test]
fn a_slammed_model_stopped_by_an_obstacle_gains_an_additional_die_seed_000_slammed() {
    let slam = slam_spec(Displacement::Slammed, vec![Contact::Obstacle]);
    let result = slam_damage(&mut tape(), &slam).expect("rolls");
    assert!(result.stopped_hard);
    assert_eq!(drawn(&result.moved.damage.roll), [2, 6, 6]);
    assert_eq!(
        result.moved.damage.roll.dice[2].source,
        DieSource::Additional { rule: contact_die_rule(Displacement::Slammed) }
    );
    assert_eq!((result.moved.damage.total, result.moved.damage.damage), (25, 9));
    assert!(result.collateral.is_empty());
}

#[test]
fn a_slammed_model_moving_through_a_smaller_base_deals_unboosted_collateral_seed_000_slammed() {
    let slam = SlamSpec {
        options: RollOptions::boosted(),
        ..slam_spec(Displacement::Slammed, vec![Contact::Model(contacted("grunt", 30, 12))])
    };
    let result = slam_damage(&mut tape(), &slam).expect("rolls");
    assert!(!result.stopped_hard);
    // Boosted slam damage roll: 3 dice; collateral never boosted: 2 dice at the collateral POW.
    assert_eq!(drawn(&result.moved.damage.roll), [2, 6, 6]);
    assert_eq!(result.collateral.len(), 1);
    assert_eq!(drawn(&result.collateral[0].damage.roll), [3, 3]);
    assert_eq!(result.collateral[0].damage.roll.options, RollOptions::default());
    assert_eq!((result.collateral[0].damage.total, result.collateral[0].damage.damage), (16, 4));
    assert_eq!(result.collateral[0].damage.roll.draws[0].purpose, "slam collateral damage roll against grunt, die 1");
}

#[test]
fn a_slam_into_an_equal_base_adds_a_die_and_collateral_but_a_larger_base_only_the_die_seed_000_slammed() {
    let equal =
        slam_damage(&mut tape(), &slam_spec(Displacement::Slammed, vec![Contact::Model(contacted("e", 40, 12))]))
            .expect("rolls");
    assert!(equal.stopped_hard);
    assert_eq!((equal.moved.damage.roll.dice.len(), equal.collateral.len()), (3, 1));
    let larger =
        slam_damage(&mut tape(), &slam_spec(Displacement::Slammed, vec![Contact::Model(contacted("l", 50, 12))]))
            .expect("rolls");
    assert!(larger.stopped_hard);
    assert_eq!((larger.moved.damage.roll.dice.len(), larger.collateral.len()), (3, 0));
}

#[test]
fn a_thrown_model_deals_no_collateral_to_a_large_base_seed_000_thrown() {
    let contacts = vec![Contact::Model(contacted("small", 30, 12)), Contact::Model(contacted("large", 50, 12))];
    let thrown = SlamSpec { base_mm: 120, ..slam_spec(Displacement::Thrown, contacts.clone()) };
    let result = slam_damage(&mut tape(), &thrown).expect("rolls");
    let hit: Vec<&str> = result.collateral.iter().map(|hit| hit.model.as_str()).collect();
    assert_eq!(hit, ["small"]);
    assert_eq!(result.rule, "seed 000 \"Thrown\"");
    // A slam of the same models would collateral both (both bases are equal or smaller).
    let slammed = SlamSpec { base_mm: 120, ..slam_spec(Displacement::Slammed, contacts) };
    assert_eq!(slam_damage(&mut tape(), &slammed).expect("rolls").collateral.len(), 2);
}

#[test]
fn a_slam_refuses_an_additional_die_named_twice_and_draws_nothing_seed_000_additional_dice_and_boosted_rolls() {
    let mut tape = tape();
    let slam = SlamSpec {
        options: RollOptions::default().with_additional_die(contact_die_rule(Displacement::Slammed)),
        ..slam_spec(Displacement::Slammed, vec![Contact::Obstruction])
    };
    let error = slam_damage(&mut tape, &slam).expect_err("refused");
    assert_eq!((error.code.as_str(), error.rule.as_str()), ("dice.additional_die_same_rule", SEED_000_BOOST));
    assert_eq!(tape.draws().len(), 0);
}

fn fall_spec(drop_inches: f64, contacted: Vec<ContactedModel>) -> FallSpec {
    FallSpec { model: "m".into(), drop_inches, arm: 13, base_mm: 40, options: RollOptions::default(), contacted }
}

fn slam_spec(displacement: Displacement, contacts: Vec<Contact>) -> SlamSpec {
    SlamSpec {
        displacement,
        model: "jack".into(),
        arm: 16,
        base_mm: 40,
        pow: 11,
        collateral_pow: 10,
        options: RollOptions::default(),
        contacts,
    }
}

#[test]
fn a_ranged_attack_with_an_additional_die_rolls_3d6_plus_rat_seed_000_additional_dice_and_boosted_rolls() {
    // The seed's own example: "when a model makes a ranged attack roll, it generally rolls 2d6
    // and adds its RAT stat. If the model gains an additional die on this attack, it would roll
    // 3d6 and add its RAT stat."
    let plain = attack_roll(&mut tape(), &spec(AttackKind::Ranged, 5, 12), &RollOptions::default()).expect("rolls");
    assert_eq!(plain.roll.draws.len(), 2);
    assert_eq!(plain.total, drawn(&plain.roll).iter().map(|v| i64::from(*v)).sum::<i64>() + 5);
    let options = RollOptions::default().with_additional_die("Sure Shot");
    let extra = attack_roll(&mut tape(), &spec(AttackKind::Ranged, 5, 12), &options).expect("rolls");
    assert_eq!(extra.roll.draws.len(), 3);
    assert_eq!(extra.total, drawn(&extra.roll).iter().map(|v| i64::from(*v)).sum::<i64>() + 5);
    assert!(!extra.roll.options.boosted, "an additional die is not a boost");
}
