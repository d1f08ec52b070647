//! Whose turn it is to decide on a stream, and what the commands before it decided.
//!
//! Commands on one stream decide one at a time, each on the result of the one before, so they
//! never race each other to a conflict. A command holds its stream's turn only while it decides
//! and hands its append to the store; it then waits for its group commit *without* the turn, so
//! the next command decides on its result (its [`Tail`]: the state it decided on, with its
//! events folded in) while it is flushed, and both are flushed in one group commit. One stream's
//! commands then share flushes as commands on many streams do (issue 29 item 5: one stream held
//! its turn across every flush, one fdatasync a command).
//!
//! Nothing of durability is traded: a tail is only ever decided on, never read or answered, and
//! every append still carries the version it was decided on. When a command fails (the store
//! refused it, the disk is full), everything decided after it on its tail fails in the store with
//! a conflict, is decided again on what is durable, or is refused with the failure; its tail is
//! dropped at once so the rest stop building on it. The read models (which readers see) still
//! fold only what is durable, in `$all` order.
//!
//! Two kinds of command wait until their stream has nothing in flight, and decide on durable
//! state as before: one pinned with `If-Match` (its precondition is about what readers saw), and
//! one whose `Idempotency-Key` is in flight (it must be answered as the first, once that is
//! stored).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

use herald_domain::{AnyRuleset, AnyState};
use herald_store::Payload;
use tokio::sync::{OwnedRwLockReadGuard, RwLock};

/// Lock stripes that serialize decisions on one stream within this process.
pub(crate) const STRIPES: usize = 64;

/// One stripe: a stream takes the stripe its name hashes to.
struct Stripe {
    /// The turn to decide (FIFO; tokio's lock, which needs no runtime).
    turn: tokio::sync::Mutex<()>,
    /// Held shared by every command of the stripe between handing its append to the store and
    /// folding it; taken exclusively to wait until none is in flight.
    in_flight: Arc<RwLock<()>>,
}

/// What the last command decided on a stream, not yet folded into the read models: the state it
/// decided on and the events it appended, folded only when the next command needs the result.
#[derive(Clone)]
pub(crate) struct Tail {
    ruleset: &'static dyn AnyRuleset,
    base: Base,
    events: Arc<[(String, u32, Payload)]>,
    /// The stream's version once these events are appended.
    pub(crate) version: u64,
}

/// The state a command decided on.
#[derive(Clone)]
pub(crate) enum Base {
    /// The read models' state at this version: not held, so that folding the command changes it
    /// in place instead of copying it while a tail holds it (a campaign's is large).
    Folded(u64),
    /// The state a command before it in flight left.
    InFlight(Arc<dyn AnyState>),
}

impl Tail {
    /// The tail of a command that decided on `base` and appends `events`, ending at `version`.
    pub(crate) fn new(
        ruleset: &'static dyn AnyRuleset,
        base: Base,
        events: Vec<(String, u32, Payload)>,
        version: u64,
    ) -> Self {
        Self { ruleset, base, events: events.into(), version }
    }

    /// The state after these events: the base, copied, with each folded as the read models will.
    /// `folded` is the read models' state of the stream at `version`. `None` when they moved away
    /// from a folded base or an event does not fold (then the next command decides on them).
    pub(crate) fn state(&self, folded: &Arc<dyn AnyState>, version: u64) -> Option<Arc<dyn AnyState>> {
        let base = match &self.base {
            Base::Folded(at) if *at == version => folded,
            Base::Folded(_) => return None,
            Base::InFlight(state) => state,
        };
        let mut state = base.clone_arc();
        let folding = Arc::get_mut(&mut state)?;
        for (event_type, schema, data) in self.events.iter() {
            self.ruleset.evolve(folding, event_type, *schema, data.get()).ok()?;
        }
        Some(state)
    }
}

/// The turns of every stream of this process.
pub(crate) struct Turns {
    stripes: Vec<Stripe>,
    /// Each stream's last decided command not yet folded.
    tails: Mutex<HashMap<String, Tail>>,
    /// The command ids of client `Idempotency-Key`s in flight, with their stripe.
    keys: Mutex<HashMap<String, usize>>,
}

