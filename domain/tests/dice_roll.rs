//! Rolling each feature of the expression language on a fixed key (docs/DICE.md test vectors:
//! key 00 01 … 1f, whose first d6 are 2 6 6 3 3 1 5 3 4 3 and first d20 14 6 18 17).

use herald_domain::dice::expr::MAX_EXPLOSIONS;
use herald_domain::dice::{DiceExpr, DiceTape, RollOptions, RollOutcome};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

#[path = "dice_support.rs"]
mod support;
use support::{drawn, kept, key, roll, roll_with};

#[test]
fn two_d6_plus_three_adds_the_dice_and_the_modifier() {
    let outcome = roll("2d6+3");
    assert_eq!(drawn(&outcome), [2, 6]);
    assert_eq!((outcome.modifier, outcome.total, outcome.successes), (3, 11, None));
    let words: Vec<u64> = outcome.draws.iter().map(|draw| draw.word).collect();
    assert_eq!(words, [0, 1]);
    let purposes: Vec<&str> = outcome.draws.iter().map(|draw| draw.purpose.as_str()).collect();
    assert_eq!(purposes, ["attack roll, die 1", "attack roll, die 2"]);
    assert_eq!(outcome.expression.to_string(), "2d6+3");
}

#[test]
fn subtracted_terms_count_against_the_total() {
    assert_eq!(roll("2d6-1").total, 7);
    let outcome = roll("2d6-d6");
    assert_eq!((drawn(&outcome), outcome.total), (vec![2, 6, 6], 2));
    assert_eq!(outcome.draws[2].purpose, "attack roll, term 2 die 1");
}

#[test]
fn a_d3_records_the_d6_drawn_and_is_worth_half_of_it_rounded_up() {
    let outcome = roll("2d3");
    assert_eq!(outcome.draws.iter().map(|draw| (draw.sides, draw.value)).collect::<Vec<_>>(), [(6, 2), (6, 6)]);
    assert_eq!(outcome.dice.iter().map(|die| die.value).collect::<Vec<_>>(), [1, 3]);
    assert_eq!(outcome.total, 4);
    assert_eq!(outcome.draws[0].purpose, "attack roll, die 1 (d3: d6 halved, rounded up)");
}

#[test]
fn percentile_and_d100_are_the_same_single_hundred_sided_draw() {
    let percentile = roll("d%");
    let hundred = roll("d100");
    assert_eq!((percentile.draws[0].sides, percentile.total), (100, 74));
    assert_eq!(percentile.draws, hundred.draws);
    assert_eq!(percentile.expression.to_string(), "d%");
}

#[test]
fn a_pool_counts_the_dice_at_or_above_its_threshold() {
    let outcome = roll("6d6>=5");
    assert_eq!(drawn(&outcome), [2, 6, 6, 3, 3, 1]);
    let successes: Vec<Option<bool>> = outcome.dice.iter().map(|die| die.success).collect();
    assert_eq!(successes, [Some(false), Some(true), Some(true), Some(false), Some(false), Some(false)]);
    assert_eq!((outcome.successes, outcome.total), (Some(2), 2));
    assert_eq!(roll("6d6>=5+1").total, 3);
}

#[test]
fn an_exploding_die_rolls_again_on_its_highest_face_and_records_each_extra_draw() {
    let outcome = roll("3d6!");
    assert_eq!(drawn(&outcome), [2, 6, 6, 3, 3]);
    let second = &outcome.dice[1];
    assert_eq!((second.faces.clone(), second.explosions, second.value), (vec![6, 6, 3], 2, 15));
    assert_eq!(second.draws, [1, 2, 3]);
    assert_eq!(outcome.draws[2].purpose, "attack roll, die 2, explosion 1");
    assert_eq!(outcome.draws[3].purpose, "attack roll, die 2, explosion 2");
    assert_eq!(outcome.draws[4].purpose, "attack roll, die 3");
    assert_eq!(outcome.total, 2 + 15 + 3);
}

#[test]
fn an_exploding_d3_explodes_on_a_halved_three() {
    let outcome = roll("2d3!");
    assert_eq!(drawn(&outcome), [2, 6, 6, 3]);
    assert_eq!(outcome.dice[1].faces, [3, 3, 2]);
    assert_eq!(outcome.total, 1 + 8);
}

