//! What the fight is waiting for: an attack between its declaration and its damage (the
//! stunt's approval and answer, the targets' reactions), and a move stopped for opportunity
//! attacks.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::zone_rpg::{
    command::{ReactionChoice, StuntProposal},
    event::AttackForm,
    outcome::{Save, Targeted},
};

/// Where a pending attack stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgAttackStage)]
#[serde(rename_all = "snake_case")]
pub enum AttackStage {
    /// The GM has to approve the proposed stunt.
    StuntApproval,
    /// The target has to accept the stunt or have the attack resolved as normal.
    StuntAnswer,
    /// The targets may react (seed 001 "Reacting to an attack": "before rolling for damage but
    /// after the WIT save to hit").
    Reactions,
}

/// A target of a pending attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgPendingTarget)]
pub struct PendingTarget {
    /// The target, its dice and whether it can react.
    pub target: Targeted,
    /// It has reacted or declined (or cannot react).
    pub decided: bool,
    /// Its reaction.
    pub reaction: Option<ReactionChoice>,
    /// The save of its reaction (a dodge's AGI, a counter's WIT to hit).
    pub save: Option<Save>,
    /// A counter hits.
    pub counter_hits: Option<bool>,
}

/// An attack waiting for a stunt's approval and answer, or for reactions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgPendingAttack)]
pub struct PendingAttack {
    /// Its number.
    pub attack: u32,
    /// The attacker.
    pub attacker: String,
    /// The weapon (absent: unarmed).
    pub weapon: Option<String>,
    /// Damage, death blow or non-lethal.
    pub form: AttackForm,
    /// A ranged attack.
    pub ranged: bool,
    /// A blast attack.
    pub blast: bool,
    /// The blast's zone.
    pub zone: Option<String>,
    /// Impaired damage.
    pub impaired: bool,
    /// An opportunity attack.
    pub opportunity: bool,
    /// Made by a concealed character: nobody can react (seed 001 "Sneaking in combat").
    pub surprise: bool,
    /// The targets.
    pub targets: Vec<PendingTarget>,
    /// What it waits for.
    pub stage: AttackStage,
    /// The stunt proposed.
    pub stunt: Option<StuntProposal>,
    /// Everyone who has reacted to it: nobody reacts twice against one attack.
    pub reacted: Vec<String>,
}

impl PendingAttack {
    /// The target entry of `character`.
    pub fn target(&self, character: &str) -> Option<&PendingTarget> {
        self.targets.iter().find(|target| target.target.character == character)
    }

    /// Who counters it, if anyone (only one target may).
    pub fn counter(&self) -> Option<&PendingTarget> {
        self.targets.iter().find(|target| matches!(target.reaction, Some(ReactionChoice::Counter { .. })))
    }

    /// Whether every target has decided.
    pub fn all_decided(&self) -> bool {
        self.targets.iter().all(|target| target.decided)
    }
}

/// An enemy that may make an opportunity attack on a mover.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgThreat)]
pub struct Threat {
    /// The enemy.
    pub character: String,
    /// It has attacked or let the mover go.
    pub decided: bool,
}

/// A move stopped so nearby enemies may make opportunity attacks (seed 001 "Opportunity
/// attacks": "The target's movement is interrupted and the attack is resolved, after which
/// their turn resumes").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgInterruptedMove)]
pub struct InterruptedMove {
    /// The character moving.
    pub character: String,
    /// Everyone moving with it.
    pub movers: Vec<String>,
    /// The zone being left.
    pub zone: String,
    /// The rest of the path.
    pub remaining: Vec<String>,
    /// Sprinting.
    pub sprint: bool,
    /// Sneaking.
    pub sneak: bool,
    /// Where it means to stand at the end.
    pub at_border: Option<String>,
    /// The feature it means to get behind at the end.
    pub behind: Option<String>,
    /// It is retreating from the fight.
    pub retreating: bool,
    /// The enemies who may attack.
    pub threats: Vec<Threat>,
}
