//! Shared helpers for the coalition battle tests: armies from the seed's tables, actors, times,
//! and a small `given(events).when(command, actor, time).then(...)` harness that runs the decider
//! exactly as the application layer does (tape keyed by the effective seed, positioned at the
//! state's next word).
#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use herald_domain::{
    coalition::{
        army::{ArmySpec, Color, RankClass, Slot, Team},
        battle::{
            command::Engagement, BattleCommand, BattleEvent, BattleOptions, BattleState, CoalitionBattle, SideId, Sides,
        },
    },
    dice::{seed, DiceTape},
    Actor, Context, Decider, Role, RuleError,
};

/// The stream every test battle lives on.
pub const STREAM: &str = "battle-0190f0a4-1111-7000-8000-000000000001";

/// A server seed numbered `n`.
pub fn server_seed(n: u64) -> [u8; 32] {
    let mut bytes = [0x5a; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    bytes
}

/// The commitment of [`server_seed`] `n`, as hex.
pub fn commitment_hex(n: u64) -> String {
    hex::encode(seed::commitment(&server_seed(n)))
}

/// `hour` hours into the campaign day.
pub fn at(hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 3, 1, 0, 0, 0).single().unwrap_or_default() + chrono::Duration::hours(i64::from(hour))
}

/// The strategy deadline of every test battle.
pub fn deadline() -> DateTime<Utc> {
    at(24)
}

/// Before the deadline.
pub fn before() -> DateTime<Utc> {
    at(12)
}

/// After the deadline.
pub fn after() -> DateTime<Utc> {
    at(30)
}

/// A slot.
pub fn slot(creature: &str, colors: &[Color], size: u32, troops: u32) -> Slot {
    Slot { creature: creature.to_string(), colors: colors.to_vec(), power: size, toughness: size, troops, slot: None }
}

/// An army of `rank` with its four full slots (seed 003 §2.1), all of `colors`.
pub fn full_army(name: &str, team: Team, rank: RankClass, controller: &str, colors: &[Color]) -> ArmySpec {
    let smallest = rank.smallest_slot_size();
    let slots = [5000, 2500, 1500, 1000]
        .into_iter()
        .enumerate()
        .map(|(step, troops)| {
            let size = smallest + u32::try_from(step).unwrap_or(0);
            slot(&format!("{size}/{size} creature"), colors, size, troops)
        })
        .collect();
    ArmySpec {
        name: name.to_string(),
        team,
        rank,
        controller: controller.to_string(),
        slots,
        contingency: None,
        mercenary: None,
    }
}

/// The usual pair: Sai Rei (Coalition Captain, controlled by gazetzot) against Darkhand
/// (Phyrexian Evincar, controlled by vorn); equal sizes, both mono-red.
pub fn armies() -> Sides<ArmySpec> {
    Sides {
        a: full_army("Sai Rei", Team::Coalition, RankClass::EvincarCaptain, "gazetzot", &[Color::Red]),
        b: full_army("Darkhand", Team::Phyrexia, RankClass::EvincarCaptain, "vorn", &[Color::Red]),
    }
}

/// The controller of side A.
pub fn player_a() -> Actor {
    Actor::player("player:gazetzot", "gazetzot")
}

/// The controller of side B.
pub fn player_b() -> Actor {
    Actor::player("player:vorn", "vorn")
}

/// A player in neither army.
pub fn bystander() -> Actor {
    Actor::player("player:mallory", "mallory")
}

/// The battle judge.
pub fn judge() -> Actor {
    Actor::new("judge:alice", Role::Judge)
}

/// An admin.
pub fn admin() -> Actor {
    Actor::new("admin:root", Role::Admin)
}

/// An observer.
pub fn observer() -> Actor {
    Actor::new("observer:bob", Role::Observer)
}

/// The service.
pub fn system() -> Actor {
    Actor::system()
}

/// The command that opens a battle between `armies` with seed `n`.
pub fn create(armies: Sides<ArmySpec>, options: BattleOptions, engagement: Engagement, n: u64) -> BattleCommand {
    BattleCommand::CreateBattle {
        armies,
        partners: vec![],
        weather: None,
        engagement,
        terrain: Some("plains".to_string()),
        strategy_deadline: deadline(),
        options,
        seed_commitment: commitment_hex(n),
        formula_opening: Default::default(),
        formula_salt: None,
    }
}

/// The event that opening a battle between `armies` with seed `n` produces.
pub fn created_with(armies: Sides<ArmySpec>, options: BattleOptions, engagement: Engagement, n: u64) -> BattleEvent {
    BattleEvent::BattleCreated {
        armies,
        partners: vec![],
        weather: None,
        engagement,
        terrain: Some("plains".to_string()),
        strategy_deadline: deadline(),
        options,
        seed_commitment: commitment_hex(n),
        formula_opening: Default::default(),
        formula_salt: None,
        formula_commitment: None,
    }
}

/// The default battle: [`armies`], default options, A attacks B, seed 0.
pub fn created() -> BattleEvent {
    created_with(armies(), BattleOptions::default(), Engagement::Attack { attacker: SideId::A }, 0)
}

/// A strategy arriving for `side` before the deadline.
pub fn strategy_submitted(side: SideId) -> BattleEvent {
    let by = if side == SideId::A { "player:gazetzot" } else { "player:vorn" };
    BattleEvent::StrategySubmitted {
        side,
        strategy: format!("side {side} holds the ridge"),
        by: by.into(),
        at: before(),
        army: None,
        attempt: None,
        departure: None,
        contingency: false,
    }
}

/// The judge's bonus for `side`.
pub fn bonus_assigned(side: SideId, bonus: u8) -> BattleEvent {
    BattleEvent::StrategyBonusAssigned { side, bonus, note: None }
}

