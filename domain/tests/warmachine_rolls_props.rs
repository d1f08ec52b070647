//! Properties of Warmachine's rolls (seed 000 "Dice and Rounding", "Additional Dice and Boosted
//! Rolls", "Falling"): damage is never negative, the dice count is 2 + additional + boost (+ fall
//! dice), and every face is a d6 face.

use herald_domain::dice::{DiceTape, RollOptions, RollOutcome};
use herald_domain::warmachine::rolls::{
    attack_roll, damage_points, damage_roll, fall_damage, fall_extra_dice, AttackKind, AttackSpec, FallSpec,
};
use proptest::prelude::*;

fn options() -> impl Strategy<Value = RollOptions> {
    (0usize..4, any::<bool>(), any::<bool>()).prop_map(|(additional, boosted, auto_boosted)| RollOptions {
        additional_dice: (0..additional).map(|index| format!("rule {index}")).collect(),
        boosted: boosted && !auto_boosted,
        auto_boosted,
    })
}

fn faces_are_d6(outcome: &RollOutcome) -> bool {
    outcome.draws.iter().all(|draw| draw.sides == 6 && (1..=6).contains(&draw.value))
}

fn expected_dice(options: &RollOptions) -> usize {
    2 + options.additional_dice.len() + usize::from(options.boosted || options.auto_boosted)
}

proptest! {
    #[test]
    fn damage_is_never_negative_and_counts_the_points_over_arm(
        key in any::<[u8; 32]>(), pow in 0u32..30, arm in 0u32..40, options in options(),
    ) {
        let roll = damage_roll(&mut DiceTape::new(key, 0), "damage roll", pow, arm, &options).expect("rolls");
        prop_assert_eq!(roll.roll.dice.len(), expected_dice(&options));
        prop_assert!(faces_are_d6(&roll.roll));
        let dice: i64 = roll.roll.draws.iter().map(|draw| i64::from(draw.value)).sum();
        prop_assert_eq!(roll.total, dice + i64::from(pow));
        prop_assert_eq!(i64::from(roll.damage), (roll.total - i64::from(arm)).max(0));
        prop_assert_eq!(damage_points(roll.total, arm), roll.damage);
    }

    #[test]
    fn attack_rolls_use_2_plus_additional_plus_boost_dice_and_hit_on_def_or_more(
        key in any::<[u8; 32]>(), stat in 0u32..12, def in 0u32..25, ranged in any::<bool>(),
        aiming in any::<bool>(), engaged in any::<bool>(), options in options(),
    ) {
        let kind = if ranged { AttackKind::Ranged } else { AttackKind::Melee };
        let spec = AttackSpec { kind, attack_stat: stat, target_def: def, weapon_rng: 8.0, aiming, engaged };
        let roll = attack_roll(&mut DiceTape::new(key, 0), &spec, &options).expect("rolls");
        prop_assert_eq!(roll.roll.dice.len(), expected_dice(&options));
        prop_assert!(faces_are_d6(&roll.roll));
        let aim = if ranged && aiming && !engaged { 2 } else { 0 };
        let dice: i64 = roll.roll.draws.iter().map(|draw| i64::from(draw.value)).sum();
        prop_assert_eq!(roll.total, dice + i64::from(stat) + aim);
        prop_assert_eq!(roll.hit, roll.total >= i64::from(def));
    }

    #[test]
    fn a_fall_rolls_2_plus_fall_dice_plus_extra_dice_and_never_negative_damage(
        key in any::<[u8; 32]>(), tenths in 0u32..200, arm in 0u32..40, options in options(),
    ) {
        let drop_inches = f64::from(tenths) / 10.0;
        let spec = FallSpec { model: "m".into(), drop_inches, arm, base_mm: 40, options: options.clone(), contacted: Vec::new() };
        let result = fall_damage(&mut DiceTape::new(key, 0), &spec).expect("rolls");
        match result {
            None => prop_assert!(drop_inches < 1.0),
            Some(fall) => {
                let fall_dice = fall_extra_dice(drop_inches);
                prop_assert_eq!(fall.fall_dice, fall_dice);
                prop_assert_eq!(fall.falling.damage.roll.dice.len(), expected_dice(&options) + fall_dice as usize);
                prop_assert!(faces_are_d6(&fall.falling.damage.roll));
                prop_assert_eq!(fall.falling.damage.pow, 12);
                prop_assert!(fall.falling.damage.total >= 12);
            }
        }
    }
}