#[test]
fn explosions_stop_at_the_cap_even_when_the_highest_face_keeps_coming() {
    // Find the first word starting a run of more than MAX_EXPLOSIONS + 1 words that all give a
    // d2 its 2 (odd words), so the cap, not the dice, ends the chain.
    let mut rng = ChaCha20Rng::from_seed(key());
    let run = MAX_EXPLOSIONS as usize + 2;
    let (mut start, mut streak) = (0u64, 0usize);
    for index in 0u64.. {
        streak = if rng.next_u32() % 2 == 1 { streak + 1 } else { 0 };
        if streak == run {
            start = index + 1 - run as u64;
            break;
        }
    }
    let expr = DiceExpr::parse("d2!").expect("parses");
    let outcome = expr.roll(&mut DiceTape::new(key(), start), "", &RollOptions::default()).expect("rolls");
    assert_eq!(outcome.dice[0].explosions, MAX_EXPLOSIONS);
    assert_eq!(outcome.draws.len(), MAX_EXPLOSIONS as usize + 1);
    assert_eq!(outcome.total, 2 * (i64::from(MAX_EXPLOSIONS) + 1));
    assert_eq!(outcome.draws[1].purpose, "die 1, explosion 1");
}

#[test]
fn keep_and_drop_mark_which_dice_count() {
    let highest = roll("4d6kh3");
    assert_eq!((drawn(&highest), kept(&highest), highest.total), (vec![2, 6, 6, 3], vec![false, true, true, true], 15));
    let drop_lowest = roll("4d6dl1");
    assert_eq!((kept(&drop_lowest), drop_lowest.total), (vec![false, true, true, true], 15));
    let lowest = roll("2d20kl1");
    assert_eq!((drawn(&lowest), kept(&lowest), lowest.total), (vec![14, 6], vec![false, true], 6));
    let keep_one_lowest = roll("4d6kl1");
    assert_eq!((kept(&keep_one_lowest), keep_one_lowest.total), (vec![true, false, false, false], 2));
}

#[test]
fn among_equal_dice_the_earlier_one_is_picked_first() {
    let drop_highest = roll("4d6dh1");
    assert_eq!((kept(&drop_highest), drop_highest.total), (vec![true, false, true, true], 11));
    let keep_highest = roll("3d6kh1");
    assert_eq!(kept(&keep_highest), [false, true, false]);
}

#[test]
fn rolling_without_a_tape_is_a_rule_error() {
    let error = DiceExpr::parse("d6")
        .expect("parses")
        .roll(&mut DiceTape::unavailable(), "", &RollOptions::default())
        .expect_err("no tape");
    assert_eq!(error.code, "dice.no_tape");
}

#[test]
fn the_tape_continues_where_the_previous_roll_ended() {
    let mut tape = DiceTape::new(key(), 0);
    let expr = DiceExpr::parse("2d20").expect("parses");
    let first = expr.roll(&mut tape, "first", &RollOptions::default()).expect("rolls");
    let second = expr.roll(&mut tape, "second", &RollOptions::default()).expect("rolls");
    assert_eq!((drawn(&first), drawn(&second)), (vec![14, 6], vec![18, 17]));
    assert_eq!(tape.next_word(), 4);
    assert_eq!(tape.draws().len(), 4);
}

#[test]
fn an_outcome_round_trips_through_json_with_the_expression_as_text() {
    let outcome = roll_with("3d6!+2", "attack roll", &RollOptions::boosted().with_additional_die("Weapon Master"));
    let json = serde_json::to_value(&outcome).expect("serializes");
    assert_eq!(json["expression"], "3d6!+2");
    assert_eq!(json["dice"][3]["source"], serde_json::json!({"kind": "additional", "rule": "Weapon Master"}));
    assert_eq!(
        json["draws"][0],
        serde_json::json!({"word": 0, "sides": 6, "value": 2, "purpose": "attack roll, die 1"})
    );
    let back: RollOutcome = serde_json::from_value(json).expect("deserializes");
    assert_eq!(back, outcome);
    let options: RollOptions = serde_json::from_str("{}").expect("all options default");
    assert_eq!(options, RollOptions::default());
}
