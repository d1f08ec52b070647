//! The coalition battle as a registered ruleset: decided by the Battle Judge (seed 003 §4.2),
//! with sealed strategies and a secret size formula that each reader sees as the rules allow.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    command::Engagement, joint::PartnerArmy, redact::redact_battle_event, view::BattleView, BattleCommand,
    BattleOptions, BattleState, CoalitionBattle, FormulaOpening, SideId, Sides,
};
use crate::{
    coalition::army::ArmySpec,
    dice::JudgeRoll,
    ruleset::{Ruleset, StreamKind, Summary},
    viewer::Viewer,
    Actor, RuleError,
};

/// What a coalition battle is set up with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "armies": {
        "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
              "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000},
                        {"creature": "Grizzly Bears", "colors": ["green"], "power": 2, "toughness": 2, "troops": 2500}]},
        "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
              "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000}]}
    },
    "engagement": {"kind": "attack", "attacker": "a"},
    "terrain": "plains",
    "strategy_deadline": "2026-12-01T18:00:00Z"
}))]
#[serde(deny_unknown_fields)]
pub struct CoalitionBattleSetup {
    /// The two armies (each side's first army).
    pub armies: Sides<ArmySpec>,
    /// A second army on a side, for a 2v1 or 2v2 battle (seed 003 §4.4).
    #[serde(default)]
    pub partners: Vec<PartnerArmy>,
    /// The weather posted with the battle (seed 003 §4.1.2.5).
    #[serde(default)]
    pub weather: Option<String>,
    /// Who attacks whom (seed 003 §4.1.2.3).
    pub engagement: Engagement,
    /// Terrain of the square (seed 003 §4.1.2.4).
    #[serde(default)]
    pub terrain: Option<String>,
    /// Strategies must arrive before this time (seed 003 §4.1.1).
    pub strategy_deadline: DateTime<Utc>,
    /// Tie rule and formulas; defaults documented in docs/rulesets/coalition-battle.md.
    #[serde(default)]
    pub options: BattleOptions,
    /// When the hidden formulas are opened to every reader: `secret` (the default, seed 003
    /// §4.2.2) or `open_at_end` (docs/DICE.md "Commitments to hidden formulas").
    #[serde(default)]
    pub formula_opening: FormulaOpening,
}

impl Ruleset for CoalitionBattle {
    const ID: &'static str = "coalition";
    const KIND: StreamKind = StreamKind::Battle;
    const TITLE: &'static str = "Coalition battle decided by the Battle Judge";
    const SOURCE: &'static str = "seed 003 §4.1–4.3";
    const DOCS: &'static str = "docs/rulesets/coalition-battle.md";
    const CODE_PREFIX: &'static str = "coalition.battle";
    /// A sanction's losses come from the campaign's `coalition.SanctionImposed`, relayed by the
    /// service (seed 003 §5.4.1).
    const SERVICE_COMMANDS: &'static [&'static str] = &["create_battle", "reveal_seed", "apply_sanction"];

    const CAPS: &'static [crate::caps::Cap] = crate::coalition::battle::limits::CAPS;

    /// Opening a battle and setting its formulas commit to them (seed 003 §4.2.2).
    const SALTED_COMMANDS: &'static [&'static str] = &["create_battle", "set_formulas"];

    type Setup = CoalitionBattleSetup;
    type View = BattleView;

    fn set_up(setup: CoalitionBattleSetup, seed_commitment: String) -> BattleCommand {
        BattleCommand::CreateBattle {
            armies: setup.armies,
            partners: setup.partners,
            weather: setup.weather,
            engagement: setup.engagement,
            terrain: setup.terrain,
            strategy_deadline: setup.strategy_deadline,
            options: setup.options,
            seed_commitment,
            formula_opening: setup.formula_opening,
            formula_salt: None,
        }
    }

    /// Battles are opened by the Battle Judge (seed 003 §1.3).
    fn may_set_up(actor: &Actor) -> Result<(), RuleError> {
        if actor.is_judge() {
            Ok(())
        } else {
            Err(RuleError::forbidden(
                "coalition.battle.not_a_judge",
                "only a battle judge or an admin may open a battle",
                "seed 003 §1.3",
            ))
        }
    }

    fn view(stream: &str, version: u64, state: &BattleState, current: &BattleState, viewer: &Viewer) -> BattleView {
        BattleView::new(stream, version, state, current, viewer)
    }

    fn redact_event(event: &mut Value, current: &BattleState, viewer: &Viewer) {
        redact_battle_event(event, current, viewer);
    }

    fn sheet(view: &BattleView) -> Option<crate::ruleset::sheet::Sheet> {
        Some(super::sheet::sheet(view))
    }

    fn summary(state: &BattleState) -> Summary {
        Summary {
            status: serde_json::to_value(state.status)
                .ok()
                .and_then(|status| status.as_str().map(String::from))
                .unwrap_or_default(),
            ended: state.ended(),
            turn: None,
            participants: SideId::BOTH
                .iter()
                .filter_map(|side| state.army(*side))
                .map(|army| army.name.clone())
                .collect(),
            players: crate::ruleset::players(SideId::BOTH.iter().flat_map(|side| {
                let side = state.sides.get(*side);
                [side.army.as_ref(), side.partner.as_ref().map(|partner| &partner.army)]
                    .map(|army| army.map(|army| &army.controller))
            })),
            winner: state.winner.map(|side| side.to_string()),
        }
    }

    fn contribute_entropy(entropy: String) -> Option<BattleCommand> {
        Some(BattleCommand::ContributeEntropy { entropy })
    }

    fn judge_roll(roll: JudgeRoll) -> BattleCommand {
        BattleCommand::JudgeRoll(roll)
    }
}
