//! Folding the combat procedure: rounds, turns and passes, movement and interrupted moves,
//! mounts, morale, chases, retreats and the end of the fight (seed 001 "Combat procedure",
//! "Taking a turn", "Morale", "Chases", "Mounts and vehicles in combat").

use super::{
    character::{Left, Morale, TurnUse},
    pending::{InterruptedMove, Threat},
    turn::{full_speed, TurnMember, TurnState},
    Phase, ZoneRpgState,
};
use crate::zone_rpg::event::ZoneRpgEvent;

impl ZoneRpgState {
    /// Fold the procedure's events; others are left to the other folds.
    pub(super) fn fold_turns(&mut self, event: &ZoneRpgEvent) {
        use ZoneRpgEvent as E;
        match event {
            E::RoundStarted { round, bonus, first_faction } => {
                self.phase = Phase::Round;
                self.round = *round;
                self.rounds_started += 1;
                self.bonus_round = *bonus;
                self.first_faction = Some(first_faction.clone());
                self.current_faction = Some(first_faction.clone());
                self.consecutive_passes = 0;
                for character in &mut self.characters {
                    character.turn = TurnUse::Available;
                    character.extra_reactions_used = 0;
                    character.fighting_at_round_start = character.fighting();
                    character.health_at_round_start = character.health;
                }
            }
            E::TurnTaken { faction, characters } => {
                let mut members = Vec::new();
                for id in characters {
                    if let Some(character) = self.character_mut(id) {
                        let active = character.turn == TurnUse::Available;
                        if active {
                            character.turn = TurnUse::InTurn;
                        }
                        members.push(TurnMember::new(id, active));
                    }
                }
                self.turn = Some(TurnState { faction: faction.clone(), members });
            }
            E::FactionPassed { faction, consecutive, .. } => {
                self.consecutive_passes = *consecutive;
                self.current_faction = self.next_faction(faction).map(str::to_string);
            }
            E::Moved { character, zone, half_zones, sprint, with, at_border, behind, .. } => {
                if self.interrupted_move.as_ref().is_some_and(|m| m.character == *character) {
                    self.interrupted_move = None;
                }
                self.moved(character, zone, *half_zones, *sprint, with, at_border, behind);
            }
            E::MoveInterrupted {
                character,
                movers,
                zone,
                remaining,
                retreating,
                threatened_by,
                sprint,
                sneak,
                at_border,
                behind,
            } => {
                self.interrupted_move = Some(InterruptedMove {
                    character: character.clone(),
                    movers: movers.clone(),
                    zone: zone.clone(),
                    remaining: remaining.clone(),
                    sprint: *sprint,
                    sneak: *sneak,
                    at_border: at_border.clone(),
                    behind: behind.clone(),
                    retreating: *retreating,
                    threats: threatened_by.iter().map(|c| Threat { character: c.clone(), decided: false }).collect(),
                });
            }
            E::MoveAbandoned { .. } => self.interrupted_move = None,
            E::Retreated { character, as_turn } => {
                if self.interrupted_move.as_ref().is_some_and(|m| m.character == *character) {
                    self.interrupted_move = None;
                }
                if *as_turn {
                    self.spend_whole_turn(character);
                }
                if let Some(leaving) = self.character_mut(character) {
                    leaving.left = Some(Left::Retreated);
                    leaving.riding = None;
                }
                if let Some(turn) = &mut self.turn {
                    if let Some(member) = turn.member_mut(character) {
                        member.done = true;
                    }
                }
            }
            E::Mounted { character, mount, fell, .. } => {
                self.spend_movement(character, 1);
                if let Some(rider) = self.character_mut(character) {
                    rider.at_border = None;
                    rider.behind = None;
                    if !*fell {
                        rider.riding = Some(mount.clone());
                    }
                }
            }
            E::Dismounted { character, .. } => {
                self.spend_movement(character, 1);
                if let Some(rider) = self.character_mut(character) {
                    rider.riding = None;
                }
            }
            E::TurnEnded { .. } => self.turn_ended(event),
            E::RoundEnded { .. } => {
                self.phase = Phase::BetweenRounds;
                self.current_faction = None;
                self.turn = None;
            }
            E::MoraleChecked { broken, steady, .. } => {
                for (ids, morale) in [(broken, Morale::Broken), (steady, Morale::Steady)] {
                    for id in ids {
                        if let Some(character) = self.character_mut(id) {
                            character.morale = morale;
                        }
                    }
                }
            }
            E::ChaseResolved { escaped, caught, zone, .. } => {
                for id in escaped {
                    if let Some(character) = self.character_mut(id) {
                        character.left = Some(Left::Escaped);
                        character.riding = None;
                    }
                }
                for id in caught {
                    if let Some(character) = self.character_mut(id) {
                        character.left = None;
                        character.zone = zone.clone();
                        character.at_border = None;
                        character.behind = None;
                        character.riding = None;
                    }
                }
            }
            E::Placed { character, zone, .. } => {
                if let Some(target) = self.character_mut(character) {
                    target.zone = zone.clone();
                    target.at_border = None;
                    target.behind = None;
                    target.riding = None;
                }
            }
            E::FightEnded { winner, reason } => {
                self.phase = Phase::Ended;
                self.winner = winner.clone();
                self.ended_reason = Some(reason.clone());
                self.turn = None;
                self.pending_attack = None;
                self.interrupted_move = None;
                self.current_faction = None;
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn moved(
        &mut self,
        character: &str,
        zone: &str,
        half_zones: u32,
        sprint: bool,
        with: &[String],
        at_border: &Option<String>,
        behind: &Option<String>,
    ) {
        if let Some(mover) = self.character_mut(character) {
            mover.zone = zone.to_string();
            mover.at_border = at_border.clone();
            mover.behind = behind.clone();
        }
        for id in with {
            if let Some(carried) = self.character_mut(id) {
                carried.zone = zone.to_string();
                carried.at_border = None;
                carried.behind = None;
            }
        }
        let speed = self.character(character).map_or(0, |c| c.spec.speed);
        let riders: Vec<String> = self.riders_of(character).iter().map(|r| r.id().to_string()).collect();
        if let Some(turn) = &mut self.turn {
            let mut full = false;
            if let Some(member) = turn.member_mut(character) {
                member.moved += half_zones;
                member.sprint |= sprint;
                member.acted |= half_zones > 0;
                full = member.moved > full_speed(speed, member.sprint) / 2;
            }
            // A mount or vehicle moving at full speed: its riders can neither act nor react
            // (seed 001 "Mounts and vehicles in combat").
            if full {
                for rider in &riders {
                    if let Some(member) = turn.member_mut(rider).filter(|m| m.active) {
                        member.acted = true;
                        member.done = true;
                    }
                }
            }
        }
    }

    pub(super) fn turn_ended(&mut self, event: &ZoneRpgEvent) {
        let ZoneRpgEvent::TurnEnded { faction, .. } = event else { return };
        if let Some(turn) = self.turn.take() {
            // Only a mount's riders (or the mount) can keep a turn they did nothing with to
            // react (seed 001 "Mounts and vehicles in combat"); a character alone has spent it.
            let together = turn.members.len() > 1;
            for member in turn.members.iter().filter(|m| m.active) {
                if let Some(character) = self.character_mut(&member.character) {
                    if character.turn == TurnUse::InTurn {
                        character.turn = if member.acted || !together { TurnUse::Used } else { TurnUse::Reserved };
                    }
                }
            }
        }
        self.consecutive_passes = 0;
        self.current_faction = self.next_faction(faction).map(str::to_string);
    }

    /// A reaction spends the turn, or one of the extra reactions a skill grants.
    pub(super) fn spend_reaction(&mut self, id: &str) {
        if let Some(character) = self.character_mut(id) {
            if matches!(character.turn, TurnUse::Available | TurnUse::Reserved) {
                character.turn = TurnUse::Used;
            } else {
                character.extra_reactions_used += 1;
            }
        }
    }

    /// A main or bonus action spent by a member of the turn in progress.
    pub(super) fn spend_action(&mut self, id: &str, main: bool) {
        if let Some(member) = self.turn.as_mut().and_then(|turn| turn.member_mut(id)) {
            if main {
                member.main += 1;
            } else {
                member.bonus += 1;
            }
            member.acted = true;
        }
    }

    /// Half-zones of movement spent by a member of the turn in progress.
    pub(super) fn spend_movement(&mut self, id: &str, half_zones: u32) {
        if let Some(member) = self.turn.as_mut().and_then(|turn| turn.member_mut(id)) {
            member.moved += half_zones;
            member.acted = true;
        }
    }

    /// The whole turn is spent (breaking free, surrendering, retreating).
    pub(super) fn spend_whole_turn(&mut self, id: &str) {
        if let Some(member) = self.turn.as_mut().and_then(|turn| turn.member_mut(id)) {
            member.acted = true;
            member.done = true;
        }
    }
}
