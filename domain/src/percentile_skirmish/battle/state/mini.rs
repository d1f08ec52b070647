//! One mini's state: where it stands, its life and spell points, the lasting spells on it,
//! who commands it, and what it did this turn; and what its spells make of its movement,
//! initiative, water and armour (seed 002 "Speed", "Slow", "Water walk", "Magic shield",
//! "Protection").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::percentile_skirmish::{
    mini::{Armour, MiniSpec},
    rules::{BattleOptions, WaterSense},
    spells::{ActiveEffect, Spell},
    table::Point,
};

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
    pub(super) fn new(spec: &MiniSpec, summoned: Option<Summoning>) -> Self {
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
