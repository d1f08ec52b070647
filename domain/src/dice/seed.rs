//! Seed commitment and the effective seed (docs/DICE.md §"Seeds").
//!
//! The server seed is committed with `sha256(seed)` in the stream's first event. The tape's key
//! is `sha256(seed ‖ sha256(stream) ‖ sha256(c1) ‖ … ‖ sha256(cn))`: the stream name is always
//! mixed in, so the key never equals the public commitment (which it would with no contributions)
//! and two battles given the same public seed never share dice; hashing each part makes the
//! concatenation unambiguous.

use sha2::{Digest, Sha256};

/// `sha256(seed)`, the commitment published before any die is drawn.
pub fn commitment(seed: &[u8; 32]) -> [u8; 32] {
    Sha256::digest(seed).into()
}

/// The key of a stream's dice tape.
pub fn effective_seed(seed: &[u8; 32], stream: &str, contributions: &[String]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(seed);
    hasher.update(Sha256::digest(stream.as_bytes()));
    for contribution in contributions {
        hasher.update(Sha256::digest(contribution.as_bytes()));
    }
    hasher.finalize().into()
}

/// Parse a 64-hex-digit seed or commitment.
pub fn parse_hex32(text: &str) -> Option<[u8; 32]> {
    let bytes = hex::decode(text.trim()).ok()?;
    bytes.try_into().ok()
}

/// The seed of a campaign turn: `sha256("herald/turn-seed/v1" ‖ root ‖ campaign stream ‖ turn as
/// 4 bytes big-endian)` (docs/DICE.md "Keys"). Revealing it exposes neither the root nor any
/// other key.
pub fn turn_seed(root: &[u8; 32], campaign: &str, turn: u32) -> [u8; 32] {
    derive(b"herald/turn-seed/v1", root, campaign, turn)
}

/// The seed of a campaign's dice between the adjudication of turn `after_turn` (0: the set-up)
/// and the lock of the next: `sha256("herald/interval-seed/v1" ‖ root ‖ campaign stream ‖
/// after_turn as 4 bytes big-endian)` (docs/DICE.md "Keys").
pub fn interval_seed(root: &[u8; 32], campaign: &str, after_turn: u32) -> [u8; 32] {
    derive(b"herald/interval-seed/v1", root, campaign, after_turn)
}

fn derive(label: &[u8], root: &[u8; 32], campaign: &str, turn: u32) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(label);
    hasher.update(root);
    hasher.update(campaign.as_bytes());
    hasher.update(turn.to_be_bytes());
    hasher.finalize().into()
}
