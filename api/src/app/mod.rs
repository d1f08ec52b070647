//! The application service: how a command becomes events, for any registered ruleset.
//!
//! Take the stream's folded state from the read models (never a replay of the stream), position
//! the dice tape where the stream's last draw ended, decide, append with the expected version
//! (retrying on a concurrent append when the client did not pin a version with `If-Match`),
//! store the command with its events, catch the read models up, and apply the service's own
//! policies (reveal the seed when a battle ends).

pub mod campaign;
pub mod disputes;
mod turns;
pub mod verify;
pub mod whatif;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use futures_util::future::BoxFuture;
use herald_domain::{
    dice::{seed, DiceTape},
    event_type_of, registry,
    ruleset::{Refusal, Ruleset, EVENT_SCHEMA},
    Actor, AnyRuleset, AnyState, Context, DiceKey, StreamKind,
};
use herald_projections::{Catalog, Entry};
use herald_store::{
    AppendRequest, Direction, EventStore, ExpectedVersion, NewEvent, Payload, RecordedEvent, StoreError,
};
use serde::{Deserialize, Serialize};

use crate::{auth::Scope, problem::ApiError};

/// How many times a command is decided again when another append moved the stream on.
const CONFLICT_RETRIES: usize = 5;

/// Who, when and under which keys a command runs.
#[derive(Debug, Clone)]
pub struct CommandMeta {
    /// The acting principal.
    pub actor: Actor,
    /// When the request was received (taken once, stored with the command).
    pub recorded_at: DateTime<Utc>,
    /// The client's `Idempotency-Key`, if any.
    pub idempotency_key: Option<String>,
    /// The request id, stored as the events' correlation id.
    pub correlation_id: Option<String>,
    /// The client's `If-Match` version, if any.
    pub expected_version: Option<u64>,
    /// Where the actor's token holds: a command on a stream outside it is refused (403
    /// `token.out_of_scope`). The service's own commands hold on the whole host.
    pub scope: Scope,
}

/// The command as stored with its events, so verification can run it again. The command is a
/// `serde_json::Value` when read back; the service writes it from a borrowed one (`&Value`),
/// so it is not copied once more on its way to the store.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CommandRecord<C = serde_json::Value> {
    /// The ruleset that decided it.
    pub rules: String,
    /// Who acted.
    pub actor: Actor,
    /// When it was received.
    pub recorded_at: DateTime<Utc>,
    /// The command itself.
    pub command: C,
}

/// What a command appended.
#[derive(Debug, Clone)]
pub struct CommandOutcome {
    /// The stream.
    pub stream: String,
    /// The stream's version after the append.
    pub version: u64,
    /// The events appended (or, for a repeated idempotency key, appended the first time).
    pub events: Vec<RecordedEvent>,
    /// The payloads of `events` as this request decided them, in the same order, when it decided
    /// every one (empty otherwise: a replay reads them back). The answer renders these instead of
    /// parsing the stored payloads again; they are the same JSON (the stored text is written
    /// from them).
    pub decided: Vec<serde_json::Value>,
    /// Whether this repeats an earlier request with the same idempotency key.
    pub replayed: bool,
}

impl CommandOutcome {
    /// Add what a follow-up command (a policy's) appended after this one.
    fn extend(&mut self, follow_up: CommandOutcome) {
        let whole = self.decided.len() == self.events.len() && follow_up.decided.len() == follow_up.events.len();
        self.version = follow_up.version;
        self.events.extend(follow_up.events);
        if whole {
            self.decided.extend(follow_up.decided);
        } else {
            self.decided.clear();
        }
    }
}

/// A stream's state folded to a version.
#[derive(Debug, Clone)]
pub struct Folded {
    /// The state.
    pub state: Arc<dyn AnyState>,
    /// The version of the last event folded.
    pub version: u64,
}

/// A stream's state as of a version, with its read-model entry (the latest state, which decides
/// what is public now, and the stream's ruleset).
#[derive(Debug, Clone)]
pub struct AtVersion {
    /// The read models' entry: ruleset, latest state and version.
    pub current: Entry,
    /// The state as of the version asked for.
    pub state: Arc<dyn AnyState>,
    /// That version.
    pub version: u64,
}

/// What a creation adds to its set-up command once the stream's seed is sealed (a campaign's
/// commitment to its first interval key, derived from the root), given the service, the new
/// stream and the command.
pub type Completion = fn(&Service, &str, serde_json::Value) -> Result<serde_json::Value, ApiError>;

/// The application service, shared by every handler.
pub struct Service {
    store: Arc<dyn EventStore>,
    catalog: Arc<Catalog>,
    /// Writers to the same stream take turns here, so they decide on each other's results
    /// instead of racing to a conflict; the expected version still guards across processes.
    /// A command holds its turn while it decides and hands its append over, not while the append
    /// is flushed: the next one decides on its result meanwhile ([`turns`]). Async locks
    /// (tokio's, which need no runtime), taken alike by a command awaited on an HTTP worker and
    /// one on a blocking thread ([`Service::execute`]).
    turns: turns::Turns,
    /// Observes how long each append takes until durable (`herald_store_append_duration_seconds`).
    append_latency: Option<prometheus::Histogram>,
}

fn seed_key(stream: &str) -> String {
    format!("seed:{stream}")
}

/// The name under which a key's own sealed seed is stored (`seal_seed` adds `seed:`).
fn key_secret(stream: &str, key: DiceKey) -> String {
    match key {
        DiceKey::Reseal(n) => format!("{stream}#reseal-{n}"),
        DiceKey::Stream | DiceKey::Turn(_) | DiceKey::Interval(_) => stream.to_string(),
    }
}

