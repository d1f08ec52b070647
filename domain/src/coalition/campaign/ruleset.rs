//! The coalition campaign as a registered ruleset: the strategic layer of seed 003, one stream
//! per round, with orders sent privately hidden from the other team until the lock.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{
    mercenaries::MercenaryEntry,
    view::{markers, redact_campaign_event, CampaignView},
    ArmyEntry, CampaignCommand, CampaignEvent, CampaignOptions, CampaignState, CoalitionCampaign, TurnPhase,
};
use crate::{
    coalition::days::DaysEvent,
    coalition::{
        map::{svg, Map},
        setup::Player,
    },
    dice::JudgeRoll,
    ruleset::{upcast_pairs, upcast_v1_tag, Ruleset, RulesetSchemas, SchemaComponents, StreamKind, Summary},
    viewer::Viewer,
    Actor, RuleError,
};

/// What a campaign round is set up with (seed 003 §2.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "name": "Round 1",
    "map": {"bounds": {"columns": 14, "rows": 38}, "terrain": {"8E": "swamp"}, "default_terrain": "plains",
            "sites": {"20K": {"name": "Red Base", "square": "20K", "kind": {"kind": "base", "color": "red"}, "win_condition": true}}},
    "armies": [
        {"army": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "colors": ["red", "green", "blue"],
                  "troops": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]},
         "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
        {"army": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "colors": [],
                  "troops": [{"creature": "Phyrexian Broodling", "colors": ["black"], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]},
         "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}
    ],
    "options": {"enforce_army_counts": false, "enforce_site_counts": false}
}))]
#[serde(deny_unknown_fields)]
pub struct CampaignSetup {
    /// The round's name.
    pub name: String,
    /// The map: bounds (default 14 × 38), terrain, and the sites keyed by square.
    #[serde(default)]
    pub map: Map,
    /// The players with team, rank and factions.
    #[serde(default)]
    pub players: Vec<Player>,
    /// The armies, their controllers and where they start.
    pub armies: Vec<ArmyEntry>,
    /// The mercenaries, run by the Mercenary Judge (seed 003 §2.5.3, ch. 6).
    #[serde(default)]
    pub mercenaries: Vec<MercenaryEntry>,
    /// Options (army and site counts can be relaxed for small rounds).
    #[serde(default)]
    pub options: CampaignOptions,
}

impl Ruleset for CoalitionCampaign {
    const ID: &'static str = "coalition";
    const KIND: StreamKind = StreamKind::Campaign;
    const TITLE: &'static str = "The Coalition Wargame: a campaign round";
    const SOURCE: &'static str = "seed 003";
    const DOCS: &'static str = "docs/rulesets/coalition-campaign.md";
    const CODE_PREFIX: &'static str = "coalition.campaign";
    const PICTURE: Option<&'static str> = Some("map.svg");
    const SERVICE_COMMANDS: &'static [&'static str] = &["create_campaign", "adjudicate_turn", "reveal_turn_seed"];

    const CAPS: &'static [crate::caps::Cap] = crate::coalition::campaign::limits::CAPS;

    type Setup = CampaignSetup;
    type View = CampaignView;

    fn set_up(setup: CampaignSetup, seed_commitment: String) -> CampaignCommand {
        CampaignCommand::CreateCampaign {
            name: setup.name,
            map: setup.map,
            players: setup.players,
            armies: setup.armies,
            options: setup.options,
            seed_commitment,
            mercenaries: setup.mercenaries,
            positions_record: super::event::PositionsRecord::BeyondReports,
            interval_commitment: None,
        }
    }

    /// A round is set up by its judges (seed 003 §2.5).
    fn may_set_up(actor: &Actor) -> Result<(), RuleError> {
        if actor.is_judge() {
            Ok(())
        } else {
            Err(RuleError::forbidden(
                "coalition.campaign.not_a_judge",
                "only a judge or an admin may set up a round",
                "seed 003 §2.5",
            ))
        }
    }

    fn view(stream: &str, version: u64, state: &CampaignState, _: &CampaignState, _: &Viewer) -> CampaignView {
        CampaignView::new(stream, version, state)
    }

    fn redact_event(event: &mut Value, current: &CampaignState, viewer: &Viewer) {
        redact_campaign_event(event, current, viewer);
    }

    fn summary(state: &CampaignState) -> Summary {
        Summary {
            status: match state.phase {
                TurnPhase::Closed => "closed",
                TurnPhase::Open { .. } => "open",
                TurnPhase::Locked { .. } => "locked",
            }
            .to_string(),
            ended: state.victory.is_some(),
            turn: Some(state.turn),
            participants: state.players.iter().map(|player| player.name.clone()).collect(),
            // Whoever controls an army acts in the round, listed as a player or not (seed 003
            // §5.2: control is by player name).
            players: {
                let mut players: Vec<String> = state.players.iter().map(|player| player.name.clone()).collect();
                for controller in state.armies.values().flat_map(|army| army.controllers.iter()) {
                    if !players.contains(controller) {
                        players.push(controller.clone());
                    }
                }
                players
            },
            winner: state.victory.as_ref().map(|victory| format!("{:?}", victory.team).to_lowercase()),
        }
    }

    fn picture(_: &str, _: u64, state: &CampaignState, _: &Viewer) -> Option<String> {
        Some(svg::render(&format!("{} (turn {})", state.name, state.turn), &state.map, &markers(state)))
    }

    /// Schema 1 nested the days events (`{"type": "days", "event": {…}}`) and wrote battle losses
    /// as pairs.
    fn upcast(event_type: &str, _schema: u32, data: &Value) -> Value {
        let nested = data.get("type").and_then(Value::as_str) == Some("days");
        let mut data = upcast_v1_tag(event_type, data.get("event").filter(|_| nested).unwrap_or(data));
        if event_type == "coalition.BattleResultApplied" {
            upcast_pairs(&mut data, "losses", ["army", "losses"]);
        }
        data
    }

    /// The days events are an untagged variant of `CampaignEvent` (their payload is the days
    /// event itself), which the schema derive does not describe: its variants take the place of
    /// the `Days` variant in the union.
    fn schemas() -> RulesetSchemas {
        let mut schemas = RulesetSchemas {
            setup: SchemaComponents::of::<CampaignSetup>(),
            command: SchemaComponents::of::<CampaignCommand>(),
            event: SchemaComponents::of::<CampaignEvent>(),
            view: SchemaComponents::of::<CampaignView>(),
        };
        let days_name = <DaysEvent as utoipa::ToSchema>::name().to_string();
        let days = schemas.event.component(&days_name).and_then(|days| days.get("oneOf")).cloned();
        if let (Some(Value::Array(days)), Some(union)) = (days, schemas.event.schema_mut()) {
            let reference = format!("#/components/schemas/{days_name}");
            if let Some(variants) = union.get_mut("oneOf").and_then(Value::as_array_mut) {
                variants.retain(|variant| !variant.to_string().contains(&reference));
                variants.extend(days);
            }
        }
        schemas.event.components.retain(|(name, _)| *name != days_name);
        schemas
    }

    fn judge_roll(roll: JudgeRoll) -> CampaignCommand {
        CampaignCommand::JudgeRoll(roll)
    }
}
