//! The bonuses added to every die (seed 003 §4.2.1–4.2.3): strategy, size and color.
//!
//! The strategy bonus is the judge's reading of the strategies; the size and color bonuses follow
//! from the armies alone and are computed here as pure functions of the armies as they entered the
//! battle. The seed keeps the size formula secret; Herald's default is documented in
//! [`SizeFormula`] and `docs/rulesets/coalition-battle.md`.

use super::{SideId, Sides, SizeFormula, SizeWeighting};
use crate::coalition::army::{ArmySpec, Color, Slot};

/// The full strategy bonus a side gets when its enemy sends no strategy (seed 003 §4.2.1).
pub const FULL_STRATEGY_BONUS: u8 = 10;

/// The largest size bonus (seed 003 §4.2.2: "between +0 and +10").
pub const MAX_SIZE_BONUS: u8 = 10;

/// The color bonus (seed 003 §4.2.3).
pub const COLOR_BONUS: u8 = 1;

/// An army's size as the size formula weighs it (seed 003 §4.2.2: "the number and rank of troops
/// remaining").
///
/// [`SizeWeighting::PowerToughness`] counts each troop as its power plus toughness, so a troop of
/// a larger slot weighs more; [`SizeWeighting::Troops`] counts heads. Saturates rather than
/// overflows: no real army comes near `u64::MAX`.
pub fn army_size(army: &ArmySpec, weighting: SizeWeighting) -> u64 {
    army.slots.iter().fold(0u64, |size, slot| size.saturating_add(slot_weight(slot, weighting)))
}

fn slot_weight(slot: &Slot, weighting: SizeWeighting) -> u64 {
    let troops = u64::from(slot.troops);
    match weighting {
        SizeWeighting::Troops => troops,
        SizeWeighting::PowerToughness => {
            troops.saturating_mul(u64::from(slot.power).saturating_add(u64::from(slot.toughness)))
        }
    }
}

/// The size bonus of each side (seed 003 §4.2.2).
///
/// The larger army gets `round(scale × (1 − smaller / larger))`, rounding halves up, capped at
/// [`MAX_SIZE_BONUS`]; the smaller army, and both armies when they are the same size, get 0.
pub fn size_bonus(formula: &SizeFormula, sizes: &Sides<u64>) -> Sides<u8> {
    let (larger_side, larger, smaller) = match sizes.a.cmp(&sizes.b) {
        std::cmp::Ordering::Equal => return Sides { a: 0, b: 0 },
        std::cmp::Ordering::Greater => (SideId::A, sizes.a, sizes.b),
        std::cmp::Ordering::Less => (SideId::B, sizes.b, sizes.a),
    };
    let bonus = larger_army_bonus(formula.scale, larger, smaller);
    Sides::from_fn(|side| if side == larger_side { bonus } else { 0 })
}

/// `round(scale × (larger − smaller) / larger)` in exact integer arithmetic, capped at 10.
fn larger_army_bonus(scale: u32, larger: u64, smaller: u64) -> u8 {
    if larger == 0 {
        return 0;
    }
    let difference = u128::from(larger.saturating_sub(smaller));
    let larger = u128::from(larger);
    // round half up: (2·scale·difference + larger) / (2·larger)
    let rounded = (2 * u128::from(scale) * difference + larger) / (2 * larger);
    u8::try_from(rounded.min(u128::from(MAX_SIZE_BONUS))).unwrap_or(MAX_SIZE_BONUS)
}

/// The sizes of both armies under `formula`'s weighting.
pub fn army_sizes(formula: &SizeFormula, armies: &Sides<ArmySpec>) -> Sides<u64> {
    armies.map(|_, army| army_size(army, formula.weighting))
}

