//! The zone-rpg read model: a fight as served by `GET /v1/battles/{id}` — every character's
//! health, conditions, gear and zone (unless concealed from the reader), the zones, whose go it
//! is, and what the fight waits for.

mod character;

pub use character::{CharacterView, FactionView, Status};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use character::character_view;

use super::{
    character::gear::ZoneItem,
    map::{BorderSpec, ZoneSpec},
    options::ZoneRpgOptions,
    redact::sees_position,
    state::{
        pending::{InterruptedMove, PendingAttack},
        turn::TurnState,
        Phase, ZoneRpgState,
    },
    ZoneRpg,
};
use crate::{viewer::Viewer, Decider};

/// A zone-rpg fight as served by `GET /v1/battles/{id}` (and `?at=<version>`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgView, example = json!({
    "id": "01936f3e-8f4d-7a31-8a9b-0c64d1f3a009", "stream": "battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a009",
    "version": 4, "ruleset": "zone-rpg", "rules": "zone-rpg@1", "phase": "round", "round": 1, "bonus_round": false,
    "initiative": "bandits", "first_faction": "bandits", "current_faction": "party", "consecutive_passes": 0,
    "turn": null, "pending_attack": null, "interrupted_move": null,
    "zones": [{"name": "road", "light": "lit", "features": [], "hazards": [], "at": null}],
    "borders": [], "items": [],
    "factions": [{"name": "party", "controller": "alice", "players": ["alice"], "standing": true, "can_act": true},
        {"name": "bandits", "controller": null, "players": [], "standing": true, "can_act": true}],
    "characters": [{"id": "Balthasar", "faction": "party", "controller": "alice", "group": null, "health": 10,
        "max_health": 10, "wit": 12, "agi": 10, "str": 14, "size": "medium", "speed": 2, "zone": "road",
        "at_border": null, "behind": null, "riding": null, "riders": [], "carries": 0, "position_hidden": false,
        "status": "fighting", "concealed": false, "unaware": false, "fearless": false, "morale": "untested",
        "grabbed_by": null, "grabbing": null, "turn": "used", "can_react": false, "extra_reactions_left": 0,
        "armour_value": 1,
        "weapons": [{"weapon": {"name": "sword", "damage": "d6", "range": 0, "blast": false, "hands": "one",
            "improvised": false, "damaged": false, "natural": false, "penetrating": false, "held": true},
            "used": true, "destroyed": false}],
        "shield": null, "armour": {"armour": {"name": "light armour", "value": 1, "damaged": false, "natural": false},
            "used": false, "destroyed": false}}],
    "options": {"save_passes": "under", "impaired": "d4", "critical_damage": "half_maximum_in_one_hit",
        "morale_for": "all_characters", "durability": {"die": 6, "fails_at_or_below": 1}},
    "winner": null, "ended_reason": null,
    "seed_commitment": "5d0b1c0c2e6e0f4a7f1e4b0b7e2a5a1c9f0d3e8b6a4c2e1f0a9b8c7d6e5f4a3b", "seed_revealed": false,
    "seed": null, "contributions": [], "next_word": 3
}))]
pub struct ZoneRpgView {
    /// The battle id (the stream name without `battle-`).
    pub id: String,
    /// The stream, `battle-{uuid}`.
    pub stream: String,
    /// The stream version this view is folded to (also the `ETag`).
    pub version: u64,
    /// Always `zone-rpg`.
    pub ruleset: String,
    /// The rules version (`zone-rpg@1`).
    pub rules: String,
    /// Where the fight stands.
    pub phase: Phase,
    /// The current (or last) round: 0 is the bonus round.
    pub round: u32,
    /// The current round is the concealed characters' bonus round.
    pub bonus_round: bool,
    /// The faction holding the initiative.
    pub initiative: Option<String>,
    /// The faction that acted first this round.
    pub first_faction: Option<String>,
    /// Whose go it is: take a turn with a character or pass.
    pub current_faction: Option<String>,
    /// Consecutive passes so far.
    pub consecutive_passes: u32,
    /// The turn in progress.
    pub turn: Option<TurnState>,
    /// The attack waiting for a stunt's approval or answer, or for reactions.
    pub pending_attack: Option<PendingAttack>,
    /// The move stopped for opportunity attacks.
    pub interrupted_move: Option<InterruptedMove>,
    /// The zones.
    pub zones: Vec<ZoneSpec>,
    /// The borders.
    pub borders: Vec<BorderSpec>,
    /// Items lying in zones.
    pub items: Vec<ZoneItem>,
    /// The factions.
    pub factions: Vec<FactionView>,
    /// The characters.
    pub characters: Vec<CharacterView>,
    /// The readings the fight is played by.
    pub options: ZoneRpgOptions,
    /// The winning faction, once over.
    pub winner: Option<String>,
    /// Why it ended.
    pub ended_reason: Option<String>,
    /// `sha256(server seed)`, published before any die was drawn.
    pub seed_commitment: Option<String>,
    /// Whether the server seed has been revealed.
    pub seed_revealed: bool,
    /// The server seed, once revealed.
    pub seed: Option<String>,
    /// Entropy contributed, in order.
    pub contributions: Vec<String>,
    /// The dice tape's next output word.
    pub next_word: u64,
}

impl ZoneRpgView {
    /// `state` (folded to `version`) as `viewer` may see it; `current` decides who is still
    /// concealed.
    pub fn new(stream: &str, version: u64, state: &ZoneRpgState, current: &ZoneRpgState, viewer: &Viewer) -> Self {
        // Whether a position is public is decided by the fight as it stands now: a character
        // revealed since may be seen where it was, one concealed now may not be.
        let hidden_now = |id: &str| current.character(id).is_some_and(|c| !sees_position(current, c, viewer));
        let characters = state
            .characters
            .iter()
            .map(|character| character_view(state, character, !hidden_now(character.id()), viewer))
            .collect();
        let items = state.items.iter().filter(|item| !(item.concealed && hidden_now(&item.left_by))).cloned().collect();
        let factions = state
            .factions
            .iter()
            .map(|faction| FactionView {
                name: faction.name.clone(),
                controller: faction.controller.clone(),
                players: state.players_of(&faction.name).iter().map(|p| p.to_string()).collect(),
                standing: state.standing_factions().contains(&faction.name.as_str()),
                can_act: state.faction_can_act(&faction.name),
            })
            .collect();
        Self {
            id: crate::ruleset::battle_id(stream).to_string(),
            stream: stream.to_string(),
            version,
            ruleset: "zone-rpg".into(),
            rules: ZoneRpg::RULES.into(),
            phase: state.phase,
            round: state.round,
            bonus_round: state.bonus_round,
            initiative: state.initiative.clone(),
            first_faction: state.first_faction.clone(),
            current_faction: state.current_faction.clone(),
            consecutive_passes: state.consecutive_passes,
            turn: state.turn.clone(),
            pending_attack: state.pending_attack.clone(),
            interrupted_move: state.interrupted_move.clone(),
            zones: state.map.zones.clone(),
            borders: state.map.borders.clone(),
            items,
            factions,
            characters,
            options: state.options,
            winner: state.winner.clone(),
            ended_reason: state.ended_reason.clone(),
            seed_commitment: state.dice.seed_commitment.clone(),
            seed_revealed: state.dice.revealed_seed.is_some(),
            seed: state.dice.revealed_seed.clone(),
            contributions: state.dice.contributions.clone(),
            next_word: state.dice.next_word,
        }
    }
}
