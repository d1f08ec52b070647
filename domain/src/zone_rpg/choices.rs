//! The choices inside commands: whom an attack aims at, non-lethal manoeuvres, stunts,
//! reactions, actions, conditions and chases (seed 001 "Attacking", "Non-lethal attacks",
//! "Attack stunts", "Reacting to an attack", "Taking a turn", "Chases").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Whom an attack is aimed at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgAttackTarget)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AttackTarget {
    /// One character.
    Character {
        /// Its id.
        character: String,
    },
    /// A larger character's melee attack with its damage dice distributed among several
    /// smaller targets (seed 001 "Effects of size in combat").
    Split {
        /// Each target with the dice it takes.
        shares: Vec<DiceShare>,
    },
    /// A blast attack's zone (seed 001 "Blast attacks"): a melee blast names the attacker's own
    /// zone.
    Zone {
        /// The zone.
        zone: String,
    },
}

/// Dice of a distributed melee attack aimed at one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgDiceShare)]
#[serde(deny_unknown_fields)]
pub struct DiceShare {
    /// The target.
    pub character: String,
    /// How many damage dice it takes.
    pub dice: u32,
}

/// A non-lethal attack (seed 001 "Non-lethal attacks").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgManoeuvre)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Manoeuvre {
    /// The target drops a weapon the attacker chooses.
    Disarm {
        /// The weapon.
        weapon: String,
        /// Grab the weapon (the attacker needs a free hand).
        #[serde(default)]
        take: bool,
    },
    /// The target is forced to move half a zone (more if the attacker is larger), perhaps into
    /// a hazard.
    Shove {
        /// The zone it is moved to; absent: it stays in its zone (or is pushed into a hazard
        /// there).
        #[serde(default)]
        to: Option<String>,
        /// A hazard of the zone it ends in that it is pushed into.
        #[serde(default)]
        hazard: Option<String>,
    },
    /// The attacker grabs the target.
    Grapple {},
}

/// An alternative effect the attacker proposes instead of damage (seed 001 "Attack stunts").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgStunt)]
#[serde(deny_unknown_fields)]
pub struct StuntProposal {
    /// The effect in words ("disarmed and incapacitated until the end of the stretch").
    pub effect: String,
    /// The target is incapacitated.
    #[serde(default)]
    pub incapacitate: bool,
    /// The target surrenders.
    #[serde(default)]
    pub surrender: bool,
    /// The target drops this weapon.
    #[serde(default)]
    pub disarm: Option<String>,
}

/// A reaction to an attack (seed 001 "Reacting to an attack", "Guarding").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgReaction)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ReactionChoice {
    /// An AGI save: on a pass the attack misses.
    Dodge {},
    /// A suitable attack against the attacker, damage rolled at the same time.
    Counter {
        /// The weapon; absent: unarmed.
        #[serde(default)]
        weapon: Option<String>,
        /// Hold back for impaired damage.
        #[serde(default)]
        impaired: bool,
        /// Counter with a non-lethal attack instead of damage.
        #[serde(default)]
        manoeuvre: Option<Manoeuvre>,
    },
    /// A nearby willing ally or grabbed enemy becomes the target.
    HideBehind {
        /// That character.
        character: String,
    },
    /// The reacting character, nearby the target, becomes the target instead.
    Guard {
        /// The character guarded.
        target: String,
    },
}

/// A main or bonus action other than attacking (seed 001 "Taking a turn").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgAction)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Main: invoke a profane power (reveals a concealed character).
    InvokePower {},
    /// Main: distract (reveals).
    Distract {},
    /// Main: intimidate (reveals).
    Intimidate {},
    /// Main: taunt (reveals).
    Taunt {},
    /// Main: use a consumable item (a medicine box, an antidote); the GM applies its effect.
    UseConsumable {},
    /// Main: any other action taking a round.
    OtherMain {},
    /// Bonus: pick up an item lying in the zone.
    PickUp {
        /// The item's name.
        item: String,
    },
    /// Bonus: put down a weapon or shield.
    PutDown {
        /// The item's name.
        item: String,
    },
    /// Bonus: take a carried weapon or shield in hand.
    Equip {
        /// The item's name.
        item: String,
    },
    /// Bonus: stow a held weapon or shield.
    Unequip {
        /// The item's name.
        item: String,
    },
    /// Bonus: open a door.
    OpenDoor {},
    /// Bonus: pull a lever.
    PullLever {},
    /// Bonus: say a few words (reveals).
    Say {},
    /// Bonus: any other action taking a second or two.
    OtherBonus {},
}

impl Action {
    /// Whether it is a main action (otherwise a bonus action).
    pub fn is_main(&self) -> bool {
        matches!(
            self,
            Self::InvokePower {}
                | Self::Distract {}
                | Self::Intimidate {}
                | Self::Taunt {}
                | Self::UseConsumable {}
                | Self::OtherMain {}
        )
    }

    /// Whether it makes noise and so reveals a concealed character (seed 001 "Sneaking in
    /// combat": "attacking, invoking a power, talking …").
    pub fn reveals(&self) -> bool {
        matches!(self, Self::InvokePower {} | Self::Distract {} | Self::Intimidate {} | Self::Taunt {} | Self::Say {})
    }
}

/// A condition the GM sets or clears.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgCondition)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Unaware of its attackers: cannot react.
    Unaware,
    /// Concealed (seed 001 "Sneaking in combat": hiding "requires being out of sight for a while
    /// or a major distraction").
    Concealed,
    /// Incapacitated.
    Incapacitated,
    /// Surrendering.
    Surrendered,
}

/// Who has the edge in a chase (seed 001 "Chases").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgChaseEdge)]
#[serde(rename_all = "snake_case")]
pub enum ChaseEdge {
    /// The fleeing characters move faster or keep the speed for longer: they escape, no save.
    Fleeing,
    /// The pursuers do: escaping is impossible.
    Pursuers,
    /// Neither: a group AGI save decides.
    Even,
}
