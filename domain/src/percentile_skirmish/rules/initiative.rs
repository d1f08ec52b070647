//! The order minis act in within an initiative round (seed 002 "INITIATIVE": "participants roll
//! percentile dice for each mini, adding their character levels to their scores. Mini's then
//! perform actions in decending order, based on the adjusted rolls").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::dice::Draw;

/// One mini's initiative roll in a round with several minis, recorded with the round.
///
/// Herald's reading of equal scores: the tied minis roll again (percentile + level), as many
/// times as it takes; `draws` and `scores` hold every roll, the first one first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishInitiativeRoll)]
pub struct InitiativeRoll {
    /// The mini.
    pub mini: String,
    /// Its character level, added to every roll.
    pub level: u32,
    /// The percentile dice, in order.
    pub draws: Vec<Draw>,
    /// Each roll plus the level.
    pub scores: Vec<u32>,
}

/// The minis in the order they act: highest first score first, ties by the next score.
pub fn acting_order(rolls: &[InitiativeRoll]) -> Vec<String> {
    let mut sorted: Vec<&InitiativeRoll> = rolls.iter().collect();
    sorted.sort_by(|a, b| b.scores.cmp(&a.scores));
    sorted.into_iter().map(|roll| roll.mini.clone()).collect()
}

/// The groups of minis whose scores are all equal so far: each needs another roll.
pub fn tied(rolls: &[InitiativeRoll]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (index, roll) in rolls.iter().enumerate() {
        match groups.iter_mut().find(|group| rolls[group[0]].scores == roll.scores) {
            Some(group) => group.push(index),
            None => groups.push(vec![index]),
        }
    }
    groups.retain(|group| group.len() > 1);
    groups
}
