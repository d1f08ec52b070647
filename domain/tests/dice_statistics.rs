//! The dice are fair: the rejection rule gives every face exactly the same number of words, and
//! a chi-square test over a fixed key finds no bias in any die size the rules use.
//!
//! The key is fixed, so the test is deterministic; its threshold is the p = 1e-6 critical value,
//! so that a fair die would fail it about once in a million keys rather than once in twenty.

use herald_domain::dice::{die_from_word, DiceExpr, DiceTape, RollOptions};

const DRAWS: usize = 60_000;
const KEY: [u8; 32] = *b"herald dice statistics key 00001";

/// Upper p = 1e-6 critical value of chi-square with `df` degrees of freedom (Wilson-Hilferty;
/// it slightly overestimates for df = 1, which only makes the test more lenient there).
fn critical_value(df: usize) -> f64 {
    const Z: f64 = 4.753_424; // standard normal quantile for 1 - 1e-6
    let df = df as f64;
    let h = 2.0 / (9.0 * df);
    df * (1.0 - h + Z * h.sqrt()).powi(3)
}

fn chi_square(counts: &[usize]) -> f64 {
    let total: usize = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts.iter().map(|&count| (count as f64 - expected).powi(2) / expected).sum()
}

fn counts(values: impl IntoIterator<Item = u32>, sides: u32) -> Vec<usize> {
    let mut counts = vec![0; sides as usize];
    for value in values {
        counts[value as usize - 1] += 1;
    }
    counts
}

fn assert_fair(label: &str, counts: &[usize]) {
    let statistic = chi_square(counts);
    let limit = critical_value(counts.len() - 1);
    assert!(statistic < limit, "{label}: chi-square {statistic:.1} >= {limit:.1} (counts {counts:?})");
    assert!(counts.iter().all(|&count| count > 0), "{label}: a face never came up");
}

#[test]
fn every_die_size_the_rules_use_is_unbiased_over_sixty_thousand_draws() {
    for sides in [2u32, 4, 6, 8, 10, 12, 20, 100] {
        let mut tape = DiceTape::new(KEY, u64::from(sides) << 32);
        let values = (0..DRAWS).map(|_| tape.roll(sides, "").expect("tape rolls").value);
        assert_fair(&format!("d{sides}"), &counts(values, sides));
    }
}

#[test]
fn a_d3_from_a_halved_d6_is_unbiased_too() {
    let expr = DiceExpr::parse("1000d3").expect("parses");
    let mut tape = DiceTape::new(KEY, 3 << 32);
    let mut faces = Vec::with_capacity(DRAWS);
    for _ in 0..DRAWS / 1000 {
        let outcome = expr.roll(&mut tape, "", &RollOptions::default()).expect("rolls");
        faces.extend(outcome.dice.iter().map(|die| die.value));
    }
    assert_eq!(faces.len(), DRAWS);
    assert_fair("d3", &counts(faces, 3));
}

#[test]
fn the_test_notices_a_die_that_turns_one_six_in_ten_into_a_one() {
    let mut tape = DiceTape::new(KEY, 0);
    let values = (0..DRAWS).map(|index| match tape.roll(6, "").expect("tape rolls").value {
        6 if index % 10 == 0 => 1,
        value => value,
    });
    let statistic = chi_square(&counts(values, 6));
    assert!(statistic > critical_value(5), "chi-square {statistic:.1} should exceed {:.1}", critical_value(5));
}

#[test]
fn a_d6_rejects_exactly_the_words_from_4294967292_up() {
    assert_eq!((1u64 << 32) % 6, 4);
    assert_eq!(die_from_word(4_294_967_291, 6), Some(6));
    assert_eq!(die_from_word(4_294_967_292, 6), None);
    assert_eq!(die_from_word(u32::MAX, 6), None);
    assert_eq!(die_from_word(0, 6), Some(1));
    assert_eq!(die_from_word(5, 6), Some(6));
}

#[test]
fn powers_of_two_reject_no_word() {
    for sides in [1u32, 2, 4, 8, 1 << 31] {
        assert_eq!(die_from_word(u32::MAX, sides), Some(sides), "d{sides}");
    }
}

#[test]
fn rejection_leaves_every_face_exactly_the_same_number_of_accepted_words() {
    let span = 1u64 << 32;
    for sides in [2u64, 3, 4, 5, 6, 7, 8, 10, 12, 20, 100, 1_000_000, 3_000_000_000, u64::from(u32::MAX)] {
        let limit = span - span % sides;
        assert_eq!(limit % sides, 0, "d{sides}: the accepted words are whole cycles of faces");
        let last = u32::try_from(limit - 1).expect("limit fits");
        assert_eq!(die_from_word(last, sides as u32), Some(sides as u32), "d{sides}: the last accepted word");
        if let Ok(first_rejected) = u32::try_from(limit) {
            assert_eq!(die_from_word(first_rejected, sides as u32), None, "d{sides}: the first rejected word");
        }
        // Words w < limit with w mod n = f - 1 number ceil((limit - (f - 1)) / n).
        let faces = [1, 2, sides / 2, sides - 1, sides];
        for face in faces.into_iter().filter(|face| (1..=sides).contains(face)) {
            assert_eq!((limit - (face - 1)).div_ceil(sides), limit / sides, "d{sides} face {face}");
        }
    }
}

#[test]
fn without_rejection_a_d6_would_favour_one_to_four() {
    let span = 1u64 << 32;
    let per_face: Vec<u64> = (1..=6).map(|face| (span - (face - 1)).div_ceil(6)).collect();
    assert_eq!(per_face[0], per_face[4] + 1);
    assert_eq!(per_face[3], per_face[5] + 1);
    assert_eq!(per_face[4], per_face[5]);
}
