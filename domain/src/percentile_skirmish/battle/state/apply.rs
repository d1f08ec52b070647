//! Applying events to the state: the facts they record, never recomputed, never rolled.

use super::{
    mini::{MiniState, Summoning, TurnRecord},
    DeclarationState, OpenCombat, Opportunity, Phase, RoundState, SkirmishState,
};
use crate::{
    dice::SealedDice,
    percentile_skirmish::{
        battle::event::{AttackKind, DamageDealt, SkirmishEvent, SpellOutcome},
        rules::CombatChoice,
        spells::{ActiveEffect, Spell},
    },
};

impl SkirmishState {
    /// Apply an event.
    pub fn apply(&mut self, event: &SkirmishEvent) {
        use SkirmishEvent as E;
        match event {
            E::BattleCreated { table, participants, minis, options, summons, seed_commitment } => {
                self.phase = Phase::Declaring;
                self.table = table.clone();
                self.participants = participants.clone();
                self.options = *options;
                self.summons = summons.clone();
                self.minis = minis.iter().map(|spec| (spec.id.clone(), MiniState::new(spec, None))).collect();
                self.dice = SealedDice::committed(seed_commitment);
            }
            E::EntropyContributed(contribution) => self.dice.contributed(contribution),
            E::SeedRevealed(revealed) => self.dice.revealed(revealed),
            E::JudgeRolled(rolled) => self.dice.advance(rolled.next_word),
            E::TurnStarted { turn } => {
                self.turn = *turn;
                for mini in self.minis.values_mut() {
                    mini.this_turn = TurnRecord::default();
                }
            }
            E::RoundStarted { round, eligible, .. } => {
                self.phase = Phase::Declaring;
                self.round = Some(RoundState {
                    value: *round,
                    declarations: eligible
                        .iter()
                        .map(|e| DeclarationState {
                            participant: e.participant.clone(),
                            eligible: e.minis.clone(),
                            must_act: e.must_act.clone(),
                            declared: None,
                        })
                        .collect(),
                    order: Vec::new(),
                    current: 0,
                });
            }
            E::Declared { participant, minis, .. } => {
                if let Some(declaration) = self
                    .round
                    .as_mut()
                    .and_then(|round| round.declarations.iter_mut().find(|d| d.participant == *participant))
                {
                    declaration.declared = Some(minis.clone());
                }
            }
            E::RoundDeclared { order, next_word, declarations, .. } => {
                self.dice.advance(*next_word);
                self.phase = Phase::Acting;
                for id in declarations.iter().flat_map(|d| d.minis.iter()) {
                    if let Some(mini) = self.minis.get_mut(id) {
                        mini.this_turn.acted = true;
                    }
                }
                if let Some(round) = self.round.as_mut() {
                    round.order = order.clone();
                    round.current = 0;
                }
            }
            E::Moved { mini, to, moved_this_turn, allowance, stopped_at_water, facing, fled, path, from, .. } => {
                self.opportunities.retain(|o| o.target != *mini);
                if let Some(state) = self.minis.get_mut(mini) {
                    if !path.is_empty() && state.this_turn.movement_start.is_none() {
                        state.this_turn.movement_start = Some(*from);
                    }
                    state.position = *to;
                    state.facing = *facing;
                    state.this_turn.moved = *moved_this_turn;
                    state.this_turn.ran |= allowance.running;
                    state.this_turn.through_water |= allowance.in_water;
                    state.this_turn.movement_ended |= stopped_at_water.is_some() || *fled;
                    state.this_turn.fled |= *fled;
                }
                if let E::Moved { provoked, .. } = event {
                    self.opportunities.extend(
                        provoked
                            .iter()
                            .map(|attacker| Opportunity { attacker: attacker.clone(), target: mini.clone() }),
                    );
                }
            }
            E::Attacked { kind, attacker, target, damage, next_word, .. } => {
                self.dice.advance(*next_word);
                if *kind == AttackKind::Opportunity {
                    self.opportunities.retain(|o| !(o.attacker == *attacker && o.target == *target));
                } else {
                    self.count_attack(attacker);
                }
                if let Some(dealt) = damage {
                    self.take(dealt);
                }
            }
            E::OpportunityDeclined { attacker, target } => {
                self.opportunities.retain(|o| !(o.attacker == *attacker && o.target == *target));
            }
            E::OpenCombatStarted { combat, attacker, defender, weapon, defender_helpless } => {
                self.combats = self.combats.max(*combat);
                self.count_attack(attacker);
                self.combat = Some(OpenCombat {
                    combat: *combat,
                    attacker: attacker.clone(),
                    defender: defender.clone(),
                    weapon: weapon.clone(),
                    defender_helpless: *defender_helpless,
                    attacker_choice: None,
                    defender_choice: defender_helpless.then_some(CombatChoice::Random),
                    defender_weapon: None,
                });
            }
            E::CombatOptionChosen { mini, choice, weapon, .. } => {
                if let Some(combat) = self.combat.as_mut() {
                    if combat.attacker == *mini {
                        combat.attacker_choice = Some(*choice);
                    } else if combat.defender == *mini {
                        combat.defender_choice = Some(*choice);
                        combat.defender_weapon.clone_from(weapon);
                    }
                }
            }
            E::OpenCombatResolved { damage, next_word, .. } => {
                self.dice.advance(*next_word);
                self.combat = None;
                for dealt in damage {
                    self.take(dealt);
                }
            }
            E::SpellCast { caster, spell, spell_points_left, outcomes, next_word, command, .. } => {
                self.dice.advance(*next_word);
                if let Some(state) = self.minis.get_mut(caster) {
                    state.spell_points = *spell_points_left;
                    state.this_turn.spell_attacks = state.this_turn.spell_attacks.saturating_add(1);
                }
                for outcome in outcomes.iter().filter(|outcome| outcome.success) {
                    self.spell_took(caster, *spell, outcome, command.as_deref());
                }
            }
            E::Summoned { mini, caster, spell, turns, command } => {
                let mut state = MiniState::new(mini, Some(Summoning { caster: caster.clone(), spell: *spell }));
                state.effects.push(ActiveEffect { spell: *spell, caster: caster.clone(), turns_left: *turns });
                state.order.clone_from(command);
                self.minis.insert(mini.id.clone(), state);
            }
            E::Teleported { mini, to, .. } => {
                self.opportunities.retain(|o| o.target != *mini);
                if let Some(state) = self.minis.get_mut(mini) {
                    state.position = *to;
                }
            }
            E::CommandIssued { caster, mini, command, outcome, next_word } => {
                self.dice.advance(*next_word);
                if let Some(state) = self.minis.get_mut(caster) {
                    state.this_turn.spell_attacks = state.this_turn.spell_attacks.saturating_add(1);
                }
                if let (true, Some(state)) = (outcome.success, self.minis.get_mut(mini)) {
                    state.order = Some(command.clone());
                    if state.is_golem() {
                        state.golem_active = true;
                    }
                }
            }
            E::CommandEnded { mini, .. } => {
                if let Some(state) = self.minis.get_mut(mini) {
                    state.commanded_by = None;
                    state.order = None;
                    state.effects.retain(|effect| effect.spell != Spell::Command);
                }
            }
            E::GolemInactive { golem, .. } => {
                if let Some(state) = self.minis.get_mut(golem) {
                    state.golem_active = false;
                    state.order = None;
                }
            }
            E::ActionsEnded { .. } => {
                if let Some(round) = self.round.as_mut() {
                    round.current += 1;
                }
            }
            E::RoundEnded { .. } => {
                self.round = None;
            }
            E::TurnEnded { dismissed, .. } => self.end_turn(dismissed),
            E::LifePointsSet { mini, life, killed, .. } => {
                if let Some(state) = self.minis.get_mut(mini) {
                    state.life = *life;
                    state.killed |= *killed;
                }
                if *killed {
                    self.forget(mini);
                }
            }
            E::BattleEnded { winner, reason } => {
                self.phase = Phase::Ended;
                self.winner.clone_from(winner);
                self.ended_reason = Some(reason.clone());
                self.combat = None;
                self.opportunities.clear();
            }
        }
    }

