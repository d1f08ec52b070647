//! Shared helpers for the percentile-skirmish tests (seed 002): cards and tables, a battle
//! harness that runs commands the way the application layer does (the state folded from the
//! events so far, a dice tape keyed by a fixed server seed and positioned where the last draw
//! ended), and the data-driven `given / when / then` form every rule test is written in.
#![allow(dead_code)]

use herald_domain::{
    dice::DiceExpr,
    percentile_skirmish::{
        battle::{
            command::{ParticipantSpec, SkirmishCommand, Summons},
            state::{MiniState, Phase, SkirmishState},
            PercentileSkirmish, SkirmishEvent,
        },
        mini::{Armour, ArmourSlot, MiniProfile, MiniSpec, Resistance, Size, Weapon, WeaponKind},
        rules::{BattleOptions, CombatChoice},
        spells::Spell,
        table::{Point, Shape, Table, TerrainFeature, TerrainKind},
    },
    Actor, Decider, EventType, Role, RuleError,
};
use herald_test_support::harness::{self, Harness};
pub use herald_test_support::harness::{now, server_seed};

/// The stream every test battle lives on.
pub const STREAM: &str = "battle-0190f0a4-3333-7000-8000-0000000ps002";
/// The first participant (alice).
pub const RED: &str = "red";
/// The second participant (bob).
pub const BLUE: &str = "blue";

/// `sha256` of [`server_seed`] `n`, hex.
pub fn commitment_hex(n: u64) -> String {
    harness::commitment_hex(&server_seed(n))
}

/// The battle's judge.
pub fn judge() -> Actor {
    Actor::new("judge:j", Role::Judge)
}

/// Red's controller.
pub fn alice() -> Actor {
    Actor::player("token:alice", "alice")
}

/// Blue's controller.
pub fn bob() -> Actor {
    Actor::player("token:bob", "bob")
}

/// The controller of `participant`.
pub fn controller(participant: &str) -> Actor {
    if participant == BLUE {
        bob()
    } else {
        alice()
    }
}

/// Red (alice) and blue (bob).
pub fn participants() -> Vec<ParticipantSpec> {
    vec![
        ParticipantSpec { name: RED.into(), controller: "alice".into(), points_limit: None },
        ParticipantSpec { name: BLUE.into(), controller: "bob".into(), points_limit: None },
    ]
}

/// `seed 002 "<heading>"`.
pub fn heading(name: &str) -> String {
    format!("seed 002 \"{name}\"")
}

// ---------------------------------------------------------------------------------------------
// Cards and tables
// ---------------------------------------------------------------------------------------------

/// A dice expression.
pub fn dice(text: &str) -> DiceExpr {
    DiceExpr::parse(text).expect("a dice expression")
}

/// A melee weapon doing `damage`.
pub fn melee(name: &str, damage: &str) -> Weapon {
    Weapon {
        name: name.into(),
        kind: WeaponKind::Melee,
        range: None,
        damage: dice(damage),
        magical: false,
        element: None,
    }
}

/// A ranged weapon of maximum range `range` doing `damage`.
pub fn ranged(name: &str, range: f64, damage: &str) -> Weapon {
    Weapon {
        name: name.into(),
        kind: WeaponKind::Ranged,
        range: Some(range),
        damage: dice(damage),
        magical: false,
        element: None,
    }
}

/// A piece of armour.
pub fn armour(name: &str, slot: ArmourSlot, protection: u32, metal: bool, magical: bool) -> Armour {
    Armour { name: name.into(), slot, protection, metal, magical, forward_facing: false }
}