/// A stream's turn to decide: dropped, the next command on the stripe decides.
pub(crate) struct Turn<'a> {
    stripe: usize,
    _held: tokio::sync::MutexGuard<'a, ()>,
}

/// A command handed to the store and not yet folded: dropped, its tail and key are forgotten
/// (the tail only if no later command replaced it) and the stripe no longer waits for it.
pub(crate) struct Flight<'a> {
    turns: &'a Turns,
    stream: String,
    version: u64,
    key: Option<String>,
    _in_flight: OwnedRwLockReadGuard<()>,
}

impl Default for Turns {
    fn default() -> Self {
        Self {
            stripes: (0..STRIPES)
                .map(|_| Stripe { turn: tokio::sync::Mutex::new(()), in_flight: Arc::new(RwLock::new(())) })
                .collect(),
            tails: Mutex::default(),
            keys: Mutex::default(),
        }
    }
}

impl Turns {
    /// How many stripes there are (fixed, whatever the number of streams).
    pub(crate) fn stripes(&self) -> usize {
        self.stripes.len()
    }

    fn stripe_of(stream: &str) -> usize {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        stream.hash(&mut hasher);
        usize::try_from(hasher.finish() % STRIPES as u64).unwrap_or(0)
    }

    /// `stream`'s turn, awaited in order of arrival.
    pub(crate) async fn turn(&self, stream: &str) -> Turn<'_> {
        let stripe = Self::stripe_of(stream);
        Turn { stripe, _held: self.stripes[stripe].turn.lock().await }
    }

    /// Wait, holding `turn`, until no command of its stripe is in flight: what it decides on is
    /// then durable and folded.
    pub(crate) async fn settle(&self, turn: &Turn<'_>) {
        drop(self.stripes[turn.stripe].in_flight.write().await);
    }

    /// Wait until the command with client key `command_id` (if one is in flight) is folded.
    pub(crate) async fn settle_key(&self, command_id: &str) {
        let stripe = lock(&self.keys).get(command_id).copied();
        if let Some(stripe) = stripe {
            drop(self.stripes[stripe].in_flight.write().await);
        }
    }

    /// The last decided, unfolded command on `stream`, if it is ahead of `folded`; a tail the
    /// read models have caught up with is forgotten.
    pub(crate) fn tail(&self, stream: &str, folded: u64) -> Option<Tail> {
        let mut tails = lock(&self.tails);
        match tails.get(stream) {
            Some(tail) if tail.version > folded => Some(tail.clone()),
            Some(_) => {
                tails.remove(stream);
                None
            }
            None => None,
        }
    }

    /// Forget `stream`'s tail if it ends at or before `version`.
    fn forget(&self, stream: &str, version: u64) {
        let mut tails = lock(&self.tails);
        if tails.get(stream).is_some_and(|tail| tail.version <= version) {
            tails.remove(stream);
        }
    }

    /// Whether a command decided on `stream` may still be in flight.
    pub(crate) fn in_flight(&self, stream: &str) -> bool {
        lock(&self.tails).contains_key(stream)
    }

    /// Record that the holder of `turn` handed its append to the store: the next command on
    /// `stream` decides on `tail` (when there is one), and the turn passes on.
    pub(crate) async fn fly<'a>(
        &'a self,
        turn: Turn<'a>,
        stream: &str,
        tail: Option<Tail>,
        key: Option<&str>,
    ) -> Flight<'a> {
        // No one waits for this lock exclusively while the turn is held but a `settle_key` from
        // another stripe, which waits only for commands already in flight.
        let in_flight = self.stripes[turn.stripe].in_flight.clone().read_owned().await;
        let version = tail.as_ref().map_or(0, |tail| tail.version);
        match tail {
            Some(tail) => lock(&self.tails).insert(stream.to_string(), tail),
            None => lock(&self.tails).remove(stream),
        };
        if let Some(key) = key {
            lock(&self.keys).insert(key.to_string(), turn.stripe);
        }
        drop(turn);
        Flight { turns: self, stream: stream.to_string(), version, key: key.map(str::to_string), _in_flight: in_flight }
    }
}

