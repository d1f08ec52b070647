//! The folded state of a percentile-skirmish battle: the table, every mini with its life, spell
//! points, lasting spells and what it did this turn, the round in progress and what waits on
//! whom. `apply` never fails and never rolls: every number it needs is in the event.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    command::{ParticipantSpec, Summons},
    event::{DamageDealt, SkirmishEvent},
};
use crate::{
    dice::SealedDice,
    percentile_skirmish::{
        mini::{Armour, MiniSpec},
        rules::{in_penalising_water, BattleOptions, CombatChoice, WaterSense},
        spells::{ActiveEffect, Spell},
        table::{Point, Table},
    },
    DiceCursor,
};

/// Where the battle stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishPhase)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// No battle yet.
    #[default]
    NotCreated,
    /// A round waits for the participants' declarations.
    Declaring,
    /// Declared minis act, one after the other.
    Acting,
    /// Over.
    Ended,
}

/// What a mini did in the current turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishTurnRecord)]
pub struct TurnRecord {
    /// Declared in a round of this turn: it cannot act in another (seed 002 "TURN").
    pub acted: bool,
    /// Where its movement this turn began (for the road bonus).
    pub movement_start: Option<Point>,
    /// Inches moved this turn.
    pub moved: f64,
    /// It ran: no spells or combat this turn (seed 002 "RUNNING").
    pub ran: bool,
    /// It went through penalising water: movement halved for the turn.
    pub through_water: bool,
    /// Its movement is over for the turn (stopped at a water's edge, or fled).
    pub movement_ended: bool,
    /// Weapon attacks made this turn.
    pub attacks: u8,
    /// Spell attacks used this turn (spells cast, commands issued).
    pub spell_attacks: u8,
    /// It attacked while in penalising water: it may not move this turn.
    pub attacked_in_water: bool,
    /// It ran from a fear spell this turn.
    pub fled: bool,
}

/// How a summoned mini came.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishSummoning)]
pub struct Summoning {
    /// The caster.
    pub caster: String,
    /// Golem or familiar.
    pub spell: Spell,
}

/// One mini's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishMiniState)]
pub struct MiniState {
    /// As set up (or summoned); `spec.participant` is its owner.
    pub spec: MiniSpec,
    /// Where it stands.
    pub position: Point,
    /// Its facing, degrees.
    pub facing: f64,
    /// Life points left.
    pub life: u32,
    /// Spell points left.
    pub spell_points: u32,
    /// Killed (0 life points).
    pub killed: bool,
    /// A summoned mini whose time ran out: off the table, not lost.
    pub dismissed: bool,
    /// For a golem or familiar: who summoned it.
    pub summoned: Option<Summoning>,
    /// Lasting spells on it.
    pub effects: Vec<ActiveEffect>,
    /// The caster whose command spell it obeys: that caster's participant acts for it.
    pub commanded_by: Option<String>,
    /// The simple command it carries out (a commanded mini or a golem).
    pub order: Option<String>,
    /// For a golem: whether it is under its caster's control.
    pub golem_active: bool,
    /// This turn so far.
    pub this_turn: TurnRecord,
}

