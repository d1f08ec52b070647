//! Shared helpers for the swift-swords tests (seed 004): figures and zones to build encounters
//! from, a battle harness that runs commands the way the application layer does (the state
//! folded from the events so far, a dice tape keyed by a fixed server seed and positioned at the
//! state's `next_word`), and the one data-driven `given` / `when` / `then` helper the rule tests
//! are written with.
#![allow(dead_code)]

use herald_domain::{
    swift_swords::{
        battle::{
            command::{DefenceChoice, SwiftSwordsCommand as C},
            event::SwiftSwordsEvent as E,
            pending::{AttackOptions, Destination},
            state::{Figure, SideSpec},
            SwiftSwords,
        },
        chariot::ChariotSpec,
        damage::Tactic,
        figure::{
            ActionDiceSpec, Characteristics, DefenceSkills, DeviceSpec, FigureSpec, Natural, StartSpec, WeaponKind,
            WeaponSpec, Weight,
        },
        options::BattleOptions,
        zones::{ZoneMap, ZoneSpec},
    },
    Actor, Role, RuleError,
};
use herald_test_support::harness::{self, Harness};
pub use herald_test_support::harness::{find_seed_from, now, server_seed};

/// The stream every test battle lives on.
pub const STREAM: &str = "battle-0190f0a4-4444-7000-8000-0000000ss004";

/// `seed 004 "<heading>"`, as the decider cites a heading of the rules.
pub fn heading(name: &str) -> String {
    format!("seed 004 \"{name}\"")
}

/// `sha256` of [`server_seed`] `n`, hex.
pub fn commitment_hex(n: u64) -> String {
    harness::commitment_hex(&server_seed(n))
}

/// The GM.
pub fn gm() -> Actor {
    Actor::new("judge:gm", Role::Judge)
}

/// Alice, who plays the heroes.
pub fn alice() -> Actor {
    Actor::player("token:alice", "alice")
}

/// Bob, another player.
pub fn bob() -> Actor {
    Actor::player("token:bob", "bob")
}

// ---------------------------------------------------------------------------------------------
// Zones, sides and figures
// ---------------------------------------------------------------------------------------------

/// A zone at (`column`, `row`).
pub fn zone(id: &str, column: u8, row: u8) -> ZoneSpec {
    ZoneSpec { id: id.into(), column, row, terrain: "open ground".into(), going: Default::default() }
}

/// A row of zones `a`, `b`, `c`, `d` west to east.
pub fn strip() -> ZoneMap {
    ZoneMap { zones: vec![zone("a", 0, 0), zone("b", 1, 0), zone("c", 2, 0), zone("d", 3, 0)], ..ZoneMap::default() }
}

/// The heroes (alice) and the goblins (the GM's).
pub fn sides() -> Vec<SideSpec> {
    vec![
        SideSpec { name: "heroes".into(), controller: Some("alice".into()) },
        SideSpec { name: "goblins".into(), controller: None },
    ]
}

/// A melee weapon.
pub fn weapon(name: &str, dice: u8, weight: Weight) -> WeaponSpec {
    WeaponSpec {
        name: name.into(),
        dice,
        weight,
        kind: WeaponKind::Melee,
        natural: Natural::No,
        cost: 4,
        range: 0,
        grapple: false,
        strapped: false,
        bane: false,
        close_bonus: false,
        two_handed: None,
    }
}

/// A missile weapon of `kind` reaching `range` zones.
pub fn missile(name: &str, dice: u8, kind: WeaponKind, range: u8) -> WeaponSpec {
    WeaponSpec { kind, range, ..weapon(name, dice, Weight::Light) }
}

/// A figure with everything at the seed's defaults: 4 action dice, rank 3/3, 4d characteristics,
/// no weapons or defences.
pub fn figure(id: &str, side: &str, zone: &str) -> FigureSpec {
    FigureSpec {
        id: id.into(),
        name: None,
        side: side.into(),
        controller: None,
        start: StartSpec { zone: zone.into(), ..StartSpec::default() },
        action_dice: ActionDiceSpec::Roll { dice: 4 },
        physical: 3,
        mental: 3,
        bonus_physical: 0,
        bonus_mental: 0,
        heroic: false,
        stateless: false,
        crossover_every: 2,
        weapons: Vec::new(),
        defences: DefenceSkills::default(),
        shield: None,
        armour: 0,
        characteristics: Characteristics::default(),
        skills: Vec::new(),
        size: 1,
        legs: 2,
        fear: None,
        fearless: false,
        flight: None,
        formation: None,
    }
}

