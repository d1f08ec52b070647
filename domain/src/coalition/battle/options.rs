//! Per-battle options: the tie rule and the judge's formulas (seed 003 §4.2.2, §4.2.4, §4.2.5).
//!
//! The seed keeps the size and casualty formulas secret and leaves ties to the judge; Herald
//! ships documented defaults (docs/rulesets/coalition-battle.md) that a battle may replace.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// All of a battle's options; every field has a documented default.
///
/// The kill and joint formulas are left out of the stored payload while they are the defaults,
/// so a battle recorded before they existed replays to the same bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct BattleOptions {
    /// How a battle with equal pairs won is decided.
    pub tie_rule: TieRule,
    /// The size-bonus formula (visible to judges only).
    pub size_formula: SizeFormula,
    /// The default casualty formula.
    pub casualty_formula: CasualtyFormula,
    /// The kill and capture formula (seed 003 §4.3.3, §4.5; visible to judges only).
    #[serde(skip_serializing_if = "KillFormula::is_default")]
    pub kill_formula: KillFormula,
    /// How a 2v1 or 2v2 battle differs (seed 003 §4.4; visible to judges only).
    #[serde(skip_serializing_if = "JointFormula::is_default")]
    pub joint_formula: JointFormula,
}

/// The judge's "pair of rolls following another secret formula" that decides a kill (seed 003
/// §4.3.3) or a capture (§4.5), Herald's documented default.
///
/// The attacker rolls a d20 and adds `1` per `damage_step` tenths of a percent of its target's
/// troops lost in the battle ("doing heavy damage during the battle will make the next step
/// easier") and `overkill` when it has more top-rank troops left than the target (§4.3.4); the
/// target rolls a d20 and adds `defence` (and `capture_penalty` against a capture: "slightly
/// worse than your chances to kill", §4.5). The attempt succeeds when the attacker's total is
/// higher. A failed attempt loses the risked troops unless a d20 rolls `21 − spare` or more
/// ("a small chance to fail a kill without losing your risked troops").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct KillFormula {
    /// Added to the target's d20.
    pub defence: u32,
    /// Tenths of a percent of the target's troops lost in the battle per +1 to the attacker.
    pub damage_step: u32,
    /// The largest damage bonus.
    pub max_damage_bonus: u32,
    /// Added to the attacker's d20 when it has more top-rank troops left than the target.
    pub overkill: u32,
    /// Added to the target's d20 against a capture.
    pub capture_penalty: u32,
    /// Faces of a d20 (counted from 20 down) on which a failed attempt's troops survive: 0 to
    /// 20 (a d20 has no more faces).
    #[serde(deserialize_with = "d20_faces")]
    #[schema(maximum = 20)]
    pub spare: u32,
}

/// A count of a d20's faces: 0 to 20, refused beyond (the document says so too).
fn d20_faces<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let faces = u32::deserialize(deserializer)?;
    if faces > 20 {
        return Err(serde::de::Error::invalid_value(
            serde::de::Unexpected::Unsigned(u64::from(faces)),
            &"an integer from 0 to 20 (the faces of a d20)",
        ));
    }
    Ok(faces)
}

impl Default for KillFormula {
    fn default() -> Self {
        Self { defence: 6, damage_step: 100, max_damage_bonus: 10, overkill: 3, capture_penalty: 2, spare: 2 }
    }
}

impl KillFormula {
    /// Whether this is the documented default (left out of stored payloads).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// What changes in a battle of two armies against one or two (seed 003 §4.4): the size bonus
/// "may follow a slightly different formula", "total casualties in the battle will be higher
/// than normal", and an army fighting alone beside a stratless partner has "an additional
/// penalty to any retreat-themed strategies".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct JointFormula {
    /// The size bonus on the combined troops of each side's participating armies.
    pub size_formula: SizeFormula,
    /// Each side's casualty rate is multiplied by this percentage (capped at 100%).
    pub casualty_percent: u32,
    /// Taken off the strategy bonus of a side that runs away while covering a stratless partner.
    pub retreat_penalty: u8,
}

impl Default for JointFormula {
    fn default() -> Self {
        Self {
            size_formula: SizeFormula { weighting: SizeWeighting::PowerToughness, scale: 8 },
            casualty_percent: 125,
            retreat_penalty: 2,
        }
    }
}

impl JointFormula {
    /// Whether this is the documented default (left out of stored payloads).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
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
