//! What participants and judges ask of a percentile-skirmish battle.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::percentile_skirmish::{
    mini::{MiniProfile, MiniSpec},
    rules::{BattleOptions, CombatChoice},
    spells::Spell,
    table::{Point, Table},
};

/// A participant at the table (seed 002 "TURN": "each participant must declare which mini's
/// will be performing actions").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishParticipantSpec)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "red", "controller": "alice", "points_limit": 300}))]
pub struct ParticipantSpec {
    /// The participant's name in this battle (`red`).
    pub name: String,
    /// The player name of the token that acts for this participant.
    pub controller: String,
    /// The most its minis may cost with their resistances (seed 002 "RESISTANCES" gives their
    /// costs); no limit when absent.
    #[serde(default)]
    pub points_limit: Option<u32>,
}

/// The familiar a caster may summon (seed 002 "Familiar": its "Effect:" is left blank, so the
/// set-up gives it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishFamiliarSpec)]
#[serde(deny_unknown_fields)]
pub struct FamiliarSpec {
    /// Its card.
    pub profile: MiniProfile,
    /// What it does, in words, for the judge and the players; Herald itself lets golems and
    /// teleports reach from it ("within LOS of the spell caster's familiar").
    pub effect: String,
}

/// What summoning spells bring onto the table (seed 002 "Golem": "See 'mini' spreadsheet for
/// golem stats"; "Familiar").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SkirmishSummons)]
#[serde(deny_unknown_fields)]
pub struct Summons {
    /// The golem's card; the golem spell is refused without it.
    #[serde(default)]
    pub golem: Option<Box<MiniProfile>>,
    /// The familiar; the familiar spell is refused without it.
    #[serde(default)]
    pub familiar: Option<Box<FamiliarSpec>>,
}

/// A command to a percentile-skirmish battle. `create_battle` is sent as `POST /v1/battles` and
/// `reveal_seed` as `POST /v1/battles/{id}/reveal`; every other type to `/actions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum SkirmishCommand {
    /// Open the battle (a judge or admin); turn 1's first round opens at once.
    CreateBattle {
        /// The table: size, roads, water.
        table: Table,
        /// The participants.
        participants: Vec<ParticipantSpec>,
        /// Every mini.
        minis: Vec<MiniSpec>,
        /// The battle's readings of the seed.
        #[serde(default)]
        options: BattleOptions,
        /// What golem and familiar spells summon.
        #[serde(default)]
        summons: Summons,
        /// `sha256(server seed)`, hex.
        seed_commitment: String,
    },
    /// Mix entropy into the dice (before the first die).
    ContributeEntropy {
        /// Any text.
        entropy: String,
    },
    /// Declare which of a participant's minis act in the current initiative round (seed 002
    /// "TURN"); an empty list declares none.
    Declare {
        /// The participant declaring.
        participant: String,
        /// Its minis that act this round.
        minis: Vec<String>,
    },
    /// Move the acting mini along a path (seed 002 "TURN": moves may be split around attacks).
    Move {
        /// The acting mini.
        mini: String,
        /// Waypoints after its position, in order; empty to turn in place.
        #[serde(default)]
        path: Vec<Point>,
        /// Run: 1.5 × movement, no spells or combat this turn (seed 002 "RUNNING").
        #[serde(default)]
        run: bool,
        /// The facing at the end, degrees counter-clockwise from the positive x axis; absent: it
        /// faces the way it last moved.
        #[serde(default)]
        facing: Option<f64>,
    },
    /// Attack a mini within melee reach: open combat from its front, a flank attack from outside
    /// its front arc (seed 002 "4 TYPES OF NON MAGIC COMBAT").
    MeleeAttack {
        /// The acting mini.
        attacker: String,
        /// The mini attacked.
        target: String,
        /// The attacker's melee weapon.
        weapon: String,
    },
    /// Pick an option in the open combat waiting for it, sealed from the other side until both
    /// have picked (seed 002 "Open combat").
    ChooseCombatOption {
        /// The attacker or the defender of the open combat.
        mini: String,
        /// The option, or `random` for a d6 on the seed's 1–6 table.
        choice: CombatChoice,
        /// The defender's melee weapon; its first melee weapon when absent.
        #[serde(default)]
        weapon: Option<String>,
    },
    /// Shoot at a mini within the weapon's maximum range (seed 002 "Range attacks").
    RangedAttack {
        /// The acting mini.
        attacker: String,
        /// The mini shot at.
        target: String,
        /// The attacker's ranged weapon.
        weapon: String,
    },
    /// Make the attack of opportunity a move offered (seed 002 "Attack of opportunity").
    AttackOfOpportunity {
        /// The mini the move passed.
        attacker: String,
        /// The mini that moved.
        target: String,
        /// Its melee weapon; its first when absent.
        #[serde(default)]
        weapon: Option<String>,
    },
    /// Let an attack of opportunity go.
    DeclineOpportunity {
        /// The mini that could attack.
        attacker: String,
        /// The mini that moved.
        target: String,
    },
    /// Cast a spell (seed 002 "SPELL DESCRIPTIONS").
    CastSpell {
        /// The acting caster.
        caster: String,
        /// The spell.
        spell: Spell,
        /// The mini it is cast at (spells cast at a mini).
        #[serde(default)]
        target: Option<String>,
        /// The point it is cast at: the golem's or familiar's place, the teleport's destination,
        /// the end of the fireball's path.
        #[serde(default)]
        at: Option<Point>,
        /// The first simple command (command, golem).
        #[serde(default)]
        command: Option<String>,
    },
    /// Give a commanded mini or the caster's golem a new simple command, rolled as if casting a
    /// spell (seed 002 "Command", "Golem").
    IssueCommand {
        /// The acting caster.
        caster: String,
        /// The commanded mini or golem.
        mini: String,
        /// The simple command, in words.
        command: String,
    },
    /// The acting mini under fear runs directly away from the caster (seed 002 "Fear").
    Flee {
        /// The acting mini.
        mini: String,
    },
    /// The acting mini is done; the next declared mini acts.
    EndActions {
        /// The acting mini.
        mini: String,
    },
    /// A judge sets a mini's life points (the familiar's effect, anything the set-up's data
    /// leaves to the judge); 0 kills it.
    SetLifePoints {
        /// The mini.
        mini: String,
        /// Its life points now.
        life: u32,
        /// Why (recorded).
        reason: String,
    },
    /// A judge ends the battle, or a participant concedes by naming another winner.
    EndBattle {
        /// The winning participant, if any.
        #[serde(default)]
        winner: Option<String>,
        /// Why (recorded).
        reason: String,
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
}
