//! A coalition battle's folded state.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{
    command::Engagement,
    event::{BattleEvent, Casualties},
    BattleOptions, SideId, Sides,
};
use crate::{coalition::army::ArmySpec, DiceCursor};

/// Where a battle stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BattleStatus {
    /// No battle yet.
    #[default]
    NotCreated,
    /// Waiting for strategies, bonuses and resolution.
    Open,
    /// Decided by the dice (seed 003 §4.2).
    Resolved,
    /// Ended without a fight: an empty army was killed (seed 003 §4.3.1).
    Killed,
}

/// A submitted strategy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strategy {
    /// The text.
    pub text: String,
    /// Who submitted it.
    pub by: String,
    /// When.
    pub at: DateTime<Utc>,
}

/// One side's state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideState {
    /// The army as it entered the battle.
    pub army: Option<ArmySpec>,
    /// The latest strategy, if any (a resubmission before the deadline replaces it).
    pub strategy: Option<Strategy>,
    /// The strategy bonus the judge assigned to the current strategy (cleared when it is replaced).
    pub strategy_bonus: Option<u8>,
    /// Casualties applied (by the formula, or the judge's override).
    pub casualties: Option<Casualties>,
}

/// A coalition battle's state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleState {
    /// Where the battle stands.
    pub status: BattleStatus,
    /// Both sides.
    pub sides: Sides<SideState>,
    /// Who attacks whom.
    pub engagement: Option<Engagement>,
    /// Terrain.
    pub terrain: Option<String>,
    /// Strategy deadline.
    pub strategy_deadline: Option<DateTime<Utc>>,
    /// Options.
    pub options: BattleOptions,
    /// `sha256(server seed)`, hex.
    pub seed_commitment: Option<String>,
    /// Entropy contributions, in order.
    pub contributions: Vec<String>,
    /// The next ChaCha20 word the tape will examine.
    pub next_word: u64,
    /// The winner, once decided.
    pub winner: Option<SideId>,
    /// Sides killed under seed 003 §4.3.1.
    pub killed: Vec<SideId>,
    /// The revealed server seed, hex.
    pub revealed_seed: Option<String>,
    /// The resolution event, as stored.
    pub resolution: Option<BattleEvent>,
}

impl BattleState {
    /// Whether the battle has ended (resolved, or decided by a kill).
    pub fn ended(&self) -> bool {
        matches!(self.status, BattleStatus::Resolved | BattleStatus::Killed)
    }

    /// Whether any die has been drawn.
    pub fn dice_drawn(&self) -> bool {
        self.next_word > 0
    }

    /// The army of `side` (empty defaults before creation).
    pub fn army(&self, side: SideId) -> Option<&ArmySpec> {
        self.sides.get(side).army.as_ref()
    }

    /// The dice cursor for the application layer.
    pub fn dice_cursor(&self) -> Option<DiceCursor> {
        let commitment = crate::dice::seed::parse_hex32(self.seed_commitment.as_deref()?)?;
        Some(DiceCursor {
            commitment,
            contributions: self.contributions.clone(),
            next_word: self.next_word,
            reveal_due: self.ended() && self.revealed_seed.is_none(),
            revealed: self.revealed_seed.as_deref().and_then(crate::dice::seed::parse_hex32),
        })
    }

    /// Apply one event (the decider's `evolve`).
    pub fn apply(&mut self, event: &BattleEvent) {
        match event {
            BattleEvent::BattleCreated { armies, engagement, terrain, strategy_deadline, options, seed_commitment } => {
                self.status = BattleStatus::Open;
                self.sides = armies.map(|_, army| SideState { army: Some(army.clone()), ..SideState::default() });
                self.engagement = Some(*engagement);
                self.terrain = terrain.clone();
                self.strategy_deadline = Some(*strategy_deadline);
                self.options = options.clone();
                self.seed_commitment = Some(seed_commitment.clone());
            }
            BattleEvent::EntropyContributed { entropy, .. } => self.contributions.push(entropy.clone()),
            BattleEvent::JudgeRolled(rolled) => self.next_word = rolled.next_word,
            BattleEvent::StrategySubmitted { side, strategy, by, at } => {
                let side = self.sides.get_mut(*side);
                side.strategy = Some(Strategy { text: strategy.clone(), by: by.clone(), at: *at });
                // The bonus judged the strategy this one replaces (seed 003 §4.2.1): judge it again.
                side.strategy_bonus = None;
            }
            BattleEvent::StrategyBonusAssigned { side, bonus, .. } => {
                self.sides.get_mut(*side).strategy_bonus = Some(*bonus);
            }
            BattleEvent::ArmyKilled { side, .. } => {
                self.killed.push(*side);
                self.status = BattleStatus::Killed;
                if let Some(army) = self.sides.get_mut(*side).army.as_mut() {
                    army.slots.iter_mut().for_each(|slot| slot.troops = 0);
                }
                self.winner = if self.killed.len() == 1 { Some(side.other()) } else { None };
            }
            BattleEvent::BattleResolved { winner, casualties, next_word, .. } => {
                self.next_word = *next_word;
                self.status = BattleStatus::Resolved;
                self.winner = Some(*winner);
                for side in SideId::BOTH {
                    self.sides.get_mut(side).casualties = Some(casualties.get(side).clone());
                }
                self.resolution = Some(event.clone());
            }
            BattleEvent::TacticalResultApplied { winner, casualties, .. } => {
                self.status = BattleStatus::Resolved;
                self.winner = Some(*winner);
                for side in SideId::BOTH {
                    self.sides.get_mut(side).casualties = Some(casualties.get(side).clone());
                }
                self.resolution = Some(event.clone());
            }
            BattleEvent::CasualtiesOverridden { side, casualties, .. } => {
                self.sides.get_mut(*side).casualties = Some(casualties.clone());
            }
            BattleEvent::SeedRevealed { seed, .. } => self.revealed_seed = Some(seed.clone()),
        }
    }
}
