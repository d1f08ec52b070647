//! The battle read model: a coalition battle as a given reader may see it.

use crate::{
    coalition::{
        army::ArmySpec,
        battle::{
            attempt::{AttemptKind, AttemptOutcome, AttemptResolved},
            command::Engagement,
            event::{BattleEvent, Casualties, PairWinner, SideBonuses, TieBreak},
            joint::Departure,
            state::{BattleStatus, PartnerState},
            BattleState, CoalitionBattle, SideId, Sides, TieRule,
        },
    },
    dice::Draw,
};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{coalition::battle::redact::tied_reason, viewer::Viewer};

/// A battle as served by `GET /v1/battles/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattleView {
    /// The battle id (the stream name without `battle-`).
    pub id: String,
    /// The stream, `battle-{uuid}`.
    pub stream: String,
    /// Always `coalition`: which ruleset's view this is.
    pub ruleset: String,
    /// The rules version of the decider (`coalition-battle@1`).
    pub rules: String,
    /// The stream version this view is folded to (also the `ETag`).
    pub version: u64,
    /// Where the battle stands.
    pub status: BattleStatus,
    /// Who attacks whom (seed 003 §4.1.2.3).
    pub engagement: Option<Engagement>,
    /// Terrain of the square.
    pub terrain: Option<String>,
    /// The weather posted with the battle (seed 003 §4.1.2.5).
    pub weather: Option<String>,
    /// Whether two armies fight on a side (seed 003 §4.4).
    pub joint: bool,
    /// Strategies must arrive before this time.
    pub strategy_deadline: Option<DateTime<Utc>>,
    /// The tie rule in force.
    pub tie_rule: TieRule,
    /// `sha256(server seed)`, published before any die was drawn.
    pub seed_commitment: Option<String>,
    /// When the hidden formulas are opened to every reader (docs/DICE.md "Commitments to hidden
    /// formulas").
    pub formula_opening: crate::coalition::battle::FormulaOpening,
    /// The public commitment to the formulas in force (absent in battles recorded before
    /// commitments).
    pub formula_commitment: Option<String>,
    /// The formulas in force with their salt and commitment: judges, and everyone once the
    /// battle has ended under `open_at_end`.
    pub formulas: Option<crate::coalition::battle::FormulaOpeningRecord>,
    /// The server seed, once revealed.
    pub seed: Option<String>,
    /// Entropy contributed by participants, in order.
    pub contributions: Vec<String>,
    /// Both sides.
    pub sides: Sides<SideView>,
    /// The result, once decided.
    pub result: Option<ResultView>,
    /// Sides killed on engagement (seed 003 §4.3.1).
    pub killed: Vec<SideId>,
    /// Kill and capture attempts settled (seed 003 §4.3, §4.5).
    pub attempts: Vec<AttemptView>,
    /// The winner, once decided.
    pub winner: Option<SideId>,
    /// What this reader is not shown, in words.
    pub hidden: Vec<String>,
}

/// One side as the reader may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SideView {
    /// The army as it entered the battle.
    pub army: Option<ArmySpec>,
    /// Troops per slot after casualties (once decided).
    pub troops_after: Option<Vec<u32>>,
    /// Whether a strategy has been submitted.
    pub strategy_submitted: bool,
    /// When the latest strategy arrived.
    pub strategy_submitted_at: Option<DateTime<Utc>>,
    /// The strategy text, when this reader may read it.
    pub strategy: Option<String>,
    /// The strategy bonus (judges; everyone once resolved).
    pub strategy_bonus: Option<u8>,
    /// The size bonus (judges only, seed 003 §4.2.2; everyone once the formulas are open).
    pub size_bonus: Option<u8>,
    /// The color bonus (once resolved, seed 003 §4.2.3).
    pub color_bonus: Option<u8>,
    /// Casualties applied.
    pub casualties: Option<Casualties>,
    /// The side's own strategy deadline, when a sanction extended it (seed 003 §5.4.1).
    pub deadline: Option<DateTime<Utc>>,
    /// The side's second army in a 2v1 or 2v2 battle (seed 003 §4.4).
    pub partner: Option<PartnerView>,
}

