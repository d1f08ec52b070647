//! The dice of a battle (seed 003 §4.2.4): four modified d20 per side, compared pair by pair.
//!
//! "The judge will add all the bonuses, and then roll four 20-sided dice for each army, modifying
//! each dice roll with the bonuses. The army that wins the most die rolls wins the battle, although
//! details and what-ifs of this system are only known by the judge." Herald's details: side A's
//! four dice are drawn first, then side B's; die i of A meets die i of B; a tie in pairs won is
//! broken by the battle's [`TieRule`]. The comparison functions are pure so they can be checked
//! with given dice; only [`roll_battle_dice`] and the roll-off draw from the tape.

use super::{
    command::Engagement,
    event::{ModifiedDie, PairWinner, TieBreak},
    SideId, Sides, TieRule,
};
use crate::{dice::DiceTape, RuleError};

/// Dice per side (seed 003 §4.2.4: "four 20-sided dice for each army").
pub const DICE_PER_SIDE: usize = 4;

/// Sides of each die (seed 003 §4.2.4).
pub const DIE_SIDES: u32 = 20;

/// Roll-off rounds before Herald's fallback decides (side A). Each round ties with probability at
/// most 1/20, so reaching the cap has odds below 10^-130; the cap only keeps the loop finite.
pub const MAX_ROLL_OFF_ROUNDS: u32 = 100;

/// The recorded purpose of battle die `number` (1-based) of `side`: `"side a die 1"`.
pub fn die_purpose(side: SideId, number: usize) -> String {
    format!("side {side} die {number}")
}

/// The recorded purpose of a roll-off die: `"roll-off 1 side a"`.
pub fn roll_off_purpose(round: u32, side: SideId) -> String {
    format!("roll-off {round} side {side}")
}

/// Draw one d20 and add the side's modifier (its total bonus).
pub fn roll_modified_d20(tape: &mut DiceTape, modifier: u32, purpose: String) -> Result<ModifiedDie, RuleError> {
    let draw = tape.roll(DIE_SIDES, purpose)?;
    let total = draw.value.saturating_add(modifier);
    Ok(ModifiedDie { draw, total })
}

/// The battle's dice: A1..A4 then B1..B4, each modified by its side's total bonus.
pub fn roll_battle_dice(tape: &mut DiceTape, modifiers: &Sides<u32>) -> Result<Sides<Vec<ModifiedDie>>, RuleError> {
    let mut roll_side = |side: SideId| -> Result<Vec<ModifiedDie>, RuleError> {
        (1..=DICE_PER_SIDE)
            .map(|number| roll_modified_d20(tape, *modifiers.get(side), die_purpose(side, number)))
            .collect()
    };
    let a = roll_side(SideId::A)?;
    let b = roll_side(SideId::B)?;
    Ok(Sides { a, b })
}

/// Who wins one pair: the higher total; equal totals are a tie.
pub fn pair_winner(a_total: u32, b_total: u32) -> PairWinner {
    match a_total.cmp(&b_total) {
        std::cmp::Ordering::Greater => PairWinner::A,
        std::cmp::Ordering::Less => PairWinner::B,
        std::cmp::Ordering::Equal => PairWinner::Tie,
    }
}

/// Compare die i of A with die i of B for every i.
pub fn compare_pairs(dice: &Sides<Vec<ModifiedDie>>) -> Vec<PairWinner> {
    dice.a.iter().zip(&dice.b).map(|(a, b)| pair_winner(a.total, b.total)).collect()
}

/// Pairs won by each side; tied pairs count for neither.
pub fn count_pairs_won(pairs: &[PairWinner]) -> Sides<u8> {
    let count =
        |winner: PairWinner| u8::try_from(pairs.iter().filter(|pair| **pair == winner).count()).unwrap_or(u8::MAX);
    Sides { a: count(PairWinner::A), b: count(PairWinner::B) }
}

/// The side that won more pairs, or `None` when both won as many.
pub fn more_pairs_won(pairs_won: &Sides<u8>) -> Option<SideId> {
    match pairs_won.a.cmp(&pairs_won.b) {
        std::cmp::Ordering::Greater => Some(SideId::A),
        std::cmp::Ordering::Less => Some(SideId::B),
        std::cmp::Ordering::Equal => None,
    }
}

/// The sum of a side's modified dice (the [`TieRule::HigherTotal`] comparison).
pub fn sum_of_totals(dice: &[ModifiedDie]) -> u64 {
    dice.iter().map(|die| u64::from(die.total)).sum()
}

/// The attacked army, which is officially the defender (seed 003 §4.1.2.3); `None` in a
/// no-attacker battle.
pub fn defender(engagement: Engagement) -> Option<SideId> {
    match engagement {
        Engagement::Attack { attacker } => Some(attacker.other()),
        Engagement::NoAttacker => None,
    }
}

/// How the battle was won.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The winner.
    pub winner: SideId,
    /// The tie break, when pairs won were equal and the dice decided.
    pub tie_break: Option<TieBreak>,
    /// Why, for people.
    pub decided_by: String,
}

