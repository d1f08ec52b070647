//! What happened in a coalition battle. Events carry their outcomes: dice faces, bonuses and
//! troops lost are stored, never recomputed downstream.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    attempt::{Attempt, AttemptResolved},
    command::Engagement,
    commitment::FormulaOpening,
    joint::{Departure, JointResolution, PartnerArmy, Share},
    BattleOptions, SideId, Sides, TieRule,
};
use crate::{coalition::army::ArmySpec, dice::Draw, EventType};

/// One side's bonuses (seed 003 §4.2.1–4.2.3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SideBonuses {
    /// Strategy bonus, 0–10 (§4.2.1).
    pub strategy: u8,
    /// Size bonus, 0–10 (§4.2.2); hidden from everyone but judges.
    pub size: u8,
    /// Color bonus, 0 or 1 (§4.2.3).
    pub color: u8,
}

impl SideBonuses {
    /// The modifier added to each of the side's dice (§4.2.4).
    pub fn total(&self) -> u32 {
        u32::from(self.strategy) + u32::from(self.size) + u32::from(self.color)
    }
}

/// A d20 and the side's modifier added to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ModifiedDie {
    /// The die as drawn from the tape.
    pub draw: Draw,
    /// Face plus the side's total bonus.
    pub total: u32,
}

/// Who won one pair of dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PairWinner {
    /// Side A's die was higher.
    A,
    /// Side B's die was higher.
    B,
    /// Equal totals: neither side wins the pair.
    Tie,
}

/// How a tie in pairs won was broken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TieBreak {
    /// The rule applied.
    pub rule: TieRule,
    /// What decided it, for people ("higher total 52 to 47", "defender", "roll-off").
    pub decided_by: String,
    /// Roll-off dice, side A and side B per round, when any were rolled.
    #[serde(default)]
    pub roll_off: Vec<Sides<ModifiedDie>>,
}

/// Troops a side lost, slot by slot.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Casualties {
    /// Troops lost per slot, in slot order.
    pub losses: Vec<u32>,
    /// Sum of `losses`.
    pub total: u64,
    /// The rate the formula applied, in tenths of a percent (absent when overridden).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_tenths_percent: Option<u32>,
}

