//! The swift-swords read model: an encounter (seed 004) as served by `GET /v1/battles/{id}`.
//!
//! Nothing is hidden: action dice are rolled in the open at the table, so every reader sees the
//! same encounter. The view spells out what a client would otherwise work out from the rules:
//! each figure's status (Alone, InContact, InClose) and melee group, its dice in hand and pools,
//! its ranks left, who the countdown gives the next action to, and what is awaited.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    battle::{
        pending::Pending,
        state::{
            ActionPool, ChariotState, DefenceLimit, Figure, Hold, Injury, Morale, Phase, SideSpec, StateKind,
            SwiftSwordsState,
        },
        SwiftSwords,
    },
    countdown,
    figure::{Characteristics, DefenceSkills, DeviceSpec, FearLevel, WeaponSpec},
    flight::FlightSpec,
    formation::FormationSpec,
    injury::Location,
    options::BattleOptions,
    ranks::RankTrack,
    zones::{BorderCover, CoverArea, Direction, Going},
};
use crate::Decider;

/// A figure's status in its zone (seed 004 "Status").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsStatus)]
pub enum Status {
    /// Not in a group melee (perhaps standing alone together with friends).
    Alone,
    /// In a group melee: an enemy shares its group.
    InContact,
    /// In close combat with at least one opponent (and so InContact).
    InClose,
}

/// A rank track with what it comes to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsRankView)]
pub struct RankView {
    /// The real rank it started with.
    pub rank: u8,
    /// Bonus ranks now.
    pub bonus: u8,
    /// Total rank: what damage is measured against.
    pub total: u32,
    /// Ranks lost on this side.
    pub lost: u32,
    /// Ranks lost by crossover from the other side.
    pub crossover: u32,
    /// Ranks left (−3 to 9).
    pub remaining: i32,
}

impl From<&RankTrack> for RankView {
    fn from(track: &RankTrack) -> Self {
        Self {
            rank: track.rank,
            bonus: track.bonus,
            total: track.total(),
            lost: track.lost,
            crossover: track.crossover,
            remaining: track.remaining(),
        }
    }
}

/// A figure's pools.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsPoolsView)]
pub struct PoolsView {
    /// Dodge pool (0: none).
    pub dodge: u32,
    /// Block pool, the device's value included under the default `block_pool` reading (0: none).
    pub block: u32,
    /// Action pool.
    pub action: Option<ActionPool>,
}

/// One figure as the table shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsFigureView)]
pub struct FigureView {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: String,
    /// The player acting for it (absent: the GM).
    pub controller: Option<String>,
    /// Its zone.
    pub zone: String,
    /// Alone, InContact or InClose.
    pub status: Status,
    /// Its melee group, or the friends it stands alone with.
    pub group: Option<String>,
    /// Opponents it is InClose with.
    pub close_with: Vec<String>,
    /// Prone.
    pub prone: bool,
    /// In the air.
    pub flying: bool,
    /// Its facing (flyers).
    pub facing: Direction,
    /// The cover area it holds.
    pub cover: Option<String>,
    /// The chariot it rides or draws.
    pub chariot: Option<String>,
    /// Action dice in hand, as faces.
    pub action_dice: Vec<u8>,
    /// How many of them can pay for actions (not 1s).
    pub usable_dice: u32,
    /// A die carried into the next round.
    pub carried: bool,
    /// Its last option of the round is taken.
    pub done: bool,
    /// Holding its action.
    pub holding: bool,
    /// Its pools.
    pub pools: PoolsView,
    /// Exposure dice lying in front of it.
    pub exposures: u32,
    /// Fumbled: attackers gain a bonus SL.
    pub fumbled: bool,
    /// Physical ranks.
    pub physical: RankView,
    /// Mental ranks.
    pub mental: RankView,
    /// States it is in.
    pub states: Vec<StateKind>,
    /// Steady, panicked or crushed.
    pub morale: Morale,
    /// Out of Action.
    pub out_of_action: bool,
    /// Killed in Action.
    pub killed: bool,
    /// Its injuries.
    pub injuries: Vec<Injury>,
    /// Locations bleeding.
    pub bleeding: Vec<Location>,
    /// Action dice its injuries burn each round.
    pub burn: u32,
    /// Defence it may still use until its next action.
    pub defence_limit: DefenceLimit,
    /// The worst fear it has passed a roll against.
    pub fear_passed: Option<FearLevel>,
    /// The fear it causes.
    pub fear: Option<FearLevel>,
    /// Passive armour left.
    pub armour: u32,
    /// Weapons dropped.
    pub dropped: Vec<String>,
    /// Weapons broken.
    pub broken: Vec<String>,
    /// Hamstrung.
    pub hamstrung: bool,
    /// A flyer open to held attacks after attacking.
    pub swooped: bool,
    /// Its weapons.
    pub weapons: Vec<WeaponSpec>,
    /// Its defence skills.
    pub defences: DefenceSkills,
    /// Its blocking device.
    pub shield: Option<DeviceSpec>,
    /// Its characteristic dice.
    pub characteristics: Characteristics,
    /// Size (a man is 1).
    pub size: u8,
    /// A formation.
    pub formation: Option<FormationSpec>,
    /// A flyer's values.
    pub flight: Option<FlightSpec>,
}

