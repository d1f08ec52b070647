//! zone-rpg as a registered ruleset: how a fight is set up, read, drawn and listed, and the
//! outcome a campaign battle fought out as a zone-rpg fight takes over.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    character::{CharacterSpec, FactionSpec, InitiativeSpec},
    map::{BorderSpec, ZoneSpec},
    options::ZoneRpgOptions,
    picture::zones_svg,
    redact,
    state::{Phase, ZoneRpgState},
    view::ZoneRpgView,
    ZoneRpg, ZoneRpgCommand,
};
use crate::{
    dice::JudgeRoll,
    ruleset::{Participant, Ruleset, StreamKind, Summary, TacticalOutcome},
    viewer::Viewer,
};

/// What a zone-rpg fight is set up with: the zones and their borders, the factions, every
/// character, who holds the initiative, and the readings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgSetup, example = json!({
    "zones": [{"name": "road"}, {"name": "ditch", "features": [{"name": "low wall", "protection": "cover"}]},
        {"name": "woods", "light": "dark"}],
    "borders": [{"a": "road", "b": "ditch"}, {"a": "road", "b": "woods", "protection": "cover"}],
    "factions": [{"name": "party", "controller": "alice"}, {"name": "bandits"}],
    "initiative": {"kind": "faction", "faction": "bandits"},
    "characters": [
        {"id": "Balthasar", "faction": "party", "health": 10, "wit": 12, "agi": 10, "str": 14, "zone": "road",
         "weapons": [{"name": "sword", "damage": "d6"}], "armour": {"name": "light armour", "value": 1}},
        {"id": "bandit 1", "faction": "bandits", "group": "bandits", "health": 8, "wit": 9, "agi": 8, "str": 10,
         "zone": "road", "weapons": [{"name": "bow", "damage": "d6", "range": 8, "hands": "two"}]}
    ]
}))]
#[serde(deny_unknown_fields)]
pub struct ZoneRpgSetup {
    /// The zones.
    pub zones: Vec<ZoneSpec>,
    /// Which zones border which.
    #[serde(default)]
    pub borders: Vec<BorderSpec>,
    /// Two or more factions; they alternate in this order.
    pub factions: Vec<FactionSpec>,
    /// Every character.
    pub characters: Vec<CharacterSpec>,
    /// Who holds the initiative.
    pub initiative: InitiativeSpec,
    /// The readings (defaults: see docs/rulesets/zone-rpg.md "Herald's readings").
    #[serde(default)]
    pub options: ZoneRpgOptions,
}

impl Ruleset for ZoneRpg {
    const ID: &'static str = "zone-rpg";
    const KIND: StreamKind = StreamKind::Battle;
    const TITLE: &'static str = "zone-rpg: zone-based character combat refereed by a GM";
    const SOURCE: &'static str = "seed 001";
    const DOCS: &'static str = "docs/rulesets/zone-rpg.md";
    const CODE_PREFIX: &'static str = "zone-rpg";
    const PICTURE: Option<&'static str> = Some("zones.svg");

    const CAPS: &'static [crate::caps::Cap] = crate::zone_rpg::limits::CAPS;

    type Setup = ZoneRpgSetup;
    type View = ZoneRpgView;

    fn set_up(setup: ZoneRpgSetup, seed_commitment: String) -> ZoneRpgCommand {
        ZoneRpgCommand::CreateBattle {
            zones: setup.zones,
            borders: setup.borders,
            factions: setup.factions,
            characters: setup.characters,
            initiative: setup.initiative,
            options: setup.options,
            seed_commitment,
        }
    }

    fn view(stream: &str, version: u64, state: &ZoneRpgState, current: &ZoneRpgState, viewer: &Viewer) -> ZoneRpgView {
        ZoneRpgView::new(stream, version, state, current, viewer)
    }

    fn redact_event(event: &mut serde_json::Value, current: &ZoneRpgState, viewer: &Viewer) {
        redact::redact_event(event, current, viewer);
    }

    fn summary(state: &ZoneRpgState) -> Summary {
        let status = match state.phase {
            Phase::Round if state.bonus_round => "bonus_round".to_string(),
            phase => serde_json::to_value(phase).ok().and_then(|p| p.as_str().map(String::from)).unwrap_or_default(),
        };
        Summary {
            status,
            ended: state.ended(),
            turn: Some(state.round),
            participants: state.factions.iter().map(|f| f.name.clone()).collect(),
            players: crate::ruleset::players(
                state
                    .factions
                    .iter()
                    .map(|f| f.controller.as_ref())
                    .chain(state.characters.iter().map(|c| c.spec.controller.as_ref())),
            ),
            winner: state.winner.clone(),
        }
    }

    fn sheet(view: &ZoneRpgView) -> Option<crate::ruleset::sheet::Sheet> {
        Some(super::sheet::sheet(view))
    }

    fn picture(stream: &str, version: u64, state: &ZoneRpgState, viewer: &Viewer) -> Option<String> {
        let id = crate::ruleset::battle_id(stream);
        Some(zones_svg(state, viewer, &format!("fight {id} at version {version}")))
    }

    fn contribute_entropy(entropy: String) -> Option<ZoneRpgCommand> {
        Some(ZoneRpgCommand::ContributeEntropy { entropy })
    }

    fn judge_roll(roll: JudgeRoll) -> ZoneRpgCommand {
        ZoneRpgCommand::JudgeRoll(roll)
    }

    /// Each faction fielded its characters and lost those killed, incapacitated or
    /// surrendering; a faction's controller is the player who fought for it (`gm` for the GM).
    fn outcome(state: &ZoneRpgState) -> Option<TacticalOutcome> {
        let participants = state
            .factions
            .iter()
            .map(|faction| {
                let characters = state.characters.iter().filter(|c| c.faction() == faction.name);
                let (fielded, lost) = characters.fold((0u32, 0u32), |(fielded, lost), c| {
                    let out = c.dead || c.incapacitated || c.surrendered;
                    (fielded.saturating_add(1), lost.saturating_add(u32::from(out)))
                });
                Participant {
                    name: faction.name.clone(),
                    controller: faction.controller.clone().unwrap_or_else(|| "gm".to_string()),
                    fielded,
                    lost,
                }
            })
            .collect();
        Some(TacticalOutcome { ended: state.ended(), winner: state.winner.clone(), participants })
    }
}
