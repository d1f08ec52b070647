//! The test vectors of docs/DICE.md, read out of the document itself, checked against the dice
//! tape and against an independent ChaCha20 (the `chacha20` crate's djb variant, 64-bit nonce 0).

use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use chacha20::ChaCha20Legacy;
use herald_domain::dice::seed::{commitment, effective_seed, parse_hex32};
use herald_domain::dice::{die_from_word, DiceExpr, DiceTape, RollOptions};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

const DOC: &str = include_str!("../../docs/DICE.md");

/// The rows of the table after `<!-- vectors:{name} -->`, cells trimmed and unquoted.
fn table(name: &str) -> Vec<Vec<String>> {
    let marker = format!("<!-- vectors:{name} -->");
    let start = DOC.find(&marker).unwrap_or_else(|| panic!("docs/DICE.md has no {marker}"));
    let rows: Vec<Vec<String>> = DOC[start + marker.len()..]
        .lines()
        .skip_while(|line| line.trim().is_empty())
        .take_while(|line| line.starts_with('|'))
        .skip(2) // header and separator
        .map(|line| line.trim_matches('|').split('|').map(|cell| cell.trim().trim_matches('`').to_owned()).collect())
        .collect();
    assert!(!rows.is_empty(), "table {name} is empty");
    rows
}

fn numbers<T: std::str::FromStr>(cell: &str) -> Vec<T> {
    cell.split(',').map(|item| item.trim().parse().unwrap_or_else(|_| panic!("not a number: {item:?}"))).collect()
}

fn key(cell: &str) -> [u8; 32] {
    parse_hex32(cell).unwrap_or_else(|| panic!("not a 32-byte hex key: {cell:?}"))
}

/// Output words `from..from + count` of the keystream, from the `chacha20` crate.
fn keystream_words(key: &[u8; 32], from: u64, count: usize) -> Vec<u32> {
    let mut cipher = ChaCha20Legacy::new(key.into(), &[0u8; 8].into());
    cipher.seek(from * 4);
    let mut bytes = vec![0u8; count * 4];
    cipher.apply_keystream(&mut bytes);
    bytes.chunks_exact(4).map(|chunk| u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]])).collect()
}

/// The documented rule, written out again here rather than calling the code under test.
fn independent_die(word: u32, sides: u32) -> Option<u32> {
    let limit = (1u64 << 32) - (1u64 << 32) % u64::from(sides);
    (u64::from(word) < limit).then(|| 1 + (u64::from(word) % u64::from(sides)) as u32)
}

/// `count` dice from word `from` of the independent keystream: (recorded word, value).
fn independent_dice(key: &[u8; 32], from: u64, sides: u32, count: usize) -> Vec<(u64, u32)> {
    let words = keystream_words(key, from, count * 4 + 64);
    let (mut dice, mut index) = (Vec::new(), 0usize);
    while dice.len() < count {
        let first = index;
        let value = loop {
            let word = words[index];
            index += 1;
            assert_eq!(die_from_word(word, sides), independent_die(word, sides), "word {word} d{sides}");
            if let Some(value) = independent_die(word, sides) {
                break value;
            }
        };
        dice.push((from + first as u64, value));
    }
    dice
}

fn tape_dice(key: [u8; 32], from: u64, sides: u32, count: usize) -> Vec<(u64, u32)> {
    let mut tape = DiceTape::new(key, from);
    (0..count).map(|_| tape.roll(sides, "vector").map(|draw| (draw.word, draw.value)).expect("tape rolls")).collect()
}

#[test]
fn rand_chacha_and_the_chacha20_crate_give_the_same_first_words() {
    let key: [u8; 32] = std::array::from_fn(|index| index as u8);
    let mut rng = ChaCha20Rng::from_seed(key);
    let from_rand_chacha: Vec<u32> = (0..64).map(|_| rng.next_u32()).collect();
    assert_eq!(from_rand_chacha, keystream_words(&key, 0, 64));
}

#[test]
fn the_documented_output_words_match_both_chacha20_implementations_and_the_tape() {
    for row in table("words") {
        let key = key(&row[0]);
        let (indexes, words): (Vec<u64>, Vec<u32>) = (numbers(&row[1]), numbers(&row[2]));
        for (&index, &word) in indexes.iter().zip(&words) {
            assert_eq!(keystream_words(&key, index, 1), [word], "chacha20 crate, word {index}");
            let mut rng = ChaCha20Rng::from_seed(key);
            rng.set_word_pos(u128::from(index));
            assert_eq!(rng.next_u32(), word, "rand_chacha, word {index}");
            // A die of 2^32 - 1 sides shows w + 1 for every word below 2^32 - 1: the raw word.
            let draw = DiceTape::new(key, index).roll(u32::MAX, "raw word").expect("tape rolls");
            assert_eq!((draw.word, draw.value - 1), (index, word), "dice tape, word {index}");
        }
    }
}

