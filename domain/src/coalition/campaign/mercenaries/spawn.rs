//! Raiders spawning (seed 003 §6.3.2): "As long as there are less than 5 Raider armies on the map,
//! there is a small chance that one may randomly spawn each turn ... On a single d20 roll made
//! with each turn's movement update, the chance of spawning is: 1/20 with 4 or 3 armies, 2/20 with
//! 2 armies, and 3/20 with 1 or 0 armies. If it does spawn, it has 7/20 chance to be a 2/2 rank,
//! otherwise it is 1/1 rank."
//!
//! Readings: the armies counted are Raider armies (the count that must stay under 5); the spawn
//! die succeeds on a face up to the chance (1–3 of 20); the rank die gives 2/2 (Lt Cmdr/CPL class)
//! on 1–7; the raider appears at a square drawn with one more die among the free squares "away
//! from bases" — not on a base, portal or town nor in the 8 squares around one, as the Raider
//! guideline asks (§6.3, §6.3.1) — counted row by row; it is named `Raider <n>` with the first
//! number not yet used, and fields the documented default troops of its rank at full strength.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    coalition::{
        army::{Army, Color, RankClass, Team, TroopLine},
        campaign::state::CampaignState,
        map::Square,
        setup::MercenaryFaction,
    },
    dice::{DiceTape, Draw},
    RuleError,
};

/// Raider armies on the map at which no more spawn (seed 003 §6.3.2).
pub const MAX_RAIDERS: usize = 5;

/// The spawn chance out of 20 with `raiders` Raider armies on the map (seed 003 §6.3.2).
pub fn spawn_chance(raiders: usize) -> u32 {
    match raiders {
        0 | 1 => 3,
        2 => 2,
        3 | 4 => 1,
        _ => 0,
    }
}

/// A raider that appeared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SpawnedRaider {
    /// The new army.
    pub army: Army,
    /// Where.
    pub square: Square,
    /// The die for its rank (1–7: 2/2 rank).
    pub rank_draw: Draw,
    /// The die for its square among the free squares.
    pub square_draw: Draw,
}

/// The turn's spawn roll (event `coalition.RaiderSpawnRolled`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RaiderSpawnRolled {
    /// Raider armies on the map before the roll.
    pub raiders: u32,
    /// The chance out of 20.
    pub chance: u32,
    /// The d20 (none with 5 raiders on the map).
    pub draw: Option<Draw>,
    /// The raider that appeared, if one did.
    pub spawned: Option<SpawnedRaider>,
}

/// A raider's troops: the four slots of its rank at full strength (Herald's default).
pub fn raider_troops(rank: RankClass) -> Vec<TroopLine> {
    let names = ["Raider Cutthroats", "Raider Outriders", "Raider Reavers", "Raider Warband"];
    let smallest = rank.smallest_slot_size();
    names
        .iter()
        .zip(RankClass::SLOT_TROOPS)
        .enumerate()
        .map(|(slot, (creature, troops))| {
            let size = smallest + u32::try_from(slot).unwrap_or(0);
            TroopLine {
                creature: (*creature).to_string(),
                colors: vec![Color::Black],
                power: size,
                toughness: size,
                variable: false,
                slot: u8::try_from(slot).unwrap_or(0),
                full: troops,
                troops,
            }
        })
        .collect()
}

/// Squares "away from bases" a raider may appear on, row by row.
pub fn spawn_squares(state: &CampaignState, occupied: &BTreeSet<Square>) -> Vec<Square> {
    let bounds = state.map.bounds;
    let near_site = |square: Square| {
        state.map.sites.values().any(|site| site.square == square || site.square.surrounding(bounds).contains(&square))
    };
    bounds.squares().filter(|square| !occupied.contains(square) && !near_site(*square)).collect()
}

fn raider_name(state: &CampaignState) -> String {
    (1..)
        .map(|n| format!("Raider {n}"))
        .find(|name| {
            !state.armies.contains_key(name) && !state.killed.contains(name) && !state.disbanded.contains(name)
        })
        .unwrap_or_else(|| "Raider".to_string())
}

/// Roll the turn's spawn die, and the raider's rank and square when it spawns.
pub fn roll(
    state: &CampaignState,
    occupied: &BTreeSet<Square>,
    tape: &mut DiceTape,
) -> Result<RaiderSpawnRolled, RuleError> {
    let raiders = state
        .mercenaries
        .iter()
        .filter(|(name, m)| m.faction == MercenaryFaction::Raider && state.armies.contains_key(*name))
        .count();
    let chance = spawn_chance(raiders);
    let count = u32::try_from(raiders).unwrap_or(u32::MAX);
    if raiders >= MAX_RAIDERS {
        return Ok(RaiderSpawnRolled { raiders: count, chance, draw: None, spawned: None });
    }
    let draw = tape.roll(20, format!("raider spawn: {chance} in 20 with {raiders} raiders"))?;
    let squares = spawn_squares(state, occupied);
    if draw.value > chance || squares.is_empty() {
        return Ok(RaiderSpawnRolled { raiders: count, chance, draw: Some(draw), spawned: None });
    }
    let rank_draw = tape.roll(20, "raider rank: 1–7 is 2/2 rank, else 1/1")?;
    let rank = if rank_draw.value <= 7 { RankClass::CplLtCommander } else { RankClass::CenturionLieutenant };
    let square_draw = tape.roll(
        u32::try_from(squares.len()).unwrap_or(u32::MAX),
        "raider square: among the free squares away from sites",
    )?;
    let square = squares.get(usize::try_from(square_draw.value - 1).unwrap_or(0)).copied().unwrap_or_default_square();
    let army = Army {
        name: raider_name(state),
        team: Team::Mercenary,
        rank,
        creator: None,
        colors: Vec::new(),
        legend: None,
        troops: raider_troops(rank),
    };
    Ok(RaiderSpawnRolled {
        raiders: count,
        chance,
        draw: Some(draw),
        spawned: Some(SpawnedRaider { army, square, rank_draw, square_draw }),
    })
}

trait OrFirst {
    fn unwrap_or_default_square(self) -> Square;
}

impl OrFirst for Option<Square> {
    fn unwrap_or_default_square(self) -> Square {
        self.unwrap_or(Square { row: 1, column: 0 })
    }
}
