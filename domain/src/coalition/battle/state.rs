//! A coalition battle's folded state.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{
    attempt::{Attempt, AttemptOutcome, AttemptResolved},
    command::Engagement,
    event::{BattleEvent, Casualties},
    joint::{Departure, Share},
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
    /// A kill or capture it risks troops for (seed 003 §4.3.2, §4.5).
    #[serde(default)]
    pub attempt: Option<Attempt>,
    /// Which of a winning pair leaves, and where (seed 003 §4.4).
    #[serde(default)]
    pub departure: Option<Departure>,
}

/// One army's strategies: its controller's (or a judge's) and its contingency's (seed 003 §5.2.3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strategies {
    /// The controller's latest strategy (a resubmission before the deadline replaces it).
    pub strategy: Option<Strategy>,
    /// The contingency's latest strategy: it counts only while the controller has sent none.
    #[serde(default)]
    pub contingency: Option<Strategy>,
}

impl Strategies {
    /// The strategy that counts: the controller's, else the contingency's (seed 003 §5.2.3).
    pub fn counting(&self) -> Option<&Strategy> {
        self.strategy.as_ref().or(self.contingency.as_ref())
    }
}

/// A side's second army in a 2v1 or 2v2 battle (seed 003 §4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartnerState {
    /// The army as it entered.
    pub army: ArmySpec,
    /// Its strategies.
    pub strategies: Strategies,
    /// Casualties applied.
    pub casualties: Option<Casualties>,
}

/// One side's state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideState {
    /// The army as it entered the battle (less any sanction since, seed 003 §5.4.1).
    pub army: Option<ArmySpec>,
    /// The latest strategy, if any (a resubmission before the deadline replaces it).
    pub strategy: Option<Strategy>,
    /// The strategy bonus the judge assigned to the current strategy (cleared when it is replaced).
    pub strategy_bonus: Option<u8>,
    /// Casualties applied (by the formula, or the judge's override).
    pub casualties: Option<Casualties>,
    /// The contingency's strategy for the first army (seed 003 §5.2.3).
    #[serde(default)]
    pub contingency_strategy: Option<Strategy>,
    /// The side's second army (seed 003 §4.4).
    #[serde(default)]
    pub partner: Option<PartnerState>,
    /// The side's own deadline, when a sanction extended it (seed 003 §5.4.1).
    #[serde(default)]
    pub deadline: Option<DateTime<Utc>>,
    /// The judge's shares of the side's casualties (seed 003 §4.4).
    #[serde(default)]
    pub involvement: Vec<Share>,
}

impl SideState {
    /// The first army's strategy that counts: the controller's, else the contingency's.
    pub fn counting_strategy(&self) -> Option<&Strategy> {
        self.strategy.as_ref().or(self.contingency_strategy.as_ref())
    }

    /// Whether any army of the side has a strategy that counts.
    pub fn has_strategy(&self) -> bool {
        self.counting_strategy().is_some()
            || self.partner.as_ref().is_some_and(|partner| partner.strategies.counting().is_some())
    }

    /// The side's armies, first army first.
    pub fn armies(&self) -> Vec<&ArmySpec> {
        self.army.iter().chain(self.partner.as_ref().map(|partner| &partner.army)).collect()
    }
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
    /// Who made each of `contributions`, in the same order.
    #[serde(default)]
    pub contributors: Vec<String>,
    /// The next ChaCha20 word the tape will examine.
    pub next_word: u64,
    /// The winner, once decided.
    pub winner: Option<SideId>,
    /// Sides killed under seed 003 §4.3.1.
    pub killed: Vec<SideId>,
    /// The revealed server seed, hex.
    pub revealed_seed: Option<String>,
    /// Fresh seeds committed at early reveals, in order (docs/DICE.md "Re-sealing").
    #[serde(default)]
    pub reseals: Vec<crate::dice::sealed::ResealKey>,
    /// The resolution event, as stored.
    pub resolution: Option<BattleEvent>,
    /// The weather posted with the battle (seed 003 §4.1.2.5).
    #[serde(default)]
    pub weather: Option<String>,
    /// Kill and capture attempts settled (seed 003 §4.3, §4.5).
    #[serde(default)]
    pub attempts: Vec<AttemptResolved>,
    /// When the hidden formulas are opened to every reader.
    #[serde(default)]
    pub formula_opening: super::FormulaOpening,
    /// The salt of the commitment in force, hex (none in battles recorded before commitments).
    #[serde(default)]
    pub formula_salt: Option<String>,
    /// The commitment to the formulas in force, hex.
    #[serde(default)]
    pub formula_commitment: Option<String>,
}