/// A medium mini of `level`, movement 4″, initiative `initiative`, `life` life points, a Sword
/// (melee, 5 damage) and a Bow (24″, 5 damage), no armour.
pub fn card(name: &str, level: u32, initiative: i32, life: u32) -> MiniProfile {
    MiniProfile {
        name: name.into(),
        level,
        size: Size::Medium,
        movement: 4.0,
        initiative,
        life,
        attacks: 1,
        spell_attacks: 1,
        armour: Vec::new(),
        weapons: vec![melee("Sword", "5"), ranged("Bow", 24.0, "5")],
        resistances: Vec::new(),
        spell_points: 0,
        spells: Vec::new(),
        points: 0,
    }
}

/// A caster of `level` knowing `spells`, with 200 spell points.
pub fn caster(name: &str, level: u32, initiative: i32, spells: &[Spell]) -> MiniProfile {
    MiniProfile { spell_points: 200, spells: spells.to_vec(), ..card(name, level, initiative, 20) }
}

/// `profile` of `size`.
pub fn sized(profile: MiniProfile, size: Size) -> MiniProfile {
    MiniProfile { size, ..profile }
}

/// `profile` with `resistances`.
pub fn resisting(profile: MiniProfile, resistances: &[Resistance]) -> MiniProfile {
    MiniProfile { resistances: resistances.to_vec(), ..profile }
}

/// A mini of `participant` at (`x`, `y`) facing `facing` degrees.
pub fn mini(id: &str, participant: &str, profile: MiniProfile, x: f64, y: f64, facing: f64) -> MiniSpec {
    MiniSpec { id: id.into(), participant: participant.into(), profile, position: Point::new(x, y), facing }
}

/// The point (`x`, `y`).
pub fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A rectangle of `kind` from `min` to `max`.
pub fn rect(name: &str, kind: TerrainKind, min: (f64, f64), max: (f64, f64)) -> TerrainFeature {
    TerrainFeature { name: name.into(), kind, shape: Shape::Rect { min: p(min.0, min.1), max: p(max.0, max.1) } }
}

/// A band of `kind`, `width` wide, along `points`.
pub fn band(name: &str, kind: TerrainKind, points: &[(f64, f64)], width: f64) -> TerrainFeature {
    TerrainFeature {
        name: name.into(),
        kind,
        shape: Shape::Band { points: points.iter().map(|(x, y)| p(*x, *y)).collect(), width },
    }
}

/// A north–south stream `width` wide centred on x = `x`, the whole depth of a 48″ table.
pub fn stream(name: &str, x: f64, width: f64) -> TerrainFeature {
    rect(name, TerrainKind::Water, (x - width / 2.0, 0.0), (x + width / 2.0, 48.0))
}

/// An east–west road 2″ wide centred on y = `y`.
pub fn road(name: &str, y: f64) -> TerrainFeature {
    rect(name, TerrainKind::Road, (0.0, y - 1.0), (48.0, y + 1.0))
}