/// A melee group, or a band of friends standing alone together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsGroupView)]
pub struct GroupView {
    /// Its id.
    pub id: String,
    /// Figures in it (out of action ones included).
    pub members: Vec<String>,
    /// Whether enemies share it (a melee).
    pub in_contact: bool,
}

/// A zone with who stands in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsZoneView)]
pub struct ZoneView {
    /// Its id.
    pub id: String,
    /// Column.
    pub column: u8,
    /// Row.
    pub row: u8,
    /// Its terrain.
    pub terrain: String,
    /// Its going for chariots.
    pub going: Going,
    /// Figures in it.
    pub figures: Vec<String>,
    /// Its groups.
    pub groups: Vec<GroupView>,
    /// Cover areas in it.
    pub cover: Vec<CoverArea>,
}

/// What the battle waits for before anything else happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsAwaiting)]
pub struct Awaiting {
    /// `defence` (send `defend`) or `opportunity` (send `opportunity_attack` or `let_go`).
    pub kind: String,
    /// The figures whose answer is awaited.
    pub from: Vec<String>,
    /// What they answer.
    pub pending: Pending,
}

/// A side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsSideView)]
pub struct SideView {
    /// Its name.
    pub name: String,
    /// The player it is fought for.
    pub controller: Option<String>,
    /// Its figures.
    pub figures: Vec<String>,
    /// Figures still in action.
    pub in_action: u32,
}

