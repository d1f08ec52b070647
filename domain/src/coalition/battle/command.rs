//! What participants ask of a coalition battle.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    attempt::Attempt,
    commitment::FormulaOpening,
    joint::{Departure, PartnerArmy, Share},
    BattleOptions, SideId, Sides,
};
use crate::coalition::army::ArmySpec;

/// How the armies met (seed 003 §4.1.2.3): one attacks the other, or both moved in together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Engagement {
    /// `attacker` attacks the other side, which is the defender.
    Attack {
        /// The attacking side.
        attacker: SideId,
    },
    /// Both armies moved into the square at the same time.
    NoAttacker,
}

/// A command to a coalition battle stream.
///
/// Opening a battle carries both armies whole; commands are decoded once, decided and dropped,
/// so the size of the largest variant costs nothing worth a box in every constructor.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BattleCommand {
    /// Open a battle between two armies, or two against one or two (a judge or admin).
    CreateBattle {
        /// The two armies (each side's first army).
        armies: Sides<ArmySpec>,
        /// A second army on a side: a 2v1 or 2v2 battle from a joint engagement (seed 003 §4.4).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        partners: Vec<PartnerArmy>,
        /// The weather posted with the battle (seed 003 §4.1.2.5).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weather: Option<String>,
        /// Who attacks whom.
        engagement: Engagement,
        /// Terrain of the square (seed 003 §4.1.2.4), free text.
        #[serde(default)]
        terrain: Option<String>,
        /// Strategies must be submitted before this time (seed 003 §4.1.1).
        strategy_deadline: DateTime<Utc>,
        /// Tie rule and formulas.
        #[serde(default)]
        options: BattleOptions,
        /// `sha256(server seed)` as 64 hex digits; filled in by the service, never by clients.
        seed_commitment: String,
        /// When the hidden formulas are opened to every reader (public, fixed at opening).
        #[serde(default, skip_serializing_if = "FormulaOpening::is_default")]
        formula_opening: FormulaOpening,
        /// 32 random bytes, hex, that salt the formulas' commitment; filled in by the service
        /// (a client's is replaced). Absent in commands recorded before commitments existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formula_salt: Option<String>,
    },
    /// Add entropy to the dice before the first roll (a participant or judge).
    ContributeEntropy {
        /// Any text; its SHA-256 is mixed into the seed.
        entropy: String,
    },
    /// Submit an army's battle strategy (its controller, its controller's contingency in the
    /// last 24 hours, or a judge on their behalf).
    SubmitStrategy {
        /// The side.
        side: SideId,
        /// The strategy text.
        strategy: String,
        /// Which of the side's armies it is for, in a 2v1 or 2v2 battle (the side's first army
        /// when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        army: Option<String>,
        /// A kill or capture the strategy risks troops for (seed 003 §4.3.2, §4.5).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attempt: Option<Attempt>,
        /// Which of a winning pair leaves the square, and in which direction (seed 003 §4.4).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        departure: Option<Departure>,
    },
    /// Assign a side's strategy bonus, 0–10 (the battle judge, seed 003 §4.2.1).
    AssignStrategyBonus {
        /// The side.
        side: SideId,
        /// The bonus, 0–10.
        #[schema(maximum = 10)]
        bonus: u8,
        /// The judge's note on why.
        #[serde(default)]
        note: Option<String>,
    },
    /// Replace the battle's formulas before the dice are rolled (the battle judge; the kill and
    /// joint formulas are configurable per battle, seed 003 §4.3.3, §4.4).
    SetFormulas {
        /// The new options.
        options: BattleOptions,
        /// 32 random bytes, hex, that salt the new formulas' commitment; filled in by the service
        /// (a client's is replaced). Absent in commands recorded before commitments existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formula_salt: Option<String>,
    },
    /// Post the battle's weather (the battle judge, seed 003 §4.1.2.5).
    SetWeather {
        /// The weather, in words.
        weather: String,
    },
    /// Share a side's casualties between its two armies by how involved each was (the battle
    /// judge, seed 003 §4.4).
    AssignInvolvement {
        /// The side.
        side: SideId,
        /// Each army's share in percent; they add up to 100.
        shares: Vec<Share>,
    },
    /// Take a sanction's troop losses off an army in this battle (the service, from the
    /// campaign's `coalition.SanctionImposed`; seed 003 §5.4.1).
    ApplySanction {
        /// The army.
        army: String,
        /// Troops lost per slot.
        losses: Vec<u32>,
        /// Whether the controller gets 24 more hours to rewrite the strategy (the punishment
        /// came in the last 24 hours before the deadline).
        extension: bool,
        /// The campaign's sanction, for the record.
        reason: String,
    },
    /// Determine the winner and casualties (the battle judge, seed 003 §4.2).
    ResolveBattle {
        /// A side that runs away (seed 003 §4.2.6): it deals no damage and takes reduced damage.
        #[serde(default)]
        running_away: Option<SideId>,
    },
    /// Replace the formula's casualties for a side, with a recorded reason (the battle judge).
    OverrideCasualties {
        /// The side.
        side: SideId,
        /// Troops lost per slot, in slot order.
        losses: Vec<u32>,
        /// Why the judge overrides the formula.
        reason: String,
    },
    /// Apply the result of the battle fought out under a tactical ruleset (a judge; the service
    /// fills in what it read from the tactical battle's stream).
    ApplyTacticalResult {
        /// The tactical battle's stream (`battle-…`) and the version its result was read at.
        source: String,
        /// Its rules (the tactical ruleset's `rules`, with its version).
        source_rules: String,
        /// The winning side.
        winner: SideId,
        /// Models each side fielded and lost there.
        models_lost: Sides<TacticalLosses>,
        /// Why the battle was fought out (recorded).
        reason: String,
    },
    /// Reveal the server seed (a judge, or the service when the battle ends).
    RevealSeed {
        /// The server seed, 64 hex digits; filled in by the service from its sealed store.
        seed: String,
        /// `sha256` of a fresh sealed seed, filled in by the service when a judge reveals before
        /// the end: every later die comes from it (docs/DICE.md "Re-sealing").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_commitment: Option<String>,
    },
    /// A judge rolls dice the rules leave to the judge (docs/DICE.md "A judge's roll").
    JudgeRoll(crate::dice::JudgeRoll),
}

impl BattleCommand {
    /// The command's type name, as stored.
    pub fn name(&self) -> &'static str {
        match self {
            Self::CreateBattle { .. } => "create_battle",
            Self::ContributeEntropy { .. } => "contribute_entropy",
            Self::SubmitStrategy { .. } => "submit_strategy",
            Self::SetFormulas { .. } => "set_formulas",
            Self::SetWeather { .. } => "set_weather",
            Self::AssignInvolvement { .. } => "assign_involvement",
            Self::ApplySanction { .. } => "apply_sanction",
            Self::AssignStrategyBonus { .. } => "assign_strategy_bonus",
            Self::ResolveBattle { .. } => "resolve_battle",
            Self::OverrideCasualties { .. } => "override_casualties",
            Self::ApplyTacticalResult { .. } => "apply_tactical_result",
            Self::RevealSeed { .. } => "reveal_seed",
            Self::JudgeRoll(_) => "judge_roll",
        }
    }
}

/// What a side fielded and lost in a battle fought out under a tactical ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TacticalLosses {
    /// Models the side put on the table.
    pub fielded: u32,
    /// Models of them destroyed or removed from play.
    pub destroyed: u32,
}