    fn count_attack(&mut self, attacker: &str) {
        let water = self.mini(attacker).and_then(|mini| self.penalising_water(mini));
        if let Some(state) = self.minis.get_mut(attacker) {
            state.this_turn.attacks = state.this_turn.attacks.saturating_add(1);
            state.this_turn.attacked_in_water |= water.is_some();
        }
    }

    /// Damage taken: life points as recorded; a killed mini leaves the table and whatever
    /// waited on it.
    fn take(&mut self, dealt: &DamageDealt) {
        if let Some(state) = self.minis.get_mut(&dealt.mini) {
            state.life = dealt.life_left;
            state.killed |= dealt.killed;
        }
        if dealt.killed {
            self.forget(&dealt.mini);
        }
    }

    /// Nothing waits on a mini no longer on the table.
    fn forget(&mut self, mini: &str) {
        self.opportunities.retain(|o| o.attacker != mini && o.target != mini);
    }

    fn spell_took(&mut self, caster: &str, spell: Spell, outcome: &SpellOutcome, command: Option<&str>) {
        if let Some(dealt) = &outcome.damage {
            self.take(dealt);
        }
        let Some(target) = outcome.mini.as_deref().and_then(|id| self.minis.get_mut(id)) else { return };
        if let Some(healed) = outcome.healed {
            target.life = target.life.saturating_add(healed);
        }
        let turns = outcome.duration.map_or(0, |duration| duration.turns);
        if turns == 0 {
            return;
        }
        target.effects.retain(|effect| effect.spell != spell);
        target.effects.push(ActiveEffect { spell, caster: caster.to_string(), turns_left: turns });
        if spell == Spell::Command {
            target.commanded_by = Some(caster.to_string());
            target.order = command.map(str::to_string);
        }
    }

    fn end_turn(&mut self, dismissed: &[String]) {
        for mini in self.minis.values_mut() {
            for effect in &mut mini.effects {
                effect.turns_left = effect.turns_left.saturating_sub(1);
            }
            let commanded = mini.under(Spell::Command);
            mini.effects.retain(|effect| effect.turns_left > 0);
            if commanded && !mini.under(Spell::Command) {
                mini.commanded_by = None;
                mini.order = None;
            }
            if dismissed.contains(&mini.spec.id) {
                mini.dismissed = true;
            }
        }
        for id in dismissed {
            self.forget(id);
        }
    }
}