/// The seed of `key` in `stream`, from the store's secret tree (see [`Service::key_seed`]).
pub fn key_seed(store: &dyn EventStore, stream: &str, key: DiceKey) -> Result<Option<[u8; 32]>, ApiError> {
    let secret = |name: &str| -> Result<Option<[u8; 32]>, ApiError> {
        Ok(store.get_secret(&seed_key(name))?.and_then(|bytes| bytes.try_into().ok()))
    };
    Ok(match key {
        DiceKey::Stream | DiceKey::Reseal(_) => secret(&key_secret(stream, key))?,
        DiceKey::Turn(_) | DiceKey::Interval(_) => secret(stream)?.and_then(|root| key.derive(&root, stream)),
    })
}

/// The registered ruleset `R` (every ruleset the service names by type is registered).
pub fn ruleset<R: Ruleset>() -> Result<&'static dyn AnyRuleset, ApiError> {
    registry::find(R::KIND, R::ID)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the {} ruleset is not registered", R::ID)))
}

/// Turn a command value into JSON for the erased ruleset face.
pub fn command_value(command: &impl Serialize) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(command).map_err(ApiError::internal)
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Malformed(detail) => Self::Malformed(detail),
            Refusal::Rule(rule) => rule.into(),
        }
    }
}

/// A command other than a creation sent to a stream that does not exist is refused by the
/// ruleset with its `*.not_found` code; the API answers it as every route answers an unknown id:
/// 404 `not_found` (issue 15: one answer per situation). Other refusals pass unchanged.
fn unknown_stream(stream: &str, refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::Rule(rule) if rule.code.ends_with(".not_found") => {
            ApiError::NotFound(format!("{stream} does not exist ({})", rule.message))
        }
        other => other.into(),
    }
}

/// A request for one ruleset's action sent to a stream of another.
pub fn wrong_ruleset(stream: &str, held: &dyn AnyRuleset, asked: &dyn AnyRuleset) -> ApiError {
    ApiError::Rule(herald_domain::RuleError::new(
        "battle.wrong_ruleset",
        format!(
            "{} is a {} stream; this request is for {} (see docs/API.md)",
            stream.split_once('-').map_or(stream, |(_, id)| id),
            held.id(),
            asked.id()
        ),
        "herald: docs/API.md",
    ))
}

impl Service {
    /// A service over `store`, keeping `catalog` caught up.
    pub fn new(store: Arc<dyn EventStore>, catalog: Arc<Catalog>) -> Self {
        Self { store, catalog, turns: turns::Turns::default(), append_latency: None }
    }

    /// How many lock stripes serialize decisions on one stream: fixed, whatever the number of
    /// streams (a stream takes the stripe its name hashes to).
    pub fn stream_lock_stripes(&self) -> usize {
        self.turns.stripes()
    }

    /// Time every append of a command into `histogram`.
    pub fn timing_appends(mut self, histogram: prometheus::Histogram) -> Self {
        self.append_latency = Some(histogram);
        self
    }

    /// The store.
    pub fn store(&self) -> &dyn EventStore {
        self.store.as_ref()
    }

    /// The read models.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Seal a server seed for `stream` (supplied, or fresh OS randomness); returns its commitment.
    pub fn seal_seed(&self, stream: &str, supplied: Option<[u8; 32]>) -> Result<[u8; 32], ApiError> {
        let server_seed = match supplied {
            Some(seed) => seed,
            None => {
                use rand_core::{OsRng, TryRngCore};
                let mut seed = [0u8; 32];
                OsRng
                    .try_fill_bytes(&mut seed)
                    .map_err(|e| ApiError::internal(anyhow::anyhow!("OS randomness: {e}")))?;
                seed
            }
        };
        // Durable with the stream's next append, whose event commits to it (the creation's
        // first event, a reveal's new commitment): a crash before that loses nothing anyone saw,
        // and a create costs one group commit instead of a sync of its own first (issue 29).
        self.store.put_secret_before_append(&seed_key(stream), &server_seed)?;
        Ok(seed::commitment(&server_seed))
    }

    /// `command` with its `formula_salt` set to
    /// `sha256("herald/formula-salt/v1" ‖ stream's formula secret ‖ command id)`, hex: the
    /// secret is 32 bytes of OS randomness sealed once per stream and never revealed, so a salt
    /// is unpredictable to everyone but the service, and the same for a retried command. A
    /// client's own `formula_salt` is replaced (docs/DICE.md "Commitments to hidden formulas").
    fn with_formula_salt(
        &self,
        stream: &str,
        command_id: &str,
        mut command: serde_json::Value,
    ) -> Result<serde_json::Value, ApiError> {
        use sha2::{Digest, Sha256};
        let key = format!("formula-secret:{stream}");
        let secret = match self.store.get_secret(&key)? {
            Some(secret) => secret,
            None => {
                use rand_core::{OsRng, TryRngCore};
                let mut secret = [0u8; 32];
                OsRng
                    .try_fill_bytes(&mut secret)
                    .map_err(|e| ApiError::internal(anyhow::anyhow!("OS randomness: {e}")))?;
                // Durable with the command's append that the salt is derived for, as a seed.
                self.store.put_secret_before_append(&key, &secret)?;
                secret.to_vec()
            }
        };
        let salt = Sha256::new()
            .chain_update(b"herald/formula-salt/v1")
            .chain_update(&secret)
            .chain_update(command_id.as_bytes())
            .finalize();
        if let Some(fields) = command.as_object_mut() {
            fields.insert("formula_salt".into(), serde_json::Value::String(hex::encode(salt)));
        }
        Ok(command)
    }

    /// The sealed server seed of `stream`.
    pub fn sealed_seed(&self, stream: &str) -> Result<Option<[u8; 32]>, ApiError> {
        Ok(self.store.get_secret(&seed_key(stream))?.and_then(|bytes| bytes.try_into().ok()))
    }

    /// The seed of `key` in `stream`: the stream's own sealed seed, a campaign turn's seed derived
    /// from the campaign's sealed root, or a fresh seed sealed when a judge revealed the previous
    /// one early (docs/DICE.md "Keys").
    pub fn key_seed(&self, stream: &str, key: DiceKey) -> Result<Option<[u8; 32]>, ApiError> {
        key_seed(self.store.as_ref(), stream, key)
    }

