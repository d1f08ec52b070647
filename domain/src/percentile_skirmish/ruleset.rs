//! Percentile skirmish as a registered ruleset: how a battle is set up, read, drawn and listed,
//! and the outcome a campaign battle fought out on the table takes over.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    battle::{
        command::{ParticipantSpec, Summons},
        PercentileSkirmish, SkirmishCommand, SkirmishState,
    },
    mini::MiniSpec,
    picture::table_svg,
    redact,
    rules::BattleOptions,
    table::Table,
    view::SkirmishView,
};
use crate::{
    dice::JudgeRoll,
    ruleset::{Participant, Ruleset, StreamKind, Summary, TacticalOutcome},
    viewer::Viewer,
};

/// What a percentile-skirmish battle is set up with: the table, the participants, every mini,
/// the battle's readings and what summoning spells bring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "table": {"width": 36.0, "depth": 24.0, "terrain": [
        {"name": "King's road", "kind": "road", "shape": {"kind": "rect", "min": {"x": 0.0, "y": 10.0}, "max": {"x": 36.0, "y": 12.0}}},
        {"name": "Mill stream", "kind": "water", "shape": {"kind": "band", "points": [{"x": 18.0, "y": 0.0}, {"x": 18.0, "y": 24.0}], "width": 0.75}}
    ]},
    "participants": [{"name": "red", "controller": "alice"}, {"name": "blue", "controller": "bob"}],
    "minis": [
        {"id": "red-knight", "participant": "red", "position": {"x": 6.0, "y": 11.0}, "facing": 0.0, "profile": {
            "name": "Knight", "level": 3, "size": "medium", "movement": 4.0, "initiative": 7, "life": 20,
            "armour": [{"name": "Plate", "slot": "body", "protection": 3, "metal": true}, {"name": "Shield", "slot": "shield", "protection": 1}],
            "weapons": [{"name": "Longsword", "kind": "melee", "damage": "d8+1"}], "resistances": ["non_magic_weapons"]}},
        {"id": "blue-mage", "participant": "blue", "position": {"x": 30.0, "y": 11.0}, "facing": 180.0, "profile": {
            "name": "Mage", "level": 4, "movement": 4.0, "initiative": 9, "life": 12, "spell_points": 60,
            "spells": ["flying_fist", "fireball", "speed"], "weapons": [{"name": "Staff", "kind": "melee", "damage": "d6"}]}}
    ],
    "options": {"declarations": "sealed"},
    "summons": {"golem": null, "familiar": null}
}))]
#[serde(deny_unknown_fields)]
pub struct SkirmishSetup {
    /// The table (default 48″ × 48″, no terrain): its roads and water.
    #[serde(default)]
    pub table: Table,
    /// Two or more participants.
    pub participants: Vec<ParticipantSpec>,
    /// Every mini with its card, position and facing.
    pub minis: Vec<MiniSpec>,
    /// The battle's readings of the seed (every field has a default).
    #[serde(default)]
    pub options: BattleOptions,
    /// The golem's and familiar's cards.
    #[serde(default)]
    pub summons: Summons,
}

impl Ruleset for PercentileSkirmish {
    const ID: &'static str = "percentile-skirmish";
    const KIND: StreamKind = StreamKind::Battle;
    const TITLE: &'static str =
        "Percentile skirmish: declared initiative rounds, open combat and spells on percentile dice";
    const SOURCE: &'static str = "seed 002";
    const DOCS: &'static str = "docs/rulesets/percentile-skirmish.md";
    const CODE_PREFIX: &'static str = "percentile-skirmish";
    const PICTURE: Option<&'static str> = Some("table.svg");

    const CAPS: &'static [crate::caps::Cap] = crate::percentile_skirmish::limits::CAPS;

    type Setup = SkirmishSetup;
    type View = SkirmishView;

    fn set_up(setup: SkirmishSetup, seed_commitment: String) -> SkirmishCommand {
        SkirmishCommand::CreateBattle {
            table: setup.table,
            participants: setup.participants,
            minis: setup.minis,
            options: setup.options,
            summons: setup.summons,
            seed_commitment,
        }
    }

    fn view(
        stream: &str,
        version: u64,
        state: &SkirmishState,
        current: &SkirmishState,
        viewer: &Viewer,
    ) -> SkirmishView {
        SkirmishView::new(stream, version, state, current, viewer)
    }

    fn redact_event(event: &mut Value, current: &SkirmishState, viewer: &Viewer) {
        redact::redact_event(event, current, viewer);
    }

    fn summary(state: &SkirmishState) -> Summary {
        Summary {
            status: crate::ruleset::status_word(&state.phase),
            ended: state.ended(),
            turn: Some(state.turn),
            participants: state.participants.iter().map(|p| p.name.clone()).collect(),
            players: crate::ruleset::players(state.participants.iter().map(|p| Some(&p.controller))),
            winner: state.winner.clone(),
        }
    }

    fn sheet(view: &SkirmishView) -> Option<crate::ruleset::sheet::Sheet> {
        Some(super::sheet::sheet(view))
    }

    fn picture(stream: &str, version: u64, state: &SkirmishState, _: &Viewer) -> Option<String> {
        let id = crate::ruleset::battle_id(stream);
        Some(table_svg(state, &format!("battle {id} at version {version}")))
    }

    fn contribute_entropy(entropy: String) -> Option<SkirmishCommand> {
        Some(SkirmishCommand::ContributeEntropy { entropy })
    }

    fn judge_roll(roll: JudgeRoll) -> SkirmishCommand {
        SkirmishCommand::JudgeRoll(roll)
    }

    /// Each participant fielded its own minis (summoned golems and familiars not counted) and
    /// lost those killed.
    fn outcome(state: &SkirmishState) -> Option<TacticalOutcome> {
        let participants = state
            .participants
            .iter()
            .map(|participant| {
                let own =
                    state.minis.values().filter(|m| m.spec.participant == participant.name && m.summoned.is_none());
                let (fielded, lost) = own.fold((0u32, 0u32), |(fielded, lost), mini| {
                    (fielded.saturating_add(1), lost.saturating_add(u32::from(mini.killed)))
                });
                Participant {
                    name: participant.name.clone(),
                    controller: participant.controller.clone(),
                    fielded,
                    lost,
                }
            })
            .collect();
        Some(TacticalOutcome { ended: state.ended(), winner: state.winner.clone(), participants })
    }
}
