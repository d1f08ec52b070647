//! Shared helpers for the warmachine battle decider tests (seed 000): profiles for every model
//! type, a battle harness that runs commands the way the application layer does (the state folded
//! from the events so far, a dice tape keyed by a fixed server seed and positioned at the state's
//! `next_word`), and small builders for commands and assertions on refusals.
#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use herald_domain::{
    warmachine::{
        battle::{
            command::{ControlChoices, DisplacementKindSpec, ModelSpec, Movement, PlayerSpec, UnitPlacement},
            state::{Condition, ModelState, WarmachineState},
            Warmachine, WarmachineCommand, WarmachineEvent,
        },
        model::{
            BaseSize, DamageCapacity, DamageGrid, Location, ModelProfile, ModelType, SpecialRule, StatCard, Weapon,
            WeaponKind, WeaponRange,
        },
        table::{Point, Position, Rect, Shape, Table, TerrainFeature, TerrainKind},
    },
    Actor, Context, Decider, EventType, Role, RuleError,
};
use herald_test_support::harness::{self as shared, Harness};

/// The stream every test battle lives on.
pub const STREAM: &str = "battle-0190f0a4-2222-7000-8000-00000000wm00";

/// The players, in turn order.
pub const RED: &str = "red";
/// The second player.
pub const BLUE: &str = "blue";