impl MiniState {
    fn new(spec: &MiniSpec, summoned: Option<Summoning>) -> Self {
        Self {
            position: spec.position,
            facing: spec.facing,
            life: spec.profile.life,
            spell_points: spec.profile.spell_points,
            killed: false,
            dismissed: false,
            golem_active: summoned.as_ref().is_some_and(|s| s.spell == Spell::Golem),
            summoned,
            effects: Vec::new(),
            commanded_by: None,
            order: None,
            this_turn: TurnRecord::default(),
            spec: spec.clone(),
        }
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    /// Whether it is on the table.
    pub fn in_play(&self) -> bool {
        !self.killed && !self.dismissed
    }

    /// Whether a lasting `spell` is on it.
    pub fn under(&self, spell: Spell) -> bool {
        self.effects.iter().any(|effect| effect.spell == spell && effect.turns_left > 0)
    }

    /// The lasting `spell` on it, if any.
    pub fn effect(&self, spell: Spell) -> Option<&ActiveEffect> {
        self.effects.iter().find(|effect| effect.spell == spell && effect.turns_left > 0)
    }

    /// Whether it is a golem.
    pub fn is_golem(&self) -> bool {
        self.summoned.as_ref().is_some_and(|s| s.spell == Spell::Golem)
    }

    /// Its movement value with speed (+1″) and slow (−1″), never below 0 (seed 002 "Speed",
    /// "Slow").
    pub fn movement(&self) -> f64 {
        let mut movement = self.spec.profile.movement;
        if self.under(Spell::Speed) {
            movement += 1.0;
        }
        if self.under(Spell::Slow) {
            movement -= 1.0;
        }
        movement.max(0.0)
    }

    /// Its initiative value with speed (+3) and slow (−3).
    pub fn initiative(&self) -> i32 {
        let mut initiative = self.spec.profile.initiative;
        if self.under(Spell::Speed) {
            initiative += 3;
        }
        if self.under(Spell::Slow) {
            initiative -= 3;
        }
        initiative
    }

    /// How it meets water (its size, or water walk's).
    pub fn water_sense(&self) -> WaterSense {
        WaterSense::of(self.spec.profile.size, self.under(Spell::WaterWalk))
    }

    /// The armour its spells give it: magical plate mail (protection), a large shield (magic
    /// shield).
    pub fn spell_armour(&self, options: &BattleOptions) -> Vec<Armour> {
        let mut pieces = Vec::new();
        if self.under(Spell::Protection) {
            pieces.push(Armour::magical_plate(options.magical_plate));
        }
        if self.under(Spell::MagicShield) {
            pieces.push(Armour::large_shield(options.large_shield));
        }
        pieces
    }

    /// Its spell range: "12″ + caster's level".
    pub fn spell_range(&self) -> f64 {
        12.0 + f64::from(self.spec.profile.level)
    }
}

/// A participant's declaration for the round in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishDeclarationState)]
pub struct DeclarationState {
    /// The participant.
    pub participant: String,
    /// Minis it may declare.
    pub eligible: Vec<String>,
    /// Minis that act whether declared or not.
    pub must_act: Vec<String>,
    /// What it declared, once it has.
    pub declared: Option<Vec<String>>,
}

/// The initiative round in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishRoundState)]
pub struct RoundState {
    /// The round's initiative value.
    pub value: i32,
    /// Every participant awaited or declared.
    pub declarations: Vec<DeclarationState>,
    /// The minis in the order they act, once everyone has declared.
    pub order: Vec<String>,
    /// The index in `order` of the mini acting now.
    pub current: usize,
}

/// An open combat waiting for both sides' options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishOpenCombat)]
pub struct OpenCombat {
    /// Its number.
    pub combat: u32,
    /// Side A.
    pub attacker: String,
    /// Side B.
    pub defender: String,
    /// A's weapon.
    pub weapon: String,
    /// The defender cannot attack.
    pub defender_helpless: bool,
    /// A's pick, once made.
    pub attacker_choice: Option<CombatChoice>,
    /// B's pick, once made.
    pub defender_choice: Option<CombatChoice>,
    /// B's weapon.
    pub defender_weapon: Option<String>,
}

/// An attack of opportunity a mini may make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishOpportunity)]
pub struct Opportunity {
    /// The mini that may attack.
    pub attacker: String,
    /// The mini that moved out of its reach.
    pub target: String,
}

/// A percentile-skirmish battle.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SkirmishState {
    /// Where it stands.
    pub phase: Phase,
    /// The table.
    pub table: Table,
    /// The participants.
    pub participants: Vec<ParticipantSpec>,
    /// The battle's readings.
    pub options: BattleOptions,
    /// What summoning spells bring.
    pub summons: Summons,
    /// Every mini by id, summoned ones included.
    pub minis: BTreeMap<String, MiniState>,
    /// The turn, from 1.
    pub turn: u32,
    /// The round in progress.
    pub round: Option<RoundState>,
    /// The open combat waiting for options.
    pub combat: Option<OpenCombat>,
    /// Combats so far.
    pub combats: u32,
    /// Attacks of opportunity waiting to be made or let go.
    pub opportunities: Vec<Opportunity>,
    /// The dice.
    pub dice: SealedDice,
    /// The winner, once over.
    pub winner: Option<String>,
    /// Why it ended.
    pub ended_reason: Option<String>,
}

impl SkirmishState {
    /// Whether a battle was created.
    pub fn created(&self) -> bool {
        self.phase != Phase::NotCreated
    }

    /// Whether it is over.
    pub fn ended(&self) -> bool {
        self.phase == Phase::Ended
    }

    /// The dice cursor; the seed is due to be revealed once the battle has ended.
    pub fn dice_cursor(&self) -> Option<DiceCursor> {
        self.dice.cursor(self.ended())
    }

    /// The mini `id`.
    pub fn mini(&self, id: &str) -> Option<&MiniState> {
        self.minis.get(id)
    }

    /// The participant `name`.
    pub fn participant(&self, name: &str) -> Option<&ParticipantSpec> {
        self.participants.iter().find(|participant| participant.name == name)
    }

    /// The participant acting for `mini` now: its commanding caster's, or its owner.
    pub fn acting_participant<'a>(&'a self, mini: &'a MiniState) -> &'a str {
        mini.commanded_by
            .as_deref()
            .and_then(|caster| self.mini(caster))
            .map_or(mini.spec.participant.as_str(), |caster| caster.spec.participant.as_str())
    }

    /// The mini acting now, if a round is in its acting phase.
    pub fn acting(&self) -> Option<&MiniState> {
        if self.phase != Phase::Acting {
            return None;
        }
        let round = self.round.as_ref()?;
        round.order.get(round.current).and_then(|id| self.mini(id))
    }

    /// The water `mini` stands in that penalises it, if any.
    pub fn penalising_water(&self, mini: &MiniState) -> Option<String> {
        in_penalising_water(&self.table, mini.position, mini.water_sense()).map(|water| water.name.clone())
    }

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
                if *kind == super::event::AttackKind::Opportunity {
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

    fn spell_took(&mut self, caster: &str, spell: Spell, outcome: &super::event::SpellOutcome, command: Option<&str>) {
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