impl BattleState {
    /// Whether the battle has ended (resolved, or decided by a kill).
    pub fn ended(&self) -> bool {
        matches!(self.status, BattleStatus::Resolved | BattleStatus::Killed)
    }

    /// Whether this is a 2v1 or 2v2 battle (seed 003 §4.4).
    pub fn is_joint(&self) -> bool {
        SideId::BOTH.iter().any(|side| self.sides.get(*side).partner.is_some())
    }

    /// The side's strategy deadline: the battle's, or the side's extension (seed 003 §5.4.1).
    pub fn deadline_of(&self, side: SideId) -> Option<DateTime<Utc>> {
        self.sides.get(side).deadline.or(self.strategy_deadline)
    }

    /// The last of the sides' deadlines.
    pub fn last_deadline(&self) -> Option<DateTime<Utc>> {
        SideId::BOTH.iter().filter_map(|side| self.deadline_of(*side)).max()
    }

    /// The side `army` fights on and whether it is the side's second army.
    pub fn side_of(&self, army: &str) -> Option<(SideId, bool)> {
        SideId::BOTH.into_iter().find_map(|side| {
            let state = self.sides.get(side);
            if state.army.as_ref().is_some_and(|a| a.name == army) {
                Some((side, false))
            } else if state.partner.as_ref().is_some_and(|p| p.army.name == army) {
                Some((side, true))
            } else {
                None
            }
        })
    }

    /// The army named `army`, as it stands in the battle.
    pub fn army_named(&self, army: &str) -> Option<&ArmySpec> {
        let (side, partner) = self.side_of(army)?;
        let state = self.sides.get(side);
        if partner {
            state.partner.as_ref().map(|p| &p.army)
        } else {
            state.army.as_ref()
        }
    }

    /// Armies killed by a kill attempt (seed 003 §4.3.3).
    pub fn killed_by_attempt(&self) -> Vec<&str> {
        self.succeeded(super::attempt::AttemptKind::Kill)
    }

    /// Armies captured (seed 003 §4.5), with the army that captured each.
    pub fn captured(&self) -> Vec<(&str, &str)> {
        self.attempts
            .iter()
            .filter(|a| a.kind == super::attempt::AttemptKind::Capture && a.outcome == AttemptOutcome::Succeeded)
            .map(|a| (a.target.as_str(), a.army.as_str()))
            .collect()
    }

    fn succeeded(&self, kind: super::attempt::AttemptKind) -> Vec<&str> {
        self.attempts
            .iter()
            .filter(|a| a.kind == kind && a.outcome == AttemptOutcome::Succeeded)
            .map(|a| a.target.as_str())
            .collect()
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
        DiceCursor::chain(
            (self.seed_commitment.as_deref()?, self.revealed_seed.as_deref()),
            &crate::dice::sealed::reseal_chain(&self.reseals),
            &self.contributions,
            self.next_word,
            self.ended(),
        )
    }

    /// Whether the hidden formulas are open to every reader now: the battle has ended and was
    /// opened with `open_at_end` (docs/API.md "Hidden information").
    pub fn formulas_open(&self) -> bool {
        self.ended() && self.formula_opening == super::FormulaOpening::OpenAtEnd
    }

    /// The opening of the commitment in force (formulas, salt, commitment, canonical text), for
    /// a battle whose formulas were committed.
    pub fn formula_opening_record(&self) -> Option<super::FormulaOpeningRecord> {
        let mut record = super::FormulaOpeningRecord::new((&self.options).into(), self.formula_salt.as_deref()?)?;
        // The commitment as published, so that `matches` checks the log, not itself.
        record.commitment.clone_from(self.formula_commitment.as_ref()?);
        Some(record)
    }

    fn set_commitment(&mut self, salt: &Option<String>, commitment: &Option<String>) {
        self.formula_salt = salt.clone();
        self.formula_commitment = commitment.clone();
    }

