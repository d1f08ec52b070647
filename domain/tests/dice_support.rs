//! Helpers shared by the dice tests: rolls on the fixed key of docs/DICE.md's test vectors
//! (bytes 00 01 … 1f, whose first d6 are 2 6 6 3 3 1 5 3 4 3 and first d20 14 6 18 17).

#![allow(dead_code)]

use herald_domain::dice::{DiceExpr, DiceTape, RollOptions, RollOutcome};

/// The test-vector key: bytes 0, 1, …, 31.
pub fn key() -> [u8; 32] {
    std::array::from_fn(|index| index as u8)
}

/// Roll `text` on a fresh tape at word 0 with `options`.
pub fn roll_with(text: &str, purpose: &str, options: &RollOptions) -> RollOutcome {
    let expr = DiceExpr::parse(text).expect("parses");
    expr.roll(&mut DiceTape::new(key(), 0), purpose, options).expect("rolls")
}

/// Roll `text` as an "attack roll" with no options.
pub fn roll(text: &str) -> RollOutcome {
    roll_with(text, "attack roll", &RollOptions::default())
}

/// The faces drawn, in order.
pub fn drawn(outcome: &RollOutcome) -> Vec<u32> {
    outcome.draws.iter().map(|draw| draw.value).collect()
}

/// Which dice were kept, in order.
pub fn kept(outcome: &RollOutcome) -> Vec<bool> {
    outcome.dice.iter().map(|die| die.kept).collect()
}