/// Both strategies in and judged `a` and `b`.
pub fn judged(a: u8, b: u8) -> Vec<BattleEvent> {
    vec![
        created(),
        strategy_submitted(SideId::A),
        strategy_submitted(SideId::B),
        bonus_assigned(SideId::A, a),
        bonus_assigned(SideId::B, b),
    ]
}

/// A context for `actor` at `time`, with the tape the application layer would position for
/// `state` under server seed `n`.
pub fn context(state: &BattleState, actor: Actor, time: DateTime<Utc>, n: u64) -> Context {
    let key = seed::effective_seed(&server_seed(n), STREAM, &state.contributions);
    Context { stream: STREAM.to_string(), actor, recorded_at: time, dice: DiceTape::new(key, state.next_word) }
}

/// The start of a test: the events already in the stream.
pub struct Given {
    events: Vec<BattleEvent>,
    seed: u64,
}

/// Events already in the stream (server seed 0 unless [`Given::seed`] says otherwise).
pub fn given(events: impl IntoIterator<Item = BattleEvent>) -> Given {
    Given { events: events.into_iter().collect(), seed: 0 }
}

impl Given {
    /// Use server seed `n`.
    pub fn seed(mut self, n: u64) -> Self {
        self.seed = n;
        self
    }

    /// Decide `command` for `actor` at `time`.
    pub fn when(self, command: BattleCommand, actor: Actor, time: DateTime<Utc>) -> Then {
        let state = CoalitionBattle::fold(&self.events);
        let mut ctx = context(&state, actor, time, self.seed);
        let result = CoalitionBattle::decide(&state, &command, &mut ctx);
        Then { state, result, command }
    }
}

/// What a decision produced.
pub struct Then {
    /// The state the command was decided against.
    pub state: BattleState,
    /// The decision.
    pub result: Result<Vec<BattleEvent>, RuleError>,
    command: BattleCommand,
}

impl Then {
    /// The command was accepted and produced exactly `expected`.
    pub fn then(self, expected: Vec<BattleEvent>) {
        assert_eq!(self.events(), expected);
    }

    /// The command was accepted; its events.
    pub fn events(self) -> Vec<BattleEvent> {
        match self.result {
            Ok(events) => events,
            Err(error) => panic!("{} was refused: {} [{}]", self.command.name(), error, error.code),
        }
    }

    /// The command was accepted; the state after its events.
    pub fn state_after(self) -> BattleState {
        let mut state = self.state.clone();
        for event in self.events() {
            CoalitionBattle::evolve(&mut state, &event);
        }
        state
    }

    /// The command was refused with `code` as a rule violation (422).
    pub fn then_error(self, code: &str) -> RuleError {
        let error = self.refused(code);
        assert!(!error.forbidden, "{code} should be a rule violation, not forbidden");
        error
    }

    /// The command was refused with `code` because the actor lacks the authority (403).
    pub fn then_forbidden(self, code: &str) -> RuleError {
        let error = self.refused(code);
        assert!(error.forbidden, "{code} should be forbidden");
        error
    }

    fn refused(self, code: &str) -> RuleError {
        match self.result {
            Ok(events) => panic!("{} should be refused with {code}, produced {events:?}", self.command.name()),
            Err(error) => {
                assert_eq!(error.code, code, "{}: {}", self.command.name(), error.message);
                assert!(!error.rule.is_empty() && !error.message.is_empty());
                error
            }
        }
    }
}

/// The single `BattleResolved` of a decision, or a panic saying what came instead.
pub fn resolution(events: &[BattleEvent]) -> Resolved {
    match events {
        [BattleEvent::BattleResolved {
            bonuses,
            stratless,
            dice,
            pairs,
            pairs_won,
            tie_break,
            decided_by,
            winner,
            running_away,
            casualties,
            next_word,
        }] => Resolved {
            bonuses: bonuses.clone(),
            stratless: stratless.clone(),
            dice: dice.clone(),
            pairs: pairs.clone(),
            pairs_won: pairs_won.clone(),
            tie_break: tie_break.clone(),
            decided_by: decided_by.clone(),
            winner: *winner,
            running_away: *running_away,
            casualties: casualties.clone(),
            next_word: *next_word,
        },
        other => panic!("expected one BattleResolved, got {other:?}"),
    }
}

/// The fields of a `BattleResolved`, for assertions.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub bonuses: Sides<herald_domain::coalition::battle::event::SideBonuses>,
    pub stratless: Vec<SideId>,
    pub dice: Sides<Vec<herald_domain::coalition::battle::event::ModifiedDie>>,
    pub pairs: Vec<herald_domain::coalition::battle::event::PairWinner>,
    pub pairs_won: Sides<u8>,
    pub tie_break: Option<herald_domain::coalition::battle::event::TieBreak>,
    pub decided_by: String,
    pub winner: SideId,
    pub running_away: Option<SideId>,
    pub casualties: Sides<herald_domain::coalition::battle::event::Casualties>,
    pub next_word: u64,
}

/// Run `commands` from an empty stream under seed `n`, folding each decision's events into the
/// state before the next, as the application layer would; the stream's events.
pub fn run(commands: &[(BattleCommand, Actor, DateTime<Utc>)], n: u64) -> Result<Vec<BattleEvent>, RuleError> {
    let mut state = BattleState::default();
    let mut stream = Vec::new();
    for (command, actor, time) in commands {
        let mut ctx = context(&state, actor.clone(), *time, n);
        let events = CoalitionBattle::decide(&state, command, &mut ctx)?;
        for event in &events {
            CoalitionBattle::evolve(&mut state, event);
        }
        stream.extend(events);
    }
    Ok(stream)
}
