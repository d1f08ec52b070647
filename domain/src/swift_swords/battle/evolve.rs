//! Applying events to the state: facts only, never a roll, never a failure.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    command::PoolKind,
    event::SwiftSwordsEvent as E,
    pending::Pending,
    state::{ChariotState, DefenceLimit, Figure, Injury, Morale, Phase, SwiftSwordsState},
};
use crate::{
    dice::SealedDice,
    swift_swords::{
        action_dice,
        figure::FigureSpec,
        formation,
        injury::InjuryEffect,
        ranks::{RankSide, RankTrack},
    },
};

/// The figure a set-up spec makes (formation ranks added; a chariot team's Toughness added by
/// the caller).
pub fn new_figure(spec: &FigureSpec) -> Figure {
    let bonus = formation::bonus_of(spec.formation.as_ref());
    let track = |rank: u8, gained: u8, extra: u8| RankTrack {
        rank: rank.saturating_add(gained).min(9),
        bonus: extra,
        lost: 0,
        crossover: 0,
        heroic: spec.heroic,
    };
    Figure {
        zone: spec.start.zone.clone(),
        group: None,
        close_with: BTreeSet::new(),
        prone: false,
        cover: spec.start.cover.clone(),
        hand: Vec::new(),
        carried: false,
        done: true,
        holding: false,
        states: BTreeSet::new(),
        morale: Morale::Steady,
        physical: track(spec.physical, bonus.physical, spec.bonus_physical),
        mental: track(spec.mental, bonus.mental, spec.bonus_mental),
        out_of_action: false,
        killed: false,
        dodge_pool: 0,
        block_pool: 0,
        action_pool: None,
        exposures: 0,
        fumbled: false,
        injuries: Vec::new(),
        ad_modifier: 0,
        defence_limit: DefenceLimit::Any,
        fear_passed: None,
        flying: spec.start.flying && spec.flight.is_some(),
        facing: spec.start.facing.unwrap_or_default(),
        swooped: false,
        dropped: BTreeSet::new(),
        broken: BTreeSet::new(),
        armour_lost: 0,
        hamstrung: false,
        chariot: None,
        attackers: BTreeSet::new(),
        weeks_healed: 0,
        spec: spec.clone(),
    }
}

fn leave_play(state: &mut SwiftSwordsState, id: &str) {
    if let Some(figure) = state.figures.get_mut(id) {
        figure.hand.clear();
        figure.done = true;
        figure.holding = false;
        figure.dodge_pool = 0;
        figure.block_pool = 0;
        figure.action_pool = None;
        figure.close_with.clear();
        figure.prone = true;
    }
    for other in state.figures.values_mut() {
        other.close_with.remove(id);
    }
    state.holds.retain(|hold| hold.holder != id && hold.victim != id);
}

fn clear_close(state: &mut SwiftSwordsState, id: &str) {
    if let Some(figure) = state.figures.get_mut(id) {
        figure.close_with.clear();
    }
    for other in state.figures.values_mut() {
        other.close_with.remove(id);
    }
    state.holds.retain(|hold| hold.holder != id && hold.victim != id);
}

