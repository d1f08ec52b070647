//! The given/when/then harness of the zone-rpg decider tests (seed 001): a table built from
//! zones, factions and characters (`given`), commands run the way the application layer runs
//! them — the state folded from the events so far, a dice tape keyed by a fixed server seed and
//! positioned where the last draw ended — (`when`), and checks on what came of it (`then`).
//! Tests that need particular dice search the server seeds for them rather than trusting luck.
#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use herald_domain::{
    dice::Draw,
    zone_rpg::{
        character::{
            gear::{ArmourSpec, Hands, ShieldSpec, WeaponSpec},
            CharacterSpec, FactionSpec, InitiativeSpec, Size,
        },
        command::{Action, AttackTarget, DiceShare, Manoeuvre, ReactionChoice, StuntProposal},
        die::Die,
        map::{BorderSpec, FeatureSpec, HazardSpec, Light, Protection, ZoneSpec},
        options::ZoneRpgOptions,
        state::{character::CharacterState, ZoneRpgState},
        ZoneRpg, ZoneRpgCommand as C, ZoneRpgEvent,
    },
    Actor, Context, Decider, EventType, Role, RuleError,
};
pub use herald_test_support::harness::server_seed;
use herald_test_support::harness::{self as shared, Harness};

/// The stream every test fight lives on.
pub const STREAM: &str = "battle-0190f0a4-4444-7000-8000-000000000001";
/// The players' faction.
pub const PARTY: &str = "party";
/// The GM's faction.
pub const BANDITS: &str = "bandits";

// ---------------------------------------------------------------------------------------------
// Given: the table
// ---------------------------------------------------------------------------------------------

/// A zone, lit, with nothing in it.
pub fn zone(name: &str) -> ZoneSpec {
    ZoneSpec { name: name.into(), light: Light::Lit, features: vec![], hazards: vec![], at: None }
}

/// A zone in complete darkness.
pub fn dark(name: &str) -> ZoneSpec {
    ZoneSpec { light: Light::Dark, ..zone(name) }
}

/// `zone` with a feature to get behind.
pub fn with_feature(mut zone: ZoneSpec, name: &str, protection: Protection) -> ZoneSpec {
    zone.features.push(FeatureSpec { name: name.into(), protection });
    zone
}

/// `zone` with a hazard.
pub fn with_hazard(mut zone: ZoneSpec, name: &str, damage: Option<&str>, kills: bool) -> ZoneSpec {
    zone.hazards.push(HazardSpec {
        name: name.into(),
        damage: damage.map(|d| d.parse().expect("a dice expression")),
        kills,
    });
    zone
}

/// An open border of length 1.
pub fn border(a: &str, b: &str) -> BorderSpec {
    BorderSpec { a: a.into(), b: b.into(), length: 1, protection: Protection::None, passable: true }
}

/// A chain of zones `names[0]` – `names[1]` – … joined by open borders.
pub fn chain(names: &[&str]) -> (Vec<ZoneSpec>, Vec<BorderSpec>) {
    let zones = names.iter().map(|n| zone(n)).collect();
    let borders = names.windows(2).map(|pair| border(pair[0], pair[1])).collect();
    (zones, borders)
}

/// A weapon: melee, one-handed, held.
pub fn weapon(name: &str, sides: u32) -> WeaponSpec {
    WeaponSpec {
        name: name.into(),
        damage: Die::new(sides).expect("a die"),
        range: 0,
        blast: false,
        hands: Hands::One,
        improvised: false,
        damaged: false,
        natural: false,
        penetrating: false,
        held: true,
    }
}

/// A ranged weapon (two-handed, like a bow or musket).
pub fn ranged(name: &str, sides: u32, range: u32) -> WeaponSpec {
    WeaponSpec { range, hands: Hands::Two, ..weapon(name, sides) }
}

/// A character of `faction` in `zone`: health 10, WIT, AGI and STR 10, medium, speed 2.
pub fn character(id: &str, faction: &str, zone: &str) -> CharacterSpec {
    CharacterSpec {
        id: id.into(),
        faction: faction.into(),
        controller: None,
        group: None,
        health: 10,
        max_health: None,
        wit: 10,
        agi: 10,
        str: 10,
        size: Size::Medium,
        speed: 2,
        weapons: vec![],
        shield: None,
        armour: None,
        zone: zone.into(),
        at_border: None,
        behind: None,
        riding: None,
        carries: 0,
        concealed: false,
        unaware: false,
        fearless: false,
        extra_reactions: 0,
    }
}

