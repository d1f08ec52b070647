//! A small warmachine battle (seed 000) played through the real decider, for the view, picture
//! and label tests in `herald-domain` and the read-model tests in `herald-projections`: the state
//! is always folded from the events the decider produced, with a dice tape keyed the way the
//! application keys it.

use chrono::{TimeZone, Utc};
use herald_domain::{
    dice::{seed, DiceTape},
    warmachine::{
        battle::{
            command::{ControlChoices, FocusAllocation, ModelSpec, Movement, PlayerSpec},
            state::{Condition, WarmachineState},
            Warmachine, WarmachineCommand, WarmachineEvent,
        },
        model::{
            BaseSize, DamageCapacity, DamageGrid, Location, ModelProfile, ModelType, StatCard, Weapon, WeaponKind,
            WeaponRange,
        },
        table::{Circle, Point, Position, Rect, Shape, Table, TerrainFeature, TerrainKind},
    },
    Actor, Context, Decider, Role,
};

/// The warmachine battle's stream.
pub const STREAM: &str = "battle-0190f0a4-3333-7000-8000-000000000001";
/// A coalition battle's stream.
pub const COALITION_STREAM: &str = "battle-0190f0a4-3333-7000-8000-000000000002";
/// A model id a hostile user might choose: it must never reach the SVG as markup.
pub const HOSTILE: &str = "<script>alert('x')</script>";
/// A unit name with markup characters.
pub const UNIT: &str = "a&b \"squad\"";
/// Red's warcaster.
pub const CASTER: &str = "red-caster";
/// Red's warjack.
pub const JACK: &str = "red-jack";
/// Blue's troopers.
pub const TROOPERS: [&str; 2] = ["blue-t1", "blue-t2"];
/// The elevated surface's name.
pub const HILL: &str = "Hill";