/// Roland: alice's Heroic fighter, 4 AD, ranks 3/3, a Broadsword (4d, Medium), Dodge 5d
/// ("4d (Skill) + 1d (Adv)"), Block 5d with a Medium Shield (Block=2), Parry 4d.
pub fn roland(zone: &str) -> FigureSpec {
    FigureSpec {
        controller: Some("alice".into()),
        heroic: true,
        weapons: vec![weapon("Broadsword", 4, Weight::Medium)],
        defences: DefenceSkills { dodge: Some(5), block: Some(5), parry: Some(4), parry_missiles: false },
        shield: Some(DeviceSpec { name: "Medium Shield".into(), block: 2 }),
        ..figure("roland", "heroes", zone)
    }
}

/// A goblin: a minor NPC with set dice 5,4,3, ranks 2/2, a Spear of 4d (Medium).
pub fn goblin(id: &str, zone: &str) -> FigureSpec {
    FigureSpec {
        action_dice: ActionDiceSpec::Set { values: vec![5, 4, 3] },
        physical: 2,
        mental: 2,
        weapons: vec![weapon("Spear", 4, Weight::Medium)],
        ..figure(id, "goblins", zone)
    }
}

/// `spec` starting in the group labelled `label`.
pub fn grouped(mut spec: FigureSpec, label: &str) -> FigureSpec {
    spec.start.group = Some(label.into());
    spec
}

/// An encounter to set up.
#[derive(Clone)]
pub struct Setup {
    /// The zones.
    pub map: ZoneMap,
    /// The sides.
    pub sides: Vec<SideSpec>,
    /// The figures.
    pub figures: Vec<FigureSpec>,
    /// The chariots.
    pub chariots: Vec<ChariotSpec>,
    /// The readings.
    pub options: BattleOptions,
}

impl Setup {
    /// `figures` on the strip of four zones, heroes against goblins, default readings.
    pub fn of(figures: Vec<FigureSpec>) -> Self {
        Self { map: strip(), sides: sides(), figures, chariots: Vec::new(), options: BattleOptions::default() }
    }

    /// With `options`.
    pub fn with(mut self, options: BattleOptions) -> Self {
        self.options = options;
        self
    }