impl SwiftSwordsState {
    /// Apply one event.
    pub fn apply(&mut self, event: &E) {
        match event {
            E::BattleCreated { map, sides, figures, chariots, options, seed_commitment } => {
                self.phase = Phase::Setup;
                self.dice = SealedDice::committed(seed_commitment);
                self.map = map.clone();
                self.sides = sides.clone();
                self.options = options.clone();
                let mut groups: BTreeMap<String, String> = BTreeMap::new();
                for spec in figures {
                    let mut figure = new_figure(spec);
                    if let Some(label) = &spec.start.group {
                        let id = match groups.get(label) {
                            Some(id) => id.clone(),
                            None => {
                                let id = format!("g{}", self.next_id);
                                self.next_id += 1;
                                groups.insert(label.clone(), id.clone());
                                id
                            }
                        };
                        figure.group = Some(id);
                    }
                    self.figures.insert(spec.id.clone(), figure);
                }
                for spec in chariots {
                    for id in spec.crew.iter().chain(std::iter::once(&spec.team)) {
                        if let Some(figure) = self.figures.get_mut(id) {
                            figure.chariot = Some(spec.id.clone());
                        }
                    }
                    if let Some(team) = self.figures.get_mut(&spec.team) {
                        team.physical.bonus = team.physical.bonus.saturating_add(spec.team_bonus_ranks());
                    }
                    self.chariots.insert(
                        spec.id.clone(),
                        ChariotState { spec: spec.clone(), facing: spec.facing, flipped: false },
                    );
                }
            }
            E::EntropyContributed(contributed) => self.dice.contributed(contributed),
            E::SeedRevealed(revealed) => self.dice.revealed(revealed),
            E::JudgeRolled(rolled) => self.dice.advance(rolled.next_word),
            E::RoundStarted { round, surprised } => {
                self.round = *round;
                self.surprised = surprised.clone();
                self.phase = Phase::Countdown;
                self.refresh_called_by = None;
                self.acting = None;
                for figure in self.figures.values_mut() {
                    figure.hand.clear();
                    figure.done = true;
                    figure.holding = false;
                    figure.attackers.clear();
                }
            }
            E::ActionDiceRolled { figure, hand, next_word, .. } => {
                self.dice.advance(*next_word);
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.hand = hand.clone();
                    figure.carried = false;
                    figure.done = hand.is_empty();
                }
            }
            E::BleederChecked { next_word, .. }
            | E::StateRolled { next_word, .. }
            | E::DeathRolled { next_word, .. }
            | E::Resisted { next_word, .. }
            | E::ContestRolled { next_word, .. }
            | E::GrappleRolled { next_word, .. }
            | E::SkillRolled { next_word, .. }
            | E::FatigueRolled { next_word, .. }
            | E::HealerRolled { next_word, .. } => self.dice.advance(*next_word),
            E::ActionBegun { figure, paid, cleared_exposures, cleared_fumble, pools_lost, released_hold, .. } => {
                self.acting = Some(figure.clone());
                if let Some(actor) = self.figures.get_mut(figure) {
                    action_dice::remove(&mut actor.hand, paid);
                    if *cleared_exposures > 0 {
                        actor.exposures = 0;
                    }
                    if *cleared_fumble {
                        actor.fumbled = false;
                    }
                    if *pools_lost {
                        actor.dodge_pool = 0;
                        actor.block_pool = 0;
                        actor.action_pool = None;
                    }
                    actor.holding = false;
                    actor.defence_limit = DefenceLimit::Any;
                    actor.swooped = false;
                }
                if released_hold.is_some() {
                    self.holds.retain(|hold| hold.holder != *figure);
                }
            }
            E::ActionLost { .. } => {}
            E::ActionEnded { figure, discarded, refresh, last_option } => {
                self.acting = None;
                if let Some(actor) = self.figures.get_mut(figure) {
                    action_dice::remove(&mut actor.hand, discarded);
                    if *refresh || *last_option {
                        actor.done = true;
                    }
                }
                if *refresh {
                    self.call_refresh(Some(figure));
                }
            }
            E::RefreshCalled { by, discarded } => {
                if let Some(caller) = by.as_ref().and_then(|by| self.figures.get_mut(by)) {
                    action_dice::remove(&mut caller.hand, discarded);
                    caller.done = true;
                }
                self.call_refresh(by.as_deref());
            }
            E::DieCarried { figure, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.hand.clear();
                    figure.carried = true;
                    figure.done = true;
                }
            }
            E::OptionPassed { figure, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.hand.clear();
                    figure.done = true;
                }
            }
            E::ActionHeld { figure } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.holding = true;
                }
            }
            E::OneSpent { figure, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    action_dice::remove(&mut figure.hand, &[1]);
                }
            }
            E::HandChanged { figure, hand, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.hand = hand.clone();
                }
            }
            E::StateTaken { figure, state, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.states.insert(*state);
                    figure.dodge_pool = 0;
                    figure.block_pool = 0;
                    figure.action_pool = None;
                }
            }
            E::StateRemoved { figure, state, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.states.remove(state);
                }
            }
            E::MoraleChanged { figure, morale, next_word, .. } => {
                self.dice.advance(*next_word);
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.morale = *morale;
                }
            }
            E::FearChecked { figure, level, roll, next_word, .. } => {
                self.dice.advance(*next_word);
                if let Some(figure) = self.figures.get_mut(figure) {
                    if roll.passed() {
                        figure.fear_passed = Some(figure.fear_passed.map_or(*level, |passed| passed.max(*level)));
                    } else {
                        figure.fear_passed = None;
                    }
                }
            }
            E::AttackDeclared { attack } => {
                self.next_id = self.next_id.max(attack.id + 1);
                self.pending.push(Pending::Attack(attack.clone()));
            }
            E::DefenceDeclared { figure, defence, paid, pool, next_word, .. } => {
                self.dice.advance(*next_word);
                if let Some(figure) = self.figures.get_mut(figure) {
                    action_dice::remove(&mut figure.hand, &[*paid]);
                    match defence {
                        crate::swift_swords::defence::DefenceKind::Dodge => figure.dodge_pool = *pool,
                        crate::swift_swords::defence::DefenceKind::Block => figure.block_pool = *pool,
                        crate::swift_swords::defence::DefenceKind::Parry => {}
                    }
                }
            }
            E::AttackResolved { record, next_word } => {
                self.dice.advance(*next_word);
                self.pending
                    .retain(|pending| !matches!(pending, Pending::Attack(attack) if attack.id == record.attack));
                if let Some(target) = self.figures.get_mut(&record.target) {
                    target.attackers.insert(record.attacker.clone());
                }
            }
            E::AttackCancelled { attack, .. } => {
                self.pending.retain(|pending| !matches!(pending, Pending::Attack(declared) if declared.id == *attack));
            }
            E::DefencePoolsChanged { figure, dodge, block, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.dodge_pool = *dodge;
                    figure.block_pool = *block;
                }
            }
            E::ActionPoolChanged { figure, pool, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.action_pool = pool.clone();
                }
            }
            E::ExposuresChanged { figure, exposures, fumbled, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.exposures = *exposures;
                    figure.fumbled = *fumbled;
                }
            }
            E::RanksLost { figure, side, lost, crossover, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.ranks_mut(*side).lost += lost;
                    figure.ranks_mut(side.other()).crossover += crossover;
                }
            }
            E::OutOfAction { figure, .. } => {
                if let Some(found) = self.figures.get_mut(figure) {
                    found.out_of_action = true;
                }
                leave_play(self, figure);
            }
            E::Killed { figure, .. } => {
                if let Some(found) = self.figures.get_mut(figure) {
                    found.out_of_action = true;
                    found.killed = true;
                }
                leave_play(self, figure);
            }
            E::InjuryRolled { figure, location, effect, roll_penalty, repeated_bleeder, next_word, .. } => {
                self.dice.advance(*next_word);
                if let Some(figure) = self.figures.get_mut(figure) {
                    if !repeated_bleeder {
                        figure.injuries.push(Injury {
                            location: location.location,
                            effect: *effect,
                            roll_penalty: *roll_penalty,
                            bleeding: *effect == InjuryEffect::Bleeder,
                        });
                    }
                }
            }
            E::WeaponsChanged { figure, dropped, broken, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.dropped = dropped.iter().cloned().collect();
                    figure.broken = broken.iter().cloned().collect();
                }
            }
            E::Placed { figure, zone, group, cover, .. } => {
                let changed = self.figures.get(figure).is_some_and(|found| found.group != *group);
                if changed {
                    clear_close(self, figure);
                }
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.zone = zone.clone();
                    figure.group = group.clone();
                    figure.cover = cover.clone();
                }
            }
            E::GroupFormed { group, number, members } => {
                self.next_id = self.next_id.max(number + 1);
                for member in members {
                    if let Some(figure) = self.figures.get_mut(member) {
                        figure.group = Some(group.clone());
                    }
                }
            }
            E::CloseChanged { figure, close_with, prone, .. } => {
                let now: BTreeSet<String> = close_with.iter().cloned().collect();
                let before = self.figures.get(figure).map(|found| found.close_with.clone()).unwrap_or_default();
                for gone in before.difference(&now) {
                    if let Some(other) = self.figures.get_mut(gone) {
                        other.close_with.remove(figure);
                    }
                }
                for new in &now {
                    if let Some(other) = self.figures.get_mut(new) {
                        other.close_with.insert(figure.clone());
                    }
                }
                if let Some(found) = self.figures.get_mut(figure) {
                    found.close_with = now;
                }
                if close_with.is_empty() {
                    self.holds.retain(|hold| hold.holder != *figure && hold.victim != *figure);
                }
                for flag in prone {
                    if let Some(found) = self.figures.get_mut(&flag.figure) {
                        found.prone = flag.prone;
                    }
                }
            }
            E::ProneChanged { figure, prone, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.prone = *prone;
                }
            }
            E::HoldChanged { victim, hold, .. } => {
                self.holds.retain(|existing| existing.victim != *victim);
                if let Some(hold) = hold {
                    self.holds.retain(|existing| existing.victim != hold.holder || existing.holder != hold.victim);
                    self.holds.push(hold.clone());
                }
            }
            E::Pooled { figure, into, size } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    match into {
                        PoolKind::Dodge => figure.dodge_pool = *size,
                        PoolKind::Block => figure.block_pool = *size,
                        PoolKind::Action => {
                            if let Some(pool) = figure.action_pool.as_mut() {
                                pool.dice = *size;
                            }
                        }
                    }
                }
            }
            E::Flew { figure, zones, facing, flying, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    if let Some(last) = zones.last() {
                        figure.zone = last.clone();
                        figure.group = None;
                        figure.cover = None;
                    }
                    figure.facing = *facing;
                    figure.flying = *flying;
                }
            }
            E::Driven { chariot, facing, flipped, next_word, .. } => {
                self.dice.advance(*next_word);
                if let Some(chariot) = self.chariots.get_mut(chariot) {
                    chariot.facing = *facing;
                    chariot.flipped = *flipped;
                }
            }
            E::OpportunityOffered { mover, destination, enemies } => {
                self.pending.push(Pending::Move(super::pending::PendingMove {
                    mover: mover.clone(),
                    destination: destination.clone(),
                    waiting: enemies.clone(),
                }));
            }
            E::OpportunityAnswered { figure, .. } => {
                for pending in &mut self.pending {
                    if let Pending::Move(waiting) = pending {
                        waiting.waiting.retain(|enemy| enemy != figure);
                    }
                }
            }
            E::MoveSettled { mover, .. } => {
                self.pending.retain(|pending| !matches!(pending, Pending::Move(waiting) if waiting.mover == *mover));
            }
            E::FigureMarked { figure, armour_lost, hamstrung, defence_limit, swooped, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.armour_lost = *armour_lost;
                    figure.hamstrung = *hamstrung;
                    figure.defence_limit = *defence_limit;
                    figure.swooped = *swooped;
                }
            }
            E::FigureAdjusted { figure, bonus_physical, bonus_mental, ad_modifier, .. } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    figure.physical.bonus = *bonus_physical;
                    figure.mental.bonus = *bonus_mental;
                    figure.ad_modifier = *ad_modifier;
                }
            }
            E::Healed {
                figure,
                physical,
                mental,
                crossover_physical,
                crossover_mental,
                injuries,
                bleeders,
                week,
                revived,
                ..
            } => {
                if let Some(figure) = self.figures.get_mut(figure) {
                    let heal = |track: &mut RankTrack, own: u32, crossed: u32| {
                        track.lost = track.lost.saturating_sub(own);
                        track.crossover = track.crossover.saturating_sub(crossed);
                    };
                    heal(figure.ranks_mut(RankSide::Physical), *physical, *crossover_physical);
                    heal(figure.ranks_mut(RankSide::Mental), *mental, *crossover_mental);
                    for location in injuries {
                        if let Some(index) = figure.injuries.iter().position(|injury| injury.location == *location) {
                            figure.injuries.remove(index);
                        }
                    }
                    if *bleeders {
                        for injury in &mut figure.injuries {
                            injury.bleeding = false;
                        }
                    }
                    if *week {
                        figure.weeks_healed += 1;
                    }
                    if *revived {
                        figure.out_of_action = false;
                    }
                }
            }
            E::BattleEnded { winner, reason } => {
                self.phase = Phase::Ended;
                self.winner = winner.clone();
                self.ended_reason = Some(reason.clone());
                self.pending.clear();
                self.acting = None;
            }
        }
    }

    /// The refresh: every figure with no dice left has had its last option.
    fn call_refresh(&mut self, by: Option<&str>) {
        self.phase = Phase::Refresh;
        self.refresh_called_by = by.map(str::to_string);
        for figure in self.figures.values_mut() {
            if figure.hand.is_empty() || !figure.active() {
                figure.done = true;
            }
        }
    }
}
