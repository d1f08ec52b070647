//! The percentile-skirmish read model, as served by `GET /v1/battles/{id}`: every mini with its
//! position, life, lasting spells with the turns they have left, resistances and what it may
//! still do this turn; the round with its declarations; the open combat; the dice.
//!
//! Hidden information (seed 002 "TURN", "Open combat"): a participant's declaration for a round
//! is sealed from the others until everyone has declared (unless the battle's `declarations`
//! option is `open`), and an open-combat option from the other side until both have picked.
//! Judges see everything; what is sealed is decided by the battle's current state, so a view
//! as of an earlier version shows what has since become public.

mod mini;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use mini::{MiniView, ResistanceView, TurnView};

use crate::{
    percentile_skirmish::{
        battle::{
            command::{ParticipantSpec, Summons},
            state::{Opportunity, Phase, SkirmishState},
            PercentileSkirmish,
        },
        rules::{BattleOptions, CombatChoice, Declarations},
        table::Table,
    },
    viewer::Viewer,
    Decider,
};

/// A percentile-skirmish battle as served by `GET /v1/battles/{id}` (and `?at=<version>`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "01936f3e-8f4d-7a31-8a9b-0c64d1f3a002", "stream": "battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a002",
    "version": 4, "ruleset": "percentile-skirmish", "rules": "percentile-skirmish@1", "phase": "acting", "turn": 1,
    "round": {"value": 8, "declarations": [{"participant": "red", "eligible": ["red-archer"], "must_act": [], "declared": true, "minis": ["red-archer"]}],
        "order": ["red-archer"], "acting": "red-archer"},
    "combat": null, "opportunities": [],
    "participants": [{"name": "red", "controller": "alice", "points_limit": null, "points": 115, "in_play": 1, "lost": 0}],
    "table": {"width": 48.0, "depth": 36.0, "terrain": []}, "options": {"declarations": "sealed", "melee_reach": 1.0, "front_arc": 180.0,
        "fireball_width": 1.0, "halves": "down", "short_durations": "no_effect", "spell_rolls": "every_cast", "large_shield": 2, "magical_plate": 5},
    "summons": {"golem": null, "familiar": null},
    "minis": [{"id": "red-archer", "name": "Archer", "participant": "red", "acting_for": "red", "position": {"x": 10.0, "y": 4.0},
        "facing": 90.0, "level": 2, "size": "medium", "movement": 4.0, "movement_now": 5.0, "initiative": 8, "initiative_now": 11,
        "life": 12, "max_life": 12, "spell_points": 0, "max_spell_points": 0, "attacks": 1, "spell_attacks": 1,
        "armour": [], "spell_armour": [], "weapons": [{"name": "Longbow", "kind": "ranged", "range": 24.0, "damage": "d8", "magical": false, "element": null}],
        "resistances": [{"resistance": "fire", "cost": 50}], "resistance_cost": 50, "points": 65, "spells": [],
        "effects": [{"spell": "speed", "caster": "red-mage", "turns_left": 2}], "summoned": null, "commanded_by": null, "order": null,
        "golem_active": null, "killed": false, "dismissed": false, "on_road": false, "water": null, "hindering_water": null,
        "this_turn": {"acted": true, "moved": 0.0, "allowance": {"movement": 5.0, "running": false, "in_water": false, "road_bonus": false, "inches": 5.0},
            "ran": false, "movement_over": false, "fled": false, "attacks_left": 1, "spell_attacks_left": 1, "can_attack": true}}],
    "winner": null, "ended_reason": null,
    "seed_commitment": "5d0b1c0c2e6e0f4a7f1e4b0b7e2a5a1c9f0d3e8b6a4c2e1f0a9b8c7d6e5f4a3b", "seed_revealed": false, "seed": null,
    "contributions": [], "next_word": 2
}))]
pub struct SkirmishView {
    /// The battle id (the stream name without `battle-`).
    pub id: String,
    /// The stream, `battle-{uuid}`.
    pub stream: String,
    /// The stream version this view is folded to (also the `ETag`).
    pub version: u64,
    /// Always `percentile-skirmish`.
    pub ruleset: String,
    /// The rules version (`percentile-skirmish@1`).
    pub rules: String,
    /// Where the battle stands.
    pub phase: Phase,
    /// The turn, from 1.
    pub turn: u32,
    /// The initiative round in progress.
    pub round: Option<RoundView>,
    /// The open combat waiting for options.
    pub combat: Option<CombatView>,
    /// Attacks of opportunity waiting to be made or let go.
    pub opportunities: Vec<Opportunity>,
    /// The participants with their points and losses.
    pub participants: Vec<ParticipantView>,
    /// The table.
    pub table: Table,
    /// The battle's readings.
    pub options: BattleOptions,
    /// What summoning spells bring.
    pub summons: Summons,
    /// Every mini, killed and dismissed ones included (flagged), by id.
    pub minis: Vec<MiniView>,
    /// The winner, once over.
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

/// The round in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishRoundView)]
pub struct RoundView {
    /// Its initiative value.
    pub value: i32,
    /// Each awaited participant's declaration.
    pub declarations: Vec<DeclarationView>,
    /// The minis in the order they act (once everyone has declared).
    pub order: Vec<String>,
    /// The mini acting now.
    pub acting: Option<String>,
}

/// A participant's declaration as this reader may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishDeclarationView)]
pub struct DeclarationView {
    /// The participant.
    pub participant: String,
    /// Minis it may declare.
    pub eligible: Vec<String>,
    /// Minis that act whether declared or not.
    pub must_act: Vec<String>,
    /// Whether it has declared.
    pub declared: bool,
    /// What it declared: absent until declared, and while sealed from this reader.
    pub minis: Option<Vec<String>>,
}

/// The open combat waiting for options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishCombatView)]
pub struct CombatView {
    /// Its number.
    pub combat: u32,
    /// Side A.
    pub attacker: String,
    /// Side B.
    pub defender: String,
    /// A's weapon.
    pub weapon: String,
    /// The defender cannot attack (its option is rolled).
    pub defender_helpless: bool,
    /// Whether A has picked.
    pub attacker_chosen: bool,
    /// Whether B has picked.
    pub defender_chosen: bool,
    /// A's pick: only to A's side and judges.
    pub attacker_choice: Option<CombatChoice>,
    /// B's pick: only to B's side and judges.
    pub defender_choice: Option<CombatChoice>,
}

/// A participant, its points and its losses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishParticipantView)]
pub struct ParticipantView {
    /// Its name.
    pub name: String,
    /// The player acting for it.
    pub controller: String,
    /// Its points limit.
    pub points_limit: Option<u32>,
    /// What its minis cost with their resistances.
    pub points: u32,
    /// Its own minis on the table (summoned ones not counted).
    pub in_play: u32,
    /// Its own minis killed.
    pub lost: u32,
}

impl SkirmishView {
    /// `state` (folded to `version`) as `viewer` may see it, `current` deciding what is public.
    pub fn new(stream: &str, version: u64, state: &SkirmishState, current: &SkirmishState, viewer: &Viewer) -> Self {
        let sees = |participant: &str| {
            viewer.is_judge() || state.participant(participant).is_some_and(|p| viewer.is_player(&p.controller))
        };
        let round = state.round.as_ref().map(|round| {
            let sealed = state.options.declarations == Declarations::Sealed
                && state.phase == Phase::Declaring
                && current.phase == Phase::Declaring
                && current.turn == state.turn
                && current.round.as_ref().is_some_and(|r| r.value == round.value);
            RoundView {
                value: round.value,
                declarations: round
                    .declarations
                    .iter()
                    .map(|d| DeclarationView {
                        participant: d.participant.clone(),
                        eligible: d.eligible.clone(),
                        must_act: d.must_act.clone(),
                        declared: d.declared.is_some(),
                        minis: d.declared.clone().filter(|_| !sealed || sees(&d.participant)),
                    })
                    .collect(),
                order: round.order.clone(),
                acting: state.acting().map(|mini| mini.id().to_string()),
            }
        });
        let combat = state.combat.as_ref().map(|combat| {
            let still_sealed = current.combat.as_ref().is_some_and(|c| c.combat == combat.combat);
            let side_sees =
                |mini: &str| !still_sealed || state.mini(mini).is_some_and(|m| sees(state.acting_participant(m)));
            CombatView {
                combat: combat.combat,
                attacker: combat.attacker.clone(),
                defender: combat.defender.clone(),
                weapon: combat.weapon.clone(),
                defender_helpless: combat.defender_helpless,
                attacker_chosen: combat.attacker_choice.is_some(),
                defender_chosen: combat.defender_choice.is_some(),
                attacker_choice: combat.attacker_choice.filter(|_| side_sees(&combat.attacker)),
                defender_choice: combat.defender_choice.filter(|_| side_sees(&combat.defender)),
            }
        });
        Self {
            id: crate::ruleset::battle_id(stream).to_string(),
            stream: stream.to_string(),
            version,
            ruleset: "percentile-skirmish".into(),
            rules: PercentileSkirmish::RULES.into(),
            phase: state.phase,
            turn: state.turn,
            round,
            combat,
            opportunities: state.opportunities.clone(),
            participants: state.participants.iter().map(|p| participant_view(state, p)).collect(),
            table: state.table.clone(),
            options: state.options,
            summons: state.summons.clone(),
            minis: state.minis.values().map(|mini| mini::mini_view(state, mini)).collect(),
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

fn participant_view(state: &SkirmishState, participant: &ParticipantSpec) -> ParticipantView {
    let own = || state.minis.values().filter(|m| m.spec.participant == participant.name && m.summoned.is_none());
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    ParticipantView {
        name: participant.name.clone(),
        controller: participant.controller.clone(),
        points_limit: participant.points_limit,
        points: own().map(|m| m.spec.profile.total_cost()).sum(),
        in_play: count(own().filter(|m| m.in_play()).count()),
        lost: count(own().filter(|m| m.killed).count()),
    }
}