impl Flight<'_> {
    /// The append failed: whatever was decided on its result will fail too, so the next command
    /// decides on durable state.
    pub(crate) fn failed(self) {
        lock(&self.turns.tails).remove(&self.stream);
    }
}

impl Drop for Flight<'_> {
    fn drop(&mut self) {
        self.turns.forget(&self.stream, self.version);
        if let Some(key) = &self.key {
            lock(&self.turns.keys).remove(key);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};

    use herald_domain::StreamKind;

    use super::*;

    fn tail(version: u64) -> Tail {
        let ruleset = herald_domain::registry::default_for(StreamKind::Battle).expect("a battle ruleset");
        Tail::new(ruleset, Base::InFlight(ruleset.new_state()), Vec::new(), version)
    }

    fn poll<F: Future>(future: std::pin::Pin<&mut F>) -> Poll<F::Output> {
        future.poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn the_next_command_decides_on_the_tail_of_the_one_in_flight_until_it_is_folded() {
        let turns = Turns::default();
        let first = pollster::block_on(async {
            let turn = turns.turn("battle-a").await;
            turns.fly(turn, "battle-a", Some(tail(3)), None).await
        });
        assert_eq!(turns.tail("battle-a", 2).map(|tail| tail.version), Some(3), "the read models are at 2");
        assert!(turns.tail("battle-b", 0).is_none(), "another stream has none");
        let second = pollster::block_on(async {
            let turn = turns.turn("battle-a").await;
            turns.fly(turn, "battle-a", Some(tail(5)), None).await
        });
        drop(first);
        assert_eq!(turns.tail("battle-a", 3).map(|tail| tail.version), Some(5), "the later tail stays");
        drop(second);
        assert!(turns.tail("battle-a", 3).is_none(), "folded: the read models decide again");
    }

    #[test]
    fn a_tail_the_read_models_caught_up_with_is_forgotten() {
        let turns = Turns::default();
        let flight = pollster::block_on(async {
            let turn = turns.turn("battle-a").await;
            turns.fly(turn, "battle-a", Some(tail(3)), None).await
        });
        assert!(turns.tail("battle-a", 3).is_none());
        assert!(turns.tail("battle-a", 2).is_none(), "and not kept for later");
        drop(flight);
    }

    #[test]
    fn a_failed_append_drops_the_tail_built_on_it() {
        let turns = Turns::default();
        let (first, second) = pollster::block_on(async {
            let turn = turns.turn("battle-a").await;
            let first = turns.fly(turn, "battle-a", Some(tail(1)), None).await;
            let turn = turns.turn("battle-a").await;
            (first, turns.fly(turn, "battle-a", Some(tail(2)), None).await)
        });
        first.failed();
        assert!(turns.tail("battle-a", 0).is_none(), "the next decides on durable state");
        drop(second);
    }

    #[test]
    fn settling_waits_for_every_command_in_flight_on_the_stripe() {
        let turns = Turns::default();
        let flight = pollster::block_on(async {
            let turn = turns.turn("battle-a").await;
            turns.fly(turn, "battle-a", Some(tail(1)), Some("idem:p:k")).await
        });
        let mut settle = std::pin::pin!(async {
            let turn = turns.turn("battle-a").await;
            turns.settle(&turn).await;
        });
        assert!(poll(settle.as_mut()).is_pending(), "an If-Match command waits");
        let mut key = std::pin::pin!(turns.settle_key("idem:p:k"));
        assert!(poll(key.as_mut()).is_pending(), "so does the same Idempotency-Key");
        assert!(poll(std::pin::pin!(turns.settle_key("idem:p:other"))).is_ready(), "another key does not");
        drop(flight);
        assert!(poll(settle.as_mut()).is_ready());
        assert!(poll(key.as_mut()).is_ready());
        assert!(poll(std::pin::pin!(turns.settle_key("idem:p:k"))).is_ready(), "the key is forgotten");
    }
}