    /// Seal a fresh seed for `key` of `stream` unless one is sealed already (a retried early
    /// reveal must commit to the same fresh seed); returns its commitment.
    pub fn seal_key_once(&self, stream: &str, key: DiceKey) -> Result<[u8; 32], ApiError> {
        match self.key_seed(stream, key)? {
            Some(sealed) => Ok(seed::commitment(&sealed)),
            None => self.seal_seed(&key_secret(stream, key), None),
        }
    }

    /// Fold `stream` with `ruleset` up to and including version `at` (or to its end), reading the
    /// log (the read models hold only the latest state). Streaming: no page of events is kept.
    pub fn load(&self, ruleset: &dyn AnyRuleset, stream: &str, at: Option<u64>) -> Result<Option<Folded>, ApiError> {
        use std::ops::ControlFlow;
        let mut state = ruleset.new_state();
        let mut last = None;
        let mut failure = None;
        self.store.replay_stream(stream, 0, &mut |event| {
            if at.is_some_and(|at| event.version > at) {
                return ControlFlow::Break(());
            }
            let Some(folding) = Arc::get_mut(&mut state) else { return ControlFlow::Break(()) };
            match ruleset.evolve(folding, event.event_type, event.schema, event.data) {
                Ok(()) => {
                    last = Some(event.version);
                    ControlFlow::Continue(())
                }
                Err(error) => {
                    failure = Some(format!(
                        "event {} of {stream} (position {}) does not decode: {error}",
                        event.version, event.position
                    ));
                    ControlFlow::Break(())
                }
            }
        })?;
        if let Some(failure) = failure {
            return Err(ApiError::internal(anyhow::anyhow!(failure)));
        }
        Ok(last.map(|version| Folded { state, version }))
    }

    /// The current state of `stream` (from the read models) or, with `at`, its state as of that
    /// version (folded from the log). `None` when there is no such stream; a version past the end
    /// is a 404 naming the stream's version.
    pub fn state_at(&self, stream: &str, at: Option<u64>) -> Result<Option<AtVersion>, ApiError> {
        let Some(current) = self.catalog.entry(stream) else { return Ok(None) };
        match at {
            None => {
                let (state, version) = (current.state.clone(), current.version);
                Ok(Some(AtVersion { current, state, version }))
            }
            Some(at) if at > current.version => {
                Err(ApiError::NotFound(format!("{stream} has no version {at}; it is at {}", current.version)))
            }
            Some(at) => {
                let Folded { state, version } = self
                    .load(current.ruleset, stream, Some(at))?
                    .ok_or_else(|| ApiError::NotFound(format!("{stream} has no version {at}")))?;
                Ok(Some(AtVersion { current, state, version }))
            }
        }
    }

    /// Run `command` (the ruleset's command as JSON) against `stream`: [`Service::execute_async`]
    /// run to its end on this thread. Blocking: call it from a blocking thread (the service's own
    /// callers: campaigns, disputes, start-up, the command line), never from an async executor's
    /// thread, which it would hold until the append is durable, and where the stream's lock may be
    /// held by a command waiting on that same thread.
    pub fn execute(
        &self,
        ruleset: &'static dyn AnyRuleset,
        stream: &str,
        command: serde_json::Value,
        meta: CommandMeta,
    ) -> Result<CommandOutcome, ApiError> {
        pollster::block_on(self.execute_async(ruleset, stream, command, meta))
    }

