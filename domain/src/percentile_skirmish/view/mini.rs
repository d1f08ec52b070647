//! One mini as readers see it: its card, where it stands, its life and spell points, the
//! lasting spells on it with the turns they have left, its resistances with their costs, and
//! what it did and may still do this turn.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::percentile_skirmish::{
    battle::state::{MiniState, SkirmishState, Summoning},
    mini::{Armour, Resistance, Size, Weapon},
    rules::{allowance, Allowance},
    spells::{ActiveEffect, Spell},
    table::Point,
};

/// A resistance with its cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishResistanceView)]
pub struct ResistanceView {
    /// The resistance.
    pub resistance: Resistance,
    /// What it cost (seed 002 "RESISTANCES").
    pub cost: u32,
}

/// What a mini did and may still do this turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishTurnView)]
pub struct TurnView {
    /// It has been declared in a round of this turn.
    pub acted: bool,
    /// Inches moved.
    pub moved: f64,
    /// Its allowance if its movement ended where it stands, not running unless it ran.
    pub allowance: Allowance,
    /// It ran.
    pub ran: bool,
    /// Its movement is over (water's edge, fled).
    pub movement_over: bool,
    /// It fled under fear.
    pub fled: bool,
    /// Weapon attacks left.
    pub attacks_left: u8,
    /// Spell attacks left.
    pub spell_attacks_left: u8,
    /// Whether it could attack now (not a statue, not run, not hindered in water after moving).
    pub can_attack: bool,
}

/// One mini.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishMiniView)]
pub struct MiniView {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its owner.
    pub participant: String,
    /// Who acts for it now (a commanding caster's participant).
    pub acting_for: String,
    /// Where it stands.
    pub position: Point,
    /// Its facing, degrees counter-clockwise from the positive x axis.
    pub facing: f64,
    /// Its level.
    pub level: u32,
    /// Its size.
    pub size: Size,
    /// Its movement value.
    pub movement: f64,
    /// With speed and slow.
    pub movement_now: f64,
    /// Its initiative value.
    pub initiative: i32,
    /// With speed and slow.
    pub initiative_now: i32,
    /// Life points left.
    pub life: u32,
    /// Life points at the start.
    pub max_life: u32,
    /// Spell points left.
    pub spell_points: u32,
    /// Spell points at the start.
    pub max_spell_points: u32,
    /// Attacks a turn.
    pub attacks: u8,
    /// Spell attacks a turn.
    pub spell_attacks: u8,
    /// Its armour.
    pub armour: Vec<Armour>,
    /// Armour its spells give it.
    pub spell_armour: Vec<Armour>,
    /// Its weapons.
    pub weapons: Vec<Weapon>,
    /// Its resistances with their costs.
    pub resistances: Vec<ResistanceView>,
    /// The resistances' total cost.
    pub resistance_cost: u32,
    /// Its cost with resistances.
    pub points: u32,
    /// Spells it can cast.
    pub spells: Vec<Spell>,
    /// Lasting spells on it, with the turns they have left.
    pub effects: Vec<ActiveEffect>,
    /// For a golem or familiar: its caster.
    pub summoned: Option<Summoning>,
    /// The caster whose command spell it obeys.
    pub commanded_by: Option<String>,
    /// The simple command it carries out.
    pub order: Option<String>,
    /// For a golem: whether its caster controls it.
    pub golem_active: Option<bool>,
    /// Killed.
    pub killed: bool,
    /// A summoned mini whose time ran out.
    pub dismissed: bool,
    /// On a road.
    pub on_road: bool,
    /// The water it stands in, if any.
    pub water: Option<String>,
    /// The water it stands in that hinders it (halves its movement; it attacks only without
    /// moving).
    pub hindering_water: Option<String>,
    /// This turn.
    pub this_turn: TurnView,
}

pub(super) fn mini_view(state: &SkirmishState, mini: &MiniState) -> MiniView {
    let profile = &mini.spec.profile;
    let turn = &mini.this_turn;
    let start = turn.movement_start.unwrap_or(mini.position);
    let road_bonus = state.table.on_road(start) && state.table.on_road(mini.position);
    let can_attack = crate::percentile_skirmish::battle::decide::can_attack(state, mini);
    MiniView {
        id: mini.id().to_string(),
        name: profile.name.clone(),
        participant: mini.spec.participant.clone(),
        acting_for: state.acting_participant(mini).to_string(),
        position: mini.position,
        facing: mini.facing,
        level: profile.level,
        size: profile.size,
        movement: profile.movement,
        movement_now: mini.movement(),
        initiative: profile.initiative,
        initiative_now: mini.initiative(),
        life: mini.life,
        max_life: profile.life,
        spell_points: mini.spell_points,
        max_spell_points: profile.spell_points,
        attacks: profile.attacks,
        spell_attacks: profile.spell_attacks,
        armour: profile.armour.clone(),
        spell_armour: mini.spell_armour(&state.options),
        weapons: profile.weapons.clone(),
        resistances: profile.resistances.iter().map(|r| ResistanceView { resistance: *r, cost: r.cost() }).collect(),
        resistance_cost: crate::percentile_skirmish::mini::resistance_cost(&profile.resistances),
        points: profile.total_cost(),
        spells: profile.spells.clone(),
        effects: mini.effects.clone(),
        summoned: mini.summoned.clone(),
        commanded_by: mini.commanded_by.clone(),
        order: mini.order.clone(),
        golem_active: mini.is_golem().then_some(mini.golem_active),
        killed: mini.killed,
        dismissed: mini.dismissed,
        on_road: state.table.on_road(mini.position),
        water: state.table.water().find(|w| w.shape.holds(mini.position)).map(|w| w.name.clone()),
        hindering_water: state.penalising_water(mini),
        this_turn: TurnView {
            acted: turn.acted,
            moved: turn.moved,
            allowance: allowance(mini.movement(), turn.ran, turn.through_water, road_bonus),
            ran: turn.ran,
            movement_over: turn.movement_ended,
            fled: turn.fled,
            attacks_left: profile.attacks.saturating_sub(turn.attacks),
            spell_attacks_left: profile.spell_attacks.saturating_sub(turn.spell_attacks),
            can_attack,
        },
    }
}