/// A side's second army as the reader may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PartnerView {
    /// The army as it entered.
    pub army: ArmySpec,
    /// Troops per slot after casualties.
    pub troops_after: Option<Vec<u32>>,
    /// Whether a strategy has been submitted for it.
    pub strategy_submitted: bool,
    /// The strategy text, when this reader may read it.
    pub strategy: Option<String>,
    /// Casualties applied.
    pub casualties: Option<Casualties>,
}

/// A kill or capture attempt as the reader may see it (the formula's modifiers and totals are
/// the judge's, seed 003 §4.3.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AttemptView {
    /// Kill or capture.
    pub kind: AttemptKind,
    /// The attacking army.
    pub army: String,
    /// The army aimed at.
    pub target: String,
    /// How it ended.
    pub outcome: AttemptOutcome,
    /// Why.
    pub reason: String,
    /// Troops risked per slot.
    pub risked: Vec<u32>,
    /// Risked troops killed per slot.
    pub risked_lost: Vec<u32>,
    /// The pair of rolls as drawn: the attacker's die, then the target's.
    pub dice: Vec<Draw>,
    /// The totals of the pair, attacker's then target's (judges only).
    pub totals: Option<Vec<u32>>,
    /// The die that could spare the risked troops.
    pub spare: Option<Draw>,
    /// A Raider that keeps its squad (seed 003 §6.3.2).
    pub hellbent: bool,
}

impl AttemptView {
    fn new(attempt: &AttemptResolved, judge: bool) -> Self {
        let rolls: Vec<_> = attempt.attacker_roll.iter().chain(attempt.target_roll.iter()).collect();
        Self {
            kind: attempt.kind,
            army: attempt.army.clone(),
            target: attempt.target.clone(),
            outcome: attempt.outcome,
            reason: attempt.reason.clone(),
            risked: attempt.risked.clone(),
            risked_lost: attempt.risked_lost.clone(),
            dice: rolls.iter().map(|roll| roll.draw.clone()).collect(),
            totals: judge.then(|| rolls.iter().map(|roll| roll.total).collect()),
            spare: attempt.spare.clone(),
            hellbent: attempt.hellbent,
        }
    }
}

/// How a tie in pairs won was broken, as the reader may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TieBreakView {
    /// The tie rule applied.
    pub rule: TieRule,
    /// Roll-off dice as drawn, side A and side B per round.
    pub roll_off: Vec<Sides<Draw>>,
    /// Roll-off modified totals (judges only).
    pub roll_off_totals: Option<Vec<Sides<u32>>>,
}

/// The dice and the outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ResultView {
    /// Sides that were stratless.
    pub stratless: Vec<SideId>,
    /// The d20s as drawn, per side.
    pub dice: Sides<Vec<Draw>>,
    /// Modified totals per side (judges only: they reveal the size bonus).
    pub totals: Option<Sides<Vec<u32>>>,
    /// Winner of each pair.
    pub pairs: Vec<PairWinner>,
    /// Pairs won per side.
    pub pairs_won: Sides<u8>,
    /// How a tie in pairs won was broken.
    pub tie_break: Option<TieBreakView>,
    /// Why the winner won.
    pub decided_by: String,
    /// A side that ran away.
    pub running_away: Option<SideId>,
    /// Sides that fought with one army because the other sent no strategy (seed 003 §4.4).
    pub alone: Vec<SideId>,
    /// Stratless partners that did not take part (seed 003 §4.4).
    pub withdrawn: Vec<String>,
    /// The winning pair's named departure (seed 003 §4.4).
    pub departure: Option<Departure>,
}