    /// Run `command` (the ruleset's command as JSON) against `stream`, awaiting the stream's
    /// turn and the append's group commit instead of blocking a thread on them; the one command
    /// path, which [`Service::execute`] runs on blocking threads.
    ///
    /// Everything else it does runs on the caller's thread: the read models, the decision, and
    /// the store's reads (idempotency, the sealed seed). An HTTP worker may await it only when
    /// those are short (a local store, a decision of microseconds: `routes::runs_on_worker`).
    pub async fn execute_async(
        &self,
        ruleset: &'static dyn AnyRuleset,
        stream: &str,
        command: serde_json::Value,
        meta: CommandMeta,
    ) -> Result<CommandOutcome, ApiError> {
        // Before anything is read or decided; a stream the read models do not know yet is
        // checked once the rules have decided (opening a stream takes a host-wide token).
        if self.catalog.version_of(stream).is_some() {
            crate::auth::check_scope(&meta.scope, stream, &self.catalog)?;
        }
        let command_id = match &meta.idempotency_key {
            Some(key) => format!("idem:{}:{key}", meta.actor.id),
            None => uuid::Uuid::now_v7().to_string(),
        };
        // Released before the policies run: they execute commands on the same stream.
        let turn = self.turns.turn(stream).await;
        // A command pinned to a version decides on what readers can see: the durable state.
        if meta.expected_version.is_some() {
            self.turns.settle(&turn).await;
        }
        // A command id of the client's (its Idempotency-Key) may have been seen; a fresh UUIDv7
        // cannot have been, so its lookups are skipped. One in flight is answered once stored.
        if meta.idempotency_key.is_some() {
            self.turns.settle_key(&command_id).await;
        }
        // A command that commits to hidden formulas gets its salt here, before it is compared
        // with an earlier request, decided and stored: derived from the command id, a retry gets
        // the same salt (docs/adr/0003-formula-commitments.md).
        let command =
            if ruleset.salted(&command) { self.with_formula_salt(stream, &command_id, command)? } else { command };
        if meta.idempotency_key.is_some() {
            self.check_same_request(&command_id, &command)?;
            if let Some(outcome) = self.replay_of(stream, &command_id)? {
                drop(turn);
                return self.complete_replay(ruleset, stream, outcome, &meta, &command_id).await;
            }
        }
        let key = meta.idempotency_key.as_ref().map(|_| command_id.as_str());
        let mut turn = Some(turn);
        let mut attempt = 0;
        let mut outcome = loop {
            attempt += 1;
            let held = match turn.take() {
                Some(held) => held,
                None => self.turns.turn(stream).await,
            };
            // Whether it may decide on a command still in flight (only the turn's holder adds one).
            let ahead = self.turns.in_flight(stream);
            let (request, tail, decided) = match self.decide(ruleset, stream, &command, &meta, &command_id) {
                Ok(Decision::Nothing(outcome)) if !ahead => break outcome,
                Ok(Decision::Append { request, tail, decided }) => (request, tail, decided),
                Ok(Decision::Nothing(_)) => {
                    // Nothing to append answers the stream's version: a durable one, never that
                    // of a command still in flight.
                    self.turns.settle(&held).await;
                    turn = Some(held);
                    continue;
                }
                Err(refused) if attempt < CONFLICT_RETRIES && matches!(refused, ApiError::Rule(_)) => {
                    // A refusal must stand on what is durable and current: decided on a command
                    // in flight, it waits for that command and decides again; decided on read
                    // models behind another process's append, they catch up and it decides again.
                    if ahead {
                        self.turns.settle(&held).await;
                    } else if !self.caught_up_on(stream)? {
                        return Err(refused);
                    }
                    turn = Some(held);
                    continue;
                }
                Err(refused) => return Err(refused),
            };
            let timer = self.append_latency.as_ref().map(prometheus::Histogram::start_timer);
            let pending = self.store.submit(request)?;
            // The turn passes on once the append is queued; the group commit is awaited, not
            // waited for: the caller's thread is free while it flushes.
            let flight = self.turns.fly(held, stream, tail, key).await;
            let result = pending.await;
            drop(timer);
            match result {
                Ok(result) => {
                    // Its own events are folded as appended, not read back (unless another
                    // writer's came between), before the command answers.
                    self.catalog.fold_appended(self.store.as_ref(), &result.events)?;
                    drop(flight);
                    let decided =
                        if result.replayed || decided.len() != result.events.len() { vec![] } else { decided };
                    break CommandOutcome {
                        stream: stream.to_string(),
                        version: result.stream_version,
                        events: result.events,
                        decided,
                        replayed: result.replayed,
                    };
                }
                Err(error) => {
                    flight.failed();
                    let error = ApiError::from(error);
                    if !(matches!(error, ApiError::Conflict(_))
                        && meta.expected_version.is_none()
                        && attempt < CONFLICT_RETRIES)
                    {
                        return Err(error);
                    }
                    // Another writer (another process, or a command the read models have not
                    // seen yet) moved the stream on, or the command decided before this one
                    // failed: fold what is durable and decide again.
                    self.catalog.catch_up(self.store.as_ref())?;
                }
            }
        };
        if !outcome.replayed {
            // What the service appends on its own in consequence (the seed reveal when a battle
            // ends) is part of this request's answer, so the caller's version stays current.
            if let Some(follow_up) = self.apply_policies(ruleset, stream, &meta, &command_id).await? {
                outcome.extend(follow_up);
            }
        }
        Ok(outcome)
    }

    /// A retried command is answered as the first time; what the service was to append in its
    /// consequence and a crash may have left undone (the seed reveal of a battle that ended) is
    /// done now and added to the answer, as it would have been.
    async fn complete_replay(
        &self,
        ruleset: &'static dyn AnyRuleset,
        stream: &str,
        mut outcome: CommandOutcome,
        meta: &CommandMeta,
        command_id: &str,
    ) -> Result<CommandOutcome, ApiError> {
        let follow_up = format!("idem:{}:{}", Actor::system().id, policy_key(command_id));
        if self.store.stored_command(&follow_up)?.is_none() {
            if let Some(done) = self.apply_policies(ruleset, stream, meta, command_id).await? {
                outcome.extend(done);
            }
        }
        Ok(outcome)
    }

    /// Complete every consequence the rules want the service to append that a crash may have
    /// left undone (start-up runs it before serving): every battle that has ended gets its seed
    /// revealed, every battle a campaign announced gets its stream, every battle's correction is
    /// carried to the campaign that applied its result. Returns how many were done.
    pub fn complete_follow_ups(&self) -> Result<usize, ApiError> {
        let mut done = 0;
        for kind in [StreamKind::Battle, StreamKind::Campaign] {
            for (stream, entry) in self.catalog.entries(kind) {
                let due = entry.ruleset.dice(entry.state.as_ref()).and_then(|cursor| cursor.due().map(|due| due.key));
                if let Some(key) = due {
                    // One key per stream and key: a campaign reveals a turn's seed every turn.
                    let policy = match key {
                        DiceKey::Stream => format!("reveal-due:{stream}"),
                        other => format!("reveal-due:{stream}:{}", other.id()),
                    };
                    let meta = CommandMeta {
                        actor: Actor::system(),
                        recorded_at: chrono::Utc::now(),
                        idempotency_key: Some(policy.clone()),
                        correlation_id: None,
                        expected_version: None,
                        scope: Scope::Host,
                    };
                    if pollster::block_on(self.apply_policies(entry.ruleset, &stream, &meta, &policy))?.is_some() {
                        done += 1;
                    }
                }
                if entry.state_as::<herald_domain::coalition::campaign::CampaignState>().is_some() {
                    // A battle's correction not yet carried here, then every battle it (or any
                    // adjudication) announced and no stream exists for.
                    done += disputes::complete_carries(self, &stream)?;
                    done += self.open_missing_battles(&stream)?;
                }
            }
        }
        Ok(done)
    }

    /// Open every battle stream campaign `stream` links and a crash left unopened: those its
    /// adjudications announced (`campaign::open_missing_battles`), then those only a correction's
    /// what-if announced (`disputes::open_corrected_battles`). Returns how many were opened.
    pub fn open_missing_battles(&self, stream: &str) -> Result<usize, ApiError> {
        let missing = campaign::open_missing_battles(self, stream)?;
        if missing.unannounced == 0 {
            return Ok(missing.opened);
        }
        Ok(missing.opened + disputes::open_corrected_battles(self, stream)?.len())
    }