/// A player's character in the party.
pub fn pc(id: &str, player: &str, zone: &str) -> CharacterSpec {
    CharacterSpec { controller: Some(player.into()), ..character(id, PARTY, zone) }
}

/// A GM's bandit.
pub fn npc(id: &str, zone: &str) -> CharacterSpec {
    character(id, BANDITS, zone)
}

/// Small changes to a character, chained.
pub trait Build: Sized {
    /// The character.
    fn spec(&mut self) -> &mut CharacterSpec;
    /// Health (and maximum health).
    fn health(mut self, health: u32) -> Self {
        self.spec().health = health;
        self
    }
    /// Maximum health above its health.
    fn max_health(mut self, max: u32) -> Self {
        self.spec().max_health = Some(max);
        self
    }
    /// Save values.
    fn saves(mut self, wit: u32, agi: u32, str: u32) -> Self {
        let spec = self.spec();
        (spec.wit, spec.agi, spec.str) = (wit, agi, str);
        self
    }
    /// A weapon.
    fn armed(mut self, weapon: WeaponSpec) -> Self {
        self.spec().weapons.push(weapon);
        self
    }
    /// Armour of `value`.
    fn armour(mut self, value: u32) -> Self {
        self.spec().armour = Some(ArmourSpec { name: "armour".into(), value, damaged: false, natural: false });
        self
    }
    /// A held shield.
    fn shield(mut self) -> Self {
        self.spec().shield = Some(ShieldSpec { name: "shield".into(), damaged: false, held: true });
        self
    }
    /// Its size.
    fn size(mut self, size: Size) -> Self {
        self.spec().size = size;
        self
    }
    /// Its morale group.
    fn group(mut self, group: &str) -> Self {
        self.spec().group = Some(group.into());
        self
    }
    /// Concealed at the start.
    fn concealed(mut self) -> Self {
        self.spec().concealed = true;
        self
    }
    /// Its speed.
    fn speed(mut self, speed: u32) -> Self {
        self.spec().speed = speed;
        self
    }
}

impl Build for CharacterSpec {
    fn spec(&mut self) -> &mut CharacterSpec {
        self
    }
}

/// What a fight is set up with.
#[derive(Clone)]
pub struct Table {
    /// The zones.
    pub zones: Vec<ZoneSpec>,
    /// The borders.
    pub borders: Vec<BorderSpec>,
    /// The factions.
    pub factions: Vec<FactionSpec>,
    /// The characters.
    pub characters: Vec<CharacterSpec>,
    /// The initiative.
    pub initiative: InitiativeSpec,
    /// The readings.
    pub options: ZoneRpgOptions,
}

/// A table of one lit zone, `road`; the party (its characters controlled by their players) and
/// the GM's bandits, who started the fight and hold the initiative.
pub fn table(characters: Vec<CharacterSpec>) -> Table {
    Table {
        zones: vec![zone("road")],
        borders: vec![],
        factions: vec![
            FactionSpec { name: PARTY.into(), controller: None },
            FactionSpec { name: BANDITS.into(), controller: None },
        ],
        characters,
        initiative: InitiativeSpec::Faction { faction: BANDITS.into() },
        options: ZoneRpgOptions::default(),
    }
}

impl Table {
    /// With these zones and borders.
    pub fn zones(mut self, zones: Vec<ZoneSpec>, borders: Vec<BorderSpec>) -> Self {
        self.zones = zones;
        self.borders = borders;
        self
    }

    /// With these readings.
    pub fn options(mut self, options: ZoneRpgOptions) -> Self {
        self.options = options;
        self
    }

