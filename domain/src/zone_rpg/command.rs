//! What the GM and the players ask of a zone-rpg fight. `create_battle` is sent as
//! `POST /v1/battles` and `reveal_seed` as `POST /v1/battles/{id}/reveal`; every other type to
//! `POST /v1/battles/{id}/actions`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    character::{CharacterSpec, FactionSpec, InitiativeSpec},
    map::{BorderSpec, ZoneSpec},
    options::ZoneRpgOptions,
};

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

/// A command to a zone-rpg fight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgCommand)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum ZoneRpgCommand {
    /// Open the fight (the GM).
    CreateBattle {
        /// The zones.
        zones: Vec<ZoneSpec>,
        /// Which zones border which.
        #[serde(default)]
        borders: Vec<BorderSpec>,
        /// The factions.
        factions: Vec<FactionSpec>,
        /// Every character.
        characters: Vec<CharacterSpec>,
        /// Who holds the initiative.
        initiative: InitiativeSpec,
        /// The readings the fight is played by.
        #[serde(default)]
        options: ZoneRpgOptions,
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
    },
    /// The GM rolls dice the rules leave to the GM (docs/DICE.md "A judge's roll").
    JudgeRoll(crate::dice::JudgeRoll),
    /// Assign the initiative by a die when the GM set it up as random.
    RollInitiative {},
    /// Start a round: the initiative holder picks the faction that acts first.
    StartRound {
        /// The faction acting first.
        first_faction: String,
    },
    /// The faction whose go it is takes a turn with one of its characters (a mount or vehicle
    /// takes it together with its riders).
    TakeTurn {
        /// The character.
        character: String,
    },
    /// The faction whose go it is passes.
    Pass {
        /// The faction.
        faction: String,
    },
    /// Move along neighbouring zones, and stand at a border or behind a feature.
    Move {
        /// The moving character.
        character: String,
        /// The zones entered, in order (empty: stay in the zone).
        #[serde(default)]
        path: Vec<String>,
        /// Sprint: this turn's speed is doubled.
        #[serde(default)]
        sprint: bool,
        /// Sneak: a concealed character stays concealed.
        #[serde(default)]
        sneak: bool,
        /// Stand on the border with this neighbouring zone.
        #[serde(default)]
        at_border: Option<String>,
        /// Get behind this feature of the zone reached.
        #[serde(default)]
        behind: Option<String>,
    },
    /// Get on a mount or vehicle in the zone (half a zone of movement).
    Mount {
        /// The rider or passenger.
        character: String,
        /// The mount or vehicle.
        mount: String,
    },
    /// Get off (half a zone of movement).
    Dismount {
        /// The rider or passenger.
        character: String,
    },
    /// Attack (a main action).
    Attack {
        /// The attacker.
        attacker: String,
        /// The weapon; absent: unarmed (d4 impaired).
        #[serde(default)]
        weapon: Option<String>,
        /// Whom or where.
        target: AttackTarget,
        /// Hold back to inflict impaired damage.
        #[serde(default)]
        impaired: bool,
        /// Kill a nearby incapacitated target.
        #[serde(default)]
        death_blow: bool,
        /// An alternative effect instead of damage.
        #[serde(default)]
        stunt: Option<StuntProposal>,
    },
    /// A non-lethal attack (a main action).
    NonLethalAttack {
        /// The attacker.
        attacker: String,
        /// The nearby target.
        target: String,
        /// Disarm, shove or grapple.
        manoeuvre: Manoeuvre,
    },
    /// The GM approves or refuses the attack stunt awaiting approval.
    ApproveStunt {
        /// Approved.
        approved: bool,
    },
    /// The target accepts the stunt or has the attack resolved as normal.
    AnswerStunt {
        /// Accept the effect.
        accept: bool,
    },
    /// React to the pending attack.
    React {
        /// The reacting character.
        character: String,
        /// The reaction.
        reaction: ReactionChoice,
    },
    /// A target lets the pending attack through, or a nearby enemy lets a mover go.
    Decline {
        /// The character declining.
        character: String,
    },
    /// The GM closes the pending attack's reactions or the pending opportunity attacks.
    CloseWindow {},
    /// An opportunity attack on an enemy moving away (a reaction).
    OpportunityAttack {
        /// The attacker.
        attacker: String,
        /// The mover attacked.
        target: String,
        /// The weapon; absent: unarmed.
        #[serde(default)]
        weapon: Option<String>,
        /// Hold back for impaired damage.
        #[serde(default)]
        impaired: bool,
        /// A non-lethal attack instead of damage.
        #[serde(default)]
        manoeuvre: Option<Manoeuvre>,
    },
    /// A main or bonus action other than attacking.
    Perform {
        /// The character.
        character: String,
        /// The action.
        action: Action,
        /// What it does, in words.
        #[serde(default)]
        description: String,
    },
    /// A grabbed character spends its turn trying to break free (a STR save).
    BreakFree {
        /// The grabbed character.
        character: String,
    },
    /// A main action trying to free a grabbed ally (a STR save).
    FreeAlly {
        /// The helper.
        character: String,
        /// The grabbed ally.
        ally: String,
    },
    /// Spend the turn surrendering (or, after a failed morale check, at any time).
    Surrender {
        /// The character.
        character: String,
    },
    /// Leave the fight as the turn (or, after a failed morale check, at any time).
    Retreat {
        /// The character.
        character: String,
    },
    /// End the turn in progress.
    EndTurn {},
    /// The GM sets or clears a condition.
    SetCondition {
        /// The character.
        character: String,
        /// The condition.
        condition: Condition,
        /// Set (true) or clear (false).
        active: bool,
        /// Why.
        reason: String,
    },
    /// The GM changes a character's health (a medicine box, a power, a trap); never above the
    /// maximum; 0 kills.
    AdjustHealth {
        /// The character.
        character: String,
        /// Health gained (positive) or lost (negative).
        change: i32,
        /// Why.
        reason: String,
    },
    /// The GM puts a character in a zone (after a chase, a power, a fall).
    Place {
        /// The character.
        character: String,
        /// The zone.
        zone: String,
        /// Why.
        reason: String,
    },
    /// The GM resolves a chase over a long distance.
    ResolveChase {
        /// The fleeing characters.
        fleeing: Vec<String>,
        /// The pursuers.
        pursuers: Vec<String>,
        /// Who has the edge; absent: decided by their speeds.
        #[serde(default)]
        edge: Option<ChaseEdge>,
    },
    /// The GM ends the fight; durability rolls follow.
    EndFight {
        /// The winning faction, if any.
        #[serde(default)]
        winner: Option<String>,
        /// Why.
        reason: String,
    },
}
