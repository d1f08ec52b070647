//! What the GM (judge) and the players ask of a swift-swords battle.
//!
//! `create_battle` is sent as `POST /v1/battles` and `reveal_seed` as `POST
//! /v1/battles/{id}/reveal`; every other type to `/actions`. Actions name the acting `figure`
//! and may name the dice they `pay` with (faces; Herald picks the fewest, lowest dice that reach
//! the cost when absent).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    pending::{AttackOptions, Destination},
    state::SideSpec,
};
use crate::swift_swords::{
    chariot::{ChariotSpec, DriveStep},
    damage::Tactic,
    defence::DefenceKind,
    figure::{FearLevel, FigureSpec},
    flight::FlightStep,
    injury::Location,
    options::BattleOptions,
    ranks::RankSide,
    zones::ZoneMap,
};

/// A defence declared against an attack (seed 004 "Defences").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsDefenceChoice)]
pub enum DefenceChoice {
    /// No new defence (pools already in front of the defender still work).
    None,
    /// Roll a Dodge pool.
    Dodge,
    /// Roll a Block pool.
    Block,
    /// Parry.
    Parry,
}

impl DefenceChoice {
    /// The defence it declares.
    pub fn kind(self) -> Option<DefenceKind> {
        match self {
            Self::None => None,
            Self::Dodge => Some(DefenceKind::Dodge),
            Self::Block => Some(DefenceKind::Block),
            Self::Parry => Some(DefenceKind::Parry),
        }
    }
}

/// A pool a Pool action adds a die to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsPoolKind)]
pub enum PoolKind {
    /// The Dodge pool.
    Dodge,
    /// The Block pool.
    Block,
    /// The action pool.
    Action,
}

/// What the holder does with its hold (seed 004 "InClose Combat").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsGrappleChoice)]
pub enum GrappleChoice {
    /// Inflict the hold's damage (a base hold does Light damage).
    Damage,
    /// A new attack: on a success the hold improves one damage class.
    Improve,
    /// Subdue: the hold's level against the victim's BODY and size; the victim is OoA if it loses.
    Subdue,
}

/// What a free 1-AD is spent on, between actions (seed 004 "AD = 1 (1-AD)").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsOneUse)]
pub enum OneUse {
    /// An extra roll to remove a State ("They can use a 1-AD to roll to remove a single STATE").
    RemoveState,
    /// A new Spirit roll to end a panic ("or by using a 1 dice to trigger a new roll").
    Rally,
}

