//! Campaign read models: the round at a glance, the map (every square), each army, each turn's
//! movement update (as data and as the Movement Judge's forum text, seed 003 §3.1), the orders a
//! reader may see, the control list (ch. 5), the votes (§1.4) and the judges (§1.3).

mod orders;
mod report;
mod round;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use orders::{redact_campaign_event, viewer_team, visible_orders};
pub use report::*;
pub use round::*;

use crate::coalition::{
    army::{RankClass, Team, TroopLine},
    campaign::{CampaignState, TurnPhase},
    days::{DayCount, LedgerEntry, Siege, Victory},
    map::{svg::ArmyMarker, Site, Square, Terrain},
    orders::Leg,
};

/// A campaign round at a glance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CampaignView {
    /// The stream, `campaign-{uuid}`.
    pub stream: String,
    /// The version this view is folded to (the `ETag`).
    pub version: u64,
    /// The round's name.
    pub name: String,
    /// The current (or last) turn number.
    pub turn: u32,
    /// Where the turn stands.
    pub phase: TurnPhase,
    /// Living armies per team.
    pub armies: BTreeMap<String, usize>,
    /// Armies killed.
    pub killed: Vec<String>,
    /// Battles announced and not yet applied.
    pub pending_battles: Vec<String>,
    /// The round's winner.
    pub victory: Option<Victory>,
    /// `sha256(root seed)`.
    pub seed_commitment: Option<String>,
}

/// One army as the map and the army endpoint show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ArmyView {
    /// Its name.
    pub name: String,
    /// Its team.
    pub team: Team,
    /// Its rank class.
    pub rank: RankClass,
    /// Where it is.
    pub square: Square,
    /// Troops remaining in all.
    pub troops: u64,
    /// Troops by creature type and slot.
    pub lines: Vec<TroopLine>,
    /// Troops lost during the current day count, by the day they were lost (line, day, troops).
    pub losses_by_day: Vec<LedgerEntry>,
    /// Days counted in a base, portal or town.
    pub day_count: Option<DayCount>,
    /// Days counted in an enemy base or portal (seed 003 §1.7.1).
    pub siege: Option<Siege>,
    /// Legs of a long move still to do.
    pub pending_long_move: Vec<Leg>,
    /// Its legal controllers.
    pub controllers: Vec<String>,
    /// The battle it is in.
    pub battle: Option<String>,
    /// Its colors (factions), legend and creator.
    pub colors: Vec<crate::coalition::map::Faction>,
    /// Its legend.
    pub legend: Option<String>,
    /// Its mercenary faction and state, for a mercenary army (seed 003 ch. 6).
    pub mercenary: Option<crate::coalition::campaign::mercenaries::MercenaryState>,
    /// Its partial conversion, for an army captured in the last two days (seed 003 §4.5).
    pub conversion: Option<crate::coalition::campaign::capture::Conversion>,
}

/// One square of the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SquareView {
    /// The square.
    pub square: Square,
    /// Its terrain.
    pub terrain: Terrain,
    /// Its site, with owner and state.
    pub site: Option<Site>,
    /// Armies on it.
    pub armies: Vec<String>,
}

/// The whole map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MapView {
    /// The version this view is folded to.
    pub version: u64,
    /// Every square, row by row.
    pub squares: Vec<SquareView>,
    /// Every living army.
    pub armies: Vec<ArmyView>,
}

impl CampaignView {
    /// The summary of `state` at `version`.
    pub fn new(stream: &str, version: u64, state: &CampaignState) -> Self {
        let mut armies = BTreeMap::new();
        for army in state.armies.values() {
            *armies.entry(format!("{:?}", army.army.team).to_lowercase()).or_insert(0) += 1;
        }
        Self {
            stream: stream.to_string(),
            version,
            name: state.name.clone(),
            turn: state.turn,
            phase: state.phase,
            armies,
            killed: state.killed.iter().cloned().collect(),
            pending_battles: state.battles.iter().filter(|(_, b)| !b.applied).map(|(n, _)| n.clone()).collect(),
            victory: state.victory.clone(),
            seed_commitment: state.seed_commitment.clone(),
        }
    }
}

/// Every living army as viewed.
pub fn army_views(state: &CampaignState) -> Vec<ArmyView> {
    state
        .armies
        .iter()
        .map(|(name, army)| {
            let days = state.days.armies.get(name);
            ArmyView {
                name: name.clone(),
                team: army.army.team,
                rank: army.army.rank,
                square: army.square,
                troops: army.army.total_troops(),
                lines: army.army.troops.clone(),
                losses_by_day: days.map(|d| d.ledger.entries.clone()).unwrap_or_default(),
                day_count: days.and_then(|d| d.count.clone()),
                siege: days.and_then(|d| d.siege.clone()),
                pending_long_move: army.long_move.clone(),
                controllers: army.controllers.iter().cloned().collect(),
                battle: army.battle.clone(),
                colors: army.army.colors.clone(),
                legend: army.army.legend.clone(),
                mercenary: state.mercenaries.get(name).cloned(),
                conversion: state.conversions.get(name).cloned(),
            }
        })
        .collect()
}

/// The map at `version`.
pub fn map_view(version: u64, state: &CampaignState) -> MapView {
    let mut by_square: BTreeMap<Square, Vec<String>> = BTreeMap::new();
    for (name, army) in &state.armies {
        by_square.entry(army.square).or_default().push(name.clone());
    }
    let squares = state
        .map
        .bounds
        .squares()
        .map(|square| SquareView {
            square,
            terrain: state.map.terrain_at(square),
            site: state.map.site_at(square).cloned(),
            armies: by_square.get(&square).cloned().unwrap_or_default(),
        })
        .collect();
    MapView { version, squares, armies: army_views(state) }
}

/// Markers for the SVG map.
pub fn markers(state: &CampaignState) -> Vec<ArmyMarker> {
    state
        .armies
        .iter()
        .map(|(name, army)| ArmyMarker {
            name: name.clone(),
            team: army.army.team,
            rank: army.army.rank,
            troops: army.army.total_troops(),
            square: army.square,
            battle: army.battle.is_some(),
        })
        .collect()
}
