//! A turn's days for every army at once: counts, losses, healing, sieges, destroyed sites and the
//! end game (seed 003 §1.5, §1.7, §2.3.1), and the fold that rebuilds the state from the events.
//!
//! Order within a turn: each army in name order (counts, losses, healing, its siege), then the
//! sites destroyed this turn, then the end game on the map with those sites destroyed. An end
//! game that begins this turn counts days from the next turn on.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::count::{ArmyTurn, CountEnd, DayCount};
use super::event::DaysEvent;
use super::heal::{heal, HEAL_DAYS};
use super::ledger::LossLedger;
use super::place::{place_of, Place};
use super::siege::Siege;
use super::victory::{end_game_team, EndGame, Victory, WinConditionCount};
use crate::coalition::army::Army;
use crate::coalition::map::{Map, Square};

/// One army's days: its healing count, its siege and its losses during the count.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ArmyDays {
    /// Days counted in a portal, a base of its colors or a town.
    #[serde(default)]
    pub count: Option<DayCount>,
    /// Days counted in an enemy base or portal.
    #[serde(default)]
    pub siege: Option<Siege>,
    /// Troops lost during the count.
    #[serde(default)]
    pub ledger: LossLedger,
}

/// Every army's days and the end game, by army name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DaysState {
    /// Armies with a count, a siege or losses recorded.
    #[serde(default)]
    pub armies: BTreeMap<String, ArmyDays>,
    /// The end game, once one team's win conditions are all destroyed (§1.7.2).
    #[serde(default)]
    pub end_game: Option<EndGame>,
}

/// One army's turn: its days after it and the events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmyTurnDays {
    /// Its days after the turn.
    pub days: ArmyDays,
    /// Whether it counted a healing day.
    pub counted: bool,
    /// What happened, in order.
    pub events: Vec<DaysEvent>,
}

/// Count one army's turn. `army` is the army after this turn's losses; `turn.losses` are those
/// losses.
pub fn count_army_turn(previous: &ArmyDays, army: &Army, map: &Map, turn: &ArmyTurn) -> ArmyTurnDays {
    let name = || army.name.clone();
    let (heal_site, siege_site) = match place_of(army, map, turn.ended_at) {
        Place::Heals { site } => (Some(site), None),
        Place::Siege { site } => (None, Some(site)),
        Place::NoCount { .. } => (None, None),
    };
    let step = DayCount::advance(previous.count.as_ref(), heal_site, turn);
    let siege = Siege::advance(previous.siege.as_ref(), siege_site, turn);
    let mut events = Vec::new();
    let mut ledger = previous.ledger.clone();
    if let Some((ended, reason)) = &step.ended {
        ledger.clear();
        events.push(DaysEvent::DayCountReset { army: name(), square: ended.square, days: ended.days, reason: *reason });
    }
    if let Some((ended, reason)) = &siege.ended {
        events.push(DaysEvent::SiegeLifted { army: name(), square: ended.square, days: ended.days, reason: *reason });
    }
    if let Some(count) = &step.count {
        if turn.losses.iter().any(|lost| *lost > 0) {
            ledger.record_turn(step.in_progress, &turn.losses);
            events.push(DaysEvent::LossesRecorded {
                army: name(),
                square: count.square,
                day: step.in_progress,
                losses: turn.losses.clone(),
            });
        }
        if step.counted {
            events.push(DaysEvent::DayCounted {
                army: name(),
                square: count.square,
                site: count.site,
                days: count.days,
            });
            let lines = heal(army, count, &ledger);
            ledger.settle(count.days, HEAL_DAYS);
            if !lines.is_empty() {
                events.push(DaysEvent::ArmyHealed { army: name(), square: count.square, days: count.days, lines });
            }
        }
    }
    if let (true, Some(held)) = (siege.counted, &siege.siege) {
        events.push(DaysEvent::SiegeDayCounted { army: name(), square: held.square, site: held.site, days: held.days });
    }
    if let Some(fallen) = &siege.destroyed {
        let site = map.site_at(fallen.square).map(|site| site.name.clone()).unwrap_or_default();
        events.push(DaysEvent::SiteDestroyed { square: fallen.square, site, kind: fallen.site, by: name() });
    }
    let days = ArmyDays { count: step.count, siege: siege.siege, ledger };
    ArmyTurnDays { days, counted: step.counted, events }
}

/// The whole turn's days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnDays {
    /// The state after the turn (equal to folding `events` into the state before it).
    pub state: DaysState,
    /// What happened, in order.
    pub events: Vec<DaysEvent>,
    /// The round's winner under §1.7.2, if an army completed its 4 days this turn.
    pub victory: Option<Victory>,
}