/// A server seed numbered `n` (a fixed 32-byte key per `n`).
pub fn server_seed(n: u64) -> [u8; 32] {
    let mut bytes = [0x3c; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    bytes
}

/// `sha256` of [`server_seed`] `n`, hex.
pub fn commitment_hex(n: u64) -> String {
    shared::commitment_hex(&server_seed(n))
}

/// When every command is received.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 5, 1, 12, 0, 0).single().unwrap_or_default()
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

/// The controller of `player`.
pub fn controller(player: &str) -> Actor {
    if player == BLUE {
        bob()
    } else {
        alice()
    }
}

/// The players: red (alice) then blue (bob).
pub fn players() -> Vec<PlayerSpec> {
    vec![
        PlayerSpec { name: RED.into(), controller: "alice".into() },
        PlayerSpec { name: BLUE.into(), controller: "bob".into() },
    ]
}

/// `seed 000 "<heading>"`, as the decider cites a heading of the rules.
pub fn heading(name: &str) -> String {
    format!("seed 000 \"{name}\"")
}

// ---------------------------------------------------------------------------------------------
// Profiles
// ---------------------------------------------------------------------------------------------

/// A stat card with no ARC, CTRL, FURY or THR.
pub fn stats(spd: u8, mat: u8, rat: u8, def: u8, arm: u8) -> StatCard {
    StatCard { spd, strength: None, mat, rat, aat: None, def, arm, arc: None, fury: None, ctrl: None, thr: None }
}

/// A melee weapon with the usual 0.5″ melee range.
pub fn melee(name: &str, pow: u8) -> Weapon {
    Weapon {
        name: name.into(),
        kind: WeaponKind::Melee,
        rng: WeaponRange::Inches(0.5),
        rof: None,
        aoe: None,
        pow: Some(pow),
        blast_pow: None,
        location: None,
        special_rules: Vec::new(),
    }
}

/// A ranged weapon.
pub fn ranged(name: &str, rng: f64, rof: u8, pow: u8) -> Weapon {
    Weapon {
        name: name.into(),
        kind: WeaponKind::Ranged,
        rng: WeaponRange::Inches(rng),
        rof: Some(rof),
        aoe: None,
        pow: Some(pow),
        blast_pow: None,
        location: None,
        special_rules: Vec::new(),
    }
}

/// A weapon with a special rule added.
pub fn with_rule(mut weapon: Weapon, rule: SpecialRule) -> Weapon {
    weapon.special_rules.push(rule);
    weapon
}

/// A profile with a rule added.
pub fn with_special(mut profile: ModelProfile, rule: SpecialRule) -> ModelProfile {
    profile.special_rules.push(rule);
    profile
}

/// A warcaster: SPD 6, MAT 6, RAT 5, DEF 15, ARM 15, ARC 6, CTRL 14, 15 boxes, small base;
/// a Sword (POW 12) and a Hand Cannon (RNG 10, ROF 1, POW 10).
pub fn warcaster() -> ModelProfile {
    ModelProfile {
        name: "Commander".into(),
        model_type: ModelType::Warcaster,
        stats: StatCard { arc: Some(6), ctrl: Some(14), ..stats(6, 6, 5, 15, 15) },
        base: BaseSize::Small,
        damage: DamageCapacity::Boxes { boxes: 15 },
        weapons: vec![melee("Sword", 12), ranged("Hand Cannon", 10.0, 1, 10)],
        special_rules: Vec::new(),
    }
}

/// The warjack grid: six columns of five boxes with L, R, M, C, H and S system boxes (30 boxes;
/// the cortex is the four C boxes at the bottom of columns 3 and 4).
pub fn jack_grid() -> DamageGrid {
    DamageGrid::parse(&["---LL", "--LLM", "---CC", "--MCC", "--RRH", "--SRR"]).expect("the grid parses")
}

/// A warjack: SPD 5, MAT 7, RAT 5, DEF 12, ARM 18, medium base, the grid of [`jack_grid`]; an
/// Arm Blade (POW 14, left) and a Cannon (RNG 12, ROF 1, POW 12, right).
pub fn warjack() -> ModelProfile {
    let mut blade = melee("Arm Blade", 14);
    blade.location = Some(Location::Left);
    let mut cannon = ranged("Cannon", 12.0, 1, 12);
    cannon.location = Some(Location::Right);
    ModelProfile {
        name: "Ironclad".into(),
        model_type: ModelType::Warjack,
        stats: stats(5, 7, 5, 12, 18),
        base: BaseSize::Medium,
        damage: DamageCapacity::Grid { grid: jack_grid() },
        weapons: vec![blade, cannon],
        special_rules: Vec::new(),
    }
}

/// A trooper: SPD 6, MAT 6, RAT 5, DEF 13, ARM 12, one box, small base; a Spear (POW 10) and
/// a Rifle (RNG 10, ROF 1, POW 10).
pub fn trooper() -> ModelProfile {
    ModelProfile {
        name: "Rifleman".into(),
        model_type: ModelType::Trooper,
        stats: stats(6, 6, 5, 13, 12),
        base: BaseSize::Small,
        damage: DamageCapacity::Boxes { boxes: 1 },
        weapons: vec![melee("Spear", 10), ranged("Rifle", 10.0, 1, 10)],
        special_rules: Vec::new(),
    }
}

/// A solo: SPD 6, MAT 7, RAT 6, DEF 14, ARM 13, five boxes, small base; a Blade (POW 11) and a
/// Carbine (RNG 12, ROF 2, POW 10).
pub fn solo() -> ModelProfile {
    ModelProfile {
        name: "Gun Mage".into(),
        model_type: ModelType::Solo,
        stats: stats(6, 7, 6, 14, 13),
        base: BaseSize::Small,
        damage: DamageCapacity::Boxes { boxes: 5 },
        weapons: vec![melee("Blade", 11), ranged("Carbine", 12.0, 2, 10)],
        special_rules: Vec::new(),
    }
}

/// A warbeast: SPD 6, MAT 7, RAT 2, DEF 12, ARM 16, FURY 3, THR 9, 20 boxes, large base; Claws
/// (POW 13) and Jaws (POW 12).
pub fn warbeast() -> ModelProfile {
    ModelProfile {
        name: "Dire Troll".into(),
        model_type: ModelType::Warbeast,
        stats: StatCard { fury: Some(3), thr: Some(9), ..stats(6, 7, 2, 12, 16) },
        base: BaseSize::Large,
        damage: DamageCapacity::Boxes { boxes: 20 },
        weapons: vec![melee("Claws", 13), melee("Jaws", 12)],
        special_rules: Vec::new(),
    }
}

/// A warlock: SPD 6, MAT 6, RAT 4, DEF 15, ARM 15, ARC 3, CTRL 14, 16 boxes, small base; a
/// Staff (POW 11).
pub fn warlock() -> ModelProfile {
    ModelProfile {
        name: "Shaman".into(),
        model_type: ModelType::Warlock,
        stats: StatCard { arc: Some(3), ctrl: Some(14), ..stats(6, 6, 4, 15, 15) },
        base: BaseSize::Small,
        damage: DamageCapacity::Boxes { boxes: 16 },
        weapons: vec![melee("Staff", 11)],
        special_rules: Vec::new(),
    }
}

/// A model of `player` at (`x`, `y`).
pub fn model(id: &str, player: &str, profile: ModelProfile, x: f64, y: f64) -> ModelSpec {
    ModelSpec {
        id: id.into(),
        player: player.into(),
        profile,
        position: Position { x, y, facing: 0.0, elevation: 0.0 },
        unit: None,
        battlegroup: None,
    }
}

/// `spec` as a trooper of `unit`.
pub fn in_unit(mut spec: ModelSpec, unit: &str) -> ModelSpec {
    spec.unit = Some(unit.into());
    spec
}

/// `spec` in the battlegroup of `leader`.
pub fn in_battlegroup(mut spec: ModelSpec, leader: &str) -> ModelSpec {
    spec.battlegroup = Some(leader.into());
    spec
}

/// `spec` standing `elevation` inches up.
pub fn raised(mut spec: ModelSpec, elevation: f64) -> ModelSpec {
    spec.position.elevation = elevation;
    spec
}

/// A rectangular terrain feature.
pub fn feature(name: &str, kind: TerrainKind, min: (f64, f64), max: (f64, f64), height: f64) -> TerrainFeature {
    TerrainFeature {
        name: name.into(),
        kind,
        shape: Shape::Rect(Rect { min: Point::new(min.0, min.1), max: Point::new(max.0, max.1) }),
        height,
    }
}

/// The default 48″ × 48″ table with `terrain`.
pub fn table_with(terrain: Vec<TerrainFeature>) -> Table {
    Table { terrain, ..Table::default() }
}

/// The point (`x`, `y`).
pub fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

/// Start the next turn with no control-phase choices.
pub fn start_turn() -> WarmachineCommand {
    WarmachineCommand::StartTurn { control: ControlChoices::default() }
}

/// Start the next turn with `control`.
pub fn start_turn_with(control: ControlChoices) -> WarmachineCommand {
    WarmachineCommand::StartTurn { control }
}

/// Activate a model or a unit.
pub fn activate(id: &str) -> WarmachineCommand {
    WarmachineCommand::Activate { activation: id.into() }
}

/// A normal movement without placement.
pub fn mv(model: &str, movement: Movement) -> WarmachineCommand {
    WarmachineCommand::Move { model: model.into(), movement, placement: None }
}

/// A unit's normal movement with the other troopers' placement.
pub fn mv_placed(model: &str, movement: Movement, placement: UnitPlacement) -> WarmachineCommand {
    WarmachineCommand::Move { model: model.into(), movement, placement: Some(placement) }
}

/// Waypoints.
pub fn path(points: &[(f64, f64)]) -> Vec<Point> {
    points.iter().map(|(x, y)| Point::new(*x, *y)).collect()
}

/// A full advance along `points`.
pub fn advance(model: &str, points: &[(f64, f64)]) -> WarmachineCommand {
    mv(model, Movement::FullAdvance { path: path(points) })
}

/// A run along `points`.
pub fn run(model: &str, points: &[(f64, f64)]) -> WarmachineCommand {
    mv(model, Movement::Run { path: path(points) })
}

/// A charge at `target` toward (`x`, `y`).
pub fn charge(model: &str, target: &str, x: f64, y: f64) -> WarmachineCommand {
    mv(model, Movement::Charge { target: target.into(), to: Point::new(x, y) })
}

/// Aim.
pub fn aim(model: &str) -> WarmachineCommand {
    mv(model, Movement::Aim)
}

/// Forfeit normal movement.
pub fn forfeit(model: &str) -> WarmachineCommand {
    mv(model, Movement::Forfeit)
}

/// An unboosted attack.
pub fn attack(attacker: &str, weapon: &str, target: &str) -> WarmachineCommand {
    boosted_attack(attacker, weapon, target, false, false)
}

/// An attack with boosts declared.
pub fn boosted_attack(
    attacker: &str,
    weapon: &str,
    target: &str,
    boost_attack: bool,
    boost_damage: bool,
) -> WarmachineCommand {
    WarmachineCommand::Attack {
        attacker: attacker.into(),
        weapon: weapon.into(),
        target: target.into(),
        boost_attack,
        boost_damage,
    }
}

/// End the activation.
pub fn end_activation() -> WarmachineCommand {
    WarmachineCommand::EndActivation { advance_model: None, advance_rule: None, advance_path: Vec::new() }
}

/// End the turn.
pub fn end_turn() -> WarmachineCommand {
    WarmachineCommand::EndTurn {}
}

/// A judge sets a condition.
pub fn set_condition(model: &str, condition: Condition, expires_at_start_of: Option<&str>) -> WarmachineCommand {
    WarmachineCommand::SetCondition {
        model: model.into(),
        condition,
        active: true,
        expires_at_start_of: expires_at_start_of.map(str::to_string),
        reason: "a spell the service does not model".into(),
    }
}

/// A judge pushes, slams or throws a model.
pub fn displace(
    model: &str,
    kind: DisplacementKindSpec,
    origin: (f64, f64),
    distance: f64,
    pow: Option<u8>,
    collateral_pow: Option<u8>,
) -> WarmachineCommand {
    WarmachineCommand::Displace {
        model: model.into(),
        kind,
        origin: Point::new(origin.0, origin.1),
        distance,
        pow,
        collateral_pow,
        reason: "an attack the service does not model".into(),
    }
}

/// Resolve a pending trigger.
pub fn resolve(model: &str, rule: &str, decline_optional: bool) -> WarmachineCommand {
    WarmachineCommand::ResolveTrigger { model: model.into(), rule: rule.into(), decline_optional }
}

/// Use an "any time" special rule.
pub fn use_rule(model: &str, rule: &str) -> WarmachineCommand {
    WarmachineCommand::UseSpecialRule { model: model.into(), rule: rule.into(), target: None }
}

// ---------------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------------

/// A battle in progress: the one harness every ruleset's tests share
/// (`herald_test_support::harness`), with the warmachine vocabulary below.
#[derive(Clone)]
pub struct Battle(pub Harness<Warmachine>);

impl std::ops::Deref for Battle {
    type Target = Harness<Warmachine>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Battle {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// The harness of an empty stream under server seed `n`.
fn harness(n: u64) -> Harness<Warmachine> {
    Harness::empty(STREAM, n).numbered(server_seed, now())
}

/// The command that opens a battle on `table` with `models` under server seed `n`.
pub fn create_command(table: Table, models: Vec<ModelSpec>, n: u64) -> WarmachineCommand {
    WarmachineCommand::CreateBattle { table, players: players(), models, seed_commitment: commitment_hex(n) }
}

/// The context the application layer builds for `state`: the tape keyed by the effective seed of
/// server seed `n`, positioned at `state.next_word`.
pub fn context(state: &WarmachineState, actor: Actor, n: u64) -> Context {
    let mut harness = harness(n);
    harness.state = state.clone();
    harness.context(actor)
}

impl Battle {
    /// A stream nobody has opened yet, under server seed `n`.
    pub fn empty(n: u64) -> Self {
        Self(harness(n))
    }

    /// A battle on the default table.
    pub fn new(models: Vec<ModelSpec>) -> Self {
        Self::on(Table::default(), models, 0)
    }

    /// A battle on `table` under server seed `n`.
    pub fn on(table: Table, models: Vec<ModelSpec>, n: u64) -> Self {
        let mut battle = Self(harness(n));
        battle.by(judge(), create_command(table, models, n));
        battle
    }

    /// The controller of the player whose turn it is (red before the first turn).
    pub fn current_controller(&self) -> Actor {
        match &self.state.current {
            Some(player) if self.state.phase == herald_domain::warmachine::battle::state::Phase::Activation => {
                controller(player)
            }
            Some(player) if player == RED => controller(BLUE),
            _ => controller(RED),
        }
    }

    /// Decide `command` for the current player's controller; it must be accepted.
    pub fn play(&mut self, command: WarmachineCommand) -> Vec<WarmachineEvent> {
        let actor = self.current_controller();
        self.by(actor, command)
    }

    /// Decide `command` for the current player's controller.
    pub fn try_play(&mut self, command: WarmachineCommand) -> Result<Vec<WarmachineEvent>, RuleError> {
        let actor = self.current_controller();
        self.attempt(actor, command)
    }

    /// Decide `command` for the judge; it must be accepted.
    pub fn judge(&mut self, command: WarmachineCommand) -> Vec<WarmachineEvent> {
        self.by(judge(), command)
    }

    /// `command` for `actor` is refused with `code` under a rule citing `seed 000 "<rule>"`
    /// (or containing `rule` verbatim when it does not start with a capital letter), and the
    /// state is left as it was.
    pub fn refused_by(&mut self, actor: Actor, command: WarmachineCommand, code: &str, rule: &str) -> RuleError {
        let cited = if rule.starts_with(|c: char| c.is_ascii_uppercase()) { heading(rule) } else { rule.into() };
        self.0.refused_by(actor, command, code, &cited)
    }

    /// `command` for the current player's controller is refused with `code` citing `rule`.
    pub fn refused(&mut self, command: WarmachineCommand, code: &str, rule: &str) -> RuleError {
        let actor = self.current_controller();
        self.refused_by(actor, command, code, rule)
    }

    /// A model's state.
    pub fn model(&self, id: &str) -> &ModelState {
        self.state.model(id).unwrap_or_else(|| panic!("no model {id}"))
    }

    /// Activate every model and unit of the current player that has not activated, ending each
    /// activation at once, then end the turn.
    pub fn finish_turn(&mut self) {
        if self.state.activation.is_some() {
            self.play(end_activation());
        }
        let player = self.state.current.clone().expect("a turn is in progress");
        for id in self.state.to_activate(&player) {
            self.play(activate(&id));
            if self.state.activation.is_some() {
                self.play(end_activation());
            }
        }
        self.play(end_turn());
    }

    /// Start the turn and finish it without doing anything.
    pub fn pass_turn(&mut self) {
        self.play(start_turn());
        self.finish_turn();
    }
}

/// The first server seed in `0..2000` for which `wanted` holds; the tests search for the dice
/// they need rather than trusting luck.
pub fn find_seed(mut wanted: impl FnMut(u64) -> bool) -> u64 {
    (0..2000).find(|n| wanted(*n)).expect("no server seed in 0..2000 gives the outcome the test needs")
}

/// The faces drawn for a roll.
pub fn faces(outcome: &herald_domain::dice::RollOutcome) -> Vec<u32> {
    outcome.draws.iter().map(|draw| draw.value).collect()
}

/// The sum of the faces drawn for a roll.
pub fn dice_sum(outcome: &herald_domain::dice::RollOutcome) -> i64 {
    outcome.draws.iter().map(|draw| i64::from(draw.value)).sum()
}

/// The first event of type `kind` (`"warmachine.AttackResolved"`), or a panic listing what came.
pub fn find<'a>(events: &'a [WarmachineEvent], kind: &str) -> &'a WarmachineEvent {
    events
        .iter()
        .find(|event| event.event_type() == kind)
        .unwrap_or_else(|| panic!("no {kind} among {:?}", types(events)))
}

/// The type names of `events`, in order.
pub fn types(events: &[WarmachineEvent]) -> Vec<String> {
    events.iter().map(EventType::event_type).collect()
}

/// Fold `events` from an empty stream.
pub fn fold(events: &[WarmachineEvent]) -> WarmachineState {
    Warmachine::fold(events)
}

/// A rule with one mechanic.
pub fn rule(name: &str, mechanics: Vec<herald_domain::warmachine::model::Mechanic>) -> SpecialRule {
    SpecialRule::with(name, mechanics)
}

/// Whether the model carries `condition`.
pub fn has(battle: &Battle, id: &str, condition: &Condition) -> bool {
    battle.model(id).has(condition)
}

/// The displacement kinds, re-exported for tests.
#[allow(unused_imports)]
pub use herald_domain::warmachine::battle::command::DisplacementKindSpec as Kind;