/// The color bonus of an army: +1 when all its living creatures share a color or are all
/// artifacts (seed 003 §4.2.3).
///
/// Slots with 0 troops are ignored ("if some of your creatures are the wrong color, but are all
/// dead from prior battles, then the remaining creatures can still get the bonus"). Artifact is
/// treated as a color of its own, so "all artifacts" is the case where every living creature
/// shares [`Color::Artifact`]. An army with no living creature gets no bonus.
pub fn color_bonus(army: &ArmySpec) -> u8 {
    if living_creatures_share_a_color(army) {
        COLOR_BONUS
    } else {
        0
    }
}

/// Whether at least one color (or artifact) is common to every slot that still has troops.
pub fn living_creatures_share_a_color(army: &ArmySpec) -> bool {
    let mut living = army.slots.iter().filter(|slot| slot.troops > 0);
    let Some(first) = living.next() else {
        return false;
    };
    let mut shared: Vec<Color> = first.colors.clone();
    for slot in living {
        shared.retain(|color| slot.colors.contains(color));
    }
    !shared.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coalition::army::{RankClass, Team};

    fn army(slots: &[(u32, u32, u32)]) -> ArmySpec {
        ArmySpec {
            name: "test".into(),
            team: Team::Coalition,
            rank: RankClass::EvincarCaptain,
            controller: "p".into(),
            contingency: None,
            mercenary: None,
            slots: slots
                .iter()
                .map(|&(troops, power, toughness)| Slot {
                    creature: format!("{power}/{toughness}"),
                    colors: vec![Color::Red],
                    power,
                    toughness,
                    troops,
                    slot: None,
                })
                .collect(),
        }
    }

    #[test]
    fn equal_armies_get_no_size_bonus_seed_003_4_2_2() {
        assert_eq!(size_bonus(&SizeFormula::default(), &Sides { a: 500, b: 500 }), Sides { a: 0, b: 0 });
    }

    #[test]
    fn the_larger_army_gets_the_rounded_scaled_share_seed_003_4_2_2() {
        // 1 − 100/400 = 0.75 → 7.5 rounds half up to 8.
        assert_eq!(size_bonus(&SizeFormula::default(), &Sides { a: 100, b: 400 }), Sides { a: 0, b: 8 });
        // 1 − 1/3 → 6.67 → 7.
        assert_eq!(size_bonus(&SizeFormula::default(), &Sides { a: 3000, b: 1000 }), Sides { a: 7, b: 0 });
    }

    #[test]
    fn the_size_bonus_is_capped_at_ten_seed_003_4_2_2() {
        let formula = SizeFormula { weighting: SizeWeighting::Troops, scale: 50 };
        assert_eq!(size_bonus(&formula, &Sides { a: 1, b: 1000 }), Sides { a: 0, b: 10 });
        assert_eq!(size_bonus(&SizeFormula::default(), &Sides { a: 0, b: 1000 }), Sides { a: 0, b: 10 });
    }

    #[test]
    fn power_toughness_weighting_counts_bigger_creatures_more_seed_003_4_2_2() {
        // General's full army (§2.1.1) against a Lt's full army (§2.1.6).
        let general = army(&[(5000, 6, 6), (2500, 7, 7), (1500, 8, 8), (1000, 9, 9)]);
        let lieutenant = army(&[(5000, 1, 1), (2500, 2, 2), (1500, 3, 3), (1000, 4, 4)]);
        assert_eq!(army_size(&general, SizeWeighting::PowerToughness), 137_000);
        assert_eq!(army_size(&lieutenant, SizeWeighting::PowerToughness), 37_000);
        assert_eq!(army_size(&general, SizeWeighting::Troops), 10_000);
        let sizes = army_sizes(&SizeFormula::default(), &Sides { a: general, b: lieutenant });
        // round(10 × (1 − 37000/137000)) = round(7.30) = 7
        assert_eq!(size_bonus(&SizeFormula::default(), &sizes), Sides { a: 7, b: 0 });
    }

    #[test]
    fn an_army_with_no_living_creatures_gets_no_color_bonus_seed_003_4_2_3() {
        assert_eq!(color_bonus(&army(&[(0, 1, 1), (0, 2, 2)])), 0);
        assert_eq!(color_bonus(&army(&[])), 0);
    }
}
