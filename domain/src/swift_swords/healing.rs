//! Healing over weeks (seed 004 "Healing", "Slow Healing", "Fast Healing").
//!
//! "A week with good food and water and no travel, will result in 2 wounds being healed. Remove
//! one of the above and it becomes 1 wound. After the first week you recover only 1 wound per
//! week, but can do without one of the requirements. The presence of a trained healer during the
//! entire week, along with a successful Healing roll, will result in an extra rank being
//! recovered." A wound is a lost rank: physical losses heal first, then mental ones.

/// Wounds a week of natural healing recovers, before a healer's extra rank.
pub fn wounds_healed(first_week: bool, good_food_and_water: bool, no_travel: bool) -> u32 {
    let met = u32::from(good_food_and_water) + u32::from(no_travel);
    match (first_week, met) {
        (true, 2) => 2,
        (true, 1) => 1,
        (false, 1 | 2) => 1,
        _ => 0,
    }
}