/// Count a turn for the armies on the map, each with what happened to it. Armies not listed keep
/// their days unchanged (call [`DaysState::forget`] when one is killed). The army-destruction
/// victory of §1.7.3 is separate: see [`super::army_destruction_victory`].
pub fn count_turn<'a>(
    state: &DaysState,
    map: &Map,
    turns: impl IntoIterator<Item = (&'a Army, &'a ArmyTurn)>,
) -> TurnDays {
    let turns: BTreeMap<&str, (&Army, &ArmyTurn)> =
        turns.into_iter().map(|(army, turn)| (army.name.as_str(), (army, turn))).collect();
    let mut next = state.clone();
    let mut events = Vec::new();
    let mut fallen = BTreeSet::<Square>::new();
    let mut counted = BTreeMap::new();
    for (name, (army, turn)) in &turns {
        let previous = state.armies.get(*name).cloned().unwrap_or_default();
        let outcome = count_army_turn(&previous, army, map, turn);
        for event in outcome.events {
            match event {
                DaysEvent::SiteDestroyed { square, .. } if !fallen.insert(square) => {
                    let days = previous.siege.as_ref().map_or(0, |siege| siege.days);
                    events.push(DaysEvent::SiegeLifted {
                        army: army.name.clone(),
                        square,
                        days,
                        reason: CountEnd::CannotCount,
                    });
                }
                event => events.push(event),
            }
        }
        counted.insert(*name, outcome.counted);
        next.armies.insert((*name).to_string(), outcome.days);
    }
    next.armies.retain(|_, days| *days != ArmyDays::default());
    let mut after = map.clone();
    for square in &fallen {
        if let Some(site) = after.sites.get_mut(square) {
            site.destroyed = true;
        }
    }
    let mut victory = None;
    match next.end_game.as_mut() {
        Some(end_game) => {
            for (name, (army, _)) in &turns {
                let count = next.armies.get(*name).and_then(|days| days.count.as_ref());
                let counted = counted.get(name).copied().unwrap_or(false);
                events.extend(end_game.count_army(army, &after, count, counted));
            }
            victory = end_game.victory();
        }
        None => {
            if let Some(team) = end_game_team(&after) {
                next.end_game = Some(EndGame::begin(team));
                events.push(DaysEvent::EndGameBegan { team });
            }
        }
    }
    if let Some(victory) = &victory {
        events.push(DaysEvent::RoundWon { victory: victory.clone() });
    }
    TurnDays { state: next, events, victory }
}

impl DaysState {
    /// An army left the map (killed, seed 003 §4.3): forget its days.
    pub fn forget(&mut self, army: &str) {
        self.armies.remove(army);
        if let Some(end_game) = self.end_game.as_mut() {
            end_game.counts.remove(army);
        }
    }

    /// Fold one event into the state (for `evolve`: never fails, never decides).
    pub fn apply(&mut self, event: &DaysEvent) {
        match event {
            DaysEvent::DayCounted { army, square, site, days } => {
                let army = self.army(army);
                army.count = Some(DayCount { square: *square, site: *site, days: *days });
                army.ledger.settle(*days, HEAL_DAYS);
            }
            DaysEvent::DayCountReset { army, .. } => {
                let days = self.army(army);
                days.count = None;
                days.ledger.clear();
                if let Some(end_game) = self.end_game.as_mut() {
                    end_game.counts.remove(army);
                }
            }
            DaysEvent::LossesRecorded { army, day, losses, .. } => self.army(army).ledger.record_turn(*day, losses),
            DaysEvent::SiegeDayCounted { army, square, site, days } => {
                self.army(army).siege = Some(Siege { square: *square, site: *site, days: *days });
            }
            DaysEvent::SiegeLifted { army, .. } | DaysEvent::SiteDestroyed { by: army, .. } => {
                self.army(army).siege = None;
            }
            DaysEvent::EndGameBegan { team } => self.end_game = Some(EndGame::begin(*team)),
            DaysEvent::WinConditionDayCounted { army, square, days } => {
                if let Some(end_game) = self.end_game.as_mut() {
                    end_game.counts.insert(army.clone(), WinConditionCount { square: *square, days: *days });
                }
            }
            DaysEvent::ArmyHealed { .. } | DaysEvent::RoundWon { .. } => {}
        }
        self.armies.retain(|_, days| *days != ArmyDays::default());
    }

    fn army(&mut self, army: &str) -> &mut ArmyDays {
        self.armies.entry(army.to_string()).or_default()
    }
}
