//! Action dice (seed 004 "Initiative, ActionDice(AD) & Actions", "Actions & Refresh", "AD = 1").
//!
//! Each participant rolls its dice and keeps them aside; actions are paid with one or more dice
//! whose pips meet the cost ("Wastage of pips is expected"), never with 1s, which serve only for
//! effort, an extra stun recovery roll, or +1 to a skill die.

/// The most dice a figure rolls, "not counting rerolls".
pub const MAX_DICE: u32 = 6;

/// The face a figure's only die is set at when modifiers leave it fewer than one ("you still get
/// 1 dice set at 3").
pub const MINIMUM_FACE: u8 = 3;

/// How many dice a figure rolls this round: its dice plus modifiers plus a carried die, at most
/// six; `None` when that falls below one (the figure gets one die set at 3).
pub fn dice_to_roll(base: u32, modifier: i32, carried: bool) -> Option<u32> {
    let total = i64::from(base) + i64::from(modifier) + i64::from(carried);
    if total < 1 {
        None
    } else {
        Some(u32::try_from(total.min(i64::from(MAX_DICE))).unwrap_or(MAX_DICE))
    }
}

/// Extra dice the first roll earns: one per 6 ("rerolls do not give you further rerolls").
pub fn extra_dice(first: &[u8]) -> u32 {
    u32::try_from(first.iter().filter(|face| **face == 6).count()).unwrap_or(0)
}

/// Turn `count` dice of `hand` into 1s for injuries that burn action dice ("The owner may select
/// which dice to convert to 1's": Herald converts the lowest, which leaves the owner the most
/// pips). Returns how many were burnt.
pub fn burn(hand: &mut [u8], count: u32) -> u32 {
    let mut burnt = 0;
    while burnt < count {
        let lowest = hand.iter().enumerate().filter(|(_, face)| **face > 1).min_by_key(|(_, face)| **face);
        let Some((index, _)) = lowest else { break };
        hand[index] = 1;
        burnt += 1;
    }
    burnt
}

/// Dice of a hand that can pay for actions: every die but the 1s.
pub fn usable(hand: &[u8]) -> u32 {
    u32::try_from(hand.iter().filter(|face| **face > 1).count()).unwrap_or(0)
}

/// Why a payment is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentRefusal {
    /// A die named is not in the hand.
    NotInHand(u8),
    /// A 1 cannot be combined to pay for an action.
    One,
    /// The dice do not reach the cost.
    Short {
        /// Pips offered.
        pips: u32,
        /// Pips needed.
        cost: u32,
    },
    /// A die that the payment does not need ("one or more AD … that equal or exceed the cost").
    NotNeeded(u8),
    /// The hand cannot pay at all.
    CannotAfford,
}

/// Check that `pay` (faces) comes from `hand`, holds no 1, reaches `cost`, and needs every die.
pub fn check(hand: &[u8], pay: &[u8], cost: u32) -> Result<(), PaymentRefusal> {
    let mut left = hand.to_vec();
    for face in pay {
        if *face == 1 {
            return Err(PaymentRefusal::One);
        }
        let Some(index) = left.iter().position(|die| die == face) else {
            return Err(PaymentRefusal::NotInHand(*face));
        };
        left.remove(index);
    }
    let pips: u32 = pay.iter().map(|face| u32::from(*face)).sum();
    if pay.is_empty() || pips < cost.max(1) {
        return Err(PaymentRefusal::Short { pips, cost });
    }
    if let Some(face) = pay.iter().find(|face| pips - u32::from(**face) >= cost.max(1)) {
        return Err(PaymentRefusal::NotNeeded(*face));
    }
    Ok(())
}

/// The dice Herald pays with when the player names none: the fewest dice that reach the cost,
/// and among those the fewest pips (the countdown favours whoever keeps more dice).
pub fn choose(hand: &[u8], cost: u32) -> Result<Vec<u8>, PaymentRefusal> {
    let mut dice: Vec<u8> = hand.iter().copied().filter(|face| *face > 1).collect();
    dice.sort_unstable();
    let cost = cost.max(1);
    let count = dice.len().min(16);
    let mut best: Option<(usize, u32, Vec<u8>)> = None;
    for mask in 1u32..(1 << count) {
        let chosen: Vec<u8> = (0..count).filter(|bit| mask & (1 << bit) != 0).map(|bit| dice[bit]).collect();
        let pips: u32 = chosen.iter().map(|face| u32::from(*face)).sum();
        if pips < cost || chosen.iter().any(|face| pips - u32::from(*face) >= cost) {
            continue;
        }
        let key = (chosen.len(), pips);
        let better = match &best {
            None => true,
            Some((len, total, _)) => key < (*len, *total),
        };
        if better {
            best = Some((key.0, key.1, chosen));
        }
    }
    best.map(|(_, _, chosen)| chosen).ok_or(PaymentRefusal::CannotAfford)
}

/// The die Herald spends when one die of any value but 1 is the price (a defence, a Pool die):
/// the lowest.
pub fn lowest_usable(hand: &[u8]) -> Option<u8> {
    hand.iter().copied().filter(|face| *face > 1).min()
}

/// Remove `faces` from `hand` (one die per face; missing faces are ignored).
pub fn remove(hand: &mut Vec<u8>, faces: &[u8]) {
    for face in faces {
        if let Some(index) = hand.iter().position(|die| die == face) {
            hand.remove(index);
        }
    }
}
