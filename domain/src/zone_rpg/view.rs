//! The zone-rpg read model: a fight as served by `GET /v1/battles/{id}` — every character's
//! health, conditions, gear and zone (unless concealed from the reader), the zones, whose go it
//! is, and what the fight waits for.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    character::{
        gear::{ArmourState, ShieldState, WeaponState, ZoneItem},
        Size,
    },
    map::{BorderSpec, ZoneSpec},
    options::ZoneRpgOptions,
    redact::sees_position,
    state::{
        character::{CharacterState, Left, Morale, TurnUse},
        pending::{InterruptedMove, PendingAttack},
        turn::TurnState,
        Phase, ZoneRpgState,
    },
    ZoneRpg,
};
use crate::{viewer::Viewer, Decider};

/// Where a character stands in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgStatus)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Fighting.
    Fighting,
    /// Surrendering.
    Surrendered,
    /// Incapacitated.
    Incapacitated,
    /// Dead.
    Dead,
    /// Retreated from the fight.
    Retreated,
    /// Escaped a chase.
    Escaped,
}

/// A character as a reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgCharacterView)]
pub struct CharacterView {
    /// Its id.
    pub id: String,
    /// Its faction.
    pub faction: String,
    /// The player controlling it (absent: the GM).
    pub controller: Option<String>,
    /// Its morale group.
    pub group: Option<String>,
    /// Health now.
    pub health: u32,
    /// Maximum health.
    pub max_health: u32,
    /// WIT save value.
    pub wit: u32,
    /// AGI save value.
    pub agi: u32,
    /// STR save value.
    pub str: u32,
    /// Size.
    pub size: Size,
    /// Speed in zones.
    pub speed: u32,
    /// Its zone; absent while it is concealed from this reader.
    pub zone: Option<String>,
    /// The border it stands on.
    pub at_border: Option<String>,
    /// The feature it is behind.
    pub behind: Option<String>,
    /// The mount or vehicle it rides.
    pub riding: Option<String>,
    /// Its riders or passengers.
    pub riders: Vec<String>,
    /// How many it can carry.
    pub carries: u32,
    /// Its position is hidden from this reader.
    pub position_hidden: bool,
    /// Fighting, surrendered, incapacitated, dead, retreated or escaped.
    pub status: Status,
    /// Concealed.
    pub concealed: bool,
    /// Unaware of its attackers.
    pub unaware: bool,
    /// Immune to fear.
    pub fearless: bool,
    /// Morale.
    pub morale: Morale,
    /// Who holds it.
    pub grabbed_by: Option<String>,
    /// Whom it holds.
    pub grabbing: Option<String>,
    /// Its turn this round.
    pub turn: TurnUse,
    /// Whether it could react now.
    pub can_react: bool,
    /// Extra reactions left this round.
    pub extra_reactions_left: u32,
    /// Armour value without cover (armour plus a held shield, at most 3).
    pub armour_value: u32,
    /// Its weapons: held, damaged, used, destroyed.
    pub weapons: Vec<WeaponState>,
    /// Its shield.
    pub shield: Option<ShieldState>,
    /// Its armour.
    pub armour: Option<ArmourState>,
}

/// A faction as a reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgFactionView)]
pub struct FactionView {
    /// Its name.
    pub name: String,
    /// Its controller (absent: the GM).
    pub controller: Option<String>,
    /// Every player acting for it or one of its characters.
    pub players: Vec<String>,
    /// It still has characters fighting.
    pub standing: bool,
    /// It has a character left to take a turn with this round.
    pub can_act: bool,
}

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

fn status(character: &CharacterState) -> Status {
    match (character.dead, character.left, character.incapacitated, character.surrendered) {
        (true, _, _, _) => Status::Dead,
        (_, Some(Left::Retreated), _, _) => Status::Retreated,
        (_, Some(Left::Escaped), _, _) => Status::Escaped,
        (_, _, true, _) => Status::Incapacitated,
        (_, _, _, true) => Status::Surrendered,
        _ => Status::Fighting,
    }
}

fn character_view(state: &ZoneRpgState, character: &CharacterState, seen: bool, viewer: &Viewer) -> CharacterView {
    let spec = &character.spec;
    CharacterView {
        id: spec.id.clone(),
        faction: spec.faction.clone(),
        controller: state.controller_of(character).map(str::to_string),
        group: spec.group.clone(),
        health: character.health,
        max_health: character.max_health,
        wit: spec.wit,
        agi: spec.agi,
        str: spec.str,
        size: spec.size,
        speed: spec.speed,
        zone: seen.then(|| character.zone.clone()),
        at_border: character.at_border.clone().filter(|_| seen),
        behind: character.behind.clone().filter(|_| seen),
        riding: character.riding.clone().filter(|_| seen),
        riders: state
            .riders_of(character.id())
            .iter()
            .filter(|r| sees_position(state, r, viewer))
            .map(|r| r.id().to_string())
            .collect(),
        carries: spec.carries,
        position_hidden: !seen,
        status: status(character),
        concealed: character.concealed,
        unaware: character.unaware,
        fearless: spec.fearless,
        morale: character.morale,
        grabbed_by: character.grabbed_by.clone(),
        grabbing: character.grabbing.clone(),
        turn: character.turn,
        can_react: character.can_react(),
        extra_reactions_left: spec.extra_reactions.saturating_sub(character.extra_reactions_used),
        armour_value: character.armour_value(false),
        weapons: character.weapons.clone(),
        shield: character.shield.clone(),
        armour: character.armour.clone(),
    }
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
            id: stream.strip_prefix("battle-").unwrap_or(stream).to_string(),
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
