//! The folded state of a percentile-skirmish battle: the table, every mini with its life, spell
//! points, lasting spells and what it did this turn, the round in progress and what waits on
//! whom. `apply` (in `apply.rs`) never fails and never rolls: every number it needs is in the
//! event.

mod apply;
mod mini;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use mini::{MiniState, Summoning, TurnRecord};

use super::command::{ParticipantSpec, Summons};
use crate::{
    dice::SealedDice,
    percentile_skirmish::{
        rules::{in_penalising_water, BattleOptions, CombatChoice},
        table::Table,
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
}