impl BattleView {
    /// Build the view of `state` (folded to `version`) for `viewer`.
    ///
    /// What is hidden depends on what is public *now*: a strategy sealed at version 3 is public
    /// once the battle has ended, so `current` (the battle's latest state) decides visibility.
    pub fn new(stream: &str, version: u64, state: &BattleState, current: &BattleState, viewer: &Viewer) -> Self {
        // What is hidden only because of the formulas is shown once they are open.
        let formulas_visible = viewer.is_judge() || current.formulas_open();
        let mut hidden = Vec::new();
        if !formulas_visible {
            hidden.push("size bonus, size formula and modified dice totals (seed 003 §4.2.2)".to_string());
            hidden.push("kill, capture and joint formulas and the modifiers of a kill's or capture's pair of rolls (seed 003 §4.3.3, §4.4)".to_string());
        }
        if state.revealed_seed.is_none() {
            hidden.push("server seed (sealed until revealed or the battle ends)".to_string());
        }
        let resolved = resolution(state);
        let sides =
            Sides::from_fn(|side| side_view(state, current, side, viewer, resolved.as_ref().map(|r| &r.bonuses)));
        for side in SideId::BOTH {
            if state.sides.get(side).strategy.is_some() && !current.strategy_visible_to(viewer, side) {
                hidden.push(format!("side {side} strategy (sealed until the battle is resolved)"));
            }
        }
        Self {
            id: crate::ruleset::battle_id(stream).to_string(),
            stream: stream.to_string(),
            ruleset: <CoalitionBattle as crate::ruleset::Ruleset>::ID.to_string(),
            rules: <CoalitionBattle as crate::Decider>::RULES.to_string(),
            version,
            status: state.status,
            engagement: state.engagement,
            terrain: state.terrain.clone(),
            weather: state.weather.clone(),
            joint: state.is_joint(),
            strategy_deadline: state.strategy_deadline,
            tie_rule: state.options.tie_rule,
            seed_commitment: state.seed_commitment.clone(),
            formula_opening: state.formula_opening,
            formula_commitment: state.formula_commitment.clone(),
            formulas: state.formula_opening_record().filter(|_| formulas_visible),
            seed: state.revealed_seed.clone(),
            contributions: state.contributions.clone(),
            sides,
            result: resolved.map(|r| r.into_view(formulas_visible)),
            killed: state.killed.clone(),
            attempts: state.attempts.iter().map(|attempt| AttemptView::new(attempt, formulas_visible)).collect(),
            winner: state.winner,
            hidden,
        }
    }
}

/// The fields of a `BattleResolved` event, borrowed.
struct Resolution {
    bonuses: Sides<SideBonuses>,
    stratless: Vec<SideId>,
    dice: Sides<Vec<crate::coalition::battle::event::ModifiedDie>>,
    pairs: Vec<PairWinner>,
    pairs_won: Sides<u8>,
    tie_break: Option<TieBreak>,
    decided_by: String,
    running_away: Option<SideId>,
    alone: Vec<SideId>,
    withdrawn: Vec<String>,
    departure: Option<Departure>,
}

fn resolution(state: &BattleState) -> Option<Resolution> {
    match state.resolution.as_ref()? {
        BattleEvent::JointBattleResolved(joint) => Some(Resolution {
            bonuses: joint.bonuses.clone(),
            stratless: joint.stratless.clone(),
            dice: joint.dice.clone(),
            pairs: joint.pairs.clone(),
            pairs_won: joint.pairs_won.clone(),
            tie_break: joint.tie_break.clone(),
            decided_by: joint.decided_by.clone(),
            running_away: joint.running_away,
            alone: joint.alone.clone(),
            withdrawn: joint.withdrawn.clone(),
            departure: joint.departure.clone(),
        }),
        BattleEvent::BattleResolved {
            bonuses,
            stratless,
            dice,
            pairs,
            pairs_won,
            tie_break,
            decided_by,
            running_away,
            ..
        } => Some(Resolution {
            bonuses: bonuses.clone(),
            stratless: stratless.clone(),
            dice: dice.clone(),
            pairs: pairs.clone(),
            pairs_won: pairs_won.clone(),
            tie_break: tie_break.clone(),
            decided_by: decided_by.clone(),
            running_away: *running_away,
            alone: Vec::new(),
            withdrawn: Vec::new(),
            departure: None,
        }),
        _ => None,
    }
}

