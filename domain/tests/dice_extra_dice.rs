//! Additional dice and boosted rolls (seed 000 "Additional Dice and Boosted Rolls") on a fixed
//! key whose first d6 are 2 6 6 3 3 1 5 and first d20 14 6 18 17 (docs/DICE.md test vectors).

use herald_domain::dice::expr::MAX_RULE_NAME;
use herald_domain::dice::{DiceExpr, DiceTape, DieSource, RollOptions};

const SEED_000: &str = "seed 000 \"Additional Dice and Boosted Rolls\"";

#[path = "dice_support.rs"]
mod support;
use support::{drawn, kept, key, roll, roll_with};

#[test]
fn an_additional_die_joins_the_first_dice_term_and_names_its_rule() {
    let options = RollOptions::default().with_additional_die("Weapon Master");
    let outcome = roll_with("2d6+3", "attack roll", &options);
    assert_eq!((drawn(&outcome), outcome.total), (vec![2, 6, 6], 17));
    assert_eq!(outcome.draws[2].purpose, "attack roll, additional die (Weapon Master)");
    assert_eq!(outcome.dice[2].source, DieSource::Additional { rule: "Weapon Master".into() });
    assert_eq!(outcome.options, options);
}

#[test]
fn a_boosted_roll_adds_one_die_of_the_same_size() {
    let outcome = roll_with("2d6", "damage roll", &RollOptions::boosted());
    assert_eq!((drawn(&outcome), outcome.total), (vec![2, 6, 6], 14));
    assert_eq!(outcome.draws[2].purpose, "damage roll, boost die");
    assert_eq!(outcome.dice[2].source, DieSource::Boost);
    let charge = roll_with("2d6", "damage roll", &RollOptions::auto_boosted());
    assert_eq!(charge.total, 14);
}

#[test]
fn a_roll_can_be_boosted_and_gain_additional_dice_from_different_rules() {
    let options = RollOptions::boosted().with_additional_die("Weapon Master").with_additional_die("Backstab");
    let outcome = roll_with("2d6", "attack roll", &options);
    assert_eq!(drawn(&outcome), [2, 6, 6, 3, 3]);
    let sources: Vec<&DieSource> = outcome.dice.iter().map(|die| &die.source).collect();
    assert_eq!(
        sources,
        [
            &DieSource::Written,
            &DieSource::Written,
            &DieSource::Additional { rule: "Weapon Master".into() },
            &DieSource::Additional { rule: "Backstab".into() },
            &DieSource::Boost,
        ]
    );
    assert_eq!(outcome.total, 20);
}

#[test]
fn extra_dice_go_to_the_first_dice_term_even_after_a_constant() {
    let outcome = roll_with("5+2d6+d20", "attack roll", &RollOptions::boosted());
    assert_eq!(
        outcome.draws.iter().map(|draw| (draw.sides, draw.value)).collect::<Vec<_>>(),
        [(6, 2), (6, 6), (6, 6), (20, 17)]
    );
    assert_eq!(outcome.draws[3].purpose, "attack roll, term 3 die 1");
    assert_eq!(outcome.total, 5 + 14 + 17);
}

#[test]
fn extra_dice_join_pools_and_selections_without_changing_the_kept_count() {
    let pool = roll_with("6d6>=5", "", &RollOptions::boosted());
    assert_eq!((drawn(&pool), pool.successes), (vec![2, 6, 6, 3, 3, 1, 5], Some(3)));
    let keep = roll_with("2d6kh1", "", &RollOptions::boosted());
    assert_eq!((kept(&keep), keep.total), (vec![false, true, false], 6));
}

#[test]
fn an_already_boosted_roll_cannot_be_boosted_again_and_draws_nothing() {
    let options = RollOptions { boosted: true, ..RollOptions::auto_boosted() };
    let mut tape = DiceTape::new(key(), 0);
    let error = DiceExpr::parse("2d6").expect("parses").roll(&mut tape, "damage roll", &options).expect_err("refused");
    assert_eq!(error.code, "dice.already_boosted");
    assert_eq!(error.rule, SEED_000);
    assert_eq!((tape.next_word(), tape.draws().len()), (0, 0));
}

#[test]
fn two_additional_dice_from_the_same_rule_are_refused_citing_seed_000() {
    let options = RollOptions::default().with_additional_die("Weapon Master").with_additional_die("Weapon Master");
    let mut tape = DiceTape::new(key(), 0);
    let error = DiceExpr::parse("2d6").expect("parses").roll(&mut tape, "", &options).expect_err("refused");
    assert_eq!((error.code.as_str(), error.rule.as_str()), ("dice.additional_die_same_rule", SEED_000));
    assert!(error.message.contains("Weapon Master"));
    assert_eq!(tape.next_word(), 0);
}

#[test]
fn unnamed_or_overlong_rules_and_too_many_additional_dice_are_refused() {
    let refused = |options: RollOptions| options.validate().expect_err("refused").code;
    assert_eq!(refused(RollOptions::default().with_additional_die(" ")), "dice.additional_die_rule_name");
    assert_eq!(
        refused(RollOptions::default().with_additional_die("x".repeat(MAX_RULE_NAME + 1))),
        "dice.additional_die_rule_name"
    );
    let many =
        (0..17).fold(RollOptions::default(), |options, index| options.with_additional_die(format!("rule {index}")));
    assert_eq!(refused(many), "dice.too_many_additional_dice");
}

#[test]
fn a_constant_expression_cannot_gain_extra_dice() {
    let error = DiceExpr::parse("3")
        .expect("parses")
        .roll(&mut DiceTape::new(key(), 0), "", &RollOptions::boosted())
        .expect_err("refused");
    assert_eq!((error.code.as_str(), error.rule.as_str()), ("dice.extra_dice_without_dice", SEED_000));
    assert_eq!(roll("3").total, 3);
}
