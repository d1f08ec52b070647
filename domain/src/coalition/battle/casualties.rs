//! Troops lost in a battle (seed 003 §4.2.5–4.2.6).
//!
//! "The judge will use the dice results to calculate the number of troops lost by each side by a
//! secret formula. The winning side will generally lose less troops then the losing side, but both
//! sides will usually lose at least some troops." Herald's default is the documented
//! [`CasualtyFormula`]: a rate from the pairs a side lost and by how much, applied to every slot.
//! Rates are in tenths of a percent (1000 = every troop).

use super::{
    event::{Casualties, ModifiedDie},
    CasualtyFormula, SideId, Sides,
};
use crate::coalition::army::ArmySpec;

/// A rate of 100%, in tenths of a percent.
pub const FULL_RATE: u32 = 1000;

/// Losses in a slot are rounded down to a multiple of this many troops.
pub const LOSS_GRANULARITY: u32 = 10;

/// How badly a side lost the pairs it lost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PairsLost {
    /// Pairs the enemy's die beat this side's die.
    pub count: u32,
    /// Sum over those pairs of the enemy's total minus this side's total.
    pub margin: u32,
}

/// The pairs `side` lost: die i of the enemy higher than die i of `side`.
pub fn pairs_lost(side: SideId, dice: &Sides<Vec<ModifiedDie>>) -> PairsLost {
    let own = dice.get(side);
    let enemy = dice.get(side.other());
    own.iter().zip(enemy).filter(|(mine, theirs)| theirs.total > mine.total).fold(
        PairsLost::default(),
        |lost, (mine, theirs)| PairsLost {
            count: lost.count.saturating_add(1),
            margin: lost.margin.saturating_add(theirs.total - mine.total),
        },
    )
}

/// The casualty rate of a side that fought (seed 003 §4.2.5):
/// `base + per_pair_lost × pairs lost + per_margin × margins`, capped at `max` (and at 100%).
pub fn casualty_rate(formula: &CasualtyFormula, lost: PairsLost) -> u32 {
    formula
        .base
        .saturating_add(formula.per_pair_lost.saturating_mul(lost.count))
        .saturating_add(formula.per_margin.saturating_mul(lost.margin))
        .min(formula.max)
        .min(FULL_RATE)
}

/// The rate of a side that runs away (seed 003 §4.2.6: "they cause no damage to the enemy army but
/// take reduced damage themselves ... but at least some damage will always be done"): half the
/// rate it would have taken, rounded up, but never below `base`.
pub fn running_away_rate(formula: &CasualtyFormula, rate: u32) -> u32 {
    rate.div_ceil(2).max(formula.base).min(formula.max).min(FULL_RATE)
}

/// Troops a slot of `troops` loses at `rate`: `floor(troops × rate / 1000)`, rounded down to a
/// multiple of 10, never more than the slot has.
pub fn slot_loss(troops: u32, rate: u32) -> u32 {
    let exact = u64::from(troops).saturating_mul(u64::from(rate.min(FULL_RATE))) / u64::from(FULL_RATE);
    let rounded = exact - exact % u64::from(LOSS_GRANULARITY);
    u32::try_from(rounded).unwrap_or(troops).min(troops)
}

/// An army's casualties at `rate`, slot by slot.
pub fn casualties_at_rate(army: &ArmySpec, rate: u32) -> Casualties {
    let losses: Vec<u32> = army.slots.iter().map(|slot| slot_loss(slot.troops, rate)).collect();
    let total = losses.iter().map(|loss| u64::from(*loss)).sum();
    Casualties { losses, total, rate_tenths_percent: Some(rate) }
}

/// The rate each side takes, given the dice and who ran away (seed 003 §4.2.5–4.2.6).
///
/// A side that runs away deals no damage, so its enemy's rate is 0; the runner takes
/// [`running_away_rate`].
pub fn battle_rates(
    formula: &CasualtyFormula,
    dice: &Sides<Vec<ModifiedDie>>,
    running_away: Option<SideId>,
) -> Sides<u32> {
    Sides::from_fn(|side| {
        let rate = casualty_rate(formula, pairs_lost(side, dice));
        match running_away {
            Some(runner) if runner == side => running_away_rate(formula, rate),
            Some(_) => 0,
            None => rate,
        }
    })
}

/// Both sides' casualties (seed 003 §4.2.5–4.2.6).
pub fn battle_casualties(
    formula: &CasualtyFormula,
    armies: &Sides<ArmySpec>,
    dice: &Sides<Vec<ModifiedDie>>,
    running_away: Option<SideId>,
) -> Sides<Casualties> {
    let rates = battle_rates(formula, dice, running_away);
    armies.map(|side, army| casualties_at_rate(army, *rates.get(side)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_losses_round_down_to_tens_and_never_exceed_the_slot_seed_003_4_2_5() {
        assert_eq!(slot_loss(5000, 265), 1320);
        assert_eq!(slot_loss(2500, 265), 660);
        assert_eq!(slot_loss(15, 1000), 10);
        assert_eq!(slot_loss(9, 1000), 0);
        assert_eq!(slot_loss(u32::MAX, 5000), u32::MAX - u32::MAX % 10);
    }

    #[test]
    fn the_rate_is_capped_at_the_formula_max_seed_003_4_2_5() {
        let formula = CasualtyFormula::default();
        assert_eq!(casualty_rate(&formula, PairsLost { count: 4, margin: 200 }), 600);
        assert_eq!(casualty_rate(&formula, PairsLost { count: 0, margin: 0 }), 50);
    }

    #[test]
    fn a_runner_takes_half_rounded_up_but_at_least_base_seed_003_4_2_6() {
        let formula = CasualtyFormula::default();
        assert_eq!(running_away_rate(&formula, 265), 133);
        assert_eq!(running_away_rate(&formula, 60), 50);
    }
}