    /// The command opening it under server seed `n`.
    pub fn create(&self, n: u64) -> C {
        C::CreateBattle {
            zones: self.zones.clone(),
            borders: self.borders.clone(),
            factions: self.factions.clone(),
            characters: self.characters.clone(),
            initiative: self.initiative.clone(),
            options: self.options,
            seed_commitment: commitment_hex(n),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Actors and dice
// ---------------------------------------------------------------------------------------------

/// The GM.
pub fn gm() -> Actor {
    Actor::new("judge:gm", Role::Judge)
}

/// A player.
pub fn player(name: &str) -> Actor {
    Actor::player(format!("token:{name}"), name)
}

/// `sha256` of [`server_seed`] `n`, hex.
pub fn commitment_hex(n: u64) -> String {
    shared::commitment_hex(&server_seed(n))
}

/// When every command is received.
fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 5, 1, 12, 0, 0).single().unwrap_or_default()
}

/// The harness of an empty stream under server seed `n`.
fn harness(n: u64) -> Harness<ZoneRpg> {
    Harness::empty(STREAM, n).numbered(server_seed, now())
}

/// The context the application layer builds for `state` under server seed `n`.
pub fn context(state: &ZoneRpgState, actor: Actor, n: u64) -> Context {
    let mut harness = harness(n);
    harness.state = state.clone();
    harness.context(actor)
}

/// The first server seed in `0..3000` for which `wanted` holds.
pub fn find_seed(mut wanted: impl FnMut(u64) -> bool) -> u64 {
    (0..3000).find(|n| wanted(*n)).expect("no server seed in 0..3000 gives the dice the test needs")
}

// ---------------------------------------------------------------------------------------------
// When: the fight
// ---------------------------------------------------------------------------------------------

/// A fight in progress: the one harness every ruleset's tests share
/// (`herald_test_support::harness`), with the zone-rpg vocabulary below.
#[derive(Clone)]
pub struct Fight(pub Harness<ZoneRpg>);

impl std::ops::Deref for Fight {
    type Target = Harness<ZoneRpg>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Fight {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// A fight set up on `table` under server seed `n`.
pub fn given(table: &Table, n: u64) -> Fight {
    let mut fight = Fight(harness(n));
    fight.by(gm(), table.create(n));
    fight
}

impl Fight {
    /// A stream nobody has opened yet, under server seed `n`.
    pub fn empty(n: u64) -> Self {
        Self(harness(n))
    }

    /// Decide `command` for `actor`; fold its events on acceptance.
    pub fn when(&mut self, actor: Actor, command: C) -> Result<Vec<ZoneRpgEvent>, RuleError> {
        self.0.attempt(actor, command)
    }

    /// `command` by the GM, which must be accepted.
    pub fn gm(&mut self, command: C) -> Vec<ZoneRpgEvent> {
        self.by(gm(), command)
    }

    /// Then: `command` by `actor` is refused with `code` citing seed 001 `heading` (or the rule
    /// text given verbatim when it starts with `herald`), and nothing changes.
    pub fn refused_by(&mut self, actor: Actor, command: C, code: &str, heading: &str) -> RuleError {
        let cited = if heading.starts_with("herald") { heading.to_string() } else { format!("seed 001 \"{heading}\"") };
        self.0.refused_by(actor, command, code, &cited)
    }

    /// Then: `command` by the GM is refused.
    pub fn refused(&mut self, command: C, code: &str, heading: &str) -> RuleError {
        self.refused_by(gm(), command, code, heading)
    }

    /// A character.
    pub fn character(&self, id: &str) -> &CharacterState {
        self.state.character(id).unwrap_or_else(|| panic!("no character {id}"))
    }

    /// Start a round with `first` acting first.
    pub fn start_round(&mut self, first: &str) -> Vec<ZoneRpgEvent> {
        self.gm(start_round(first))
    }
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

/// Start a round.
pub fn start_round(first: &str) -> C {
    C::StartRound { first_faction: first.into() }
}

/// Take a turn with a character.
pub fn take_turn(character: &str) -> C {
    C::TakeTurn { character: character.into() }
}

/// Pass for a faction.
pub fn pass(faction: &str) -> C {
    C::Pass { faction: faction.into() }
}

/// End the turn.
pub fn end_turn() -> C {
    C::EndTurn {}
}

/// Move along zones.
pub fn walk(character: &str, path: &[&str]) -> C {
    C::Move {
        character: character.into(),
        path: path.iter().map(|z| z.to_string()).collect(),
        sprint: false,
        sneak: false,
        at_border: None,
        behind: None,
    }
}

/// An attack on one character with a weapon (`None`: unarmed).
pub fn attack(attacker: &str, weapon: Option<&str>, target: &str) -> C {
    C::Attack {
        attacker: attacker.into(),
        weapon: weapon.map(str::to_string),
        target: AttackTarget::Character { character: target.into() },
        impaired: false,
        death_blow: false,
        stunt: None,
    }
}

/// A death blow.
pub fn death_blow(attacker: &str, weapon: &str, target: &str) -> C {
    C::Attack {
        attacker: attacker.into(),
        weapon: Some(weapon.into()),
        target: AttackTarget::Character { character: target.into() },
        impaired: false,
        death_blow: true,
        stunt: None,
    }
}

/// A blast attack on a zone.
pub fn blast(attacker: &str, weapon: &str, zone: &str) -> C {
    C::Attack {
        attacker: attacker.into(),
        weapon: Some(weapon.into()),
        target: AttackTarget::Zone { zone: zone.into() },
        impaired: false,
        death_blow: false,
        stunt: None,
    }
}

/// A larger character's melee attack with its dice distributed.
pub fn split(attacker: &str, weapon: &str, shares: &[(&str, u32)]) -> C {
    C::Attack {
        attacker: attacker.into(),
        weapon: Some(weapon.into()),
        target: AttackTarget::Split {
            shares: shares.iter().map(|(c, d)| DiceShare { character: c.to_string(), dice: *d }).collect(),
        },
        impaired: false,
        death_blow: false,
        stunt: None,
    }
}

/// An attack with a stunt proposed.
pub fn stunt(attacker: &str, weapon: &str, target: &str, proposal: StuntProposal) -> C {
    C::Attack {
        attacker: attacker.into(),
        weapon: Some(weapon.into()),
        target: AttackTarget::Character { character: target.into() },
        impaired: false,
        death_blow: false,
        stunt: Some(proposal),
    }
}

/// A non-lethal attack.
pub fn non_lethal(attacker: &str, target: &str, manoeuvre: Manoeuvre) -> C {
    C::NonLethalAttack { attacker: attacker.into(), target: target.into(), manoeuvre }
}

/// React.
pub fn react(character: &str, reaction: ReactionChoice) -> C {
    C::React { character: character.into(), reaction }
}

/// Dodge.
pub fn dodge(character: &str) -> C {
    react(character, ReactionChoice::Dodge {})
}

/// Counter with a weapon.
pub fn counter(character: &str, weapon: Option<&str>) -> C {
    react(character, ReactionChoice::Counter { weapon: weapon.map(str::to_string), impaired: false, manoeuvre: None })
}

/// Decline to react.
pub fn decline(character: &str) -> C {
    C::Decline { character: character.into() }
}

/// A bonus or main action.
pub fn perform(character: &str, action: Action) -> C {
    C::Perform { character: character.into(), action, description: String::new() }
}

// ---------------------------------------------------------------------------------------------
// Then: what came of it
// ---------------------------------------------------------------------------------------------

/// The type names of `events`.
pub fn types(events: &[ZoneRpgEvent]) -> Vec<String> {
    events.iter().map(EventType::event_type).collect()
}

/// The first event of type `kind`, or a panic listing what came.
pub fn find<'a>(events: &'a [ZoneRpgEvent], kind: &str) -> &'a ZoneRpgEvent {
    events.iter().find(|e| e.event_type() == kind).unwrap_or_else(|| panic!("no {kind} among {:?}", types(events)))
}

/// Whether an event of type `kind` is among `events`.
pub fn has(events: &[ZoneRpgEvent], kind: &str) -> bool {
    events.iter().any(|e| e.event_type() == kind)
}

/// Every die drawn in `events`, in order, as recorded in their JSON.
pub fn draws(events: &[ZoneRpgEvent]) -> Vec<Draw> {
    fn collect(value: &serde_json::Value, out: &mut Vec<Draw>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Ok(draw) = serde_json::from_value::<Draw>(value.clone()) {
                    if map.contains_key("word") && map.contains_key("purpose") {
                        out.push(draw);
                        return;
                    }
                }
                map.values().for_each(|v| collect(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for event in events {
        collect(&serde_json::to_value(event).expect("serializes"), &mut out);
    }
    out.sort_by_key(|d| d.word);
    out.dedup_by_key(|d| d.word);
    out
}

/// The faces of the draws whose purpose contains `purpose`.
pub fn faces(events: &[ZoneRpgEvent], purpose: &str) -> Vec<u32> {
    draws(events).iter().filter(|d| d.purpose.contains(purpose)).map(|d| d.value).collect()
}

/// The damage suffered by `character` in `events`' hits.
pub fn suffered(events: &[ZoneRpgEvent], character: &str) -> Option<u32> {
    events.iter().find_map(|e| match e {
        ZoneRpgEvent::CharacterHit { character: c, suffered, .. } if c == character => Some(*suffered),
        _ => None,
    })
}

/// Fold `events` from an empty stream.
pub fn fold(events: &[ZoneRpgEvent]) -> ZoneRpgState {
    ZoneRpg::fold(events)
}
