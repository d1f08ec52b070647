//! Warmachine as a registered ruleset: how a battle is set up, read, drawn and listed, and the
//! outcome a campaign battle fought out on the table takes over.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    battle::{
        command::{ModelSpec, PlayerSpec},
        Warmachine, WarmachineCommand, WarmachineState,
    },
    picture::table_svg,
    table::Table,
    view::WarmachineView,
};
use crate::{
    dice::JudgeRoll,
    ruleset::{upcast_pairs, upcast_v1_tag, Participant, Ruleset, StreamKind, Summary, TacticalOutcome},
    viewer::Viewer,
};

/// What a warmachine battle is set up with: the table, the players and every model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "table": {"width": 48.0, "depth": 48.0, "terrain": [
        {"name": "wall", "kind": "obstruction", "shape": {"kind": "rect", "min": {"x": 22.0, "y": 20.0}, "max": {"x": 26.0, "y": 21.0}}, "height": 3.0}
    ]},
    "players": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
    "models": [{
        "id": "red-caster", "player": "red", "position": {"x": 10.0, "y": 6.0},
        "profile": {"name": "Stryker", "model_type": "warcaster",
            "stats": {"spd": 6, "mat": 6, "rat": 5, "def": 15, "arm": 15, "arc": 6, "ctrl": 12},
            "base": "small", "damage": {"kind": "boxes", "boxes": 17},
            "weapons": [{"name": "Quicksilver", "kind": "melee", "rng": {"kind": "inches", "inches": 0.5}, "pow": 7}]}
    }]
}))]
#[serde(deny_unknown_fields)]
pub struct WarmachineSetup {
    /// The table (default 48″ × 48″) and its terrain.
    #[serde(default)]
    pub table: Table,
    /// Two or more players, in turn order.
    pub players: Vec<PlayerSpec>,
    /// Every model with its profile, position, unit and battlegroup.
    pub models: Vec<ModelSpec>,
}

impl Ruleset for Warmachine {
    const ID: &'static str = "warmachine";
    const KIND: StreamKind = StreamKind::Battle;
    const TITLE: &'static str = "Warmachine: miniatures on a table measured in inches";
    const SOURCE: &'static str = "seed 000";
    const DOCS: &'static str = "docs/rulesets/warmachine.md";
    const CODE_PREFIX: &'static str = "warmachine";
    const PICTURE: Option<&'static str> = Some("table.svg");

    const CAPS: &'static [crate::caps::Cap] = crate::warmachine::limits::CAPS;

    type Setup = WarmachineSetup;
    type View = WarmachineView;

    fn set_up(setup: WarmachineSetup, seed_commitment: String) -> WarmachineCommand {
        WarmachineCommand::CreateBattle {
            table: setup.table,
            players: setup.players,
            models: setup.models,
            seed_commitment,
        }
    }

    /// Warmachine is played in the open: every reader sees the same battle.
    fn view(stream: &str, version: u64, state: &WarmachineState, _: &WarmachineState, _: &Viewer) -> WarmachineView {
        WarmachineView::new(stream, version, state)
    }

    fn summary(state: &WarmachineState) -> Summary {
        Summary {
            status: crate::ruleset::status_word(&state.phase),
            ended: state.ended(),
            turn: Some(state.turn),
            participants: state.players.iter().map(|player| player.name.clone()).collect(),
            players: crate::ruleset::players(state.players.iter().map(|player| Some(&player.controller))),
            winner: state.winner.clone(),
        }
    }

    fn sheet(view: &WarmachineView) -> Option<crate::ruleset::sheet::Sheet> {
        Some(super::sheet::sheet(view))
    }

    fn picture(stream: &str, version: u64, state: &WarmachineState, _: &Viewer) -> Option<String> {
        let id = crate::ruleset::battle_id(stream);
        Some(table_svg(state, &format!("battle {id} at version {version}")))
    }

    fn contribute_entropy(entropy: String) -> Option<WarmachineCommand> {
        Some(WarmachineCommand::ContributeEntropy { entropy })
    }

    /// Schema 1 also wrote expired markers and triggered rules as pairs.
    fn upcast(event_type: &str, _schema: u32, data: &Value) -> Value {
        let mut data = upcast_v1_tag(event_type, data);
        match event_type {
            "warmachine.MarkersExpired" => upcast_pairs(&mut data, "removed", ["model", "condition"]),
            "warmachine.AttackResolved" => upcast_pairs(&mut data, "triggers", ["model", "rule"]),
            _ => {}
        }
        data
    }

    fn judge_roll(roll: JudgeRoll) -> WarmachineCommand {
        WarmachineCommand::JudgeRoll(roll)
    }

    /// Each player fielded its models and lost those destroyed.
    fn outcome(state: &WarmachineState) -> Option<TacticalOutcome> {
        let participants = state
            .players
            .iter()
            .map(|player| {
                let models = state.models.values().filter(|model| model.spec.player == player.name);
                let (fielded, lost) = models.fold((0u32, 0u32), |(fielded, lost), model| {
                    (fielded.saturating_add(1), lost.saturating_add(u32::from(model.destroyed)))
                });
                Participant { name: player.name.clone(), controller: player.controller.clone(), fielded, lost }
            })
            .collect();
        Some(TacticalOutcome { ended: state.ended(), winner: state.winner.clone(), participants })
    }
}