/// A coalition battle event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type")]
pub enum BattleEvent {
    /// The battle was opened; the seed is committed.
    #[serde(rename = "coalition.BattleCreated")]
    BattleCreated {
        /// The two armies as they entered (each side's first army).
        armies: Sides<ArmySpec>,
        /// Second armies of a 2v1 or 2v2 battle (seed 003 §4.4).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        partners: Vec<PartnerArmy>,
        /// The weather posted with the battle (seed 003 §4.1.2.5).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weather: Option<String>,
        /// Who attacks whom.
        engagement: Engagement,
        /// Terrain of the square.
        terrain: Option<String>,
        /// Strategy deadline.
        strategy_deadline: DateTime<Utc>,
        /// Options (the size formula is hidden from non-judges).
        options: BattleOptions,
        /// `sha256(server seed)`, hex.
        seed_commitment: String,
        /// When the hidden formulas are opened to every reader (public).
        #[serde(default, skip_serializing_if = "FormulaOpening::is_default")]
        formula_opening: FormulaOpening,
        /// The salt of `formula_commitment`, hex; hidden with the formulas.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formula_salt: Option<String>,
        /// `sha256("herald/formulas/v1" ‖ salt ‖ canonical formulas)`, hex, public (docs/DICE.md
        /// "Commitments to hidden formulas"); absent in battles recorded before commitments.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formula_commitment: Option<String>,
    },
    /// A participant added entropy to the dice.
    #[serde(rename = "coalition.EntropyContributed")]
    EntropyContributed {
        /// The actor who contributed.
        by: String,
        /// The text contributed.
        entropy: String,
    },
    /// A side's strategy arrived (sealed until the battle is resolved).
    #[serde(rename = "coalition.StrategySubmitted")]
    StrategySubmitted {
        /// The side.
        side: SideId,
        /// The strategy text.
        strategy: String,
        /// Who submitted it.
        by: String,
        /// When.
        at: DateTime<Utc>,
        /// The army it is for, in a 2v1 or 2v2 battle (the side's first army when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        army: Option<String>,
        /// A kill or capture it risks troops for (seed 003 §4.3.2, §4.5); sealed with the text.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attempt: Option<Attempt>,
        /// Which of a winning pair leaves, and where to (seed 003 §4.4); sealed with the text.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        departure: Option<Departure>,
        /// Sent by the controller's contingency (seed 003 §5.2.3): it counts only if the
        /// controller sends none.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        contingency: bool,
    },
    /// The judge replaced the battle's formulas before the dice (visible to judges only, to
    /// everyone once the battle ended under `open_at_end`; the commitment is public).
    #[serde(rename = "coalition.FormulasSet")]
    FormulasSet {
        /// The new options.
        options: BattleOptions,
        /// The salt of `formula_commitment`, hex; hidden with the formulas.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formula_salt: Option<String>,
        /// The public commitment to the new formulas (docs/DICE.md "Commitments to hidden
        /// formulas"); absent in battles recorded before commitments.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formula_commitment: Option<String>,
    },
    /// The judge posted the battle's weather (seed 003 §4.1.2.5).
    #[serde(rename = "coalition.WeatherSet")]
    WeatherSet {
        /// The weather.
        weather: String,
    },
    /// The judge shared a side's casualties between its two armies (seed 003 §4.4).
    #[serde(rename = "coalition.InvolvementAssigned")]
    InvolvementAssigned {
        /// The side.
        side: SideId,
        /// Each army's share in percent.
        shares: Vec<Share>,
    },
    /// A sanction took troops off an army in this battle; it fights with what is left (seed 003
    /// §5.4.1).
    #[serde(rename = "coalition.SanctionApplied")]
    SanctionApplied {
        /// The army.
        army: String,
        /// Its side.
        side: SideId,
        /// Troops lost per slot.
        losses: Vec<u32>,
        /// The side's new strategy deadline, when the punishment came in its last 24 hours.
        extended_to: Option<DateTime<Utc>>,
        /// The campaign's sanction.
        reason: String,
    },
    /// The judge assigned a strategy bonus.
    #[serde(rename = "coalition.StrategyBonusAssigned")]
    StrategyBonusAssigned {
        /// The side.
        side: SideId,
        /// 0–10.
        #[schema(maximum = 10)]
        bonus: u8,
        /// The judge's note.
        note: Option<String>,
    },
    /// An army with 0 troops in every slot was killed on engagement (seed 003 §4.3.1).
    #[serde(rename = "coalition.ArmyKilled")]
    ArmyKilled {
        /// The killed side.
        side: SideId,
        /// The rule applied.
        rule: String,
    },
    /// The battle was decided (seed 003 §4.2).
    #[serde(rename = "coalition.BattleResolved")]
    BattleResolved {
        /// Each side's bonuses.
        bonuses: Sides<SideBonuses>,
        /// Sides that had no strategy by the deadline (§4.2.1, §4.2.4).
        stratless: Vec<SideId>,
        /// Four modified d20 per side (§4.2.4), in the order drawn.
        dice: Sides<Vec<ModifiedDie>>,
        /// Winner of each pair: die i of A against die i of B.
        pairs: Vec<PairWinner>,
        /// Pairs won per side.
        pairs_won: Sides<u8>,
        /// How a tie in pairs won was broken, if there was one.
        tie_break: Option<TieBreak>,
        /// Why the winner won, for people.
        decided_by: String,
        /// The winner.
        winner: SideId,
        /// A side that ran away (§4.2.6).
        running_away: Option<SideId>,
        /// Casualties per side (§4.2.5).
        casualties: Sides<Casualties>,
        /// The tape's next word after this event's draws (rejected words included), so the
        /// next roll of the stream continues from there.
        next_word: u64,
    },
    /// A 2v1 or 2v2 battle was decided (seed 003 §4.4).
    #[serde(rename = "coalition.JointBattleResolved")]
    JointBattleResolved(JointResolution),
    /// A kill attempt was settled (seed 003 §4.3.2–4.3.4).
    #[serde(rename = "coalition.KillAttempted")]
    KillAttempted(AttemptResolved),
    /// A capture attempt was settled (seed 003 §4.5).
    #[serde(rename = "coalition.CaptureAttempted")]
    CaptureAttempted(AttemptResolved),
    /// The battle was fought out under a tactical ruleset and its result applied: the winner,
    /// and casualties in proportion to the models each side lost (docs/rulesets/coalition-battle.md).
    #[serde(rename = "coalition.TacticalResultApplied")]
    TacticalResultApplied {
        /// The tactical battle's stream.
        source: String,
        /// Its rules.
        source_rules: String,
        /// The winner.
        winner: SideId,
        /// Models fielded and lost per side.
        models_lost: Sides<super::command::TacticalLosses>,
        /// Casualties per side.
        casualties: Sides<Casualties>,
        /// Why (the judge's words).
        reason: String,
    },
    /// The judge replaced a side's casualties (seed 003 §4.2.5–4.2.6).
    #[serde(rename = "coalition.CasualtiesOverridden")]
    CasualtiesOverridden {
        /// The side.
        side: SideId,
        /// The new casualties.
        casualties: Casualties,
        /// The judge's reason.
        reason: String,
    },
    /// The server seed was revealed; anyone can now recompute every die.
    #[serde(rename = "coalition.SeedRevealed")]
    SeedRevealed {
        /// The server seed, hex.
        seed: String,
        /// The tape's key, hex: `sha256(seed ‖ sha256(stream) ‖ sha256(c1) ‖ …)`.
        effective_seed: String,
        /// A reveal before the battle ended: `sha256` of the fresh sealed seed every later die
        /// comes from (docs/DICE.md "Re-sealing").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_commitment: Option<String>,
    },
    /// A judge rolled (docs/DICE.md "A judge's roll").
    #[serde(rename = "dice.JudgeRolled")]
    JudgeRolled(crate::dice::JudgeRolled),
}

impl EventType for BattleEvent {}
