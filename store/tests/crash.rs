//! Crash safety: a child process appends in a loop and is SIGKILLed at a random moment, again and
//! again on the same directory; after every kill the store must reopen consistent and hold every
//! event the child saw acknowledged.
//!
//! The child is this test binary itself, re-executed with [`CHILD_DIR`] set and `--exact
//! crash_child_appends_until_killed`, so it works under `cargo test` and `cargo nextest` alike.
//! Without the variable the child test returns at once.

mod support;

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use herald_store::codec::{decode_event, decode_u64, EVENTS_TREE, HEADS_TREE, STREAMS_TREE};
use herald_store::{EventStore, SledStore};
use support::{Ack, CommandAck};

/// Set to the store directory in the child process.
const CHILD_DIR: &str = "HERALD_STORE_CRASH_CHILD_DIR";
const CHILD_TEST: &str = "crash_child_appends_until_killed";
const ROUNDS: usize = 24;
const WRITERS: usize = 4;

#[test]
fn crash_child_appends_until_killed() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else { return };
    let store = SledStore::open(&dir).expect("child opens the store");
    // Safety net: a child that was never killed stops on its own.
    support::append_and_print(&store, "sled", WRITERS, u64::MAX, false, Duration::from_secs(30));
}

#[test]
fn acknowledged_events_survive_repeated_sigkill() {
    let dir = tempfile::tempdir().expect("temp dir");
    let env = [(CHILD_DIR, dir.path().display().to_string())];
    let (acknowledged, stored) = support::kill_repeatedly(CHILD_TEST, &env, ROUNDS, |acks, commands, round| {
        verify(dir.path(), acks, commands, round)
    });
    eprintln!("{ROUNDS} kills, {acknowledged} acknowledged events all present, {stored} events stored");
}

/// Reopen the store and check it against itself and against every acknowledgement so far;
/// returns how many events it holds.
fn verify(dir: &Path, acks: &[Ack], commands: &[CommandAck], round: usize) -> u64 {
    let store = SledStore::open(dir).unwrap_or_else(|e| panic!("round {round}: reopen after kill: {e}"));
    let all = support::verify_log(&store, acks, commands, round);
    let total = all.len() as u64;

    // On disk: every stored event decodes under its own position, and the index and heads agree.
    let events = store.db().expect("the database").open_tree(EVENTS_TREE).expect("events tree");
    for (expected, entry) in (0u64..).zip(events.iter()) {
        let (key, bytes) = entry.expect("scan events");
        assert_eq!(decode_u64(&key).expect("position key"), expected, "round {round}: $all has a gap");
        let event = decode_event(&bytes).unwrap_or_else(|e| panic!("round {round}: event {expected}: {e}"));
        assert_eq!(&event, &all[expected as usize], "round {round}: event stored under another position");
    }
    assert_eq!(events.len() as u64, total, "round {round}: head and events tree disagree");
    let heads = store.db().expect("the database").open_tree(HEADS_TREE).expect("heads tree");
    let index = store.db().expect("the database").open_tree(STREAMS_TREE).expect("streams tree");
    let mut per_stream: HashMap<&str, u64> = HashMap::new();
    for event in &all {
        *per_stream.entry(&event.stream).or_default() += 1;
    }
    assert_eq!(heads.len(), per_stream.len(), "round {round}: a stream without a head or a head without events");
    assert_eq!(index.len() as u64, total, "round {round}: index and events disagree");
    assert_eq!(store.head_position().expect("head").map_or(0, |h| h + 1), total);
    total
}