    /// Apply one event (the decider's `evolve`).
    pub fn apply(&mut self, event: &BattleEvent) {
        match event {
            BattleEvent::BattleCreated {
                armies,
                partners,
                weather,
                engagement,
                terrain,
                strategy_deadline,
                options,
                seed_commitment,
                formula_opening,
                formula_salt,
                formula_commitment,
            } => {
                self.formula_opening = *formula_opening;
                self.set_commitment(formula_salt, formula_commitment);
                self.status = BattleStatus::Open;
                self.sides = armies.map(|_, army| SideState { army: Some(army.clone()), ..SideState::default() });
                for partner in partners {
                    self.sides.get_mut(partner.side).partner = Some(PartnerState {
                        army: partner.army.clone(),
                        strategies: Strategies::default(),
                        casualties: None,
                    });
                }
                self.weather = weather.clone();
                self.engagement = Some(*engagement);
                self.terrain = terrain.clone();
                self.strategy_deadline = Some(*strategy_deadline);
                self.options = options.clone();
                self.seed_commitment = Some(seed_commitment.clone());
            }
            BattleEvent::EntropyContributed { entropy, by } => {
                self.contributions.push(entropy.clone());
                self.contributors.push(by.clone());
            }
            BattleEvent::JudgeRolled(rolled) => self.next_word = rolled.next_word,
            BattleEvent::StrategySubmitted { side, strategy, by, at, army, attempt, departure, contingency } => {
                let text = Strategy {
                    text: strategy.clone(),
                    by: by.clone(),
                    at: *at,
                    attempt: attempt.clone(),
                    departure: departure.clone(),
                };
                let side = self.sides.get_mut(*side);
                let for_partner = army.as_ref().is_some_and(|name| {
                    side.partner.as_ref().is_some_and(|partner| &partner.army.name == name)
                        && side.army.as_ref().is_none_or(|first| &first.name != name)
                });
                let (controller, backup) = match side.partner.as_mut().filter(|_| for_partner) {
                    Some(partner) => (&mut partner.strategies.strategy, &mut partner.strategies.contingency),
                    None => (&mut side.strategy, &mut side.contingency_strategy),
                };
                // A contingency's strategy counts only while the controller has sent none
                // (seed 003 §5.2.3); the bonus judged the strategies this one changes (§4.2.1).
                let changes_what_counts = !*contingency || controller.is_none();
                if *contingency {
                    *backup = Some(text);
                } else {
                    *controller = Some(text);
                }
                if changes_what_counts {
                    side.strategy_bonus = None;
                }
            }
            BattleEvent::FormulasSet { options, formula_salt, formula_commitment } => {
                self.options = options.clone();
                self.set_commitment(formula_salt, formula_commitment);
            }
            BattleEvent::WeatherSet { weather } => self.weather = Some(weather.clone()),
            BattleEvent::InvolvementAssigned { side, shares } => self.sides.get_mut(*side).involvement = shares.clone(),
            BattleEvent::SanctionApplied { army, side, losses, extended_to, .. } => {
                let state = self.sides.get_mut(*side);
                let target = match state.partner.as_mut().filter(|p| &p.army.name == army) {
                    Some(partner) => Some(&mut partner.army),
                    None => state.army.as_mut(),
                };
                if let Some(target) = target {
                    for (slot, loss) in target.slots.iter_mut().zip(losses) {
                        slot.troops = slot.troops.saturating_sub(*loss);
                    }
                }
                if extended_to.is_some() {
                    state.deadline = *extended_to;
                }
            }
            BattleEvent::JointBattleResolved(resolution) => {
                self.next_word = resolution.next_word;
                self.status = BattleStatus::Resolved;
                self.winner = Some(resolution.winner);
                for result in &resolution.armies {
                    let Some((side, partner)) = self.side_of(&result.army) else { continue };
                    let state = self.sides.get_mut(side);
                    match state.partner.as_mut().filter(|_| partner) {
                        Some(partner) => partner.casualties = Some(result.casualties.clone()),
                        None => state.casualties = Some(result.casualties.clone()),
                    }
                }
                self.resolution = Some(event.clone());
            }
            BattleEvent::KillAttempted(attempt) | BattleEvent::CaptureAttempted(attempt) => {
                self.next_word = self.next_word.max(attempt.next_word);
                self.attempts.push(attempt.clone());
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
            BattleEvent::SeedRevealed { seed, next_commitment, .. } => crate::dice::sealed::apply_reveal(
                &mut self.revealed_seed,
                &mut self.reseals,
                seed,
                next_commitment.as_ref(),
            ),
        }
    }
}
