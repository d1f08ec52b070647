//! What an outsider needs to check Herald's dice and formulas without Herald's code: the
//! `chacha20` crate's keystream (not the project's `rand_chacha`), docs/DICE.md's die rule and
//! seed scheme, and the canonical formula commitment, each written again from the document.

use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use chacha20::ChaCha20Legacy;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Output word `word` of the keystream keyed by `key`, from the `chacha20` crate.
pub fn keystream_word(key: &[u8; 32], word: u64) -> u32 {
    let mut cipher = ChaCha20Legacy::new(key.into(), &[0u8; 8].into());
    cipher.seek(word * 4);
    let mut bytes = [0u8; 4];
    cipher.apply_keystream(&mut bytes);
    u32::from_le_bytes(bytes)
}

/// docs/DICE.md "Deriving a die", written again here: reject words at or above the largest
/// multiple of `sides`, then `1 + w mod sides`.
pub fn die(key: &[u8; 32], word: u64, sides: u32) -> u32 {
    let limit = (1u64 << 32) - (1u64 << 32) % u64::from(sides);
    (word..).map(|w| keystream_word(key, w)).find(|w| u64::from(*w) < limit).map_or(0, |w| 1 + w % sides)
}

pub fn hex32(text: &Value) -> [u8; 32] {
    hex::decode(text.as_str().expect("hex")).expect("hex").try_into().expect("32 bytes")
}

/// `sha256(seed ‖ sha256(stream) ‖ sha256(c1) …)`, docs/DICE.md "Effective seed".
pub fn effective_seed(seed: &[u8; 32], stream: &str, contributions: &[String]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(seed);
    hasher.update(Sha256::digest(stream.as_bytes()));
    for contribution in contributions {
        hasher.update(Sha256::digest(contribution.as_bytes()));
    }
    hasher.finalize().into()
}

/// Every recorded draw inside `value` (an object with `word`, `sides`, `value`, `purpose`).
pub fn draws_in(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            if ["word", "sides", "value", "purpose"].iter().all(|field| map.contains_key(*field)) {
                out.push(value.clone());
            }
            map.values().for_each(|child| draws_in(child, out));
        }
        Value::Array(items) => items.iter().for_each(|child| draws_in(child, out)),
        _ => {}
    }
}

/// docs/DICE.md "Commitments to hidden formulas": the canonical JSON of the four hidden formulas,
/// written out field by field from the document (not by serializing Herald's types).
pub fn canonical_formulas(options: &Value) -> String {
    let size = |f: &Value| format!(r#"{{"weighting":"{}","scale":{}}}"#, text(&f["weighting"]), f["scale"]);
    let (c, k, j) = (&options["casualty_formula"], &options["kill_formula"], &options["joint_formula"]);
    format!(
        concat!(
            r#"{{"size_formula":{},"casualty_formula":{{"base":{},"per_pair_lost":{},"per_margin":{},"max":{}}},"#,
            r#""kill_formula":{{"defence":{},"damage_step":{},"max_damage_bonus":{},"overkill":{},"capture_penalty":{},"spare":{}}},"#,
            r#""joint_formula":{{"size_formula":{},"casualty_percent":{},"retreat_penalty":{}}}}}"#
        ),
        size(&options["size_formula"]),
        c["base"],
        c["per_pair_lost"],
        c["per_margin"],
        c["max"],
        k["defence"],
        k["damage_step"],
        k["max_damage_bonus"],
        k["overkill"],
        k["capture_penalty"],
        k["spare"],
        size(&j["size_formula"]),
        j["casualty_percent"],
        j["retreat_penalty"],
    )
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_else(|| panic!("a string: {value}"))
}

/// `hex(sha256("herald/formulas/v1" ‖ salt ‖ canonical))`.
pub fn formula_commitment(salt_hex: &str, canonical: &str) -> String {
    let salt = hex::decode(salt_hex).expect("the salt is hex");
    assert_eq!(salt.len(), 32, "a 32-byte salt");
    let mut hasher = Sha256::new();
    hasher.update(b"herald/formulas/v1");
    hasher.update(&salt);
    hasher.update(canonical.as_bytes());
    hex::encode(hasher.finalize())
}