/// The default 48″ × 48″ table with `terrain`.
pub fn table_with(terrain: Vec<TerrainFeature>) -> Table {
    Table { terrain, ..Table::default() }
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

/// Declare `minis` of `participant` for the round.
pub fn declare(participant: &str, minis: &[&str]) -> SkirmishCommand {
    SkirmishCommand::Declare { participant: participant.into(), minis: minis.iter().map(|m| m.to_string()).collect() }
}

/// Walk `mini` through `points`.
pub fn walk(mini: &str, points: &[(f64, f64)]) -> SkirmishCommand {
    SkirmishCommand::Move {
        mini: mini.into(),
        path: points.iter().map(|(x, y)| p(*x, *y)).collect(),
        run: false,
        facing: None,
    }
}

/// Run `mini` through `points`.
pub fn run(mini: &str, points: &[(f64, f64)]) -> SkirmishCommand {
    SkirmishCommand::Move {
        mini: mini.into(),
        path: points.iter().map(|(x, y)| p(*x, *y)).collect(),
        run: true,
        facing: None,
    }
}

/// Turn `mini` in place to `facing`.
pub fn turn_to(mini: &str, facing: f64) -> SkirmishCommand {
    SkirmishCommand::Move { mini: mini.into(), path: Vec::new(), run: false, facing: Some(facing) }
}

/// A melee attack.
pub fn strike(attacker: &str, target: &str, weapon: &str) -> SkirmishCommand {
    SkirmishCommand::MeleeAttack { attacker: attacker.into(), target: target.into(), weapon: weapon.into() }
}

/// A range attack.
pub fn shoot(attacker: &str, target: &str, weapon: &str) -> SkirmishCommand {
    SkirmishCommand::RangedAttack { attacker: attacker.into(), target: target.into(), weapon: weapon.into() }
}

/// An open-combat pick.
pub fn pick(mini: &str, choice: CombatChoice) -> SkirmishCommand {
    SkirmishCommand::ChooseCombatOption { mini: mini.into(), choice, weapon: None }
}

/// A spell at a mini.
pub fn cast_at(caster: &str, spell: Spell, target: &str) -> SkirmishCommand {
    SkirmishCommand::CastSpell { caster: caster.into(), spell, target: Some(target.into()), at: None, command: None }
}

/// A spell at a point.
pub fn cast_to(caster: &str, spell: Spell, x: f64, y: f64) -> SkirmishCommand {
    SkirmishCommand::CastSpell { caster: caster.into(), spell, target: None, at: Some(p(x, y)), command: None }
}

/// A spell on the caster.
pub fn cast_self(caster: &str, spell: Spell) -> SkirmishCommand {
    SkirmishCommand::CastSpell { caster: caster.into(), spell, target: None, at: None, command: None }
}

/// Make the attack of opportunity a move offered.
pub fn opportunity(attacker: &str, target: &str) -> SkirmishCommand {
    SkirmishCommand::AttackOfOpportunity { attacker: attacker.into(), target: target.into(), weapon: None }
}

/// Let an attack of opportunity go.
pub fn decline(attacker: &str, target: &str) -> SkirmishCommand {
    SkirmishCommand::DeclineOpportunity { attacker: attacker.into(), target: target.into() }
}

/// End the acting mini's actions.
pub fn done(mini: &str) -> SkirmishCommand {
    SkirmishCommand::EndActions { mini: mini.into() }
}

// ---------------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------------

/// A battle in progress: the one harness every ruleset's tests share
/// (`herald_test_support::harness`), with the percentile-skirmish vocabulary below.
#[derive(Clone)]
pub struct Battle(pub Harness<PercentileSkirmish>);

impl std::ops::Deref for Battle {
    type Target = Harness<PercentileSkirmish>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Battle {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// The command that opens a battle.
pub fn create_command(
    table: Table,
    minis: Vec<MiniSpec>,
    options: BattleOptions,
    summons: Summons,
    n: u64,
) -> SkirmishCommand {
    SkirmishCommand::CreateBattle {
        table,
        participants: participants(),
        minis,
        options,
        summons,
        seed_commitment: commitment_hex(n),
    }
}

impl Battle {
    /// A stream nobody has opened yet, under server seed `n`.
    pub fn empty(n: u64) -> Self {
        Self(Harness::empty(STREAM, n).numbered(server_seed, now()))
    }

    /// A battle on the default table with default options.
    pub fn new(minis: Vec<MiniSpec>) -> Self {
        Self::with(Table::default(), minis, BattleOptions::default(), Summons::default(), 0)
    }

    /// A battle with everything given, under server seed `n`.
    pub fn with(table: Table, minis: Vec<MiniSpec>, options: BattleOptions, summons: Summons, n: u64) -> Self {
        let mut battle = Self::empty(n);
        battle.by(judge(), create_command(table, minis, options, summons, n));
        battle
    }

    /// Decide `command` for the judge; it must be accepted.
    pub fn judge(&mut self, command: SkirmishCommand) -> Vec<SkirmishEvent> {
        self.by(judge(), command)
    }

    /// `command` for `actor` is refused with `code`, citing `seed 002 "<rule>"` (or containing
    /// `rule` verbatim when it starts with `herald`), and changes nothing.
    pub fn refused_by(&mut self, actor: Actor, command: SkirmishCommand, code: &str, rule: &str) -> RuleError {
        let cited = if rule.starts_with("herald") { rule.to_string() } else { heading(rule) };
        self.0.refused_by(actor, command, code, &cited)
    }

    /// `command` for the judge is refused with `code` citing `rule`.
    pub fn refused(&mut self, command: SkirmishCommand, code: &str, rule: &str) -> RuleError {
        self.refused_by(judge(), command, code, rule)
    }

    /// A mini's state.
    pub fn mini(&self, id: &str) -> &MiniState {
        self.state.mini(id).unwrap_or_else(|| panic!("no mini {id}"))
    }

    /// The acting mini's id.
    pub fn acting(&self) -> Option<String> {
        self.state.acting().map(|mini| mini.id().to_string())
    }

    /// Play declarations and end actions (as the judge) until `mini` acts: every round, each
    /// participant declares `mini` if it may, nothing otherwise.
    pub fn until_acting(&mut self, mini: &str) {
        for _ in 0..200 {
            match self.state.phase {
                Phase::Acting if self.acting().as_deref() == Some(mini) => return,
                Phase::Acting => {
                    let acting = self.acting().expect("a mini acts");
                    self.judge(done(&acting));
                }
                Phase::Declaring => {
                    let round = self.state.round.clone().expect("a round");
                    let waiting: Vec<_> = round
                        .declarations
                        .iter()
                        .filter(|d| d.declared.is_none() && !d.eligible.is_empty())
                        .cloned()
                        .collect();
                    for declaration in waiting {
                        let chosen: Vec<&str> =
                            if declaration.eligible.iter().any(|id| id == mini) { vec![mini] } else { vec![] };
                        self.judge(declare(&declaration.participant, &chosen));
                    }
                }
                phase => panic!("{mini} never acts: the battle is {phase:?}"),
            }
        }
        panic!("{mini} never acts");
    }

    /// Finish the acting mini's actions and every round of the turn, declaring nothing, until a
    /// new turn's first round waits for declarations.
    pub fn next_turn(&mut self) {
        let turn = self.state.turn;
        for _ in 0..200 {
            if self.state.turn > turn && self.state.phase == Phase::Declaring || self.state.ended() {
                return;
            }
            match self.state.phase {
                Phase::Acting => {
                    let acting = self.acting().expect("a mini acts");
                    self.judge(done(&acting));
                }
                Phase::Declaring => {
                    let round = self.state.round.clone().expect("a round");
                    for declaration in
                        round.declarations.iter().filter(|d| d.declared.is_none() && !d.eligible.is_empty())
                    {
                        self.judge(declare(&declaration.participant, &[]));
                    }
                }
                _ => return,
            }
        }
    }
}

/// The first server seed in `0..2000` for which `wanted` holds: tests search for the dice they
/// need rather than trusting luck.
pub fn find_seed(mut wanted: impl FnMut(u64) -> bool) -> u64 {
    (0..2000).find(|n| wanted(*n)).expect("no server seed in 0..2000 gives the outcome the test needs")
}

/// The first event of type `kind` (`"percentile-skirmish.Attacked"`), or a panic listing what
/// came.
pub fn find<'a>(events: &'a [SkirmishEvent], kind: &str) -> &'a SkirmishEvent {
    events
        .iter()
        .find(|event| event.event_type() == kind)
        .unwrap_or_else(|| panic!("no {kind} among {:?}", types(events)))
}

/// Whether an event of type `kind` is among `events`.
pub fn has(events: &[SkirmishEvent], kind: &str) -> bool {
    events.iter().any(|event| event.event_type() == kind)
}

/// The type names of `events`, in order.
pub fn types(events: &[SkirmishEvent]) -> Vec<String> {
    events.iter().map(EventType::event_type).collect()
}

/// Fold `events` from an empty stream.
pub fn fold(events: &[SkirmishEvent]) -> SkirmishState {
    PercentileSkirmish::fold(events)
}

// ---------------------------------------------------------------------------------------------
// given / when / then
// ---------------------------------------------------------------------------------------------

/// A rule case: the battle set up (`given`), what is sent (`when`), and what must follow
/// (`then`), run by [`check`].
pub struct Case {
    /// The rule's heading in seed 002, for messages.
    pub rule: &'static str,
    /// The battle as set up.
    pub given: Given,
    /// The commands sent, with their actors, after `until` acts.
    pub when: Vec<(Actor, SkirmishCommand)>,
    /// What must follow.
    pub then: Then,
}

/// A battle's set-up for a case.
pub struct Given {
    /// The table.
    pub table: Table,
    /// The minis.
    pub minis: Vec<MiniSpec>,
    /// The options.
    pub options: BattleOptions,
    /// The summons.
    pub summons: Summons,
    /// The server seed.
    pub seed: u64,
    /// Play until this mini acts before sending `when`.
    pub acting: Option<&'static str>,
}

impl Given {
    /// `minis` on the default table, with default options, seed 0.
    pub fn minis(minis: Vec<MiniSpec>) -> Self {
        Self {
            table: Table::default(),
            minis,
            options: BattleOptions::default(),
            summons: Summons::default(),
            seed: 0,
            acting: None,
        }
    }

    /// On `table`.
    pub fn on(self, table: Table) -> Self {
        Self { table, ..self }
    }

    /// With `options`.
    pub fn options(self, options: BattleOptions) -> Self {
        Self { options, ..self }
    }

    /// With `summons`.
    pub fn summons(self, summons: Summons) -> Self {
        Self { summons, ..self }
    }

    /// Under server seed `seed`.
    pub fn seed(self, seed: u64) -> Self {
        Self { seed, ..self }
    }

    /// Once `mini` acts.
    pub fn acting(self, mini: &'static str) -> Self {
        Self { acting: Some(mini), ..self }
    }

    /// The battle, played until the acting mini acts.
    pub fn battle(&self) -> Battle {
        let mut battle =
            Battle::with(self.table.clone(), self.minis.clone(), self.options, self.summons.clone(), self.seed);
        if let Some(mini) = self.acting {
            battle.until_acting(mini);
        }
        battle
    }
}

/// A check on the battle after a case's commands and on the last command's events.
pub type Check = Box<dyn Fn(&Battle, &[SkirmishEvent])>;

/// What must follow a case's commands.
pub enum Then {
    /// The last command is refused with this code, citing this heading (`herald…` verbatim).
    Refused(&'static str, &'static str),
    /// Every command is accepted and the check holds on the battle and the last command's
    /// events.
    Holds(Check),
}

/// Run a case: the set-up, the commands, the expectation.
pub fn check(case: Case) -> Battle {
    let mut battle = case.given.battle();
    let count = case.when.len();
    let mut last = Vec::new();
    for (index, (actor, command)) in case.when.into_iter().enumerate() {
        if index + 1 == count {
            if let Then::Refused(code, rule) = &case.then {
                battle.refused_by(actor, command, code, rule);
                return battle;
            }
        }
        last = match battle.attempt(actor, command) {
            Ok(events) => events,
            Err(error) => panic!("[{}] refused: {} [{}] ({})", case.rule, error.message, error.code, error.rule),
        };
    }
    match case.then {
        Then::Holds(holds) => holds(&battle, &last),
        Then::Refused(code, _) => panic!("[{}] nothing was sent to be refused with {code}", case.rule),
    }
    battle
}

/// `Then::Holds` from a closure.
pub fn holds(check: impl Fn(&Battle, &[SkirmishEvent]) + 'static) -> Then {
    Then::Holds(Box::new(check))
}
