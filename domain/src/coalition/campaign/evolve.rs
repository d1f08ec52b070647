//! Folding the events of chapters 1, 4.5, 5 and 6 into the round's state: captures and
//! conversions, control, judges and sanctions, votes, mercenaries, new players and screen names,
//! weather. Never fails, never rolls: the events carry their outcomes.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::{
    control::Inactivity,
    event::CampaignEvent,
    judges::{CallRecord, JudgeCall, Undo},
    mercenaries::{MercenaryState, MERCENARY_JUDGE},
    newcomers::Newcomer,
    state::{ArmyState, CampaignState},
    voting::{Ballot, Vote},
};
use crate::coalition::{days::apply_healing, setup::MercenaryFaction};

impl CampaignState {
    /// A player posted at `at` (seed 003 §5.1): they count as active from then, and a declaration
    /// of inactivity made before it ends.
    pub(super) fn posted(&mut self, player: &str, at: DateTime<Utc>) {
        let latest = self.control.last_posted.get(player).map_or(at, |before| (*before).max(at));
        self.control.last_posted.insert(player.to_string(), latest);
        if self.control.inactive.get(player).is_some_and(|declared| declared.at < at) {
            self.control.inactive.remove(player);
        }
    }

    /// Every new player who controls one of `armies` has fought one more battle (seed 003 §2.6).
    pub(super) fn count_newcomer_battles<'a>(&mut self, armies: impl Iterator<Item = &'a str>) {
        let mut fought = BTreeSet::new();
        for army in armies {
            if let Some(state) = self.armies.get(army) {
                fought.extend(state.controllers.iter().cloned());
            }
        }
        for player in fought {
            if let Some(newcomer) = self.newcomers.get_mut(&player) {
                newcomer.battles += 1;
            }
        }
    }

    pub(super) fn record_call(&mut self, call: &JudgeCall, what: String, undo: Undo) {
        let record = CallRecord { call: call.clone(), what, overruled: false, undo };
        self.judges.calls.insert(call.call, record);
    }

    fn add_troops(&mut self, army: &str, troops: &[u32]) {
        if let Some(state) = self.armies.get_mut(army) {
            for (line, add) in state.army.troops.iter_mut().zip(troops) {
                line.troops = line.troops.saturating_add(*add).min(line.full.max(line.troops));
            }
        }
    }

    /// The events the first match of `apply` leaves to this one.
    pub(super) fn apply_round(&mut self, event: &CampaignEvent) {
        match event {
            CampaignEvent::ArmyCaptured(captured) => {
                if let Some(state) = self.armies.get_mut(&captured.army) {
                    let original = (captured.conversion.from_team, captured.conversion.from_colors.clone());
                    self.origins.entry(captured.army.clone()).or_insert(original);
                    state.army.team = captured.team;
                    state.army.colors = captured.colors.clone();
                    state.controllers = captured.controllers.iter().cloned().collect();
                    state.square = captured.to;
                    state.long_move.clear();
                }
                self.days.forget(&captured.army);
                self.conversions.insert(captured.army.clone(), captured.conversion.clone());
            }
            CampaignEvent::ConversionDayCounted(counted) => {
                if let Some(conversion) = self.conversions.get_mut(&counted.army) {
                    conversion.days = counted.days;
                }
            }
            CampaignEvent::ArmyFullyConverted(converted) => {
                self.conversions.remove(&converted.army);
                if let Some(state) = self.armies.get_mut(&converted.army) {
                    apply_healing(&mut state.army, &converted.healed);
                }
            }
            CampaignEvent::ArmyLiberated(liberated) => {
                self.conversions.remove(&liberated.army);
                if let Some(state) = self.armies.get_mut(&liberated.army) {
                    state.army.team = liberated.team;
                    state.army.colors = liberated.colors.clone();
                    state.controllers = liberated.controllers.iter().cloned().collect();
                }
            }
            CampaignEvent::ControlChanged(changed) => {
                if let Some(state) = self.armies.get_mut(&changed.army) {
                    state.controllers = changed.controllers.iter().cloned().collect();
                }
                self.control.permissions.remove(&changed.army);
                let controlling: BTreeSet<String> =
                    self.armies.values().flat_map(|army| army.controllers.iter().cloned()).collect();
                self.control.owed.retain(|player| !controlling.contains(player));
                if self.players.iter().any(|player| player.name == changed.requested_by) {
                    self.posted(&changed.requested_by.clone(), changed.at);
                }
            }
            CampaignEvent::ControlAuthorityGranted(granted) => {
                let authority = self.control.authority.entry(granted.team).or_default();
                if granted.emergency_until_turn.is_some() && authority.emergency_until_turn.is_none() {
                    authority.before_emergency = authority.holders.clone();
                }
                if granted.emergency_until_turn.is_none() {
                    authority.before_emergency.clear();
                }
                authority.holders = granted.holders.clone();
                authority.emergency_until_turn = granted.emergency_until_turn;
            }
            CampaignEvent::ContingencySet(set) => match &set.contingency {
                Some(backup) => {
                    self.control.contingencies.insert(set.player.clone(), backup.clone());
                }
                None => {
                    self.control.contingencies.remove(&set.player);
                }
            },
            CampaignEvent::PlayerDeclaredInactive(declared) => {
                let inactivity =
                    Inactivity { by: declared.by.clone(), at: declared.at, reason: declared.reason.clone() };
                self.control.inactive.insert(declared.player.clone(), inactivity);
            }
            CampaignEvent::PlayerDeclaredActive(active) => {
                self.control.inactive.remove(&active.player);
                self.posted(&active.player.clone(), active.at);
            }
            CampaignEvent::InactivityRejected(rejected) => {
                self.control.inactive.remove(&rejected.player);
                let undo = Undo::ReinstateInactivity {
                    player: rejected.player.clone(),
                    declaration: rejected.declaration.clone(),
                };
                self.record_call(
                    &rejected.call,
                    format!("rejected the declaration that {} is inactive", rejected.player),
                    undo,
                );
            }
            CampaignEvent::PlayerRankChanged(changed) => {
                if let Some(player) = self.players.iter_mut().find(|p| p.name == changed.player) {
                    player.rank = changed.to;
                }
            }
            CampaignEvent::NamesakePermissionGiven(given) => {
                self.control.permissions.insert(given.army.clone(), given.player.clone());
            }
            CampaignEvent::NewArmyOwed(owed) => {
                self.control.owed.insert(owed.player.clone());
            }
            CampaignEvent::IllegalControlAccepted(accepted) => self.control.illegal.push(accepted.accepted.clone()),
            CampaignEvent::IllegalControlEnded(ended) => {
                if let Some(state) = self.armies.get_mut(&ended.army) {
                    state.controllers = ended.controllers.iter().cloned().collect();
                }
                self.control.illegal.retain(|illegal| illegal.army != ended.army);
            }
            CampaignEvent::JudgeAppointed(appointed) => self.judges.appointments.push(appointed.appointment.clone()),
            CampaignEvent::CallOverruled(overruled) => {
                if let Some(record) = self.judges.calls.get_mut(&overruled.call) {
                    record.overruled = true;
                }
                match &overruled.undo {
                    Undo::MoveBack { army, to } => {
                        if let Some(state) = self.armies.get_mut(army) {
                            state.square = *to;
                        }
                    }
                    Undo::RestoreTroops { army, troops } => self.add_troops(army, troops),
                    Undo::ReinstateInactivity { player, declaration } => {
                        self.control.inactive.insert(player.clone(), declaration.clone());
                    }
                    Undo::Nothing => {}
                }
            }
            CampaignEvent::SanctionImposed(sanction) => {
                if let Some(state) = sanction.army.as_ref().and_then(|army| self.armies.get_mut(army)) {
                    for (line, lost) in state.army.troops.iter_mut().zip(&sanction.losses) {
                        line.troops = line.troops.saturating_sub(*lost);
                    }
                }
                self.next_word = self.next_word.max(sanction.next_word);
                let undo = match &sanction.army {
                    Some(army) if sanction.losses.iter().any(|l| *l > 0) => {
                        Undo::RestoreTroops { army: army.clone(), troops: sanction.losses.clone() }
                    }
                    _ => Undo::Nothing,
                };
                self.record_call(&sanction.call, format!("sanction on {}: {}", sanction.player, sanction.reason), undo);
                self.sanctions.push(sanction.clone());
            }
            CampaignEvent::PlayerReprimanded(reprimand) => self.reprimands.push(reprimand.clone()),
            CampaignEvent::VoteCalled(called) => {
                let vote = Vote { called: called.clone(), ballots: Default::default(), closed: None };
                self.votes.insert(called.vote.clone(), vote);
            }
            CampaignEvent::VoteCast(cast) => {
                if let Some(vote) = self.votes.get_mut(&cast.vote) {
                    vote.ballots
                        .insert(cast.player.clone(), Ballot { option: cast.option.clone(), points: cast.points });
                }
                self.posted(&cast.player.clone(), cast.at);
            }
            CampaignEvent::VoteClosed(closed) => {
                if let Some(vote) = self.votes.get_mut(&closed.vote) {
                    vote.closed = Some(closed.clone());
                }
            }
            CampaignEvent::MercenaryEnlisted(enlisted) => {
                let mercenary = MercenaryState {
                    faction: enlisted.faction,
                    home: enlisted.home,
                    ocean: enlisted.ocean,
                    at_war: Vec::new(),
                    war_healed: false,
                };
                self.mercenaries.insert(enlisted.army.clone(), mercenary);
            }
            CampaignEvent::TownDefenderHealed(healed) => {
                if let Some(state) = self.armies.get_mut(&healed.army) {
                    apply_healing(&mut state.army, &healed.lines);
                }
            }
            CampaignEvent::ThemeArmyWentToWar(war) => {
                if let Some(mercenary) = self.mercenaries.get_mut(&war.army) {
                    mercenary.at_war.push(war.against);
                    mercenary.war_healed = true;
                }
                if let Some(state) = self.armies.get_mut(&war.army) {
                    apply_healing(&mut state.army, &war.healed);
                }
            }
            CampaignEvent::RaiderSpawnRolled(rolled) => {
                if let Some(spawned) = &rolled.spawned {
                    let state = ArmyState {
                        army: spawned.army.clone(),
                        square: spawned.square,
                        controllers: [MERCENARY_JUDGE.to_string()].into_iter().collect(),
                        long_move: Vec::new(),
                        battle: None,
                    };
                    self.armies.insert(spawned.army.name.clone(), state);
                    let raider = MercenaryState {
                        faction: MercenaryFaction::Raider,
                        home: None,
                        ocean: false,
                        at_war: Vec::new(),
                        war_healed: false,
                    };
                    self.mercenaries.insert(spawned.army.name.clone(), raider);
                }
            }
            CampaignEvent::RaiderDisbanded(disbanded) => {
                self.armies.remove(&disbanded.army);
                self.days.forget(&disbanded.army);
                self.disbanded.insert(disbanded.army.clone());
            }
            CampaignEvent::RaiderOrderEdited(edited) => self.raider_edit = Some(edited.order.clone()),
            CampaignEvent::PlayerJoined(joined) => {
                self.players.push(joined.player.clone());
                let newcomer = Newcomer { joined_turn: joined.turn, battles: 0, offer: None, used: false };
                self.newcomers.insert(joined.player.name.clone(), newcomer);
                self.posted(&joined.player.name.clone(), joined.at);
            }
            CampaignEvent::CustomisationOffered(offered) => {
                if let Some(newcomer) = self.newcomers.get_mut(&offered.player) {
                    newcomer.offer = Some(offered.offer.clone());
                }
            }
            CampaignEvent::ArmyCustomised(customised) => {
                if let Some(newcomer) = self.newcomers.get_mut(&customised.player) {
                    newcomer.used = true;
                }
                self.days.forget(&customised.army);
                self.rename_army(&customised.army, &customised.name);
                if let Some(state) = self.armies.get_mut(&customised.name) {
                    state.army.troops = customised.troops.clone();
                    state.army.legend = customised.legend.clone();
                }
            }
            CampaignEvent::ScreenNameChanged(changed) => self.rename_player(&changed.from, &changed.to),
            CampaignEvent::WeatherRolled(rolled) => {
                self.weather.insert(rolled.battle.clone(), rolled.weather.clone());
            }
            _ => {}
        }
    }

    /// An army's new name, wherever the round refers to it (seed 003 §2.6).
    fn rename_army(&mut self, from: &str, to: &str) {
        if from == to {
            return;
        }
        if let Some(mut state) = self.armies.remove(from) {
            state.army.name = to.to_string();
            self.armies.insert(to.to_string(), state);
        }
        for order in &mut self.orders {
            if order.army == from {
                order.army = to.to_string();
            }
        }
        if let Some(player) = self.control.permissions.remove(from) {
            self.control.permissions.insert(to.to_string(), player);
        }
        if let Some(list) = self.control.at_lock.as_mut() {
            if let Some(controllers) = list.remove(from) {
                list.insert(to.to_string(), controllers);
            }
        }
        for newcomer in self.newcomers.values_mut() {
            if let Some(offer) = newcomer.offer.as_mut().filter(|offer| offer.army == from) {
                offer.army = to.to_string();
            }
        }
    }

    /// A player's new screen name, wherever the round refers to them (seed 003 §1.6).
    fn rename_player(&mut self, from: &str, to: &str) {
        for player in self.players.iter_mut().filter(|p| p.name == from) {
            player.name = to.to_string();
        }
        for army in self.armies.values_mut() {
            if army.controllers.remove(from) {
                army.controllers.insert(to.to_string());
            }
            if army.army.creator.as_deref() == Some(from) {
                army.army.creator = Some(to.to_string());
            }
        }
        for order in &mut self.orders {
            if order.posted_by == from {
                order.posted_by = to.to_string();
            }
        }
        self.control.rename_player(from, to);
        if let Some(newcomer) = self.newcomers.remove(from) {
            self.newcomers.insert(to.to_string(), newcomer);
        }
        for vote in self.votes.values_mut() {
            if vote.called.called_by == from {
                vote.called.called_by = to.to_string();
            }
            if let Some(ballot) = vote.ballots.remove(from) {
                vote.ballots.insert(to.to_string(), ballot);
            }
            if let super::voting::VoteSystem::Special { voters } = &mut vote.called.system {
                for voter in voters.iter_mut().filter(|v| v.player == from) {
                    voter.player = to.to_string();
                }
            }
        }
    }
}
