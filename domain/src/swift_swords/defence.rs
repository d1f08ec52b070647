//! Dodge, Block and Parry, and the defence pools they leave (seed 004 "Defences", "Pools").
//!
//! A Dodge or Block roll is kept in front of the defender as a pool and used against every
//! further attack it works against; "after each use of your defence pool against an attack you
//! must discard one dice from it, including the first attack". A Parry does not pool.
//!
//! The seed's two Block examples disagree on an attack that outscores the pool (Roland's third
//! goblin beats the pool and ignores the shield; the 6d example's attacker "can continue with
//! the 4 successes" against a standing block): [`BlockOutscored`] names both, Roland's is the
//! default. "Block:" under "Defences" states a third way, [`BlockPool::Successes`]: the pool is
//! the roll's successes alone and works until it is stripped ([`block_as_defences`]); the
//! "Pools" reading, successes plus the device's value, stays the default. Under the "Pools"
//! reading, exposures from a working block are the pool left over once it has stopped what it
//! stopped, at least "the one needed": Roland's pool of 4 stopping 2 successes gives 2, the 6d
//! example's pool of 2 stopping none gives 1, and "your block total is 4 so you can place 3
//! exposures" is a pool of 4 stopping one.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::options::{BlockOutscored, BlockPool};

/// The three forms of defence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsDefenceKind)]
pub enum DefenceKind {
    /// Move out of the way: each success removes an attack die before the roll.
    Dodge,
    /// Stop the attack with a device: its armour counts while the block works.
    Block,
    /// Deflect a melee attack: each success turns a missed die into an exposure.
    Parry,
}

/// A Dodge pool used against one attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsDodgeUse)]
pub struct DodgeUse {
    /// The pool before this attack.
    pub pool: u32,
    /// Dodge successes that count: one fewer against a fired missile.
    pub effective: u32,
    /// Attack dice removed before the roll.
    pub removed: u32,
    /// Successes left once every attack die is removed: exposures on the attacker.
    pub exposures: u32,
    /// The pool after discarding one die for the use.
    pub pool_after: u32,
}

/// Use a Dodge pool of `pool` against an attack of `attack_dice` (seed 004 "Dodge").
pub fn dodge(pool: u32, attack_dice: u32, fired_missile: bool) -> DodgeUse {
    let effective = if fired_missile { pool.saturating_sub(1) } else { pool };
    DodgeUse {
        pool,
        effective,
        removed: effective.min(attack_dice),
        exposures: effective.saturating_sub(attack_dice),
        pool_after: pool.saturating_sub(1),
    }
}

/// A Block pool met by an attack's successes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsBlockUse)]
pub struct BlockUse {
    /// The pool before this attack (block successes, plus the device's value under the "Pools"
    /// reading).
    pub pool: u32,
    /// The attack's successes before the block.
    pub successes: u32,
    /// Successes the attacker spent stripping the pool, one die each.
    pub stripped: u32,
    /// The attack outscored what was left of the pool (and the option ignores the shield then).
    pub outscored: bool,
    /// Whether the block worked: the device's armour counted.
    pub works: bool,
    /// Successes the device's armour stopped.
    pub stopped: u32,
    /// Successes left to do damage.
    pub successes_after: u32,
    /// Exposures placed on the attacker.
    pub exposures: u32,
    /// The pool afterwards (one die discarded for the use).
    pub pool_after: u32,
}

/// Meet a Block pool of `pool` with `successes`, the attacker spending `strip` of them on the
/// pool; `device` is the blocking device's armour (seed 004 "Block").
pub fn block(pool: u32, device: u32, successes: u32, strip: u32, rule: BlockOutscored) -> BlockUse {
    let stripped = strip.min(successes).min(pool);
    let left = pool - stripped;
    let hits = successes - stripped;
    let mut used = BlockUse {
        pool,
        successes,
        stripped,
        outscored: false,
        works: false,
        stopped: 0,
        successes_after: hits,
        exposures: 0,
        pool_after: left.saturating_sub(1),
    };
    if left == 0 {
        used.pool_after = 0;
        return used;
    }
    if hits > left && rule == BlockOutscored::Ignored {
        used.outscored = true;
        return used;
    }
    used.works = true;
    used.stopped = hits.min(device);
    used.successes_after = hits - used.stopped;
    used.exposures = left.saturating_sub(used.stopped.max(1));
    used
}

/// Meet a Block pool made of the Block roll's successes alone, as "Block:" under seed 004
/// "Defences" states it: "Any success indicates that the Block has worked"; while it works the
/// device's value "is added to the defenders total armour value" (it stops that many
/// successes); the attacker "may use any successes from their attack roll to reduce the number
/// of dice in the Block Pool, with an aim to remove them all and stop the Block"; "If a net
/// number of Block successes exist (more than the one needed) then they can be applied as
/// exposures to the attacker … equal to the remainder of the Block total" (the 6d example: a
/// pool of 2 gives 1 exposure; "Your block total is 4 so you can place 3 exposures").
pub fn block_as_defences(pool: u32, device: u32, successes: u32, strip: u32) -> BlockUse {
    let stripped = strip.min(successes).min(pool);
    let left = pool - stripped;
    let hits = successes - stripped;
    let stopped = if left == 0 { 0 } else { hits.min(device) };
    BlockUse {
        pool,
        successes,
        stripped,
        outscored: false,
        works: left > 0,
        stopped,
        successes_after: hits - stopped,
        exposures: left.saturating_sub(1),
        pool_after: left.saturating_sub(1),
    }
}

/// Meet a Block pool under the battle's reading of what the pool is (`reading`) and, for the
/// "Pools" reading, what an outscoring attack does (`rule`).
pub fn meet_block(
    reading: BlockPool,
    pool: u32,
    device: u32,
    successes: u32,
    strip: u32,
    rule: BlockOutscored,
) -> BlockUse {
    match reading {
        BlockPool::SuccessesAndDevice => block(pool, device, successes, strip, rule),
        BlockPool::Successes => block_as_defences(pool, device, successes, strip),
    }
}

/// The Block pool a Block roll makes: none without a success (seed 004 "Block": "Any success
/// indicates that the Block has worked"); the device's value on top under the "Pools" reading.
pub fn block_pool(reading: BlockPool, successes: u32, device: u32) -> u32 {
    match reading {
        _ if successes == 0 => 0,
        BlockPool::SuccessesAndDevice => successes + device,
        BlockPool::Successes => successes,
    }
}

/// The attacker's spend against a block when it names none: the fewest successes that let the
/// most through (Roland's goblins, whose successes cannot get through, spend none).
pub fn best_strip(reading: BlockPool, pool: u32, device: u32, successes: u32, rule: BlockOutscored) -> u32 {
    (0..=successes.min(pool))
        .min_by_key(|strip| {
            let used = meet_block(reading, pool, device, successes, *strip, rule);
            (std::cmp::Reverse(used.successes_after), *strip)
        })
        .unwrap_or(0)
}

/// Misses a Parry of `successes` turns into exposure dice (seed 004 "Parry": "If all the
/// attackers dice hit … a Parry will have no effect").
pub fn parry(successes: u32, misses: u32) -> u32 {
    successes.min(misses)
}

/// A Pool action adds one die to a defence pool, "upto the number of dice you would normally
/// roll" (for a Block under the "Pools" reading, the device's value on top).
pub fn pooled(pool: u32, cap: u32) -> u32 {
    (pool + 1).min(cap).max(pool)
}