/// The server seed.
pub fn server_seed() -> [u8; 32] {
    [0x42; 32]
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The battle's judge.
pub fn judge() -> Actor {
    Actor::new("judge:j", Role::Judge)
}

/// Red's controller.
pub fn alice() -> Actor {
    Actor::player("token:alice", "alice")
}

fn stats(spd: u8, mat: u8, rat: u8, def: u8, arm: u8) -> StatCard {
    StatCard { spd, strength: None, mat, rat, aat: None, def, arm, arc: None, fury: None, ctrl: None, thr: None }
}

fn weapon(name: &str, kind: WeaponKind, rng: f64, pow: u8) -> Weapon {
    Weapon {
        name: name.into(),
        kind,
        rng: WeaponRange::Inches(rng),
        rof: (kind == WeaponKind::Ranged).then_some(1),
        aoe: None,
        pow: Some(pow),
        blast_pow: None,
        location: None,
        special_rules: Vec::new(),
    }
}

fn spec(id: &str, player: &str, profile: ModelProfile, x: f64, y: f64) -> ModelSpec {
    ModelSpec {
        id: id.into(),
        player: player.into(),
        profile,
        position: Position { x, y, facing: 90.0, elevation: 0.0 },
        unit: None,
        battlegroup: None,
    }
}

/// The warjack's grid: 30 boxes.
pub fn grid() -> DamageGrid {
    DamageGrid::parse(&["---LL", "--LLM", "---CC", "--MCC", "--RRH", "--SRR"]).expect("the grid parses")
}

/// Red: a warcaster (CTRL 14) and its warjack, whose 0.5″ Fist reaches the hostile solo 0.3″
/// away. Blue: the hostile solo (a 2″ Claw; ARM 16 and 20 boxes, so one Fist never destroys it)
/// and a unit of two riflemen with no melee weapon.
pub fn models() -> Vec<ModelSpec> {
    let caster = ModelProfile {
        name: "Commander".into(),
        model_type: ModelType::Warcaster,
        stats: StatCard { arc: Some(6), ctrl: Some(14), ..stats(6, 6, 5, 15, 15) },
        base: BaseSize::Small,
        damage: DamageCapacity::Boxes { boxes: 15 },
        weapons: vec![weapon("Sword", WeaponKind::Melee, 0.5, 12)],
        special_rules: Vec::new(),
    };
    let mut fist = weapon("Fist", WeaponKind::Melee, 0.5, 12);
    fist.location = Some(Location::Right);
    let jack = ModelProfile {
        name: "Ironclad".into(),
        model_type: ModelType::Warjack,
        stats: stats(5, 7, 5, 12, 18),
        base: BaseSize::Medium,
        damage: DamageCapacity::Grid { grid: grid() },
        weapons: vec![fist],
        special_rules: Vec::new(),
    };
    let solo = ModelProfile {
        name: "Assassin".into(),
        model_type: ModelType::Solo,
        stats: stats(6, 7, 6, 10, 16),
        base: BaseSize::Small,
        damage: DamageCapacity::Boxes { boxes: 20 },
        weapons: vec![weapon("Claw", WeaponKind::Melee, 2.0, 11)],
        special_rules: Vec::new(),
    };
    let rifleman = ModelProfile {
        name: "Rifleman".into(),
        model_type: ModelType::Trooper,
        stats: stats(6, 6, 5, 13, 12),
        base: BaseSize::Small,
        damage: DamageCapacity::Boxes { boxes: 1 },
        weapons: vec![weapon("Rifle", WeaponKind::Ranged, 10.0, 10)],
        special_rules: Vec::new(),
    };
    let gap = BaseSize::Medium.radius_inches() + BaseSize::Small.radius_inches() + 0.3;
    let mut jack = spec(JACK, "red", jack, 10.0, 10.0);
    jack.battlegroup = Some(CASTER.into());
    let troopers = [(TROOPERS[0], 30.0), (TROOPERS[1], 31.5)]
        .map(|(id, x)| ModelSpec { unit: Some(UNIT.into()), ..spec(id, "blue", rifleman.clone(), x, 30.0) });
    let mut all = vec![spec(CASTER, "red", caster, 6.0, 6.0), jack, spec(HOSTILE, "blue", solo, 10.0 + gap, 10.0)];
    all.extend(troopers);
    all
}

fn rect(name: &str, kind: TerrainKind, min: (f64, f64), max: (f64, f64), height: f64) -> TerrainFeature {
    TerrainFeature {
        name: name.into(),
        kind,
        shape: Shape::Rect(Rect { min: Point::new(min.0, min.1), max: Point::new(max.0, max.1) }),
        height,
    }
}

/// One feature of each kind; the hazard's name carries a control character (users type names).
pub fn table() -> Table {
    Table {
        terrain: vec![
            rect("Wall", TerrainKind::Obstacle, (20.0, 5.0), (24.0, 6.0), 1.0),
            TerrainFeature {
                name: "Tower".into(),
                kind: TerrainKind::Obstruction,
                shape: Shape::Circle(Circle { centre: Point::new(36.0, 12.0), radius: 2.0 }),
                height: 6.0,
            },
            rect("Ruin", TerrainKind::Hazard, (14.0, 36.0), (18.0, 40.0), 0.0),
            rect(HILL, TerrainKind::ElevatedSurface, (38.0, 36.0), (44.0, 42.0), 2.0),
        ],
        ..Table::default()
    }
}

/// A battle played through the decider.
#[derive(Clone)]
pub struct Battle {
    /// The state folded from `batches`.
    pub state: WarmachineState,
    /// The events of each accepted command, in order (one append each).
    pub batches: Vec<Vec<WarmachineEvent>>,
}

impl Battle {
    /// The battle, created by the judge.
    pub fn created() -> Self {
        let mut battle = Self { state: WarmachineState::default(), batches: Vec::new() };
        battle.run(
            judge(),
            WarmachineCommand::CreateBattle {
                table: table(),
                players: vec![
                    PlayerSpec { name: "red".into(), controller: "alice".into() },
                    PlayerSpec { name: "blue".into(), controller: "bob".into() },
                ],
                models: models(),
                seed_commitment: hex(&seed::commitment(&server_seed())),
            },
        );
        battle
    }

    /// Red's first turn: focus to the warjack, which activates, stays put and hits out at the
    /// hostile solo with its Fist; the activation is left open.
    pub fn skirmish() -> Self {
        let mut battle = Self::created();
        let control = ControlChoices {
            allocate: vec![FocusAllocation { warjack: JACK.into(), focus: 1 }],
            ..ControlChoices::default()
        };
        battle.run(alice(), WarmachineCommand::StartTurn { control });
        battle.run(alice(), WarmachineCommand::Activate { activation: JACK.into() });
        battle
            .run(alice(), WarmachineCommand::Move { model: JACK.into(), movement: Movement::Forfeit, placement: None });
        battle.run(
            alice(),
            WarmachineCommand::Attack {
                attacker: JACK.into(),
                weapon: "Fist".into(),
                target: HOSTILE.into(),
                boost_attack: false,
                boost_damage: false,
            },
        );
        battle
    }

    /// The skirmish, then a judge knocks the hostile solo down.
    pub fn with_knockdown() -> Self {
        let mut battle = Self::skirmish();
        battle.run(
            judge(),
            WarmachineCommand::SetCondition {
                model: HOSTILE.into(),
                condition: Condition::KnockedDown,
                active: true,
                expires_at_start_of: None,
                reason: "slammed by a spell".into(),
            },
        );
        battle
    }

    /// Decide `command` for `actor` as the application does; it must be accepted.
    pub fn run(&mut self, actor: Actor, command: WarmachineCommand) -> Vec<WarmachineEvent> {
        let key = seed::effective_seed(&server_seed(), STREAM, &self.state.contributions);
        let mut ctx = Context {
            stream: STREAM.into(),
            actor,
            recorded_at: Utc.with_ymd_and_hms(2025, 1, 1, 12, 0, 0).single().unwrap_or_default(),
            dice: DiceTape::new(key, self.state.next_word),
        };
        let shown = format!("{command:?}");
        let events = Warmachine::decide(&self.state, &command, &mut ctx)
            .unwrap_or_else(|error| panic!("{shown} was refused: {} [{}]", error.message, error.code));
        for event in &events {
            Warmachine::evolve(&mut self.state, event);
        }
        self.batches.push(events.clone());
        events
    }

    /// Every event, in order.
    pub fn events(&self) -> Vec<WarmachineEvent> {
        self.batches.iter().flatten().cloned().collect()
    }

    /// The stream version of the last event (versions count from 0).
    pub fn version(&self) -> u64 {
        u64::try_from(self.events().len()).expect("fits") - 1
    }
}