#[test]
fn the_documented_dice_match_the_tape_and_the_independent_keystream() {
    for row in table("dice") {
        let (key, sides) = (key(&row[0]), row[1].parse::<u32>().expect("sides"));
        let expected: Vec<(u64, u32)> = numbers(&row[2]).into_iter().zip(numbers(&row[3])).collect();
        assert_eq!(tape_dice(key, 0, sides, expected.len()), expected, "DiceTape d{sides}");
        assert_eq!(independent_dice(&key, 0, sides, expected.len()), expected, "chacha20 crate d{sides}");
    }
}

#[test]
fn a_tape_positioned_at_any_word_continues_the_same_keystream() {
    let key: [u8; 32] = std::array::from_fn(|index| index as u8);
    for from in [1u64, 5, 15, 16, 17, 31, 32, 33, 1000, 4097, 1 << 20] {
        for sides in [6u32, 20, 100, 3_000_000_000] {
            let expected = independent_dice(&key, from, sides, 8);
            assert_eq!(tape_dice(key, from, sides, 8), expected, "d{sides} from word {from}");
            assert_eq!(expected[0].0, from);
        }
        let mut tape = DiceTape::new(key, from);
        assert_eq!(tape.next_word(), from);
        tape.roll(20, "one").expect("tape rolls");
        assert_eq!(tape.next_word(), from + 1);
    }
}

#[test]
fn the_documented_expressions_roll_the_documented_draws_and_totals() {
    let key: [u8; 32] = std::array::from_fn(|index| index as u8);
    for row in table("expressions") {
        let expr = DiceExpr::parse(&row[0]).expect("documented expression parses");
        let mut options = RollOptions::default();
        for option in row[1].split(';').map(str::trim).filter(|option| *option != "none") {
            match option.strip_prefix("additional: ") {
                Some(rule) => options.additional_dice.push(rule.to_owned()),
                None if option == "boosted" => options.boosted = true,
                None => panic!("unknown option {option:?}"),
            }
        }
        let outcome = expr.roll(&mut DiceTape::new(key, 0), "vector", &options).expect("rolls");
        let draws: Vec<u32> = outcome.draws.iter().map(|draw| draw.value).collect();
        assert_eq!(draws, numbers::<u32>(&row[2]), "{}", row[0]);
        assert_eq!(outcome.total, row[3].parse::<i64>().expect("total"), "{}", row[0]);
        assert_eq!(outcome.expression.to_string(), row[0]);
    }
}

#[test]
fn the_documented_effective_seed_example_holds() {
    let rows = table("seed");
    let field = |name: &str| -> String {
        rows.iter().find(|row| row[0] == name).map(|row| row[1].clone()).unwrap_or_else(|| panic!("no {name}"))
    };
    let seed = key(&field("seed"));
    assert_eq!(hex::encode(commitment(&seed)), field("commitment"));
    let contributions: Vec<String> =
        field("contributions").split(',').map(|c| c.trim().trim_matches('`').into()).collect();
    assert_eq!(contributions, ["alice", "bob"]);
    let effective = effective_seed(&seed, &field("stream"), &contributions);
    assert_eq!(hex::encode(effective), field("effective seed"));
    let d20: Vec<u32> = numbers(&field("d20 at words 0, 1, 2, 3"));
    let expected: Vec<(u64, u32)> = (0..).zip(d20).collect();
    assert_eq!(tape_dice(effective, 0, 20, 4), expected);
    assert_eq!(independent_dice(&effective, 0, 20, 4), expected);
}

#[test]
fn without_contributions_the_key_is_not_the_public_commitment() {
    let seed: [u8; 32] = std::array::from_fn(|index| index as u8);
    let alone = effective_seed(&seed, "battle-00000000-0000-0000-0000-000000000000", &[]);
    assert_ne!(alone, commitment(&seed));
    assert_ne!(alone, effective_seed(&seed, "battle-00000000-0000-0000-0000-000000000001", &[]));
}

#[test]
fn the_verification_script_is_next_to_the_document() {
    let script = include_str!("../../docs/verify_dice.py");
    for needle in ["def block(key, counter):", "def die(key, n, sides):", "def effective_seed(", "--events"] {
        assert!(script.contains(needle), "docs/verify_dice.py lost {needle:?}");
    }
    assert!(DOC.contains("verify_dice.py"), "docs/DICE.md points to the script");
}
