//! What happened in a zone-rpg fight. Every event that rolled carries its dice and the tape's
//! `next_word`, so folding the log needs no dice and verifying it redraws every die. Events that
//! say where a concealed character is carry `concealed`, so a reader on the other side gets
//! them with the position hidden (docs/rulesets/zone-rpg.md "Hidden information").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    character::{CharacterSpec, FactionSpec, InitiativeSpec},
    command::{Action, ChaseEdge, Condition, Manoeuvre, ReactionChoice, StuntProposal},
    map::{BorderSpec, ZoneSpec},
    options::ZoneRpgOptions,
    outcome::{DamageRoll, Deviation, Exchange, GearKind, Handling, MoraleReason, Save, Targeted, Wear},
};
use crate::{dice::Draw, EventType};

/// What kind of attack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgAttackForm)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AttackForm {
    /// An attack inflicting damage.
    Damage {},
    /// A death blow on a nearby incapacitated target (seed 001 "Attacking").
    DeathBlow {},
    /// A non-lethal attack.
    NonLethal {
        /// Disarm, shove or grapple.
        manoeuvre: Manoeuvre,
    },
}

/// An event of a zone-rpg fight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgEvent)]
#[serde(tag = "type")]
pub enum ZoneRpgEvent {
    /// The fight was set up.
    #[serde(rename = "zone-rpg.BattleCreated")]
    BattleCreated {
        /// The zones.
        zones: Vec<ZoneSpec>,
        /// The borders.
        borders: Vec<BorderSpec>,
        /// The factions.
        factions: Vec<FactionSpec>,
        /// The characters as set up (a concealed character's position is hidden from the other
        /// side while it stays concealed).
        characters: Vec<CharacterSpec>,
        /// Who holds the initiative.
        initiative: InitiativeSpec,
        /// The readings.
        options: ZoneRpgOptions,
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
    /// The initiative was assigned.
    #[serde(rename = "zone-rpg.InitiativeAssigned")]
    InitiativeAssigned {
        /// The faction holding it.
        faction: String,
        /// The die, numbering the factions from 1 in their order.
        roll: Draw,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A round began.
    #[serde(rename = "zone-rpg.RoundStarted")]
    RoundStarted {
        /// Its number: 0 for the concealed characters' bonus round, then from 1.
        round: u32,
        /// The bonus round at the start of the fight (seed 001 "Sneaking in combat").
        bonus: bool,
        /// The faction acting first.
        first_faction: String,
    },
    /// A faction took a turn with a character (and the riders of its mount).
    #[serde(rename = "zone-rpg.TurnTaken")]
    TurnTaken {
        /// The faction.
        faction: String,
        /// The characters taking the turn together.
        characters: Vec<String>,
    },
    /// A faction passed.
    #[serde(rename = "zone-rpg.FactionPassed")]
    FactionPassed {
        /// The faction.
        faction: String,
        /// It had no character left to take a turn with.
        forced: bool,
        /// Consecutive passes so far, this one included.
        consecutive: u32,
    },
    /// A character moved (with whoever it carries or drags).
    #[serde(rename = "zone-rpg.Moved")]
    Moved {
        /// The character.
        character: String,
        /// The zones entered, in order.
        path: Vec<String>,
        /// Where it stands now.
        zone: String,
        /// Half-zones of movement spent.
        half_zones: u32,
        /// Sprinting.
        sprint: bool,
        /// Sneaking.
        sneaking: bool,
        /// Moved along with it: riders, a grabbed character.
        with: Vec<String>,
        /// The border it stands on now.
        at_border: Option<String>,
        /// The feature it is behind now.
        behind: Option<String>,
        /// Made while concealed: the position is hidden from the other side.
        concealed: bool,
    },
    /// A character moving away from nearby enemies was stopped for their opportunity attacks.
    #[serde(rename = "zone-rpg.MoveInterrupted")]
    MoveInterrupted {
        /// The moving character.
        character: String,
        /// Everyone moving with it.
        movers: Vec<String>,
        /// The zone it is leaving.
        zone: String,
        /// The rest of its path.
        remaining: Vec<String>,
        /// It is retreating from the fight.
        retreating: bool,
        /// The enemies who may attack.
        threatened_by: Vec<String>,
        /// Sprinting.
        sprint: bool,
        /// Sneaking.
        sneak: bool,
        /// The border it means to stand on at the end.
        at_border: Option<String>,
        /// The feature it means to get behind at the end.
        behind: Option<String>,
    },
    /// An interrupted move was given up: the mover is down, grabbed or gone.
    #[serde(rename = "zone-rpg.MoveAbandoned")]
    MoveAbandoned {
        /// The moving character.
        character: String,
        /// Why.
        reason: String,
    },
    /// An attack was made: its targets, and the WIT save to hit when one was needed.
    #[serde(rename = "zone-rpg.AttackDeclared")]
    AttackDeclared {
        /// The attack's number in this fight.
        attack: u32,
        /// The attacker.
        attacker: String,
        /// The weapon (absent: unarmed).
        weapon: Option<String>,
        /// Damage, death blow or non-lethal.
        form: AttackForm,
        /// The targets (after any deviation).
        targets: Vec<Targeted>,
        /// A blast's zone (after any deviation).
        zone: Option<String>,
        /// Impaired damage.
        impaired: bool,
        /// A ranged attack.
        ranged: bool,
        /// A blast attack.
        blast: bool,
        /// Made by a concealed character: the targets are taken by surprise.
        surprise: bool,
        /// An opportunity attack (a reaction).
        opportunity: bool,
        /// The WIT save to hit, when needed.
        wit_save: Option<Save>,
        /// Whether it hits (a missed blast hits where it deviates to).
        hit: bool,
        /// Where a missed ranged blast went.
        deviation: Option<Deviation>,
        /// The stunt proposed.
        stunt: Option<StuntProposal>,
        /// The stunt needs no approval (the GM proposed it).
        stunt_approved: bool,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// The GM approved or refused a stunt.
    #[serde(rename = "zone-rpg.StuntApproved")]
    StuntApproved {
        /// The attack.
        attack: u32,
        /// Approved.
        approved: bool,
    },
    /// The target answered a stunt.
    #[serde(rename = "zone-rpg.StuntAnswered")]
    StuntAnswered {
        /// The attack.
        attack: u32,
        /// The target.
        character: String,
        /// Accepted: the effect instead of damage; no reaction.
        accepted: bool,
    },
    /// An accepted stunt's effect.
    #[serde(rename = "zone-rpg.StuntApplied")]
    StuntApplied {
        /// The attack.
        attack: u32,
        /// The target.
        character: String,
        /// The effect in words.
        effect: String,
        /// Incapacitated.
        incapacitated: bool,
        /// Surrendering.
        surrendered: bool,
        /// The weapon dropped.
        dropped: Option<String>,
        /// The zone the weapon lies in.
        zone: String,
    },
    /// A character reacted to an attack.
    #[serde(rename = "zone-rpg.Reacted")]
    Reacted {
        /// The attack.
        attack: u32,
        /// The reacting character.
        character: String,
        /// The reaction.
        reaction: ReactionChoice,
        /// A dodge's AGI save, or a counter's WIT save to hit when one was needed.
        save: Option<Save>,
        /// A counter hits (its save passed or none was needed).
        counter_hits: Option<bool>,
        /// A new target (hiding behind, guarding).
        new_target: Option<Targeted>,
        /// The target it replaces.
        replaces: Option<String>,
        /// A reaction a skill grants beyond the turn's.
        extra: bool,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A character let an attack through without reacting, or let a mover go.
    #[serde(rename = "zone-rpg.Declined")]
    Declined {
        /// The character (every undecided one when the GM closes the window).
        characters: Vec<String>,
        /// The attack, for a reaction; absent for an opportunity attack.
        attack: Option<u32>,
        /// The GM closed the window.
        by_gm: bool,
    },
    /// An attack was resolved: damage rolled, who was hit first.
    #[serde(rename = "zone-rpg.AttackResolved")]
    AttackResolved {
        /// The attack.
        attack: u32,
        /// The attacker.
        attacker: String,
        /// Every damage roll, the counter's included.
        rolls: Vec<DamageRoll>,
        /// Who dodged it.
        dodged: Vec<String>,
        /// When countered: who was hit first.
        exchange: Option<Exchange>,
        /// Whether the attack landed (a counter can drop the attacker first).
        landed: bool,
        /// Whether the counter landed.
        counter_landed: Option<bool>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A character was hit.
    #[serde(rename = "zone-rpg.CharacterHit")]
    CharacterHit {
        /// The character.
        character: String,
        /// Who or what hit it.
        by: String,
        /// The attack, if an attack.
        attack: Option<u32>,
        /// Damage suffered.
        suffered: u32,
        /// Health left.
        health: u32,
        /// Critical damage.
        critical: bool,
        /// Incapacitated now.
        incapacitated: bool,
        /// Killed.
        killed: bool,
        /// Its armour and held shield took the hit (they get a durability roll).
        armour_used: bool,
        /// A surrendering character harmed by the enemy fights on (seed 001 "Surrendering").
        surrender_ended: bool,
        /// A direct damage roll not recorded elsewhere (a fall, a hazard, a larger shover), or
        /// a blast's shared roll as this character suffers it.
        roll: Option<DamageRoll>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A death blow killed a nearby incapacitated character.
    #[serde(rename = "zone-rpg.DeathBlowDelivered")]
    DeathBlowDelivered {
        /// The attack.
        attack: u32,
        /// The killer.
        attacker: String,
        /// The killed.
        character: String,
    },
    /// A non-lethal attack's effect was resolved (seed 001 "Non-lethal attacks").
    #[serde(rename = "zone-rpg.NonLethalResolved")]
    NonLethalResolved {
        /// The attack.
        attack: u32,
        /// Who made it.
        attacker: String,
        /// Its target.
        target: String,
        /// What it was.
        manoeuvre: Manoeuvre,
        /// The target's STR save (no roll when a larger attacker leaves none).
        save: Save,
        /// The effect took hold.
        succeeded: bool,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A weapon left a character's hands.
    #[serde(rename = "zone-rpg.WeaponDropped")]
    WeaponDropped {
        /// The disarmed character.
        character: String,
        /// The weapon.
        weapon: String,
        /// The zone it lies in, unless taken.
        zone: String,
        /// The attacker who grabbed it.
        taken_by: Option<String>,
        /// Its name among the taker's weapons.
        taken_as: Option<String>,
    },
    /// A character was shoved.
    #[serde(rename = "zone-rpg.Shoved")]
    Shoved {
        /// The character.
        character: String,
        /// By whom.
        by: String,
        /// The zone it is in now.
        zone: String,
        /// The hazard it was pushed into.
        hazard: Option<String>,
    },
    /// A character pushed into a hazard.
    #[serde(rename = "zone-rpg.HazardStruck")]
    HazardStruck {
        /// The character.
        character: String,
        /// The hazard.
        hazard: String,
        /// The zone.
        zone: String,
        /// It kills.
        kills: bool,
    },
    /// A character grabbed another.
    #[serde(rename = "zone-rpg.Grabbed")]
    Grabbed {
        /// The grabbing character.
        grabber: String,
        /// The grabbed character.
        character: String,
    },
    /// A grab ended.
    #[serde(rename = "zone-rpg.GrabReleased")]
    GrabReleased {
        /// The grabbing character.
        grabber: String,
        /// The grabbed character.
        character: String,
        /// Why.
        reason: String,
    },
    /// A grabbed character tried to break free, or an ally tried to free it.
    #[serde(rename = "zone-rpg.BreakFreeAttempted")]
    BreakFreeAttempted {
        /// The grabbed character.
        character: String,
        /// The ally helping, if any.
        helper: Option<String>,
        /// The STR save.
        save: Save,
        /// Freed.
        freed: bool,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A piece of gear was destroyed.
    #[serde(rename = "zone-rpg.GearDestroyed")]
    GearDestroyed {
        /// Its owner.
        character: String,
        /// Weapon, shield or armour.
        kind: GearKind,
        /// Its name.
        item: String,
        /// Why.
        reason: String,
    },
    /// A concealed character was revealed.
    #[serde(rename = "zone-rpg.Revealed")]
    Revealed {
        /// The character.
        character: String,
        /// What gave it away.
        reason: String,
    },
    /// A main or bonus action other than an attack.
    #[serde(rename = "zone-rpg.ActionPerformed")]
    ActionPerformed {
        /// The character.
        character: String,
        /// The action.
        action: Action,
        /// What it does.
        description: String,
    },
    /// An item was picked up, put down, equipped or unequipped.
    #[serde(rename = "zone-rpg.ItemHandled")]
    ItemHandled {
        /// The character.
        character: String,
        /// The item's name before.
        item: String,
        /// What was done.
        handling: Handling,
        /// Its name among the character's gear after (a picked-up item may be renamed).
        name: String,
        /// The zone, when picked up or put down.
        zone: String,
        /// Done by a concealed character: the zone is hidden from the other side.
        concealed: bool,
    },
    /// A character surrendered (seed 001 "Surrendering").
    #[serde(rename = "zone-rpg.Surrendered")]
    Surrendered {
        /// The character.
        character: String,
        /// The weapons and shield it threw away.
        dropped: Vec<String>,
        /// The zone they lie in.
        zone: String,
        /// Spent as the character's turn.
        as_turn: bool,
    },
    /// A character retreated from the fight.
    #[serde(rename = "zone-rpg.Retreated")]
    Retreated {
        /// The character.
        character: String,
        /// Spent as the character's turn.
        as_turn: bool,
    },
    /// A character got on a mount or vehicle, or tried to.
    #[serde(rename = "zone-rpg.Mounted")]
    Mounted {
        /// The rider.
        character: String,
        /// The mount.
        mount: String,
        /// The AGI save when the mount is moving.
        save: Option<Save>,
        /// It fell instead.
        fell: bool,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A character got off a mount or vehicle (falling, if it failed its AGI save).
    #[serde(rename = "zone-rpg.Dismounted")]
    Dismounted {
        /// The rider.
        character: String,
        /// The mount.
        mount: String,
        /// The AGI save when the mount is moving.
        save: Option<Save>,
        /// It fell.
        fell: bool,
        /// The tape after the roll.
        next_word: u64,
    },
    /// A turn ended.
    #[serde(rename = "zone-rpg.TurnEnded")]
    TurnEnded {
        /// The faction.
        faction: String,
        /// The characters that took it.
        characters: Vec<String>,
        /// Those who kept their turn to react (riders and mounts that did nothing).
        reserved: Vec<String>,
    },
    /// The round ended: every faction passed in a row.
    #[serde(rename = "zone-rpg.RoundEnded")]
    RoundEnded {
        /// The round.
        round: u32,
    },
    /// A group or a lone character checked morale (seed 001 "Morale").
    #[serde(rename = "zone-rpg.MoraleChecked")]
    MoraleChecked {
        /// The faction.
        faction: String,
        /// The group (absent: a character fighting alone).
        group: Option<String>,
        /// Why.
        reason: MoraleReason,
        /// Each member's WIT save.
        saves: Vec<Save>,
        /// Those who failed: they must surrender or retreat.
        broken: Vec<String>,
        /// Those who passed: not subject to morale for the rest of the stretch.
        steady: Vec<String>,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// A chase over a long distance was resolved (seed 001 "Chases").
    #[serde(rename = "zone-rpg.ChaseResolved")]
    ChaseResolved {
        /// The fleeing characters.
        fleeing: Vec<String>,
        /// The pursuers.
        pursuers: Vec<String>,
        /// Who had the edge.
        edge: ChaseEdge,
        /// The fleeing characters' AGI saves, when the edge is even.
        saves: Vec<Save>,
        /// Those who escaped.
        escaped: Vec<String>,
        /// Those reached by the pursuers (back in the fight, in the first pursuer's zone).
        caught: Vec<String>,
        /// The zone the caught are in.
        zone: String,
        /// The tape after the rolls.
        next_word: u64,
    },
    /// The GM set or cleared a condition.
    #[serde(rename = "zone-rpg.ConditionChanged")]
    ConditionChanged {
        /// The character.
        character: String,
        /// The condition.
        condition: Condition,
        /// Set or cleared.
        active: bool,
        /// Why.
        reason: String,
    },
    /// The GM changed a character's health.
    #[serde(rename = "zone-rpg.HealthAdjusted")]
    HealthAdjusted {
        /// The character.
        character: String,
        /// The change asked for.
        change: i32,
        /// Health now (never above the maximum).
        health: u32,
        /// Killed (health 0).
        killed: bool,
        /// Why.
        reason: String,
    },
    /// The GM put a character in a zone.
    #[serde(rename = "zone-rpg.Placed")]
    Placed {
        /// The character.
        character: String,
        /// The zone.
        zone: String,
        /// Why.
        reason: String,
        /// The character is concealed: the zone is hidden from the other side.
        concealed: bool,
    },
    /// The fight ended.
    #[serde(rename = "zone-rpg.FightEnded")]
    FightEnded {
        /// The winning faction, if any.
        winner: Option<String>,
        /// Why.
        reason: String,
    },
    /// A durability roll after the fight (seed 001 "Combat gear degradation").
    #[serde(rename = "zone-rpg.DurabilityRolled")]
    DurabilityRolled {
        /// The owner.
        character: String,
        /// Weapon, shield or armour.
        kind: GearKind,
        /// Its name.
        item: String,
        /// The die.
        roll: Draw,
        /// What it did.
        wear: Wear,
        /// The tape after the roll.
        next_word: u64,
    },
}

impl EventType for ZoneRpgEvent {}