    /// Run ruleset `R`'s typed `command` against `stream` (the service's own callers and tests).
    pub fn execute_as<R: Ruleset>(
        &self,
        stream: &str,
        command: &R::Command,
        meta: CommandMeta,
    ) -> Result<CommandOutcome, ApiError> {
        self.execute(ruleset::<R>()?, stream, command_value(command)?, meta)
    }

    /// The outcome of an earlier creation by `actor` under `idempotency_key`, if any: a retried
    /// creation must answer with the stream it opened, not seal a seed for a new one. A retry
    /// must repeat its request: the set-up `setup` of `ruleset` (with the server seed `supplied`,
    /// if any) is made into its command again with the commitment of the seed sealed the first
    /// time and compared with the command stored then; another ruleset, set-up or seed is
    /// refused (409), as on every other write. `complete` is what the creation added to the
    /// set-up once the seed was sealed (a campaign's first interval commitment), done again.
    pub fn replayed_creation(
        &self,
        actor: &Actor,
        idempotency_key: &str,
        ruleset: &'static dyn AnyRuleset,
        setup: serde_json::Value,
        supplied: Option<[u8; 32]>,
        complete: Option<Completion>,
    ) -> Result<Option<CommandOutcome>, ApiError> {
        let command_id = format!("idem:{}:{idempotency_key}", actor.id);
        let Some(stored) = self.store.stored_command(&command_id)? else { return Ok(None) };
        if stored.first_version != 0 {
            return Err(ApiError::Conflict(format!(
                "this Idempotency-Key was already used for a request to {}",
                stored.stream
            )));
        }
        let different = || {
            ApiError::Conflict(
                "this Idempotency-Key was already used for a different request; use a new key for a new action".into(),
            )
        };
        let record = stored.command.as_ref().map(Payload::to_value);
        let record = record.as_ref();
        if record.and_then(|record| record.get("rules")).and_then(serde_json::Value::as_str) != Some(ruleset.rules()) {
            return Err(different());
        }
        let sealed = self.sealed_seed(&stored.stream)?;
        if supplied.is_some_and(|seed| Some(seed) != sealed) {
            return Err(different());
        }
        let commitment = sealed.map(|seed| hex::encode(seed::commitment(&seed))).unwrap_or_default();
        let mut expected = ruleset.set_up(&setup, commitment)?;
        if let Some(complete) = complete {
            expected = complete(self, &stored.stream, expected)?;
        }
        // Salted as the first time (the salt derives from the stream and the key).
        let expected = if ruleset.salted(&expected) {
            self.with_formula_salt(&stored.stream, &command_id, expected)?
        } else {
            expected
        };
        if record.and_then(|record| record.get("command")) != Some(&expected) {
            return Err(different());
        }
        self.replay_of(&stored.stream, &command_id)
    }

    /// The outcome of an earlier command of `command_type` by `actor` on `stream` under
    /// `idempotency_key`, if one was stored: for the routes whose command depends on the
    /// stream's state (a reveal names the seed in force, a new turn its number), so a retry,
    /// decided on the state the first request left, would be another command. The key used for
    /// another stream or another kind of command is refused (409).
    /// `same` says whether the stored command was made from the same request.
    pub fn replayed_command(
        &self,
        actor: &Actor,
        idempotency_key: &str,
        stream: &str,
        command_type: &str,
        same: &dyn Fn(&serde_json::Value) -> bool,
    ) -> Result<Option<CommandOutcome>, ApiError> {
        let command_id = format!("idem:{}:{idempotency_key}", actor.id);
        let Some(stored) = self.store.stored_command(&command_id)? else { return Ok(None) };
        let record = stored.command.as_ref().map(Payload::to_value);
        let command = record.as_ref().and_then(|record| record.get("command"));
        let stored_type = command.and_then(|command| command.get("type")).and_then(serde_json::Value::as_str);
        if stored.stream == stream && (stored_type != Some(command_type) || !command.is_some_and(same)) {
            return Err(ApiError::Conflict(
                "this Idempotency-Key was already used for a different request; use a new key for a new action".into(),
            ));
        }
        self.replay_of(stream, &command_id)
    }

    /// A retry must repeat its request: an `Idempotency-Key` already used for a different command
    /// is refused (409), so a client never takes the answer to one action for another.
    fn check_same_request(&self, command_id: &str, requested: &serde_json::Value) -> Result<(), ApiError> {
        let Some(stored) = self.store.stored_command(command_id)? else { return Ok(()) };
        let record = stored.command.as_ref().map(Payload::to_value);
        match record.as_ref().and_then(|record| record.get("command")) {
            Some(earlier) if earlier != requested => Err(ApiError::Conflict(
                "this Idempotency-Key was already used for a different request; use a new key for a new action".into(),
            )),
            _ => Ok(()),
        }
    }

    fn replay_of(&self, stream: &str, command_id: &str) -> Result<Option<CommandOutcome>, ApiError> {
        let Some(stored) = self.store.stored_command(command_id)? else { return Ok(None) };
        if stored.stream != stream {
            return Err(ApiError::Conflict(format!(
                "this Idempotency-Key was already used for a request to {}",
                stored.stream
            )));
        }
        let count = usize::try_from(stored.last_version - stored.first_version + 1).unwrap_or(usize::MAX);
        let events = self.store.read_stream(stream, stored.first_version, Direction::Forwards, count)?;
        let mut outcome = CommandOutcome {
            stream: stream.to_string(),
            version: stored.last_version,
            events,
            decided: vec![],
            replayed: true,
        };
        // The first answer included what the service appended in consequence (the seed reveal,
        // see `apply_policies`); a replay answers the same.
        let follow_up = format!("idem:{}:{}", Actor::system().id, policy_key(command_id));
        if let Some(policy) = self.replay_of(stream, &follow_up)? {
            outcome.extend(policy);
        }
        Ok(Some(outcome))
    }

