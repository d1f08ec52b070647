//! Properties of every expression on every key: dice within their faces, totals that add up,
//! the same key giving the same roll, and canonical text that parses back.

use herald_domain::dice::expr::{DiceTerm, Die, Selection, TermKind, MAX_EXPLOSIONS};
use herald_domain::dice::{DiceExpr, DiceTape, RollOptions, RollOutcome};
use proptest::prelude::*;

fn die_text() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["2", "3", "4", "6", "8", "10", "12", "20", "100", "%"]).prop_map(String::from)
}

/// A dice term's text: count, die, then optional `!`, selection and threshold, all valid.
fn dice_term() -> impl Strategy<Value = String> {
    (1u32..=6, die_text(), any::<bool>(), 0u8..5, 1u32..=6, prop::option::of(1u32..=100)).prop_map(
        |(count, die, explode, selection, n, threshold)| {
            let max_face = match die.as_str() {
                "%" => 100,
                sides => sides.parse().unwrap_or(6),
            };
            let mut text = format!("{count}d{die}");
            if explode {
                text.push('!');
            }
            let n = n.min(count);
            match selection {
                1 => text.push_str(&format!("kh{n}")),
                2 => text.push_str(&format!("kl{n}")),
                3 if n < count => text.push_str(&format!("dh{n}")),
                4 if n < count => text.push_str(&format!("dl{n}")),
                _ => {}
            }
            if let Some(threshold) = threshold {
                text.push_str(&format!(">={}", 1 + (threshold - 1) % max_face));
            }
            text
        },
    )
}

fn term() -> impl Strategy<Value = String> {
    prop_oneof![3 => dice_term(), 1 => (0u32..=20).prop_map(|value| value.to_string())]
}

fn expression() -> impl Strategy<Value = String> {
    (term(), prop::collection::vec((any::<bool>(), term()), 0..4)).prop_map(|(first, rest)| {
        rest.into_iter().fold(first, |text, (plus, term)| format!("{text}{}{term}", if plus { " + " } else { " - " }))
    })
}

fn options() -> impl Strategy<Value = RollOptions> {
    (any::<bool>(), prop::collection::hash_set("[A-Z][a-z]{2,8}", 0..3)).prop_map(|(boosted, rules)| RollOptions {
        additional_dice: rules.into_iter().collect(),
        boosted,
        auto_boosted: false,
    })
}

fn roll(expr: &DiceExpr, key: [u8; 32], word: u64, options: &RollOptions) -> RollOutcome {
    expr.roll(&mut DiceTape::new(key, word), "roll", options).expect("valid options roll")
}

fn dice_term_at(expr: &DiceExpr, index: usize) -> DiceTerm {
    match expr.terms()[index].kind {
        TermKind::Dice(dice) => dice,
        TermKind::Constant(_) => panic!("term {index} is a constant"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_draw_and_every_face_is_within_its_die(
        text in expression(), key in any::<[u8; 32]>(), word in 0u64..1 << 40, options in options(),
    ) {
        let expr = DiceExpr::parse(&text).expect("generated text parses");
        prop_assume!(expr.dice_count() > 0 || options.extra_dice() == 0);
        let outcome = roll(&expr, key, word, &options);
        for draw in &outcome.draws {
            prop_assert!((1..=draw.sides).contains(&draw.value), "{draw:?}");
        }
        for die in &outcome.dice {
            let kind = dice_term_at(&expr, die.term).die;
            prop_assert!(die.faces.iter().all(|face| (1..=kind.max_face()).contains(face)));
            prop_assert!(die.explosions <= MAX_EXPLOSIONS);
            prop_assert_eq!(die.faces.len(), die.explosions as usize + 1);
            prop_assert_eq!(die.value, die.faces.iter().sum::<u32>());
            for (&index, &face) in die.draws.iter().zip(&die.faces) {
                prop_assert_eq!(kind.face(outcome.draws[index].value), face);
                prop_assert_eq!(outcome.draws[index].sides, kind.draw_sides());
            }
        }
        let words: Vec<u64> = outcome.draws.iter().map(|draw| draw.word).collect();
        prop_assert!(words.windows(2).all(|pair| pair[0] < pair[1]), "draws advance along the tape");
        prop_assert!(words.iter().all(|first| *first >= word));
    }

    #[test]
    fn the_total_is_the_kept_dice_or_successes_with_their_signs_plus_the_modifier(
        text in expression(), key in any::<[u8; 32]>(), options in options(),
    ) {
        let expr = DiceExpr::parse(&text).expect("generated text parses");
        prop_assume!(expr.dice_count() > 0 || options.extra_dice() == 0);
        let outcome = roll(&expr, key, 0, &options);
        let mut expected = outcome.modifier;
        let mut constants = 0;
        for (index, term) in expr.terms().iter().enumerate() {
            let sign = term.sign.factor();
            let dice = match term.kind {
                TermKind::Dice(dice) => dice,
                TermKind::Constant(value) => {
                    constants += sign * i64::from(value);
                    continue;
                }
            };
            let rolled: Vec<_> = outcome.dice.iter().filter(|die| die.term == index).collect();
            let kept: Vec<_> = rolled.iter().filter(|die| die.kept).collect();
            let wanted = match dice.selection {
                Some(Selection::KeepHighest(n) | Selection::KeepLowest(n)) => n as usize,
                Some(Selection::DropHighest(n) | Selection::DropLowest(n)) => rolled.len() - n as usize,
                None => rolled.len(),
            };
            prop_assert_eq!(kept.len(), wanted);
            expected += sign * match dice.threshold {
                Some(threshold) => kept.iter().filter(|die| die.value >= threshold).count() as i64,
                None => kept.iter().map(|die| i64::from(die.value)).sum::<i64>(),
            };
        }
        prop_assert_eq!(outcome.modifier, constants);
        prop_assert_eq!(outcome.total, expected);
    }

    #[test]
    fn the_same_key_and_word_give_the_same_outcome(
        text in expression(), key in any::<[u8; 32]>(), word in 0u64..1 << 40,
    ) {
        let expr = DiceExpr::parse(&text).expect("generated text parses");
        let options = RollOptions::default();
        prop_assert_eq!(roll(&expr, key, word, &options), roll(&expr, key, word, &options));
    }

    #[test]
    fn display_parses_back_to_the_same_expression_and_is_a_fixed_point(text in expression()) {
        let expr = DiceExpr::parse(&text).expect("generated text parses");
        let canonical = expr.to_string();
        let again = DiceExpr::parse(&canonical).expect("canonical text parses");
        prop_assert_eq!(&again, &expr);
        prop_assert_eq!(again.to_string(), canonical);
    }

    #[test]
    fn parsing_any_text_returns_instead_of_panicking(text in "[0-9dD%!khl>=+\\- x]{0,24}|\\PC{0,40}") {
        if let Ok(expr) = DiceExpr::parse(&text) {
            prop_assert_eq!(DiceExpr::parse(&expr.to_string()), Ok(expr));
        }
    }

    #[test]
    fn extra_dice_are_of_the_first_dice_terms_size(text in dice_term(), key in any::<[u8; 32]>()) {
        let expr = DiceExpr::parse(&text).expect("generated text parses");
        let options = RollOptions::boosted().with_additional_die("Weapon Master");
        let outcome = roll(&expr, key, 0, &options);
        let die: Die = dice_term_at(&expr, 0).die;
        prop_assert_eq!(outcome.dice.len(), dice_term_at(&expr, 0).count as usize + 2);
        prop_assert!(outcome.draws.iter().all(|draw| draw.sides == die.draw_sides()));
    }
}
