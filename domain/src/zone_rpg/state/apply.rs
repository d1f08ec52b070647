//! Folding events into the state. Nothing here rolls or decides: every outcome is in the event.

use super::{
    character::{CharacterState, Left, Morale, TurnUse},
    pending::{AttackStage, InterruptedMove, PendingAttack, PendingTarget, Threat},
    turn::{full_speed, TurnMember, TurnState},
    Phase, ZoneRpgState,
};
use crate::{
    dice::SealedDice,
    zone_rpg::{
        character::{
            gear::{Item, ShieldState, WeaponState, ZoneItem},
            InitiativeSpec,
        },
        command::{Condition, ReactionChoice},
        event::ZoneRpgEvent,
        map::ZoneMap,
        outcome::{GearKind, Handling, Wear},
    },
};

impl ZoneRpgState {
    /// Apply one event.
    pub fn apply(&mut self, event: &ZoneRpgEvent) {
        use ZoneRpgEvent as E;
        match event {
            E::BattleCreated { zones, borders, factions, characters, initiative, options, seed_commitment } => {
                self.map = ZoneMap { zones: zones.clone(), borders: borders.clone() };
                self.factions = factions.clone();
                self.characters = characters.iter().map(CharacterState::new).collect();
                self.options = *options;
                self.dice = SealedDice::committed(seed_commitment);
                self.initiative = match initiative {
                    InitiativeSpec::Faction { faction } => Some(faction.clone()),
                    InitiativeSpec::Random => None,
                };
                self.phase = Phase::Ready;
            }
            E::EntropyContributed(contributed) => self.dice.contributed(contributed),
            E::SeedRevealed(revealed) => self.dice.revealed(revealed),
            E::JudgeRolled(rolled) => self.dice.advance(rolled.next_word),
            E::InitiativeAssigned { faction, next_word, .. } => {
                self.initiative = Some(faction.clone());
                self.dice.advance(*next_word);
            }
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
            E::AttackDeclared { .. } => self.attack_declared(event),
            E::StuntApproved { approved, .. } => {
                if let Some(pending) = &mut self.pending_attack {
                    if *approved {
                        pending.stage = AttackStage::StuntAnswer;
                    } else {
                        pending.stunt = None;
                        pending.stage = AttackStage::Reactions;
                    }
                }
            }
            E::StuntAnswered { accepted, .. } => {
                if let Some(pending) = &mut self.pending_attack {
                    if !*accepted {
                        pending.stunt = None;
                        pending.stage = AttackStage::Reactions;
                    }
                }
            }
            E::StuntApplied { character, incapacitated, surrendered, dropped, zone, .. } => {
                if let Some(weapon) = dropped {
                    self.drop_weapon(character, weapon, zone, None, None);
                }
                if let Some(target) = self.character_mut(character) {
                    target.incapacitated |= *incapacitated;
                    target.surrendered |= *surrendered;
                }
                self.pending_attack = None;
                self.after_harm(character);
            }
            E::Reacted { .. } => self.reacted(event),
            E::Declined { characters, attack, .. } => {
                for id in characters {
                    match (attack, &mut self.pending_attack, &mut self.interrupted_move) {
                        (Some(_), Some(pending), _) => {
                            if let Some(target) = pending.targets.iter_mut().find(|t| t.target.character == *id) {
                                target.decided = true;
                            }
                        }
                        (None, _, Some(interrupted)) => {
                            if let Some(threat) = interrupted.threats.iter_mut().find(|t| t.character == *id) {
                                threat.decided = true;
                            }
                        }
                        _ => {}
                    }
                }
            }
            E::AttackResolved { next_word, .. } => {
                if let Some(pending) = self.pending_attack.take() {
                    for target in &pending.targets {
                        if let Some(character) = self.character_mut(&target.target.character) {
                            character.unaware = false;
                        }
                    }
                }
                self.dice.advance(*next_word);
            }
            E::CharacterHit {
                character,
                health,
                incapacitated,
                killed,
                armour_used,
                surrender_ended,
                next_word,
                ..
            } => {
                self.dice.advance(*next_word);
                if let Some(hit) = self.character_mut(character) {
                    hit.health = *health;
                    hit.incapacitated |= *incapacitated;
                    hit.dead |= *killed;
                    if *armour_used {
                        if let Some(armour) = &mut hit.armour {
                            armour.used = true;
                        }
                        if let Some(shield) = hit.shield.as_mut().filter(|s| s.shield.held) {
                            shield.used = true;
                        }
                    }
                    if *surrender_ended {
                        hit.surrendered = false;
                        hit.morale = Morale::Untested;
                    }
                }
                self.after_harm(character);
            }
            E::DeathBlowDelivered { character, .. } => {
                if let Some(killed) = self.character_mut(character) {
                    killed.dead = true;
                }
                self.after_harm(character);
            }
            E::NonLethalResolved { next_word, .. } => self.dice.advance(*next_word),
            E::WeaponDropped { character, weapon, zone, taken_by, taken_as } => {
                self.drop_weapon(character, weapon, zone, taken_by.as_deref(), taken_as.as_deref());
            }
            E::Shoved { character, zone, .. } => {
                if let Some(shoved) = self.character_mut(character) {
                    shoved.zone = zone.clone();
                    shoved.at_border = None;
                    shoved.behind = None;
                    shoved.riding = None;
                }
            }
            E::HazardStruck { character, kills, .. } => {
                if *kills {
                    if let Some(struck) = self.character_mut(character) {
                        struck.dead = true;
                    }
                    self.after_harm(character);
                }
            }
            E::Grabbed { grabber, character } => {
                if let Some(holder) = self.character_mut(grabber) {
                    holder.grabbing = Some(character.clone());
                }
                if let Some(held) = self.character_mut(character) {
                    held.grabbed_by = Some(grabber.clone());
                }
            }
            E::GrabReleased { grabber, character, .. } => self.release(grabber, character),
            E::BreakFreeAttempted { character, helper, freed, next_word, .. } => {
                self.dice.advance(*next_word);
                match helper {
                    Some(helper) => self.spend_action(helper, true),
                    None => self.spend_whole_turn(character),
                }
                if *freed {
                    let grabber = self.character(character).and_then(|c| c.grabbed_by.clone());
                    if let Some(grabber) = grabber {
                        self.release(&grabber, character);
                    }
                }
            }
            E::GearDestroyed { character, kind, item, .. } => {
                if let Some(owner) = self.character_mut(character) {
                    match kind {
                        GearKind::Weapon => {
                            if let Some(weapon) =
                                owner.weapons.iter_mut().find(|w| w.weapon.name == *item && !w.destroyed)
                            {
                                weapon.destroyed = true;
                                weapon.weapon.held = false;
                            }
                        }
                        GearKind::Shield => {
                            if let Some(shield) = &mut owner.shield {
                                shield.destroyed = true;
                                shield.shield.held = false;
                            }
                        }
                        GearKind::Armour => {
                            if let Some(armour) = &mut owner.armour {
                                armour.destroyed = true;
                            }
                        }
                    }
                }
            }
            E::Revealed { character, .. } => self.reveal(character),
            E::ActionPerformed { character, action, .. } => self.spend_action(character, action.is_main()),
            E::ItemHandled { character, item, handling, name, zone, concealed } => {
                self.handled(character, item, *handling, name, zone, *concealed);
            }
            E::Surrendered { character, dropped, zone, as_turn } => {
                for item in dropped {
                    self.put_down(character, item, zone, false);
                }
                if let Some(surrendering) = self.character_mut(character) {
                    surrendering.surrendered = true;
                    surrendering.morale = Morale::Untested;
                }
                if *as_turn {
                    self.spend_whole_turn(character);
                }
            }
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
            E::Mounted { character, mount, fell, next_word, .. } => {
                self.dice.advance(*next_word);
                self.spend_movement(character, 1);
                if let Some(rider) = self.character_mut(character) {
                    rider.at_border = None;
                    rider.behind = None;
                    if !*fell {
                        rider.riding = Some(mount.clone());
                    }
                }
            }
            E::Dismounted { character, next_word, .. } => {
                self.dice.advance(*next_word);
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
            E::MoraleChecked { broken, steady, next_word, .. } => {
                self.dice.advance(*next_word);
                for (ids, morale) in [(broken, Morale::Broken), (steady, Morale::Steady)] {
                    for id in ids {
                        if let Some(character) = self.character_mut(id) {
                            character.morale = morale;
                        }
                    }
                }
            }
            E::ChaseResolved { escaped, caught, zone, next_word, .. } => {
                self.dice.advance(*next_word);
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
            E::ConditionChanged { character, condition, active, .. } => {
                if *condition == Condition::Concealed && !*active {
                    self.reveal(character);
                }
                if let Some(target) = self.character_mut(character) {
                    match condition {
                        Condition::Unaware => target.unaware = *active,
                        Condition::Concealed => target.concealed = *active,
                        Condition::Incapacitated => target.incapacitated = *active,
                        Condition::Surrendered => target.surrendered = *active,
                    }
                }
                if *active && matches!(condition, Condition::Incapacitated) {
                    self.after_harm(character);
                }
            }
            E::HealthAdjusted { character, health, killed, .. } => {
                if let Some(target) = self.character_mut(character) {
                    target.health = *health;
                    target.dead |= *killed;
                }
                self.after_harm(character);
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
            E::DurabilityRolled { character, kind, item, wear, next_word, .. } => {
                self.dice.advance(*next_word);
                self.worn(character, *kind, item, *wear);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn moved(
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

    fn attack_declared(&mut self, event: &ZoneRpgEvent) {
        let ZoneRpgEvent::AttackDeclared {
            attack,
            attacker,
            weapon,
            form,
            targets,
            zone,
            impaired,
            ranged,
            blast,
            opportunity,
            surprise,
            hit,
            stunt,
            stunt_approved,
            next_word,
            ..
        } = event
        else {
            return;
        };
        self.attacks = self.attacks.max(*attack);
        self.dice.advance(*next_word);
        if *opportunity {
            self.spend_reaction(attacker);
            if let Some(interrupted) = &mut self.interrupted_move {
                if let Some(threat) = interrupted.threats.iter_mut().find(|t| t.character == *attacker) {
                    threat.decided = true;
                }
            }
        } else {
            self.spend_action(attacker, true);
        }
        if let (Some(name), Some(owner)) = (weapon, self.character_mut(attacker)) {
            if let Some(used) = owner.weapons.iter_mut().find(|w| w.weapon.name == *name && !w.destroyed) {
                used.used = true;
            }
        }
        if !*hit || targets.is_empty() {
            self.pending_attack = None;
            return;
        }
        let stage = match (stunt, stunt_approved) {
            (Some(_), false) => AttackStage::StuntApproval,
            (Some(_), true) => AttackStage::StuntAnswer,
            (None, _) => AttackStage::Reactions,
        };
        self.pending_attack = Some(PendingAttack {
            attack: *attack,
            attacker: attacker.clone(),
            weapon: weapon.clone(),
            form: form.clone(),
            ranged: *ranged,
            blast: *blast,
            zone: zone.clone(),
            impaired: *impaired,
            opportunity: *opportunity,
            surprise: *surprise,
            targets: targets
                .iter()
                .map(|target| PendingTarget {
                    target: target.clone(),
                    decided: !target.can_react,
                    reaction: None,
                    save: None,
                    counter_hits: None,
                })
                .collect(),
            stage,
            stunt: stunt.clone(),
            reacted: Vec::new(),
        });
    }

    fn reacted(&mut self, event: &ZoneRpgEvent) {
        let ZoneRpgEvent::Reacted { character, reaction, save, counter_hits, new_target, replaces, next_word, .. } =
            event
        else {
            return;
        };
        self.dice.advance(*next_word);
        self.spend_reaction(character);
        if let (ReactionChoice::Counter { weapon: Some(name), .. }, Some(counterer)) =
            (reaction, self.character_mut(character))
        {
            if let Some(used) = counterer.weapons.iter_mut().find(|w| w.weapon.name == *name && !w.destroyed) {
                used.used = true;
            }
        }
        if let (ReactionChoice::HideBehind { character: shield }, Some(_)) = (reaction, new_target) {
            // "swapping position with the original target": where each stands in the zone.
            self.swap_places(character, shield);
        }
        let Some(pending) = &mut self.pending_attack else { return };
        pending.reacted.push(character.clone());
        match (reaction, new_target, replaces) {
            (ReactionChoice::HideBehind { .. } | ReactionChoice::Guard { .. }, Some(new), Some(replaced)) => {
                let guard = matches!(reaction, ReactionChoice::Guard { .. });
                if let Some(entry) = pending.targets.iter_mut().find(|t| t.target.character == *replaced) {
                    *entry = PendingTarget {
                        target: new.clone(),
                        decided: guard || !new.can_react,
                        reaction: guard.then(|| reaction.clone()),
                        save: None,
                        counter_hits: None,
                    };
                }
            }
            _ => {
                if let Some(entry) = pending.targets.iter_mut().find(|t| t.target.character == *character) {
                    entry.decided = true;
                    entry.reaction = Some(reaction.clone());
                    entry.save = save.clone();
                    entry.counter_hits = *counter_hits;
                }
            }
        }
    }

    fn swap_places(&mut self, one: &str, other: &str) {
        let place = |state: &Self, id: &str| state.character(id).map(|c| (c.at_border.clone(), c.behind.clone()));
        let (Some(first), Some(second)) = (place(self, one), place(self, other)) else { return };
        for (id, (at_border, behind)) in [(one, second), (other, first)] {
            if let Some(character) = self.character_mut(id) {
                character.at_border = at_border;
                character.behind = behind;
            }
        }
    }

    /// A reaction spends the turn, or one of the extra reactions a skill grants.
    fn spend_reaction(&mut self, id: &str) {
        if let Some(character) = self.character_mut(id) {
            if matches!(character.turn, TurnUse::Available | TurnUse::Reserved) {
                character.turn = TurnUse::Used;
            } else {
                character.extra_reactions_used += 1;
            }
        }
    }

    /// A main or bonus action spent by a member of the turn in progress.
    fn spend_action(&mut self, id: &str, main: bool) {
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
    fn spend_movement(&mut self, id: &str, half_zones: u32) {
        if let Some(member) = self.turn.as_mut().and_then(|turn| turn.member_mut(id)) {
            member.moved += half_zones;
            member.acted = true;
        }
    }

    /// The whole turn is spent (breaking free, surrendering, retreating).
    fn spend_whole_turn(&mut self, id: &str) {
        if let Some(member) = self.turn.as_mut().and_then(|turn| turn.member_mut(id)) {
            member.acted = true;
            member.done = true;
        }
    }

    fn turn_ended(&mut self, event: &ZoneRpgEvent) {
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

    fn release(&mut self, grabber: &str, character: &str) {
        if let Some(holder) = self.character_mut(grabber) {
            if holder.grabbing.as_deref() == Some(character) {
                holder.grabbing = None;
            }
        }
        if let Some(held) = self.character_mut(character) {
            if held.grabbed_by.as_deref() == Some(grabber) {
                held.grabbed_by = None;
            }
        }
    }

    /// A character who goes down lets go of whoever it holds, is let go of, and its riders are
    /// on foot.
    fn after_harm(&mut self, id: &str) {
        let Some(character) = self.character(id) else { return };
        if character.standing() {
            return;
        }
        let (grabbing, grabbed_by) = (character.grabbing.clone(), character.grabbed_by.clone());
        if let Some(held) = grabbing {
            self.release(id, &held);
        }
        if let Some(holder) = grabbed_by {
            self.release(&holder, id);
        }
        for rider in self.characters.iter_mut().filter(|c| c.riding.as_deref() == Some(id)) {
            rider.riding = None;
        }
    }

    fn reveal(&mut self, id: &str) {
        if let Some(character) = self.character_mut(id) {
            character.concealed = false;
        }
        for item in self.items.iter_mut().filter(|item| item.left_by == id) {
            item.concealed = false;
        }
    }

    fn drop_weapon(&mut self, owner: &str, weapon: &str, zone: &str, taker: Option<&str>, taken_as: Option<&str>) {
        let Some(character) = self.character_mut(owner) else { return };
        let Some(index) = character.weapons.iter().position(|w| w.weapon.name == weapon && !w.destroyed) else {
            return;
        };
        let mut dropped = character.weapons.remove(index);
        dropped.weapon.held = false;
        match (taker.and_then(|t| self.character_mut(t)), taken_as) {
            (Some(taker), Some(name)) => {
                dropped.weapon.name = name.to_string();
                taker.weapons.push(dropped);
            }
            _ => self.items.push(ZoneItem {
                zone: zone.to_string(),
                item: Item::Weapon { weapon: dropped.weapon, used: dropped.used },
                left_by: owner.to_string(),
                concealed: false,
            }),
        }
    }

    fn put_down(&mut self, owner: &str, item: &str, zone: &str, concealed: bool) {
        let Some(character) = self.character_mut(owner) else { return };
        let taken = if let Some(index) = character.weapons.iter().position(|w| w.weapon.name == item && !w.destroyed) {
            let mut weapon = character.weapons.remove(index);
            weapon.weapon.held = false;
            Some(Item::Weapon { weapon: weapon.weapon, used: weapon.used })
        } else if character.shield.as_ref().is_some_and(|s| s.shield.name == item && !s.destroyed) {
            character.shield.take().map(|mut shield| {
                shield.shield.held = false;
                Item::Shield { shield: shield.shield, used: shield.used }
            })
        } else {
            None
        };
        if let Some(item) = taken {
            self.items.push(ZoneItem { zone: zone.to_string(), item, left_by: owner.to_string(), concealed });
        }
    }

    fn handled(&mut self, id: &str, item: &str, handling: Handling, name: &str, zone: &str, concealed: bool) {
        match handling {
            Handling::PickedUp => {
                if let Some(index) = self.items.iter().position(|i| i.zone == zone && i.item.name() == item) {
                    let lying = self.items.remove(index);
                    if let Some(character) = self.character_mut(id) {
                        match lying.item {
                            Item::Weapon { mut weapon, used } => {
                                weapon.name = name.to_string();
                                weapon.held = false;
                                character.weapons.push(WeaponState { weapon, used, destroyed: false });
                            }
                            Item::Shield { mut shield, used } => {
                                shield.held = false;
                                character.shield = Some(ShieldState { shield, used, destroyed: false });
                            }
                        }
                    }
                }
            }
            Handling::PutDown => self.put_down(id, item, zone, concealed),
            Handling::Equipped | Handling::Unequipped => {
                let held = handling == Handling::Equipped;
                if let Some(character) = self.character_mut(id) {
                    if let Some(weapon) = character.weapons.iter_mut().find(|w| w.weapon.name == item && !w.destroyed) {
                        weapon.weapon.held = held;
                    } else if let Some(shield) = character.shield.as_mut().filter(|s| s.shield.name == item) {
                        shield.shield.held = held;
                    }
                }
            }
        }
        self.spend_action(id, false);
    }

    fn worn(&mut self, id: &str, kind: GearKind, item: &str, wear: Wear) {
        let Some(owner) = self.character_mut(id) else { return };
        let (damaged, destroyed) = (wear != Wear::Intact, wear == Wear::Destroyed);
        match kind {
            GearKind::Weapon => {
                if let Some(weapon) = owner.weapons.iter_mut().find(|w| w.weapon.name == item && !w.destroyed) {
                    weapon.weapon.damaged |= damaged;
                    weapon.destroyed |= destroyed;
                }
            }
            GearKind::Shield => {
                if let Some(shield) = &mut owner.shield {
                    shield.shield.damaged |= damaged;
                    shield.destroyed |= destroyed;
                }
            }
            GearKind::Armour => {
                if let Some(armour) = &mut owner.armour {
                    armour.armour.damaged |= damaged;
                    armour.destroyed |= destroyed;
                }
            }
        }
    }
}
