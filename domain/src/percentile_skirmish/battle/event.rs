//! What happened in a percentile-skirmish battle. Every event that rolled carries its dice and
//! the tape's `next_word`, every hit the damage it did, every move where it went: replaying the
//! log needs no dice, and verifying it redraws every die.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::command::{ParticipantSpec, Summons};
pub use super::records::{AttackKind, DamageDealt, Declaration, Eligible, Expiry, OptionRoll, SpellOutcome};
use crate::{
    dice::Draw,
    percentile_skirmish::{
        mini::MiniSpec,
        rules::{Allowance, AttackOption, BattleOptions, Chance, CombatChoice, Exchange, InitiativeRoll, RangeBand},
        spells::Spell,
        table::{Point, Table},
    },
    EventType,
};

/// An event of a percentile-skirmish battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type")]
pub enum SkirmishEvent {
    /// The battle opened.
    #[serde(rename = "percentile-skirmish.BattleCreated")]
    BattleCreated {
        /// The table.
        table: Table,
        /// The participants.
        participants: Vec<ParticipantSpec>,
        /// The minis as set up.
        minis: Vec<MiniSpec>,
        /// The battle's readings.
        options: BattleOptions,
        /// What summoning spells bring.
        summons: Summons,
        /// `sha256(server seed)`.
        seed_commitment: String,
    },
    /// Entropy mixed into the dice.
    #[serde(rename = "dice.EntropyContributed")]
    EntropyContributed(crate::dice::EntropyContributed),
    /// A turn began: every mini may act once in it (seed 002 "TURN").
    #[serde(rename = "percentile-skirmish.TurnStarted")]
    TurnStarted {
        /// The turn, from 1.
        turn: u32,
    },
    /// An initiative round opened for declarations (seed 002 "TURN", "INITIATIVE").
    #[serde(rename = "percentile-skirmish.RoundStarted")]
    RoundStarted {
        /// The turn.
        turn: u32,
        /// The round's initiative value.
        round: i32,
        /// Who may declare which minis; participants with none are not awaited.
        eligible: Vec<Eligible>,
    },
    /// A participant declared its minis for the round (sealed until all have, by default).
    #[serde(rename = "percentile-skirmish.Declared")]
    Declared {
        /// The turn.
        turn: u32,
        /// The round.
        round: i32,
        /// The participant.
        participant: String,
        /// The minis it declared.
        minis: Vec<String>,
    },
    /// Every participant has declared: who acts, the percentile rolls when several minis do,
    /// and the order they act in (seed 002 "INITIATIVE").
    #[serde(rename = "percentile-skirmish.RoundDeclared")]
    RoundDeclared {
        /// The turn.
        turn: u32,
        /// The round.
        round: i32,
        /// Every declaration, must-act minis included.
        declarations: Vec<Declaration>,
        /// The rolls (none when fewer than two minis act).
        initiative: Vec<InitiativeRoll>,
        /// The minis in the order they act.
        order: Vec<String>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A mini moved (or turned, or fled).
    #[serde(rename = "percentile-skirmish.Moved")]
    Moved {
        /// The mini.
        mini: String,
        /// Where it was.
        from: Point,
        /// The points it passed and reached, after `from`.
        path: Vec<Point>,
        /// Where it stands now.
        to: Point,
        /// Inches moved by this move.
        distance: f64,
        /// Inches moved this turn, this move included.
        moved_this_turn: f64,
        /// The turn's allowance as it now stands.
        allowance: Allowance,
        /// The water whose edge ended its movement for the turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stopped_at_water: Option<String>,
        /// Its facing now.
        facing: f64,
        /// Whether this was the run away from a fear spell's caster.
        fled: bool,
        /// Minis whose melee reach it left: each may make an attack of opportunity.
        provoked: Vec<String>,
    },
    /// An attack rolled: a range attack, a flank attack or an attack of opportunity.
    #[serde(rename = "percentile-skirmish.Attacked")]
    Attacked {
        /// Which kind.
        kind: AttackKind,
        /// The attacker.
        attacker: String,
        /// The target.
        target: String,
        /// The weapon.
        weapon: String,
        /// Inches between them.
        distance: f64,
        /// The range band (range attacks).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        band: Option<RangeBand>,
        /// The chance rolled against.
        chance: Chance,
        /// The percentile die.
        roll: Draw,
        /// Whether it hit.
        hit: bool,
        /// The damage, when it hit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage: Option<DamageDealt>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// An attack of opportunity was let go.
    #[serde(rename = "percentile-skirmish.OpportunityDeclined")]
    OpportunityDeclined {
        /// The mini that could have attacked.
        attacker: String,
        /// The mini that moved.
        target: String,
    },
    /// Open combat began: both sides now pick their options (seed 002 "Open combat").
    #[serde(rename = "percentile-skirmish.OpenCombatStarted")]
    OpenCombatStarted {
        /// The combat's number in this battle.
        combat: u32,
        /// Side A, the attacker.
        attacker: String,
        /// Side B, the defender.
        defender: String,
        /// The attacker's weapon.
        weapon: String,
        /// Whether the defender cannot attack (a statue): its option is rolled and its hit does
        /// nothing.
        defender_helpless: bool,
    },
    /// One side picked its option (the pick is sealed from the other side until both have).
    #[serde(rename = "percentile-skirmish.CombatOptionChosen")]
    CombatOptionChosen {
        /// The combat.
        combat: u32,
        /// The mini picking.
        mini: String,
        /// The pick.
        choice: CombatChoice,
        /// The defender's weapon.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<String>,
    },
    /// Both sides have picked: the options, any dice, who hit and the damage.
    #[serde(rename = "percentile-skirmish.OpenCombatResolved")]
    OpenCombatResolved {
        /// The combat.
        combat: u32,
        /// Side A.
        attacker: String,
        /// Side B.
        defender: String,
        /// A's pick.
        attacker_choice: CombatChoice,
        /// B's pick.
        defender_choice: CombatChoice,
        /// A's option (rolled for a random pick).
        attacker_option: AttackOption,
        /// B's option.
        defender_option: AttackOption,
        /// The d6 of random picks.
        option_rolls: Vec<OptionRoll>,
        /// The percentile die when both picked the same option.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        percentile: Option<Draw>,
        /// Who hits.
        exchange: Exchange,
        /// The damage of each hit, A's first.
        damage: Vec<DamageDealt>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A spell was cast: its cost, and what it did to each mini or point.
    #[serde(rename = "percentile-skirmish.SpellCast")]
    SpellCast {
        /// The caster.
        caster: String,
        /// The spell.
        spell: Spell,
        /// Spell points spent.
        cost: u32,
        /// The caster's spell points left.
        spell_points_left: u32,
        /// The mini it was cast at.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// The point it was cast at.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
        /// The first simple command (command, golem).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<String>,
        /// What it did: one entry per mini (every mini in a fireball's path), or one for a point.
        outcomes: Vec<SpellOutcome>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A golem or familiar appeared.
    #[serde(rename = "percentile-skirmish.Summoned")]
    Summoned {
        /// The new mini (id `<caster>-golem` or `<caster>-familiar`).
        mini: MiniSpec,
        /// Its caster.
        caster: String,
        /// Golem or familiar.
        spell: Spell,
        /// Turns it stays.
        turns: u32,
        /// The golem's first command.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<String>,
    },
    /// The caster teleported, facing as before (seed 002 "Teleport").
    #[serde(rename = "percentile-skirmish.Teleported")]
    Teleported {
        /// The caster.
        mini: String,
        /// Where it was.
        from: Point,
        /// Where it is.
        to: Point,
    },
    /// A caster tried to give a commanded mini or its golem a new simple command.
    #[serde(rename = "percentile-skirmish.CommandIssued")]
    CommandIssued {
        /// The caster.
        caster: String,
        /// The commanded mini or golem.
        mini: String,
        /// The command.
        command: String,
        /// What the roll "as if casting a spell" was.
        outcome: SpellOutcome,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A command spell ended before its time: out of range, or its caster killed.
    #[serde(rename = "percentile-skirmish.CommandEnded")]
    CommandEnded {
        /// The mini freed.
        mini: String,
        /// The caster.
        caster: String,
        /// Why.
        reason: String,
    },
    /// A golem went inactive: out of its caster's range, or its caster killed.
    #[serde(rename = "percentile-skirmish.GolemInactive")]
    GolemInactive {
        /// The golem.
        golem: String,
        /// Its caster.
        caster: String,
        /// Why.
        reason: String,
    },
    /// A mini's actions for the round are over.
    #[serde(rename = "percentile-skirmish.ActionsEnded")]
    ActionsEnded {
        /// The mini.
        mini: String,
        /// Why (`"done"`, `"killed"`).
        reason: String,
    },
    /// An initiative round ended.
    #[serde(rename = "percentile-skirmish.RoundEnded")]
    RoundEnded {
        /// The turn.
        turn: u32,
        /// The round.
        round: i32,
    },
    /// A turn ended: every lasting spell has a turn less; these ran out, and these summoned
    /// minis left the table.
    #[serde(rename = "percentile-skirmish.TurnEnded")]
    TurnEnded {
        /// The turn.
        turn: u32,
        /// Spells that ran out.
        expired: Vec<Expiry>,
        /// Golems and familiars whose time was up.
        dismissed: Vec<String>,
    },
    /// A judge set a mini's life points.
    #[serde(rename = "percentile-skirmish.LifePointsSet")]
    LifePointsSet {
        /// The mini.
        mini: String,
        /// Its life points now.
        life: u32,
        /// Whether that killed it.
        killed: bool,
        /// Why.
        reason: String,
    },
    /// The battle ended.
    #[serde(rename = "percentile-skirmish.BattleEnded")]
    BattleEnded {
        /// The winner.
        #[serde(default)]
        winner: Option<String>,
        /// Why.
        reason: String,
    },
    /// The server seed, published.
    #[serde(rename = "dice.SeedRevealed")]
    SeedRevealed(crate::dice::SeedRevealed),
    /// A judge rolled (docs/DICE.md "A judge's roll").
    #[serde(rename = "dice.JudgeRolled")]
    JudgeRolled(crate::dice::JudgeRolled),
}

impl EventType for SkirmishEvent {}