    /// The command that opens it under server seed `n`.
    pub fn command(&self, n: u64) -> C {
        C::CreateBattle {
            map: self.map.clone(),
            sides: self.sides.clone(),
            figures: self.figures.clone(),
            chariots: self.chariots.clone(),
            options: self.options.clone(),
            seed_commitment: commitment_hex(n),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

/// Begin without surprise.
pub fn begin() -> C {
    C::Begin { surprised: Vec::new(), surprise_dice: 0 }
}

/// A plain attack.
pub fn attack(figure: &str, weapon: &str, target: &str) -> C {
    attack_with(figure, weapon, &[target], AttackOptions::default())
}

/// An attack with options at `targets`.
pub fn attack_with(figure: &str, weapon: &str, targets: &[&str], options: AttackOptions) -> C {
    C::Attack {
        figure: figure.into(),
        weapon: weapon.into(),
        targets: targets.iter().map(|t| t.to_string()).collect(),
        charge: false,
        tactic: Tactic::Normal,
        options,
        pay: None,
    }
}

/// An attack with a tactic.
pub fn tactic(figure: &str, weapon: &str, targets: &[&str], tactic: Tactic) -> C {
    match attack_with(figure, weapon, targets, AttackOptions::default()) {
        C::Attack { figure, weapon, targets, charge, options, pay, .. } => {
            C::Attack { figure, weapon, targets, charge, tactic, options, pay }
        }
        other => other,
    }
}

/// A charge.
pub fn charge(figure: &str, weapon: &str, target: &str) -> C {
    match attack(figure, weapon, target) {
        C::Attack { figure, weapon, targets, tactic, options, pay, .. } => {
            C::Attack { figure, weapon, targets, charge: true, tactic, options, pay }
        }
        other => other,
    }
}

/// A defence declared.
pub fn defend(figure: &str, defence: DefenceChoice) -> C {
    C::Defend {
        figure: figure.into(),
        defence,
        pay: None,
        effort: false,
        bump: false,
        counter: false,
        counter_weapon: None,
        take_rank: false,
    }
}

/// No new defence.
pub fn no_defence(figure: &str) -> C {
    defend(figure, DefenceChoice::None)
}

/// A move.
pub fn move_to(figure: &str, to: Destination) -> C {
    C::Move { figure: figure.into(), to, pay: None }
}

// ---------------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------------

/// A battle in progress: the one harness every ruleset's tests share
/// (`herald_test_support::harness`), with the swift-swords vocabulary below.
#[derive(Clone)]
pub struct Battle(pub Harness<SwiftSwords>);

impl std::ops::Deref for Battle {
    type Target = Harness<SwiftSwords>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Battle {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Battle {
    /// Open `setup` under server seed 0.
    pub fn new(setup: &Setup) -> Self {
        Self::seeded(setup, 0)
    }

    /// An empty stream under server seed `n`: nothing created yet.
    pub fn empty(n: u64) -> Self {
        Self(Harness::empty(STREAM, n).numbered(server_seed, now()))
    }

    /// Open `setup` under server seed `n`.
    pub fn seeded(setup: &Setup, n: u64) -> Self {
        let mut battle = Self::empty(n);
        battle.by(gm(), setup.command(n));
        battle
    }

    /// Open and begin.
    pub fn begun(setup: &Setup, n: u64) -> Self {
        let mut battle = Self::seeded(setup, n);
        battle.by(gm(), begin());
        battle
    }

    /// Set a figure's dice in hand.
    pub fn hand(&mut self, figure: &str, faces: &[u8]) {
        self.inject(E::HandChanged { figure: figure.into(), hand: faces.to_vec(), reason: "test".into() });
    }

    /// Decide `command` as the GM.
    pub fn gm(&mut self, command: C) -> Vec<E> {
        self.by(gm(), command)
    }

    /// A figure now.
    pub fn figure(&self, id: &str) -> &Figure {
        self.state.figure(id).unwrap_or_else(|| panic!("no figure {id}"))
    }

    /// The events of a type since index `from`.
    pub fn since(&self, from: usize) -> &[E] {
        &self.events[from.min(self.events.len())..]
    }
}

/// Assert a refusal with `code` citing `rule`.
pub fn assert_refused(result: Result<Vec<E>, RuleError>, code: &str, rule: &str) {
    match result {
        Ok(events) => panic!("expected {code}, but it was accepted: {events:#?}"),
        Err(error) => {
            assert_eq!(error.code, code, "{}", error.message);
            assert!(error.rule.contains(rule), "{code} should cite {rule}, cited {}", error.rule);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// given / when / then
// ---------------------------------------------------------------------------------------------

/// A step of a scenario: who sends what, or a state put in place.
pub enum Step {
    /// The GM sends a command.
    Gm(C),
    /// A player (or anyone) sends a command.
    By(Actor, C),
    /// A figure's hand is set to known faces.
    Hand(&'static str, Vec<u8>),
    /// An event folded in.
    Inject(E),
}

/// What a scenario's last step came to.
pub type Outcome = Result<Vec<E>, RuleError>;

/// The one data-driven helper: set `given` up under server seed `n` and begin it, run every
/// step of `when` (all but the last must be accepted), and hand the battle and the last step's
/// outcome to `then`.
pub fn check(given: &Setup, n: u64, when: Vec<Step>, then: impl FnOnce(&Battle, Outcome)) {
    let mut battle = Battle::begun(given, n);
    let count = when.len();
    let mut last: Outcome = Ok(Vec::new());
    for (index, step) in when.into_iter().enumerate() {
        let outcome = match step {
            Step::Gm(command) => battle.attempt(gm(), command),
            Step::By(actor, command) => battle.attempt(actor, command),
            Step::Hand(figure, faces) => {
                battle.hand(figure, &faces);
                Ok(Vec::new())
            }
            Step::Inject(event) => {
                battle.inject(event);
                Ok(Vec::new())
            }
        };
        if index + 1 < count {
            if let Err(error) = &outcome {
                panic!("step {index} was refused: {} [{}]", error.message, error.code);
            }
        }
        last = outcome;
    }
    then(&battle, last);
}

/// The first seed in `0..tries` for which `found` holds, with what it found.
pub fn find_seed<T>(tries: u64, found: impl FnMut(u64) -> Option<T>) -> (u64, T) {
    find_seed_from(0, tries, found)
}

/// The attack records among `events`.
pub fn attacks(events: &[E]) -> Vec<&herald_domain::swift_swords::battle::record::AttackRecord> {
    events
        .iter()
        .filter_map(|event| match event {
            E::AttackResolved { record, .. } => Some(record.as_ref()),
            _ => None,
        })
        .collect()
}
