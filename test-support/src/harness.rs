//! The one battle harness every ruleset's decider tests run commands through, the way the
//! application runs them: the state folded from the events so far, a dice tape keyed by the
//! effective seed of a numbered server seed (with the stream's contributions) and positioned at
//! the stream's next word, and the check that the events account for every die drawn.
//!
//! Each ruleset's `tests/<ruleset>_support.rs` wraps a [`Harness`] of its decider with the
//! vocabulary of its rules (who the current player is, a model or a figure by id, its
//! given/when/then form); what is the same for every ruleset is written here once.

use std::fmt::Debug;

use chrono::{DateTime, TimeZone, Utc};
use herald_domain::{
    dice::{seed, DiceTape},
    Actor, Context, Decider, RuleError,
};

/// Server seed number `n`: 32 bytes, `n` little-endian in the first eight, `0x5a` after (the
/// default of [`Harness::empty`]; a ruleset's tests may number their seeds their own way).
pub fn server_seed(n: u64) -> [u8; 32] {
    let mut bytes = [0x5a; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    bytes
}

/// `sha256` of `seed`, lower-case hex: the commitment a battle is created with.
pub fn commitment_hex(seed: &[u8; 32]) -> String {
    seed::commitment(seed).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// When every test command is received.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 6, 1, 12, 0, 0).single().unwrap_or_default()
}

/// The first server seed in `start..start + tries` for which `found` holds, with what it found:
/// the tests search for the dice they need rather than trusting luck.
pub fn find_seed_from<T>(start: u64, tries: u64, mut found: impl FnMut(u64) -> Option<T>) -> (u64, T) {
    for n in start..start + tries {
        if let Some(value) = found(n) {
            return (n, value);
        }
    }
    panic!("no server seed in {start}..{} gives the case the test needs", start + tries);
}

/// A stream of decider `D` in progress: its folded state, its events and the accepted commands.
pub struct Harness<D: Decider> {
    /// The stream's name.
    pub stream: &'static str,
    /// The state after every accepted command.
    pub state: D::State,
    /// Every event so far.
    pub events: Vec<D::Event>,
    /// The server seed number.
    pub seed: u64,
    /// The accepted commands with their actors, for replays.
    pub accepted: Vec<(D::Command, Actor)>,
    /// How a seed number becomes a server seed.
    pub server_seed: fn(u64) -> [u8; 32],
    /// When every command is received.
    pub recorded_at: DateTime<Utc>,
}

impl<D: Decider> Clone for Harness<D> {
    fn clone(&self) -> Self {
        Self {
            stream: self.stream,
            state: self.state.clone(),
            events: self.events.clone(),
            seed: self.seed,
            accepted: self.accepted.clone(),
            server_seed: self.server_seed,
            recorded_at: self.recorded_at,
        }
    }
}

impl<D: Decider> Harness<D>
where
    D::Command: Debug,
    D::Event: Debug,
    D::State: PartialEq + Debug,
{
    /// An empty stream `stream` under server seed `n` ([`server_seed`], commands received
    /// [`now`]): nothing is decided yet.
    pub fn empty(stream: &'static str, n: u64) -> Self {
        Self {
            stream,
            state: D::State::default(),
            events: Vec::new(),
            seed: n,
            accepted: Vec::new(),
            server_seed,
            recorded_at: now(),
        }
    }

    /// The same, with seeds numbered by `server_seed` and commands received at `recorded_at`.
    pub fn numbered(mut self, server_seed: fn(u64) -> [u8; 32], recorded_at: DateTime<Utc>) -> Self {
        self.server_seed = server_seed;
        self.recorded_at = recorded_at;
        self
    }

    /// The context the application builds for the current state: the tape keyed by the
    /// effective seed of server seed `n` with the stream's contributions, at its next word.
    pub fn context(&self, actor: Actor) -> Context {
        let (contributions, next_word) =
            D::dice(&self.state).map_or((Vec::new(), 0), |cursor| (cursor.contributions, cursor.next_word));
        let key = seed::effective_seed(&(self.server_seed)(self.seed), self.stream, &contributions);
        Context {
            stream: self.stream.into(),
            actor,
            recorded_at: self.recorded_at,
            dice: DiceTape::new(key, next_word),
        }
    }

    /// Fold `event` in as if a rule the service does not model had produced it: for states no
    /// command reaches directly.
    pub fn inject(&mut self, event: D::Event) {
        D::evolve(&mut self.state, &event);
        self.events.push(event);
    }

    /// Decide `command` for `actor`; on acceptance fold its events into the state.
    pub fn attempt(&mut self, actor: Actor, command: D::Command) -> Result<Vec<D::Event>, RuleError> {
        let mut ctx = self.context(actor.clone());
        let events = D::decide(&self.state, &command, &mut ctx)?;
        for event in &events {
            D::evolve(&mut self.state, event);
        }
        // Every die drawn is accounted for in the events: the next decision starts where this
        // one stopped drawing, so no die is ever drawn twice.
        let next_word = D::dice(&self.state).map_or(0, |cursor| cursor.next_word);
        assert_eq!(next_word, ctx.dice.next_word(), "the events of {command:?} lose track of the tape");
        self.events.extend(events.iter().cloned());
        self.accepted.push((command, actor));
        Ok(events)
    }

    /// Decide `command` for `actor`, which must be accepted.
    pub fn by(&mut self, actor: Actor, command: D::Command) -> Vec<D::Event> {
        let shown = format!("{command:?}");
        match self.attempt(actor, command) {
            Ok(events) => events,
            Err(error) => panic!("{shown} was refused: {} [{}] ({})", error.message, error.code, error.rule),
        }
    }

    /// `command` for `actor` is refused with `code` under a rule whose citation contains
    /// `cited`, with a message, and the stream is left as it was.
    pub fn refused_by(&mut self, actor: Actor, command: D::Command, code: &str, cited: &str) -> RuleError {
        let before = self.state.clone();
        let events_before = self.events.len();
        let shown = format!("{command:?}");
        match self.attempt(actor, command) {
            Ok(events) => panic!("{shown} should be refused with {code}, produced {events:?}"),
            Err(error) => {
                assert_eq!(error.code, code, "{shown}: {} ({})", error.message, error.rule);
                assert!(error.rule.contains(cited), "{code} cites {:?}, not {cited:?}", error.rule);
                assert!(!error.message.is_empty(), "{code} says nothing");
                assert_eq!(self.state, before, "a refused command changes nothing");
                assert_eq!(self.events.len(), events_before);
                error
            }
        }
    }
}