impl Resolution {
    fn into_view(self, judge: bool) -> ResultView {
        let decided_by = match (&self.tie_break, judge) {
            (Some(tie), false) => {
                let rule = serde_json::to_value(tie.rule).ok().and_then(|v| v.as_str().map(str::to_string));
                tied_reason(u64::from(self.pairs_won.a), u64::from(self.pairs_won.b), rule.as_deref().unwrap_or(""))
            }
            _ => self.decided_by,
        };
        ResultView {
            stratless: self.stratless,
            dice: self.dice.map(|_, dice| dice.iter().map(|die| die.draw.clone()).collect()),
            totals: judge.then(|| self.dice.map(|_, dice| dice.iter().map(|die| die.total).collect())),
            pairs: self.pairs,
            pairs_won: self.pairs_won,
            tie_break: self.tie_break.map(|tie| TieBreakView {
                rule: tie.rule,
                roll_off: tie.roll_off.iter().map(|round| round.map(|_, die| die.draw.clone())).collect(),
                roll_off_totals: judge
                    .then(|| tie.roll_off.iter().map(|round| round.map(|_, die| die.total)).collect()),
            }),
            decided_by,
            running_away: self.running_away,
            alone: self.alone,
            withdrawn: self.withdrawn,
            departure: self.departure,
        }
    }
}

fn side_view(
    state: &BattleState,
    current: &BattleState,
    side: SideId,
    viewer: &Viewer,
    bonuses: Option<&Sides<SideBonuses>>,
) -> SideView {
    let side_state = state.sides.get(side);
    let judge = viewer.is_judge();
    let formulas_visible = judge || current.formulas_open();
    let strategy = side_state.counting_strategy();
    let casualties = side_state.casualties.clone();
    let troops_after = match (&side_state.army, &casualties) {
        (Some(army), Some(casualties)) => Some(
            army.slots
                .iter()
                .enumerate()
                .map(|(i, slot)| slot.troops.saturating_sub(casualties.losses.get(i).copied().unwrap_or(0)))
                .collect(),
        ),
        (Some(army), None) if state.killed.contains(&side) => Some(vec![0; army.slots.len()]),
        _ => None,
    };
    SideView {
        army: side_state.army.clone(),
        troops_after,
        strategy_submitted: strategy.is_some(),
        strategy_submitted_at: strategy.map(|s| s.at),
        strategy: strategy.filter(|_| current.strategy_visible_to(viewer, side)).map(|s| s.text.clone()),
        strategy_bonus: match bonuses {
            Some(bonuses) => Some(bonuses.get(side).strategy),
            None if judge => side_state.strategy_bonus,
            None => None,
        },
        size_bonus: bonuses.filter(|_| formulas_visible).map(|b| b.get(side).size),
        color_bonus: bonuses.map(|b| b.get(side).color),
        casualties,
        deadline: side_state.deadline,
        partner: side_state.partner.as_ref().map(|partner| partner_view(current, partner, viewer)),
    }
}

fn partner_view(current: &BattleState, partner: &PartnerState, viewer: &Viewer) -> PartnerView {
    let strategy = partner.strategies.counting();
    PartnerView {
        army: partner.army.clone(),
        troops_after: partner.casualties.as_ref().map(|casualties| {
            partner
                .army
                .slots
                .iter()
                .enumerate()
                .map(|(i, slot)| slot.troops.saturating_sub(casualties.losses.get(i).copied().unwrap_or(0)))
                .collect()
        }),
        strategy_submitted: strategy.is_some(),
        strategy: strategy.filter(|_| current.army_strategy_visible_to(viewer, &partner.army)).map(|s| s.text.clone()),
        casualties: partner.casualties.clone(),
    }
}