/// A swift-swords encounter as served by `GET /v1/battles/{id}` (and `?at=<version>`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "01936f3e-8f4d-7a31-8a9b-0c64d1f3a004", "stream": "battle-01936f3e-8f4d-7a31-8a9b-0c64d1f3a004",
    "version": 5, "ruleset": "swift-swords", "rules": "swift-swords@1", "phase": "countdown", "round": 1,
    "surprised": [], "refresh_called_by": null, "next_to_act": ["roland"], "acting": null, "awaiting": null,
    "sides": [{"name": "heroes", "controller": "alice", "figures": ["roland"], "in_action": 1},
              {"name": "goblins", "controller": null, "figures": ["goblin-1"], "in_action": 1}],
    "zones": [{"id": "ford", "column": 0, "row": 0, "terrain": "river ford", "going": "rough",
               "figures": ["roland", "goblin-1"], "groups": [{"id": "g0", "members": ["roland", "goblin-1"], "in_contact": true}], "cover": []}],
    "borders": [], "figures": [], "chariots": [], "holds": [], "options": {},
    "winner": null, "ended_reason": null,
    "seed_commitment": "5d0b1c0c2e6e0f4a7f1e4b0b7e2a5a1c9f0d3e8b6a4c2e1f0a9b8c7d6e5f4a3b", "seed_revealed": false,
    "seed": null, "contributions": [], "next_word": 9
}))]
#[schema(as = SwiftSwordsView)]
pub struct SwiftSwordsView {
    /// The battle id (the stream name without `battle-`).
    pub id: String,
    /// The stream, `battle-{uuid}`.
    pub stream: String,
    /// The stream version this view is folded to (also the `ETag`).
    pub version: u64,
    /// Always `swift-swords`.
    pub ruleset: String,
    /// The rules version of the decider (`swift-swords@1`).
    pub rules: String,
    /// Where the encounter stands.
    pub phase: Phase,
    /// The round (0 for a surprise round).
    pub round: u32,
    /// Sides surprised this round.
    pub surprised: Vec<String>,
    /// Who called the refresh, in a refresh.
    pub refresh_called_by: Option<String>,
    /// Figures the countdown gives the next action to (figures holding their action may act at
    /// any moment nothing is awaited besides).
    pub next_to_act: Vec<String>,
    /// The figure whose action is being resolved.
    pub acting: Option<String>,
    /// What is awaited before anything else happens.
    pub awaiting: Option<Awaiting>,
    /// The sides.
    pub sides: Vec<SideView>,
    /// The zones with their figures and groups.
    pub zones: Vec<ZoneView>,
    /// Cover along borders.
    pub borders: Vec<BorderCover>,
    /// Every figure.
    pub figures: Vec<FigureView>,
    /// Chariots.
    pub chariots: Vec<ChariotState>,
    /// Holds in place.
    pub holds: Vec<Hold>,
    /// The encounter's readings.
    pub options: BattleOptions,
    /// The winning side, once over.
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

/// A figure's status.
pub fn status(state: &SwiftSwordsState, figure: &Figure) -> Status {
    if !figure.close_with.is_empty() {
        Status::InClose
    } else if state.in_contact(&figure.spec.id) {
        Status::InContact
    } else {
        Status::Alone
    }
}

fn figure_view(state: &SwiftSwordsState, figure: &Figure) -> FigureView {
    let spec = &figure.spec;
    FigureView {
        id: spec.id.clone(),
        name: spec.display_name().to_string(),
        side: spec.side.clone(),
        controller: spec.controller.clone(),
        zone: figure.zone.clone(),
        status: status(state, figure),
        group: figure.group.clone(),
        close_with: figure.close_with.iter().cloned().collect(),
        prone: figure.prone,
        flying: figure.flying,
        facing: figure.facing,
        cover: figure.cover.clone(),
        chariot: figure.chariot.clone(),
        action_dice: figure.hand.clone(),
        usable_dice: figure.usable(),
        carried: figure.carried,
        done: figure.done,
        holding: figure.holding,
        pools: PoolsView { dodge: figure.dodge_pool, block: figure.block_pool, action: figure.action_pool.clone() },
        exposures: figure.exposures,
        fumbled: figure.fumbled,
        physical: RankView::from(&figure.physical),
        mental: RankView::from(&figure.mental),
        states: figure.states.iter().copied().collect(),
        morale: figure.morale,
        out_of_action: figure.out_of_action,
        killed: figure.killed,
        injuries: figure.injuries.clone(),
        bleeding: figure.injuries.iter().filter(|injury| injury.bleeding).map(|injury| injury.location).collect(),
        burn: figure.burn(),
        defence_limit: figure.defence_limit,
        fear_passed: figure.fear_passed,
        fear: spec.fear,
        armour: figure.armour(),
        dropped: figure.dropped.iter().cloned().collect(),
        broken: figure.broken.iter().cloned().collect(),
        hamstrung: figure.hamstrung,
        swooped: figure.swooped,
        weapons: spec.weapons.clone(),
        defences: spec.defences.clone(),
        shield: spec.shield.clone(),
        characteristics: spec.characteristics.clone(),
        size: spec.size,
        formation: spec.formation.clone(),
        flight: spec.flight.clone(),
    }
}

/// The groups of a zone.
pub fn groups_in(state: &SwiftSwordsState, zone: &str) -> Vec<GroupView> {
    let mut groups: Vec<GroupView> = Vec::new();
    for figure in state.figures.values().filter(|figure| figure.zone == zone) {
        let Some(group) = &figure.group else { continue };
        match groups.iter_mut().find(|view| view.id == *group) {
            Some(view) => view.members.push(figure.spec.id.clone()),
            None => groups.push(GroupView {
                id: group.clone(),
                members: vec![figure.spec.id.clone()],
                in_contact: state.in_contact(&figure.spec.id),
            }),
        }
    }
    for group in &mut groups {
        group.in_contact = group.members.iter().any(|member| state.in_contact(member));
    }
    groups
}

fn awaiting(state: &SwiftSwordsState) -> Option<Awaiting> {
    let pending = state.pending.last()?.clone();
    let (kind, from) = match &pending {
        Pending::Attack(attack) => ("defence", vec![attack.target.clone()]),
        Pending::Move(waiting) => ("opportunity", waiting.waiting.clone()),
    };
    Some(Awaiting { kind: kind.into(), from, pending })
}

impl SwiftSwordsView {
    /// The view of `state` at `version`.
    pub fn new(stream: &str, version: u64, state: &SwiftSwordsState) -> Self {
        let zones = state
            .map
            .zones
            .iter()
            .map(|zone| ZoneView {
                id: zone.id.clone(),
                column: zone.column,
                row: zone.row,
                terrain: zone.terrain.clone(),
                going: zone.going,
                figures: state
                    .figures
                    .values()
                    .filter(|figure| figure.zone == zone.id)
                    .map(|figure| figure.spec.id.clone())
                    .collect(),
                groups: groups_in(state, &zone.id),
                cover: state.map.cover.iter().filter(|area| area.zone == zone.id).cloned().collect(),
            })
            .collect();
        let sides = state
            .sides
            .iter()
            .map(|side: &SideSpec| {
                let figures: Vec<&Figure> =
                    state.figures.values().filter(|figure| figure.spec.side == side.name).collect();
                SideView {
                    name: side.name.clone(),
                    controller: side.controller.clone(),
                    figures: figures.iter().map(|figure| figure.spec.id.clone()).collect(),
                    in_action: u32::try_from(figures.iter().filter(|figure| figure.active()).count()).unwrap_or(0),
                }
            })
            .collect();
        Self {
            id: crate::ruleset::battle_id(stream).to_string(),
            stream: stream.to_string(),
            version,
            ruleset: "swift-swords".into(),
            rules: SwiftSwords::RULES.into(),
            phase: state.phase,
            round: state.round,
            surprised: state.surprised.clone(),
            refresh_called_by: state.refresh_called_by.clone(),
            next_to_act: if state.pending.is_empty() { countdown::next_to_act(state) } else { Vec::new() },
            acting: state.acting.clone(),
            awaiting: awaiting(state),
            sides,
            zones,
            borders: state.map.borders.clone(),
            figures: state.figures.values().map(|figure| figure_view(state, figure)).collect(),
            chariots: state.chariots.values().cloned().collect(),
            holds: state.holds.clone(),
            options: state.options.clone(),
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