/// A command to a swift-swords battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum SwiftSwordsCommand {
    /// Open the battle (a judge or admin).
    CreateBattle {
        /// The zones and their cover.
        map: ZoneMap,
        /// The sides.
        sides: Vec<SideSpec>,
        /// Every figure.
        figures: Vec<FigureSpec>,
        /// Chariots.
        chariots: Vec<ChariotSpec>,
        /// The battle's readings.
        options: BattleOptions,
        /// `sha256(server seed)`, hex.
        seed_commitment: String,
    },
    /// Mix entropy into the dice (before the first die).
    ContributeEntropy {
        /// Any text.
        entropy: String,
    },
    /// Publish the server seed.
    RevealSeed {
        /// 64 hex digits.
        seed: String,
        /// `sha256` of a fresh sealed seed, filled in by the service when a judge reveals before
        /// the end: every later die comes from it (docs/DICE.md "Re-sealing").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_commitment: Option<String>,
    },
    /// A judge rolls dice the rules leave to the judge (docs/DICE.md "A judge's roll").
    JudgeRoll(crate::dice::JudgeRoll),
    /// The judge begins the encounter: surprise determined, the first action dice rolled.
    Begin {
        /// Sides caught by surprise: no action dice and no defence but passive armour in the
        /// surprise round.
        #[serde(default)]
        surprised: Vec<String>,
        /// Extra dice for the surprising sides when the surprise is more severe.
        #[serde(default)]
        surprise_dice: u8,
    },
    /// Attack (melee, reach, missile or mental), optionally charging in from an adjacent zone.
    Attack {
        /// The attacker.
        figure: String,
        /// Its weapon.
        weapon: String,
        /// The targets: one, two for a double strike, up to a formation's attacks for a mob.
        targets: Vec<String>,
        /// Charge into the target's zone and melee (from an adjacent zone, or Alone in its zone).
        #[serde(default)]
        charge: bool,
        /// A special tactic.
        #[serde(default)]
        tactic: Tactic,
        /// Choices declared with the attack.
        #[serde(default)]
        options: AttackOptions,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// Break: an attack roll whose successes strip the target's defence pools (cost 4).
    BreakPool {
        /// The attacker.
        figure: String,
        /// Its weapon.
        weapon: String,
        /// The target.
        target: String,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// The target of the attack awaited declares its defence (one die of any value but 1).
    Defend {
        /// The target.
        figure: String,
        /// The defence.
        defence: DefenceChoice,
        /// The die to pay with.
        #[serde(default)]
        pay: Option<u8>,
        /// Spend a 1 for +1 die on the defence roll.
        #[serde(default)]
        effort: bool,
        /// Spend a 1 to raise a defence die after the roll.
        #[serde(default)]
        bump: bool,
        /// With a Parry: take all the attacker's exposure dice for an immediate attack.
        #[serde(default)]
        counter: bool,
        /// The weapon for the counter-attack (default: the first usable melee weapon).
        #[serde(default)]
        counter_weapon: Option<String>,
        /// Take a rank loss instead of a State from this attack.
        #[serde(default)]
        take_rank: bool,
    },
    /// Move: to an adjacent zone, out of contact, alongside a figure, into cover. Leaving a melee
    /// this way risks the opportunity attacks of the enemies left.
    Move {
        /// The mover.
        figure: String,
        /// Where to.
        to: Destination,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// Withdraw: from InClose (standing up, still InContact), or from InContact to Alone, without
    /// opportunity attacks.
    Withdraw {
        /// The figure.
        figure: String,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// An enemy left behind strikes the figure moving out of contact (one die of any value but 1).
    OpportunityAttack {
        /// The attacker.
        figure: String,
        /// Its weapon.
        weapon: String,
        /// The die to pay with.
        #[serde(default)]
        pay: Option<u8>,
    },
    /// An enemy left behind lets the mover go.
    LetGo {
        /// The enemy.
        figure: String,
    },
    /// Go InClose with an opponent of the melee group (prone unless 3× its size).
    CloseIn {
        /// The figure.
        figure: String,
        /// The opponent.
        target: String,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// Knock down an opponent standing InClose: BODY against BODY with the size difference.
    KnockDown {
        /// The figure.
        figure: String,
        /// The opponent.
        target: String,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// The holder uses its hold.
    Grapple {
        /// The holder.
        figure: String,
        /// Damage, improve or subdue.
        choice: GrappleChoice,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// The held victim tries to break (or, winning by two, reverse) the hold: BODY against BODY.
    BreakHold {
        /// The victim.
        figure: String,
        /// Try to reverse it rather than break it.
        #[serde(default)]
        reverse: bool,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// The held victim yields (Out of Action).
    Yield {
        /// The victim.
        figure: String,
    },
    /// Stand up (prone outside InClose).
    StandUp {
        /// The figure.
        figure: String,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// Pick up or draw a weapon again.
    ReadyWeapon {
        /// The figure.
        figure: String,
        /// The weapon.
        weapon: String,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// Pool: add one die (not a 1) to a defence pool or the action pool.
    Pool {
        /// The figure.
        figure: String,
        /// Which pool.
        into: PoolKind,
        /// The die to add.
        #[serde(default)]
        pay: Option<u8>,
    },
    /// Start an action pool: the base cost paid now, a die added each time the figure acts.
    StartPool {
        /// The figure.
        figure: String,
        /// What it is for.
        name: String,
        /// The action's base pip cost.
        cost: u8,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// A skill roll the GM adjudicates (a spell, a feat): pays its cost and rolls.
    SkillRoll {
        /// The figure.
        figure: String,
        /// The skill (a characteristic, or a skill of the figure).
        skill: String,
        /// The pip cost.
        cost: u8,
        /// What it is for.
        purpose: String,
        /// A spell: casting penalties apply.
        #[serde(default)]
        casting: bool,
        /// Release the action pool into it.
        #[serde(default)]
        from_pool: bool,
        /// Spend a 1 for +1 die.
        #[serde(default)]
        effort: bool,
        /// Spend a 1 to raise a die after the roll.
        #[serde(default)]
        bump: bool,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// Expend a die and do nothing else: one State removed.
    Recover {
        /// The figure.
        figure: String,
        /// The die.
        #[serde(default)]
        pay: Option<u8>,
    },
    /// A crushed or panicked figure's action: the Spirit roll to recover (the first action after
    /// being crushed does nothing).
    Rally {
        /// The figure.
        figure: String,
        /// The die.
        #[serde(default)]
        pay: Option<u8>,
    },
    /// Spend a 1 on a free action between actions.
    UseOne {
        /// The figure.
        figure: String,
        /// What for.
        on: OneUse,
    },
    /// Hold the action: the countdown passes on; act later at any moment nothing is awaited.
    Hold {
        /// The figure.
        figure: String,
    },
    /// Call the refresh: the figure cannot pay for what it wants to do.
    CallRefresh {
        /// The figure (absent: the judge calls it).
        #[serde(default)]
        figure: Option<String>,
    },
    /// In a refresh: keep one die for the next round instead of acting.
    CarryOver {
        /// The figure.
        figure: String,
    },
    /// In a refresh: neither act nor keep a die.
    Pass {
        /// The figure.
        figure: String,
    },
    /// Fly: turns and zones within speed (or dive) and turn rate; circle to stay aloft in place.
    Fly {
        /// The flyer.
        figure: String,
        /// Turns and forward steps, in order.
        steps: Vec<FlightStep>,
        /// Dive: up to the dive's speed.
        #[serde(default)]
        dive: bool,
        /// Circle the zone (needs a turn rate of 6).
        #[serde(default)]
        circle: bool,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// Drive a chariot (its driver acts).
    Drive {
        /// The chariot.
        chariot: String,
        /// Turns and forward steps, in order.
        steps: Vec<DriveStep>,
        /// Charge or run: one zone more, one free 45° turn, a second only with a driving roll.
        #[serde(default)]
        dash: bool,
        /// Dice to pay with.
        #[serde(default)]
        pay: Option<Vec<u8>>,
    },
    /// The judge inflicts damage the service does not roll (a spell, a fall, a trap).
    Inflict {
        /// The figure.
        figure: String,
        /// Damage points.
        damage: u32,
        /// Physical or mental ranks.
        ranks: RankSide,
        /// Magic: the State is Doubt.
        #[serde(default)]
        magic: bool,
        /// Massive damage.
        #[serde(default)]
        massive: bool,
        /// Why.
        reason: String,
    },
    /// The judge makes a figure resist a fear attack now (a spell, a war cry).
    FearAttack {
        /// The figure.
        figure: String,
        /// The fear's level.
        level: FearLevel,
        /// Why.
        reason: String,
    },
    /// The judge sets a figure's bonus ranks (behind a wall, blessed; 0 when the wall is breached).
    SetBonusRanks {
        /// The figure.
        figure: String,
        /// Bonus physical ranks.
        physical: u8,
        /// Bonus mental ranks.
        mental: u8,
        /// Why.
        reason: String,
    },
    /// The judge sets a modifier to a figure's action dice.
    SetActionDice {
        /// The figure.
        figure: String,
        /// Dice added (negative: taken away).
        modifier: i8,
        /// Why.
        reason: String,
    },
    /// The judge applies fatigue: a rank lost, or a roll (Body or Will) to avoid it.
    Fatigue {
        /// The figure.
        figure: String,
        /// Physical (Body) or mental (Will).
        ranks: RankSide,
        /// Allow the roll to avoid it.
        #[serde(default)]
        roll: bool,
        /// Why.
        reason: String,
    },
    /// The judge heals by magic or care: ranks, States, injuries, bleeders.
    Heal {
        /// The figure.
        figure: String,
        /// Physical ranks restored.
        #[serde(default)]
        physical: u32,
        /// Mental ranks restored.
        #[serde(default)]
        mental: u32,
        /// Remove every State.
        #[serde(default)]
        states: bool,
        /// Injuries healed, by location.
        #[serde(default)]
        injuries: Vec<Location>,
        /// Stop every bleeder (first aid and complete rest, or magic).
        #[serde(default)]
        bleeders: bool,
        /// Why.
        reason: String,
    },
    /// First aid (ten minutes): removes a Stun and the one wound of a figure that lost one rank.
    FirstAid {
        /// The figure.
        figure: String,
    },
    /// A week of natural healing for a figure.
    HealWeek {
        /// The figure.
        figure: String,
        /// Good food and water all week.
        good_food_and_water: bool,
        /// No travel all week.
        no_travel: bool,
        /// A trained healer present all week, who rolls Healing.
        #[serde(default)]
        healer: Option<String>,
    },
    /// The judge ends the encounter, or a player concedes naming another side.
    EndBattle {
        /// The winning side, if any.
        #[serde(default)]
        winner: Option<String>,
        /// Why.
        reason: String,
    },
}
