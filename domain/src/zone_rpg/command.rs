//! What the GM and the players ask of a zone-rpg fight. `create_battle` is sent as
//! `POST /v1/battles` and `reveal_seed` as `POST /v1/battles/{id}/reveal`; every other type to
//! `POST /v1/battles/{id}/actions`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use super::choices::{
    Action, AttackTarget, ChaseEdge, Condition, DiceShare, Manoeuvre, ReactionChoice, StuntProposal,
};
use super::{
    character::{CharacterSpec, FactionSpec, InitiativeSpec},
    map::{BorderSpec, ZoneSpec},
    options::ZoneRpgOptions,
};

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
        /// `sha256` of a fresh sealed seed, filled in by the service when a judge reveals before
        /// the end: every later die comes from it (docs/DICE.md "Re-sealing").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_commitment: Option<String>,
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