    /// Fold what other writers appended; whether `stream` moved on (then a refusal decided on the
    /// read models as they were may not stand). With a local store the read models are current.
    fn caught_up_on(&self, stream: &str) -> Result<bool, ApiError> {
        if self.store.reads_are_local() {
            return Ok(false);
        }
        let before = self.catalog.version_of(stream);
        self.catalog.catch_up(self.store.as_ref())?;
        Ok(self.catalog.version_of(stream) != before)
    }

    /// The state to decide on: the result of the command decided before this one when it is not
    /// folded yet ([`turns`]), else the read models' (kept current by every append), or a new
    /// stream's. A stream of another ruleset is refused before anything is decoded.
    fn decision_state(&self, ruleset: &'static dyn AnyRuleset, stream: &str) -> Result<DecisionState, ApiError> {
        match self.catalog.entry(stream) {
            Some(entry) if entry.ruleset.rules() != ruleset.rules() => {
                Err(wrong_ruleset(stream, entry.ruleset, ruleset))
            }
            Some(entry) => {
                let ahead = self.turns.tail(stream, entry.version);
                let ahead = ahead.and_then(|tail| Some((tail.state(&entry.state, entry.version)?, tail.version)));
                Ok(match ahead {
                    Some((state, version)) => (state, Some(version), true),
                    None => (entry.state, Some(entry.version), false),
                })
            }
            None => Ok((ruleset.new_state(), None, false)),
        }
    }

    /// Decide `command` on its stream's state: nothing to append, or the append with the stream's
    /// result after it (its tail, for the next command to decide on while it is flushed).
    fn decide(
        &self,
        ruleset: &'static dyn AnyRuleset,
        stream: &str,
        command: &serde_json::Value,
        meta: &CommandMeta,
        command_id: &str,
    ) -> Result<Decision, ApiError> {
        let (mut state, mut version, mut ahead) = self.decision_state(ruleset, stream)?;
        if let Some(expected) = meta.expected_version {
            if version != Some(expected) {
                // The read models may not have seen another process's append yet.
                self.catalog.catch_up(self.store.as_ref())?;
                (state, version, ahead) = self.decision_state(ruleset, stream)?;
            }
            if version != Some(expected) {
                return Err(ApiError::PreconditionFailed(format!(
                    "If-Match expected version {expected}, but {stream} is at {}",
                    version.map_or("no version (it does not exist)".to_string(), |v| v.to_string())
                )));
            }
        }
        let dice = self.tape(ruleset, stream, state.as_ref())?;
        let mut context =
            Context { stream: stream.to_string(), actor: meta.actor.clone(), recorded_at: meta.recorded_at, dice };
        let events = ruleset.decide(state.as_ref(), command, &mut context).map_err(|refusal| match version {
            None => unknown_stream(stream, refusal),
            Some(_) => refusal.into(),
        })?;
        if version.is_none() && !events.is_empty() {
            crate::auth::check_scope(&meta.scope, stream, &self.catalog)?;
        }
        // The backstop for what no rule of the ruleset limits; checked after the rules decided, so
        // that a ruleset's own limit (a strategy's length) is refused with its own code.
        crate::limits::check(command)?;
        if events.is_empty() {
            return Ok(Decision::Nothing(CommandOutcome {
                stream: stream.into(),
                version: version.unwrap_or(0),
                events: vec![],
                decided: vec![],
                replayed: false,
            }));
        }
        let record = CommandRecord {
            rules: ruleset.rules().to_string(),
            actor: meta.actor.clone(),
            recorded_at: meta.recorded_at,
            command,
        };
        let new_events = events
            .iter()
            .map(|data| NewEvent {
                id: uuid::Uuid::now_v7(),
                event_type: event_type_of(data),
                schema: EVENT_SCHEMA,
                recorded_at: meta.recorded_at,
                actor: meta.actor.id.clone(),
                command_id: Some(command_id.to_string()),
                correlation_id: meta.correlation_id.clone(),
                causation_id: Some(command_id.to_string()),
                rules: ruleset.rules().to_string(),
                data: Payload::from_value(data),
            })
            .collect();
        let request = AppendRequest {
            stream: stream.to_string(),
            expected: version.map_or(ExpectedVersion::NoStream, ExpectedVersion::Exact),
            events: new_events,
            command_id: Some(command_id.to_string()),
            command: Some(Payload::of(&record).map_err(ApiError::internal)?),
        };
        // A new stream has no tail: a command on it meanwhile decides on a fresh state, is refused
        // by the store (the stream exists by then) and decides again once it is folded (and in scope).
        let tail = version.map(|version| {
            let events = request.events.iter().map(|e| (e.event_type.clone(), e.schema, e.data.clone())).collect();
            let base = if ahead { turns::Base::InFlight(state) } else { turns::Base::Folded(version) };
            turns::Tail::new(ruleset, base, events, version + request.events.len() as u64)
        });
        Ok(Decision::Append { request, tail, decided: events })
    }

