//! Per-battle options: the tie rule and the judge's formulas (seed 003 §4.2.2, §4.2.4, §4.2.5).
//!
//! The seed keeps the size and casualty formulas secret and leaves ties to the judge; Herald
//! ships documented defaults (docs/rulesets/coalition-battle.md) that a battle may replace.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// All of a battle's options; every field has a documented default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct BattleOptions {
    /// How a battle with equal pairs won is decided.
    pub tie_rule: TieRule,
    /// The size-bonus formula (visible to judges only).
    pub size_formula: SizeFormula,
    /// The default casualty formula.
    pub casualty_formula: CasualtyFormula,
}

/// How a battle is decided when both sides win the same number of pairs (seed 003 §4.2.4 leaves
/// "details and what-ifs of this system" to the judge).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// The higher sum of the four modified dice wins; if that ties too, roll off.
    #[default]
    HigherTotal,
    /// The defender (the attacked army, seed 003 §4.1.2.3) wins; in a no-attacker battle, roll off.
    Defender,
    /// Roll one more modified d20 per side until one is higher; every roll is recorded.
    RollOff,
}

/// What counts as an army's size (seed 003 §4.2.2: "the number and rank of troops remaining").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SizeWeighting {
    /// Each troop counts its power plus toughness: bigger creatures weigh more.
    #[default]
    PowerToughness,
    /// Each troop counts one.
    Troops,
}

/// The size bonus: the larger army gets `round(scale × (1 − smaller / larger))`, capped at 10;
/// the smaller army gets 0 (seed 003 §4.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct SizeFormula {
    /// How troops are weighed.
    pub weighting: SizeWeighting,
    /// The bonus an army infinitely larger than its enemy would get (capped at 10).
    pub scale: u32,
}

impl Default for SizeFormula {
    fn default() -> Self {
        Self { weighting: SizeWeighting::PowerToughness, scale: 10 }
    }
}

/// The default casualty formula (seed 003 §4.2.5): each side loses
/// `base + per_pair_lost × pairs lost + per_margin × (sum of margins of the pairs it lost)`
/// percent of each slot's troops, capped at `max`, in tenths of a percent; losses in a slot are
/// rounded down to a multiple of 10. A side that runs away (§4.2.6) deals no damage and takes
/// half, but at least `base`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct CasualtyFormula {
    /// Losses every side takes, in tenths of a percent.
    pub base: u32,
    /// Added per pair the side lost, in tenths of a percent.
    pub per_pair_lost: u32,
    /// Added per point of margin in the pairs the side lost, in tenths of a percent.
    pub per_margin: u32,
    /// Cap, in tenths of a percent.
    pub max: u32,
}

impl Default for CasualtyFormula {
    fn default() -> Self {
        Self { base: 50, per_pair_lost: 50, per_margin: 5, max: 600 }
    }
}
