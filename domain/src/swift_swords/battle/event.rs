//! What happened in a swift-swords battle. Every event that rolled carries its dice and the
//! tape's `next_word`, so replaying the log needs no dice and verifying it redraws every die;
//! effects are recorded as the values they set, so evolve recomputes nothing.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    command::PoolKind,
    pending::{Destination, PendingAttack},
    record::AttackRecord,
    state::{ActionPool, Hold, Morale, SideSpec, StateKind},
};
use crate::{
    dice::Draw,
    swift_swords::{
        chariot::ChariotSpec,
        figure::{FearLevel, FigureSpec, Weight},
        injury::{InjuryEffect, Location, LocationRoll},
        options::BattleOptions,
        ranks::RankSide,
        rolls::PoolRoll,
        zones::{Direction, ZoneMap},
    },
    EventType,
};

/// A figure's prone flag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsProne)]
pub struct ProneFlag {
    /// The figure.
    pub figure: String,
    /// Prone now.
    pub prone: bool,
}

/// An event of a swift-swords battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type")]
pub enum SwiftSwordsEvent {
    /// The battle opened.
    #[serde(rename = "swift-swords.BattleCreated")]
    BattleCreated {
        /// The zones.
        map: ZoneMap,
        /// The sides.
        sides: Vec<SideSpec>,
        /// The figures as set up.
        figures: Vec<FigureSpec>,
        /// The chariots.
        chariots: Vec<ChariotSpec>,
        /// The readings.
        options: BattleOptions,
        /// `sha256(server seed)`.
        seed_commitment: String,
    },
    /// Entropy mixed into the dice.
    #[serde(rename = "dice.EntropyContributed")]
    EntropyContributed(crate::dice::EntropyContributed),
    /// The server seed, published.
    #[serde(rename = "dice.SeedRevealed")]
    SeedRevealed(crate::dice::SeedRevealed),
    /// A judge rolled (docs/DICE.md "A judge's roll").
    #[serde(rename = "dice.JudgeRolled")]
    JudgeRolled(crate::dice::JudgeRolled),
    /// A round began: everyone's action dice follow.
    #[serde(rename = "swift-swords.RoundStarted")]
    RoundStarted {
        /// The round (0 for a surprise round).
        round: u32,
        /// Sides surprised this round.
        surprised: Vec<String>,
    },
    /// A figure's action dice for the round.
    #[serde(rename = "swift-swords.ActionDiceRolled")]
    ActionDiceRolled {
        /// The figure.
        figure: String,
        /// Dice rolled at first (a carried die included).
        dice: u32,
        /// Every die drawn: the first roll, then one extra die per 6.
        draws: Vec<Draw>,
        /// Extra dice the 6s gave.
        extra: u32,
        /// A minor NPC's set values were given.
        set_values: bool,
        /// Fewer than one die: one die set at 3.
        minimum: bool,
        /// A die carried over was added.
        carried: bool,
        /// Dice its injuries burnt into 1s.
        burnt: u32,
        /// The hand it holds.
        hand: Vec<u8>,
        /// The tape after the draws.
        next_word: u64,
    },
    /// A bleeder's BODY roll at the start of the round.
    #[serde(rename = "swift-swords.BleederChecked")]
    BleederChecked {
        /// The figure.
        figure: String,
        /// The bleeding location.
        location: Location,
        /// The roll.
        roll: PoolRoll,
        /// The tape after it.
        next_word: u64,
    },
    /// A figure began an action, paying for it.
    #[serde(rename = "swift-swords.ActionBegun")]
    ActionBegun {
        /// The figure.
        figure: String,
        /// The action (`attack`, `move`, `pool` …).
        action: String,
        /// The dice paid.
        paid: Vec<u8>,
        /// Its exposure dice and fumble, cleared ("until that creatures next action").
        cleared_exposures: u32,
        /// Whether a Fumble was cleared.
        cleared_fumble: bool,
        /// Its pools were discarded (any action but Pool).
        pools_lost: bool,
        /// A hold it released by doing something else.
        released_hold: Option<String>,
    },
    /// The action paid for came to nothing (a State or panic not shaken off, a Scary fear).
    #[serde(rename = "swift-swords.ActionLost")]
    ActionLost {
        /// The figure.
        figure: String,
        /// Why.
        reason: String,
    },
    /// A figure's action is over.
    #[serde(rename = "swift-swords.ActionEnded")]
    ActionEnded {
        /// The figure.
        figure: String,
        /// Dice discarded (its last option taken, or the 1s of whoever ran out).
        discarded: Vec<u8>,
        /// It spent its last usable die: it calls the refresh.
        refresh: bool,
        /// It was its last option of the round.
        last_option: bool,
    },
    /// A refresh was called: everyone else gets one more option.
    #[serde(rename = "swift-swords.RefreshCalled")]
    RefreshCalled {
        /// Who called it (absent: the judge, or nobody could act).
        by: Option<String>,
        /// Dice the caller discarded.
        discarded: Vec<u8>,
    },
    /// A figure keeps one die for the next round.
    #[serde(rename = "swift-swords.DieCarried")]
    DieCarried {
        /// The figure.
        figure: String,
        /// Dice discarded besides.
        discarded: Vec<u8>,
    },
    /// A figure passes its last option.
    #[serde(rename = "swift-swords.OptionPassed")]
    OptionPassed {
        /// The figure.
        figure: String,
        /// Dice discarded.
        discarded: Vec<u8>,
    },
    /// A figure holds its action.
    #[serde(rename = "swift-swords.ActionHeld")]
    ActionHeld {
        /// The figure.
        figure: String,
    },
    /// A 1 spent (effort, a bump, a free roll).
    #[serde(rename = "swift-swords.OneSpent")]
    OneSpent {
        /// The figure.
        figure: String,
        /// What for.
        purpose: String,
    },
    /// A figure's dice in hand changed (burnt, lost, discarded).
    #[serde(rename = "swift-swords.HandChanged")]
    HandChanged {
        /// The figure.
        figure: String,
        /// The hand now.
        hand: Vec<u8>,
        /// Why.
        reason: String,
    },
    /// A roll to remove a State.
    #[serde(rename = "swift-swords.StateRolled")]
    StateRolled {
        /// The figure.
        figure: String,
        /// The State.
        state: StateKind,
        /// The roll.
        roll: PoolRoll,
        /// The tape after it.
        next_word: u64,
    },
    /// A figure took a State (its pools are lost).
    #[serde(rename = "swift-swords.StateTaken")]
    StateTaken {
        /// The figure.
        figure: String,
        /// The State.
        state: StateKind,
        /// Why.
        cause: String,
    },
    /// A State removed.
    #[serde(rename = "swift-swords.StateRemoved")]
    StateRemoved {
        /// The figure.
        figure: String,
        /// The State.
        state: StateKind,
        /// How (`rolled`, `die expended`, `healed`).
        how: String,
    },
    /// A figure's morale changed: panicked, crushed, rallied, or its first action taken.
    #[serde(rename = "swift-swords.MoraleChanged")]
    MoraleChanged {
        /// The figure.
        figure: String,
        /// Its morale now.
        morale: Morale,
        /// The Spirit roll, if one was made.
        roll: Option<PoolRoll>,
        /// Why.
        cause: String,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A Spirit roll against fear.
    #[serde(rename = "swift-swords.FearChecked")]
    FearChecked {
        /// The figure.
        figure: String,
        /// The worst fear present.
        level: FearLevel,
        /// Its cause.
        source: String,
        /// The roll.
        roll: PoolRoll,
        /// The tape after it.
        next_word: u64,
    },
    /// An attack declared: its target may defend.
    #[serde(rename = "swift-swords.AttackDeclared")]
    AttackDeclared {
        /// The attack.
        attack: PendingAttack,
    },
    /// The target declared (and rolled) a defence.
    #[serde(rename = "swift-swords.DefenceDeclared")]
    DefenceDeclared {
        /// The defender.
        figure: String,
        /// The attack.
        attack: u32,
        /// Dodge, Block or Parry.
        defence: crate::swift_swords::defence::DefenceKind,
        /// The die paid.
        paid: u8,
        /// A Dodge or Block roll (a Parry is rolled with the attack).
        roll: Option<PoolRoll>,
        /// The pool it made (Block: successes, plus the device under the default `block_pool`
        /// reading; none without a success).
        pool: u32,
        /// The tape after the roll.
        next_word: u64,
    },
    /// An attack resolved; its effects follow.
    #[serde(rename = "swift-swords.AttackResolved")]
    AttackResolved {
        /// Everything about it.
        record: Box<AttackRecord>,
        /// The tape after its dice.
        next_word: u64,
    },
    /// An attack declared but never rolled: its attacker fell before its turn came.
    #[serde(rename = "swift-swords.AttackCancelled")]
    AttackCancelled {
        /// The attack's number.
        attack: u32,
        /// Why.
        reason: String,
    },
    /// A figure's defence pools now.
    #[serde(rename = "swift-swords.DefencePoolsChanged")]
    DefencePoolsChanged {
        /// The figure.
        figure: String,
        /// Dodge pool.
        dodge: u32,
        /// Block pool.
        block: u32,
        /// Why.
        reason: String,
    },
    /// A figure's action pool now.
    #[serde(rename = "swift-swords.ActionPoolChanged")]
    ActionPoolChanged {
        /// The figure.
        figure: String,
        /// The pool (absent: none).
        pool: Option<ActionPool>,
        /// Why.
        reason: String,
    },
    /// The exposure dice in front of a figure, and whether it is Fumbled.
    #[serde(rename = "swift-swords.ExposuresChanged")]
    ExposuresChanged {
        /// The figure.
        figure: String,
        /// Exposure dice now.
        exposures: u32,
        /// Fumbled now.
        fumbled: bool,
        /// Why.
        reason: String,
    },
    /// Ranks marked lost.
    #[serde(rename = "swift-swords.RanksLost")]
    RanksLost {
        /// The figure.
        figure: String,
        /// The side hit.
        side: RankSide,
        /// Ranks lost on it.
        lost: u32,
        /// Ranks crossed over to the other side.
        crossover: u32,
        /// Why.
        cause: String,
    },
    /// A figure is Out of Action.
    #[serde(rename = "swift-swords.OutOfAction")]
    OutOfAction {
        /// The figure.
        figure: String,
        /// Why.
        cause: String,
    },
    /// A BODY roll against death (an OoA figure hit again, massive damage).
    #[serde(rename = "swift-swords.DeathRolled")]
    DeathRolled {
        /// The figure.
        figure: String,
        /// The roll.
        roll: PoolRoll,
        /// The tape after it.
        next_word: u64,
    },
    /// A figure is Killed in Action.
    #[serde(rename = "swift-swords.Killed")]
    Killed {
        /// The figure.
        figure: String,
        /// Why.
        cause: String,
    },
    /// The injury table: location and effect.
    #[serde(rename = "swift-swords.InjuryRolled")]
    InjuryRolled {
        /// The figure.
        figure: String,
        /// The four location dice.
        location_draws: Vec<Draw>,
        /// The location roll read.
        location: LocationRoll,
        /// The effect die.
        effect_draw: Draw,
        /// +1 for a Killing Blow or Massive damage.
        modifier: u32,
        /// The effect.
        effect: InjuryEffect,
        /// Dice off the rolls it calls for (−2d rows).
        roll_penalty: u32,
        /// A bleeder at a location already bleeding does not accumulate.
        repeated_bleeder: bool,
        /// The tape after the dice.
        next_word: u64,
    },
    /// A roll to resist something at once: Will against unconsciousness, BODY against paralysis
    /// or a Kill, DEX against a fall, a disarm or a broken weapon.
    #[serde(rename = "swift-swords.Resisted")]
    Resisted {
        /// The figure.
        figure: String,
        /// What it resisted (`Unconscious`, `a fall while moving`, `disarm`).
        against: String,
        /// The roll.
        roll: PoolRoll,
        /// The tape after it.
        next_word: u64,
    },
    /// Weapons dropped, broken or readied.
    #[serde(rename = "swift-swords.WeaponsChanged")]
    WeaponsChanged {
        /// The figure.
        figure: String,
        /// Dropped now.
        dropped: Vec<String>,
        /// Broken now.
        broken: Vec<String>,
        /// Why.
        reason: String,
    },
    /// A figure placed: its zone, group and cover after a move, a charge, a withdrawal.
    #[serde(rename = "swift-swords.Placed")]
    Placed {
        /// The figure.
        figure: String,
        /// Its zone.
        zone: String,
        /// Its group.
        group: Option<String>,
        /// The cover it holds.
        cover: Option<String>,
        /// Why.
        reason: String,
    },
    /// A new group: InContact when enemies are in it.
    #[serde(rename = "swift-swords.GroupFormed")]
    GroupFormed {
        /// Its id.
        group: String,
        /// The number it took.
        number: u32,
        /// Its members.
        members: Vec<String>,
    },
    /// Figures went InClose, or left it.
    #[serde(rename = "swift-swords.CloseChanged")]
    CloseChanged {
        /// The figure.
        figure: String,
        /// The opponents it is InClose with now.
        close_with: Vec<String>,
        /// Prone flags set with it.
        prone: Vec<ProneFlag>,
        /// Why.
        reason: String,
    },
    /// Prone or standing.
    #[serde(rename = "swift-swords.ProneChanged")]
    ProneChanged {
        /// The figure.
        figure: String,
        /// Prone now.
        prone: bool,
        /// Why.
        reason: String,
    },
    /// An opposed roll (knock-down, breaking a hold, subdual).
    #[serde(rename = "swift-swords.ContestRolled")]
    ContestRolled {
        /// What for.
        contest: String,
        /// The one acting.
        figure: String,
        /// Its roll.
        roll: PoolRoll,
        /// Damage its roll does (subdual).
        damage: Option<u32>,
        /// The opponent.
        opponent: String,
        /// The opponent's roll.
        opponent_roll: PoolRoll,
        /// Whether the one acting won.
        won: bool,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A hold applied, changed, reversed or ended.
    #[serde(rename = "swift-swords.HoldChanged")]
    HoldChanged {
        /// The victim.
        victim: String,
        /// The hold now (absent: broken, abandoned, ended).
        hold: Option<Hold>,
        /// Why.
        reason: String,
    },
    /// A roll of a hold's damage or improvement (the victim cannot defend).
    #[serde(rename = "swift-swords.GrappleRolled")]
    GrappleRolled {
        /// The holder.
        figure: String,
        /// The victim.
        victim: String,
        /// The level rolled at.
        level: Weight,
        /// The roll.
        roll: PoolRoll,
        /// Damage done.
        damage: u32,
        /// The tape after it.
        next_word: u64,
    },
    /// A Pool action added a die.
    #[serde(rename = "swift-swords.Pooled")]
    Pooled {
        /// The figure.
        figure: String,
        /// The pool.
        into: PoolKind,
        /// Its size now.
        size: u32,
    },
    /// A skill roll for the judge to adjudicate.
    #[serde(rename = "swift-swords.SkillRolled")]
    SkillRolled {
        /// The figure.
        figure: String,
        /// The skill.
        skill: String,
        /// What for.
        purpose: String,
        /// The roll.
        roll: PoolRoll,
        /// The tape after it.
        next_word: u64,
    },
    /// A flight.
    #[serde(rename = "swift-swords.Flew")]
    Flew {
        /// The flyer.
        figure: String,
        /// Zones entered.
        zones: Vec<String>,
        /// Its facing now.
        facing: Direction,
        /// Turns made.
        turns: u32,
        /// Still flying (false: landed or hovering).
        flying: bool,
    },
    /// A chariot driven.
    #[serde(rename = "swift-swords.Driven")]
    Driven {
        /// The chariot.
        chariot: String,
        /// Zones entered.
        zones: Vec<String>,
        /// Its facing now.
        facing: Direction,
        /// The driving roll for a second turn, if one was needed.
        roll: Option<PoolRoll>,
        /// It flipped over (a fumbled driving roll).
        flipped: bool,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A move out of contact waits for the opportunity attacks of the enemies left.
    #[serde(rename = "swift-swords.OpportunityOffered")]
    OpportunityOffered {
        /// The mover.
        mover: String,
        /// Where to.
        destination: Destination,
        /// The enemies who may strike.
        enemies: Vec<String>,
    },
    /// An enemy answered: struck (its attack follows) or let the mover go.
    #[serde(rename = "swift-swords.OpportunityAnswered")]
    OpportunityAnswered {
        /// The enemy.
        figure: String,
        /// Whether it strikes.
        strikes: bool,
    },
    /// The awaited move ended (carried out by `Placed` events, or prevented).
    #[serde(rename = "swift-swords.MoveSettled")]
    MoveSettled {
        /// The mover.
        mover: String,
        /// Whether it went.
        moved: bool,
    },
    /// A figure's state marks changed by an attack's special results or the judge.
    #[serde(rename = "swift-swords.FigureMarked")]
    FigureMarked {
        /// The figure.
        figure: String,
        /// Armour lost so far.
        armour_lost: u32,
        /// Hamstrung.
        hamstrung: bool,
        /// Defence it may still use until its next action.
        defence_limit: crate::swift_swords::battle::state::DefenceLimit,
        /// A flyer open to held ground attacks.
        swooped: bool,
        /// Why.
        reason: String,
    },
    /// The judge changed a figure's bonus ranks or action dice modifier.
    #[serde(rename = "swift-swords.FigureAdjusted")]
    FigureAdjusted {
        /// The figure.
        figure: String,
        /// Bonus physical ranks.
        bonus_physical: u8,
        /// Bonus mental ranks.
        bonus_mental: u8,
        /// Modifier to its action dice.
        ad_modifier: i32,
        /// Why.
        reason: String,
    },
    /// A roll to avoid fatigue (Body or Will).
    #[serde(rename = "swift-swords.FatigueRolled")]
    FatigueRolled {
        /// The figure.
        figure: String,
        /// The roll.
        roll: PoolRoll,
        /// The tape after it.
        next_word: u64,
    },
    /// Ranks, States, injuries or bleeders healed.
    #[serde(rename = "swift-swords.Healed")]
    Healed {
        /// The figure.
        figure: String,
        /// Physical losses healed.
        physical: u32,
        /// Mental losses healed.
        mental: u32,
        /// Crossover regained on the physical side.
        crossover_physical: u32,
        /// Crossover regained on the mental side.
        crossover_mental: u32,
        /// Injuries healed, by location.
        injuries: Vec<Location>,
        /// Bleeders stopped.
        bleeders: bool,
        /// A week of natural healing counted.
        week: bool,
        /// Back in action: it was Out of Action and its ranks are above the line again.
        revived: bool,
        /// Why.
        reason: String,
    },
    /// A healer's roll over a week of rest.
    #[serde(rename = "swift-swords.HealerRolled")]
    HealerRolled {
        /// The patient.
        figure: String,
        /// The healer.
        healer: String,
        /// The Healing roll.
        roll: PoolRoll,
        /// The tape after it.
        next_word: u64,
    },
    /// The battle is over.
    #[serde(rename = "swift-swords.BattleEnded")]
    BattleEnded {
        /// The winning side, if any.
        winner: Option<String>,
        /// Why.
        reason: String,
    },
}

impl EventType for SwiftSwordsEvent {}
