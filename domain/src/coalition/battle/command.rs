//! What participants ask of a coalition battle.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{BattleOptions, SideId, Sides};
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BattleCommand {
    /// Open a battle between two armies (a judge or admin).
    CreateBattle {
        /// The two armies.
        armies: Sides<ArmySpec>,
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
    },
    /// Add entropy to the dice before the first roll (a participant or judge).
    ContributeEntropy {
        /// Any text; its SHA-256 is mixed into the seed.
        entropy: String,
    },
    /// Submit a side's battle strategy (its controller, or a judge on their behalf).
    SubmitStrategy {
        /// The side.
        side: SideId,
        /// The strategy text.
        strategy: String,
    },
    /// Assign a side's strategy bonus, 0–10 (the battle judge, seed 003 §4.2.1).
    AssignStrategyBonus {
        /// The side.
        side: SideId,
        /// The bonus, 0–10.
        bonus: u8,
        /// The judge's note on why.
        #[serde(default)]
        note: Option<String>,
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