    /// The dice tape of `state`: the sealed seed, checked against the commitment, mixed with
    /// the stream name and the contributions, positioned at the next word.
    fn tape(&self, ruleset: &dyn AnyRuleset, stream: &str, state: &dyn AnyState) -> Result<DiceTape, ApiError> {
        let Some(cursor) = ruleset.dice(state) else { return Ok(DiceTape::unavailable()) };
        let key = cursor.key.id();
        let server_seed = self
            .key_seed(stream, cursor.key)?
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("the sealed seed ({key}) of {stream} is missing")))?;
        if seed::commitment(&server_seed) != cursor.commitment {
            return Err(ApiError::internal(anyhow::anyhow!(
                "the sealed seed ({key}) of {stream} does not match its commitment"
            )));
        }
        Ok(DiceTape::new(seed::effective_seed(&server_seed, stream, &cursor.contributions), cursor.next_word))
    }

    /// Rules the service applies on its own after an append: a battle that ended has its seed
    /// revealed (DESIGN.md "Dice that anyone can check").
    /// Boxed, as the policies' command is a command: its future holds this one.
    fn apply_policies<'a>(
        &'a self,
        ruleset: &'static dyn AnyRuleset,
        stream: &'a str,
        meta: &'a CommandMeta,
        command_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<CommandOutcome>, ApiError>> {
        Box::pin(async move {
            let Some(entry) = self.catalog.entry(stream) else { return Ok(None) };
            let due = ruleset.dice(entry.state.as_ref()).and_then(|cursor| cursor.due().map(|due| due.key));
            let Some(server_seed) = due.map(|key| self.key_seed(stream, key)).transpose()?.flatten() else {
                return Ok(None);
            };
            let Some(reveal) = ruleset.reveal_seed(hex::encode(server_seed), None) else { return Ok(None) };
            let policy = CommandMeta {
                actor: Actor::system(),
                idempotency_key: Some(policy_key(command_id)),
                expected_version: None,
                scope: Scope::Host,
                ..meta.clone()
            };
            self.execute_async(ruleset, stream, reveal, policy).await.map(Some)
        })
    }
}

/// The state a command decides on, the stream's version there (`None`: a new stream), and
/// whether it is the result of a command still in flight.
type DecisionState = (Arc<dyn AnyState>, Option<u64>, bool);

/// What a command decided.
enum Decision {
    /// Nothing to append: the answer as it is.
    Nothing(CommandOutcome),
    /// An append, with the stream's result after it when the stream exists, and the events'
    /// payloads as decided (what the answer renders).
    Append { request: AppendRequest, tail: Option<turns::Tail>, decided: Vec<serde_json::Value> },
}

/// The idempotency key of what the service appends in consequence of command `command_id`.
fn policy_key(command_id: &str) -> String {
    format!("reveal-after:{command_id}")
}

/// Read a whole stream, or its events up to version `at`.
pub fn read_stream_to(store: &dyn EventStore, stream: &str, at: Option<u64>) -> Result<Vec<RecordedEvent>, StoreError> {
    let mut events = Vec::new();
    loop {
        let from = events.last().map_or(0, |event: &RecordedEvent| event.version + 1);
        if at.is_some_and(|at| from > at) {
            break;
        }
        let page = store.read_stream(stream, from, Direction::Forwards, 1024)?;
        let done = page.len() < 1024;
        events.extend(page.into_iter().filter(|event| at.is_none_or(|at| event.version <= at)));
        if done {
            break;
        }
    }
    Ok(events)
}