/// Decide the winner (seed 003 §4.2.4).
///
/// A side alone without a strategy loses regardless of the dice ("they will automatically lose the
/// battle, but will roll anyway as these rolls are also used to calculate damage"). Otherwise —
/// both with strategies, or both stratless — the side winning more pairs wins, and equal pairs won
/// go to the tie rule.
pub fn decide_winner(
    stratless: &[SideId],
    pairs_won: &Sides<u8>,
    rule: TieRule,
    engagement: Engagement,
    dice: &Sides<Vec<ModifiedDie>>,
    modifiers: &Sides<u32>,
    tape: &mut DiceTape,
) -> Result<Verdict, RuleError> {
    if let [loser] = stratless {
        return Ok(Verdict {
            winner: loser.other(),
            tie_break: None,
            decided_by: format!(
                "side {loser} had no strategy by the deadline and loses automatically (seed 003 §4.2.4)"
            ),
        });
    }
    if let Some(winner) = more_pairs_won(pairs_won) {
        return Ok(Verdict {
            winner,
            tie_break: None,
            decided_by: format!(
                "side {winner} won {} pairs to {}",
                pairs_won.get(winner),
                pairs_won.get(winner.other())
            ),
        });
    }
    let (winner, tie_break) = break_tie(rule, engagement, dice, modifiers, tape)?;
    let decided_by = format!("pairs tied {} to {}; {}", pairs_won.a, pairs_won.b, tie_break.decided_by);
    Ok(Verdict { winner, tie_break: Some(tie_break), decided_by })
}

/// Break a tie in pairs won by the battle's tie rule, rolling off when the rule falls back to it.
///
/// - [`TieRule::HigherTotal`]: the higher sum of the four modified dice; equal sums roll off.
/// - [`TieRule::Defender`]: the attacked side (seed 003 §4.1.2.3: "army2 gets a bonus as it is
///   officially the defender"); a no-attacker battle rolls off.
/// - [`TieRule::RollOff`]: roll off.
pub fn break_tie(
    rule: TieRule,
    engagement: Engagement,
    dice: &Sides<Vec<ModifiedDie>>,
    modifiers: &Sides<u32>,
    tape: &mut DiceTape,
) -> Result<(SideId, TieBreak), RuleError> {
    let settled = |winner: SideId, decided_by: String| (winner, TieBreak { rule, decided_by, roll_off: Vec::new() });
    let prelude = match rule {
        TieRule::HigherTotal => {
            let a_sum = sum_of_totals(&dice.a);
            let b_sum = sum_of_totals(&dice.b);
            match a_sum.cmp(&b_sum) {
                std::cmp::Ordering::Greater => {
                    return Ok(settled(SideId::A, format!("higher total: side a {a_sum} to side b {b_sum}")))
                }
                std::cmp::Ordering::Less => {
                    return Ok(settled(SideId::B, format!("higher total: side b {b_sum} to side a {a_sum}")))
                }
                std::cmp::Ordering::Equal => format!("equal totals {a_sum} to {b_sum}, then "),
            }
        }
        TieRule::Defender => match defender(engagement) {
            Some(side) => return Ok(settled(side, format!("defender: side {side} was attacked (seed 003 §4.1.2.3)"))),
            None => "no attacker, so no defender, then ".to_string(),
        },
        TieRule::RollOff => String::new(),
    };
    let outcome = roll_off(tape, modifiers)?;
    let decided_by = format!("{prelude}{}", outcome.decided_by);
    Ok((outcome.winner, TieBreak { rule, decided_by, roll_off: outcome.rounds }))
}

/// The result of a roll-off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollOff {
    /// The winner.
    pub winner: SideId,
    /// Every round rolled, A's die then B's.
    pub rounds: Vec<Sides<ModifiedDie>>,
    /// Why, for people.
    pub decided_by: String,
}

/// Roll one more modified d20 per side, A then B, until the totals differ; the higher wins.
///
/// After [`MAX_ROLL_OFF_ROUNDS`] tied rounds side A wins (Herald's documented fallback, so the
/// resolution always ends; see `docs/rulesets/coalition-battle.md`).
pub fn roll_off(tape: &mut DiceTape, modifiers: &Sides<u32>) -> Result<RollOff, RuleError> {
    let mut rounds = Vec::new();
    for round in 1..=MAX_ROLL_OFF_ROUNDS {
        let a = roll_modified_d20(tape, modifiers.a, roll_off_purpose(round, SideId::A))?;
        let b = roll_modified_d20(tape, modifiers.b, roll_off_purpose(round, SideId::B))?;
        let verdict = pair_winner(a.total, b.total);
        let (a_total, b_total) = (a.total, b.total);
        rounds.push(Sides { a, b });
        let winner = match verdict {
            PairWinner::A => SideId::A,
            PairWinner::B => SideId::B,
            PairWinner::Tie => continue,
        };
        let (won, lost) = if winner == SideId::A { (a_total, b_total) } else { (b_total, a_total) };
        return Ok(RollOff {
            winner,
            rounds,
            decided_by: format!("roll-off: side {winner} {won} to {lost} in round {round}"),
        });
    }
    Ok(RollOff {
        winner: SideId::A,
        rounds,
        decided_by: format!("roll-off tied {MAX_ROLL_OFF_ROUNDS} rounds; side a by Herald's fallback"),
    })
}
