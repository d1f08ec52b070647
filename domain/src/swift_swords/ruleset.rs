//! Swift Swords as a registered ruleset: how an encounter is set up, read, drawn and listed,
//! and the outcome a campaign battle fought out under it takes over.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    battle::{state::SideSpec, SwiftSwords, SwiftSwordsCommand, SwiftSwordsState},
    chariot::ChariotSpec,
    figure::FigureSpec,
    options::BattleOptions,
    picture::zones_svg,
    view::SwiftSwordsView,
    zones::ZoneMap,
};
use crate::{
    dice::JudgeRoll,
    ruleset::{Participant, Ruleset, StreamKind, Summary, TacticalOutcome},
    viewer::Viewer,
};

/// What a swift-swords encounter is set up with: the zones, the sides, every figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "map": {"zones": [{"id": "ford", "column": 0, "row": 0, "terrain": "river ford"},
                      {"id": "bank", "column": 1, "row": 0, "terrain": "wooded bank"}],
            "borders": [{"a": "ford", "b": "bank", "cover": "soft_light", "name": "reeds"}]},
    "sides": [{"name": "heroes", "controller": "alice"}, {"name": "goblins"}],
    "figures": [
        {"id": "roland", "side": "heroes", "controller": "alice", "start": {"zone": "ford"},
         "action_dice": {"kind": "roll", "dice": 4}, "physical": 3, "mental": 3, "heroic": true,
         "weapons": [{"name": "Broadsword", "dice": 4, "weight": "medium"}],
         "defences": {"dodge": 5, "block": 5}, "shield": {"name": "Medium Shield", "block": 2}},
        {"id": "goblin-1", "side": "goblins", "start": {"zone": "bank"},
         "action_dice": {"kind": "set", "values": [5, 4, 3]}, "physical": 2, "mental": 2, "stateless": true,
         "weapons": [{"name": "Spear", "dice": 4, "weight": "medium"}]}
    ]
}))]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsSetup)]
pub struct SwiftSwordsSetup {
    /// The zones, their terrain and cover.
    pub map: ZoneMap,
    /// Two or more sides.
    pub sides: Vec<SideSpec>,
    /// Every figure.
    pub figures: Vec<FigureSpec>,
    /// Chariots, with their teams and crews among the figures.
    #[serde(default)]
    pub chariots: Vec<ChariotSpec>,
    /// The encounter's readings (Herald's defaults when absent).
    #[serde(default)]
    pub options: BattleOptions,
}

impl Ruleset for SwiftSwords {
    const ID: &'static str = "swift-swords";
    const KIND: StreamKind = StreamKind::Battle;
    const TITLE: &'static str = "Swift Swords Tactica: zone combat with action dice and success counting";
    const SOURCE: &'static str = "seed 004";
    const DOCS: &'static str = "docs/rulesets/swift-swords.md";
    const CODE_PREFIX: &'static str = "swift-swords";
    const PICTURE: Option<&'static str> = Some("zones.svg");

    const CAPS: &'static [crate::caps::Cap] = crate::swift_swords::limits::CAPS;

    type Setup = SwiftSwordsSetup;
    type View = SwiftSwordsView;

    fn set_up(setup: SwiftSwordsSetup, seed_commitment: String) -> SwiftSwordsCommand {
        SwiftSwordsCommand::CreateBattle {
            map: setup.map,
            sides: setup.sides,
            figures: setup.figures,
            chariots: setup.chariots,
            options: setup.options,
            seed_commitment,
        }
    }

    /// Swift swords is played in the open: every reader sees the same encounter.
    fn view(stream: &str, version: u64, state: &SwiftSwordsState, _: &SwiftSwordsState, _: &Viewer) -> SwiftSwordsView {
        SwiftSwordsView::new(stream, version, state)
    }

    fn summary(state: &SwiftSwordsState) -> Summary {
        Summary {
            status: crate::ruleset::status_word(&state.phase),
            ended: state.ended(),
            turn: Some(state.round),
            participants: state.sides.iter().map(|side| side.name.clone()).collect(),
            players: crate::ruleset::players(
                state
                    .sides
                    .iter()
                    .map(|side| side.controller.as_ref())
                    .chain(state.figures.values().map(|figure| figure.spec.controller.as_ref())),
            ),
            winner: state.winner.clone(),
        }
    }

    fn sheet(view: &SwiftSwordsView) -> Option<crate::ruleset::sheet::Sheet> {
        Some(super::sheet::sheet(view))
    }

    fn picture(stream: &str, version: u64, state: &SwiftSwordsState, _: &Viewer) -> Option<String> {
        let id = crate::ruleset::battle_id(stream);
        Some(zones_svg(state, &format!("battle {id} at version {version}")))
    }

    fn contribute_entropy(entropy: String) -> Option<SwiftSwordsCommand> {
        Some(SwiftSwordsCommand::ContributeEntropy { entropy })
    }

    fn judge_roll(roll: JudgeRoll) -> SwiftSwordsCommand {
        SwiftSwordsCommand::JudgeRoll(roll)
    }

    /// Each side fielded its creatures (a formation counts its members) and lost those Out of
    /// Action or Killed; a side without a player is the GM's (`judge`).
    fn outcome(state: &SwiftSwordsState) -> Option<TacticalOutcome> {
        let participants = state
            .sides
            .iter()
            .map(|side| {
                let (fielded, lost) = state.figures.values().filter(|figure| figure.spec.side == side.name).fold(
                    (0u32, 0u32),
                    |(fielded, lost), figure| {
                        let members = figure.spec.formation.as_ref().map_or(1, |formation| formation.members);
                        (
                            fielded.saturating_add(members),
                            lost.saturating_add(if figure.active() { 0 } else { members }),
                        )
                    },
                );
                let controller = side.controller.clone().unwrap_or_else(|| "judge".into());
                Participant { name: side.name.clone(), controller, fielded, lost }
            })
            .collect();
        Some(TacticalOutcome { ended: state.ended(), winner: state.winner.clone(), participants })
    }
}