/// Decode stored payloads into ruleset `R`'s own events (older payload schemas upcast).
pub fn decode_events<R: Ruleset>(events: &[RecordedEvent]) -> Result<Vec<R::Event>, ApiError> {
    events
        .iter()
        // Disputes and rulings are every stream's, not the ruleset's (herald_domain::dispute).
        .filter(|event| !herald_domain::dispute::is_dispute_type(&event.event_type))
        .map(|event| {
            let decoded = if event.schema < EVENT_SCHEMA {
                serde::Deserialize::deserialize(&R::upcast(&event.event_type, event.schema, &event.data.to_value()))
            } else {
                event.data.decode()
            };
            decoded.map_err(|error| {
                ApiError::internal(anyhow::anyhow!(
                    "event {} of {} (position {}) does not decode: {error}",
                    event.version,
                    event.stream,
                    event.position
                ))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::{
        future::Future,
        task::{Context as TaskContext, Waker},
    };

    use chrono::TimeZone;
    use herald_domain::{
        coalition::battle::{BattleCommand, CoalitionBattle},
        Role,
    };
    use herald_store::SledStore;

    use super::*;

    fn meta(expected_version: Option<u64>) -> CommandMeta {
        CommandMeta {
            actor: Actor::new("token:judge", Role::Judge),
            recorded_at: Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).single().expect("a time"),
            idempotency_key: None,
            correlation_id: None,
            expected_version,
            scope: Scope::Host,
        }
    }

    /// A service over a fresh sled store, and a coalition battle created in it.
    fn battle() -> (Service, String, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("a temp dir");
        let store: Arc<dyn EventStore> = Arc::new(SledStore::open(dir.path()).expect("a store"));
        let catalog = Arc::new(Catalog::rebuild(store.as_ref()).expect("a catalog"));
        let service = Service::new(store, catalog);
        let stream = format!("battle-{}", uuid::Uuid::now_v7());
        let commitment = service.seal_seed(&stream, None).expect("sealed");
        let create = serde_json::json!({
            "type": "create_battle",
            "armies": {
                "a": {"name": "Sai Rei", "team": "coalition", "rank": "cpl_lt_commander", "controller": "alice",
                      "slots": [{"creature": "Kris Mage", "colors": ["red"], "power": 1, "toughness": 1, "troops": 5000}]},
                "b": {"name": "Plague Host", "team": "phyrexia", "rank": "cpl_lt_commander", "controller": "bob",
                      "slots": [{"creature": "Phyrexian Broodlings", "colors": ["black"], "power": 2, "toughness": 2, "troops": 5000}]}
            },
            "engagement": {"kind": "no_attacker"},
            "terrain": "swamp",
            "strategy_deadline": "2026-12-01T00:00:00Z",
            "seed_commitment": hex::encode(commitment),
        });
        let create: BattleCommand = serde_json::from_value(create).expect("a creation");
        service.execute_as::<CoalitionBattle>(&stream, &create, meta(None)).expect("created");
        (service, stream, dir)
    }

    /// A judge's roll on the battle, as the rolls route makes it.
    fn roll(purpose: &str) -> serde_json::Value {
        let roll = serde_json::from_value(serde_json::json!({ "expression": "2d6", "purpose": purpose }));
        ruleset::<CoalitionBattle>().expect("registered").judge_roll(roll.expect("a roll"))
    }

    #[test]
    fn a_command_awaited_on_a_single_threaded_runtime_is_durable_and_folded_when_it_returns() {
        let (service, stream, _dir) = battle();
        let rules = ruleset::<CoalitionBattle>().expect("registered");
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
        let outcome =
            runtime.block_on(service.execute_async(rules, &stream, roll("awaited"), meta(None))).expect("rolled");
        assert_eq!((outcome.version, outcome.events.len()), (1, 1));
        assert_eq!(service.store().stream_version(&stream).expect("read"), Some(1), "appended");
        assert_eq!(service.catalog().version_of(&stream), Some(1), "folded before the command returned");
    }

    #[test]
    fn a_commands_answer_renders_the_payloads_it_decided_as_the_stored_ones_and_a_replay_reads_them_back() {
        use herald_domain::Viewer;
        use herald_projections::EventView;
        let (service, stream, _dir) = battle();
        let rules = ruleset::<CoalitionBattle>().expect("registered");
        let keyed = CommandMeta { idempotency_key: Some("k-1".into()), ..meta(None) };
        let outcome = service.execute(rules, &stream, roll("decided"), keyed.clone()).expect("rolled");
        assert_eq!(outcome.decided.len(), outcome.events.len(), "every payload decided is kept for the answer");
        let entry = service.catalog().entry(&stream);
        for viewer in [Viewer::from(&meta(None).actor), Viewer::from(&Actor::new("token:alice", Role::Player))] {
            for (event, data) in outcome.events.iter().zip(&outcome.decided) {
                assert_eq!(
                    EventView::decided(event, data.clone(), entry.as_ref(), &viewer),
                    EventView::new(event, entry.as_ref(), &viewer),
                    "the decided payload renders as the stored one"
                );
                assert_eq!(event.data.to_value(), *data, "the store wrote what was decided");
            }
        }
        let replay = service.execute(rules, &stream, roll("decided"), keyed).expect("replayed");
        assert!(replay.replayed);
        assert!(replay.decided.is_empty(), "a replay decided nothing: its answer reads the stored payloads");
    }

    #[test]
    fn a_command_waits_for_its_streams_turn_without_holding_its_thread() {
        let (service, stream, _dir) = battle();
        let rules = ruleset::<CoalitionBattle>().expect("registered");
        let turn = pollster::block_on(service.turns.turn(&stream));
        let mut command = std::pin::pin!(service.execute_async(rules, &stream, roll("waits"), meta(None)));
        let polled = command.as_mut().poll(&mut TaskContext::from_waker(Waker::noop()));
        assert!(polled.is_pending(), "it waits for the stream, handing the thread back");
        assert_eq!(service.store().stream_version(&stream).expect("read"), Some(0), "nothing decided meanwhile");
        drop(turn);
        let outcome = pollster::block_on(command).expect("rolled once the stream is free");
        assert_eq!(outcome.version, 1);
        assert_eq!(service.catalog().version_of(&stream), Some(1));
    }

    #[test]
    fn two_commands_on_one_stream_decide_in_turn_the_second_on_the_first_ones_result() {
        let (service, stream, _dir) = battle();
        let rules = ruleset::<CoalitionBattle>().expect("registered");
        // Both pinned to version 0 (If-Match): the second, deciding only once the first's events
        // are folded, is refused by the precondition (412), not by the store's conflict (409).
        let (first, second) = pollster::block_on(async {
            futures_util::join!(
                service.execute_async(rules, &stream, roll("first"), meta(Some(0))),
                service.execute_async(rules, &stream, roll("second"), meta(Some(0))),
            )
        });
        assert_eq!(first.expect("the first rolled").version, 1);
        assert!(matches!(second, Err(ApiError::PreconditionFailed(_))), "{second:?}");
        // And a command through the blocking face takes the same turns.
        let third = service.execute(rules, &stream, roll("third"), meta(Some(1))).expect("rolled");
        assert_eq!(third.version, 2);
    }

    #[test]
    fn commands_on_one_stream_at_once_each_decide_on_the_one_before_and_all_land() {
        let (service, stream, _dir) = battle();
        let rules = ruleset::<CoalitionBattle>().expect("registered");
        // Sixteen at once on one stream, no If-Match: each decides on the result of the one
        // before it (in flight or folded); none is refused, none lands twice.
        let outcomes = pollster::block_on(futures_util::future::join_all(
            (0..16).map(|n| service.execute_async(rules, &stream, roll(&format!("roll {n}")), meta(None))),
        ));
        let mut versions: Vec<u64> = outcomes.into_iter().map(|outcome| outcome.expect("rolled").version).collect();
        versions.sort_unstable();
        assert_eq!(versions, (1..=16).collect::<Vec<u64>>());
        assert_eq!(service.store().stream_version(&stream).expect("read"), Some(16));
        let rebuilt = Catalog::rebuild(service.store()).expect("rebuilt");
        assert!(rebuilt.same_as(service.catalog()), "the live read models are what the log folds to");
        // Every draw follows the one before on the tape: no two rolls read the same dice.
        let words: Vec<u64> = service
            .store()
            .read_stream(&stream, 1, Direction::Forwards, 16)
            .expect("read")
            .iter()
            .filter_map(|event| serde_json::from_str::<serde_json::Value>(event.data.get()).ok())
            .filter_map(|data| data.get("next_word").and_then(serde_json::Value::as_u64))
            .collect();
        assert_eq!(words.len(), 16, "every roll records where the tape stands after it");
        assert!(words.windows(2).all(|pair| pair[0] < pair[1]), "{words:?}");
        assert!(
            service.turns.tail(&stream, service.catalog().version_of(&stream).unwrap_or(0)).is_none(),
            "nothing is left in flight"
        );
    }
}
