//! Fear (seed 004 "Fear", "Levels of Fear"): resisted, not inflicted.
//!
//! Whenever a fear effect is present, a figure that is not fearless makes a Spirit roll each time
//! it has an action, until it passes; "where multiple opponents have fear always use the single
//! worst effect". Fear reaches the zone its cause is in; Terror and Fell reach the adjacent zones
//! as well, and Dread too with the option `dread_reaches_adjacent` (the seed says both).

use super::figure::FearLevel;

/// Whether fear of `level` reaches the zones adjacent to its cause.
pub fn reaches_adjacent(level: FearLevel, dread_reaches_adjacent: bool) -> bool {
    match level {
        FearLevel::Terror | FearLevel::Fell => true,
        FearLevel::Dread => dread_reaches_adjacent,
        FearLevel::Scary | FearLevel::Fearsome => false,
    }
}

/// Dice off the Spirit roll: Dread and worse roll at −1d.
pub fn spirit_penalty(level: FearLevel) -> u32 {
    u32::from(level >= FearLevel::Dread)
}

/// Whether a failed roll may be taken as a Stun instead of a mental rank (Fearsome only: "stun
/// is no longer an option" from Dread on).
pub fn stun_allowed(level: FearLevel) -> bool {
    level == FearLevel::Fearsome
}
