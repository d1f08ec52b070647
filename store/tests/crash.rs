//! Crash safety: a child process appends in a loop and is SIGKILLed at a random moment, again and
//! again on the same directory; after every kill the store must reopen consistent and hold every
//! event the child saw acknowledged.
//!
//! The child is this test binary itself, re-executed with [`CHILD_DIR`] set and `--exact
//! crash_child_appends_until_killed`, so it works under `cargo test` and `cargo nextest` alike.
//! Without the variable the child test returns at once.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use herald_store::codec::{decode_event, decode_u64, EVENTS_TREE, HEADS_TREE, STREAMS_TREE};
use herald_store::conformance::{new_event, read_all_to_end, read_stream_to_end};
use herald_store::{AppendRequest, EventStore, ExpectedVersion, SledStore, StoreError};

/// Set to the store directory in the child process.
const CHILD_DIR: &str = "HERALD_STORE_CRASH_CHILD_DIR";
const CHILD_TEST: &str = "crash_child_appends_until_killed";
const ROUNDS: usize = 24;
const WRITERS: usize = 4;

/// One acknowledged event, as the child printed it.
#[derive(Debug)]
struct Ack {
    stream: String,
    version: u64,
    position: u64,
    id: String,
    data: serde_json::Value,
}

/// A random number from the process's hash seed: good enough to vary the kill moment.
fn random_below(bound: u64) -> u64 {
    RandomState::new().build_hasher().finish() % bound
}

/// Kills the child if the parent panics, so no orphan keeps appending.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn crash_child_appends_until_killed() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else { return };
    let store = SledStore::open(&dir).expect("child opens the store");
    let started = Instant::now();
    std::thread::scope(|scope| {
        for writer in 0..WRITERS {
            let store = &store;
            scope.spawn(move || {
                let own = format!("crash-{writer}");
                // Safety net: a child that was never killed stops on its own.
                for n in 0u64.. {
                    if started.elapsed() > Duration::from_secs(30) {
                        return;
                    }
                    let (stream, expected) = if n % 3 == 2 {
                        ("crash-shared".to_string(), ExpectedVersion::Any)
                    } else {
                        let version = store.stream_version(&own).expect("stream version");
                        (own.clone(), version.map_or(ExpectedVersion::NoStream, ExpectedVersion::Exact))
                    };
                    let events = (0..1 + n % 3)
                        .map(|i| new_event("crash.Appended", serde_json::json!({ "writer": writer, "n": n, "i": i })))
                        .collect();
                    let command_id = uuid::Uuid::now_v7().to_string();
                    let request = AppendRequest {
                        stream,
                        expected,
                        events,
                        command_id: Some(command_id.clone()),
                        command: Some(serde_json::json!({ "n": n })),
                    };
                    let result = match store.append(request) {
                        Ok(result) => result,
                        Err(StoreError::WrongExpectedVersion { .. }) => continue,
                        Err(e) => panic!("child append failed: {e}"),
                    };
                    let mut out = String::new();
                    for e in &result.events {
                        out.push_str(&format!(
                            "ACK\t{}\t{}\t{}\t{}\t{}\n",
                            e.stream,
                            e.version,
                            e.position,
                            e.id,
                            e.data.get()
                        ));
                    }
                    out.push_str(&format!(
                        "CMD\t{command_id}\t{}\t{}\n",
                        result.events[0].stream, result.events[0].version
                    ));
                    // One write per append, so a kill cuts at most the last line.
                    let mut stdout = std::io::stdout().lock();
                    stdout.write_all(out.as_bytes()).expect("print acknowledgements");
                    stdout.flush().expect("flush acknowledgements");
                }
            });
        }
    });
}

#[test]
fn acknowledged_events_survive_repeated_sigkill() {
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = std::env::current_exe().expect("test binary path");
    let mut acks: Vec<Ack> = Vec::new();
    let mut commands: Vec<(String, String, u64)> = Vec::new();
    let mut rounds_with_progress = 0;
    let mut stored = 0;
    for round in 0..ROUNDS {
        let child = Command::new(&exe)
            .args(["--exact", CHILD_TEST, "--nocapture", "--test-threads=1"])
            .env(CHILD_DIR, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the child");
        let mut child = KillOnDrop(child);
        let mut stdout = child.0.stdout.take().expect("child stdout");
        let reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stdout.read_to_end(&mut bytes);
            bytes
        });
        // Mostly mid-append; sometimes during startup and recovery.
        std::thread::sleep(Duration::from_millis(20 + random_below(600)));
        child.0.kill().expect("SIGKILL the child");
        let status = child.0.wait().expect("reap the child");
        assert!(!status.success(), "round {round}: the child must die by the signal, not finish");
        let output = String::from_utf8_lossy(&reader.join().expect("reader thread")).into_owned();
        let before = acks.len();
        // Only whole lines count: the kill may cut the last one.
        let complete = output.rfind('\n').map_or("", |end| &output[..end]);
        for line in complete.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            match fields.as_slice() {
                ["ACK", stream, version, position, id, data] => acks.push(Ack {
                    stream: stream.to_string(),
                    version: version.parse().expect("version"),
                    position: position.parse().expect("position"),
                    id: id.to_string(),
                    data: serde_json::from_str(data).expect("data"),
                }),
                ["CMD", id, stream, version] => {
                    commands.push((id.to_string(), stream.to_string(), version.parse().expect("version")))
                }
                _ => {}
            }
        }
        if acks.len() > before {
            rounds_with_progress += 1;
        }
        stored = verify(dir.path(), &acks, &commands, round);
    }
    eprintln!("{ROUNDS} kills, {} acknowledged events all present, {stored} events stored", acks.len());
    assert!(rounds_with_progress >= ROUNDS / 2, "only {rounds_with_progress} of {ROUNDS} rounds appended anything");
}

/// Reopen the store and check it against itself and against every acknowledgement so far;
/// returns how many events it holds.
fn verify(dir: &Path, acks: &[Ack], commands: &[(String, String, u64)], round: usize) -> u64 {
    let store = SledStore::open(dir).unwrap_or_else(|e| panic!("round {round}: reopen after kill: {e}"));
    let head = store.head_position().expect("head");
    let total = head.map_or(0, |h| h + 1);

    // Every stored event decodes, under its own position, with no gap.
    let events = store.db().open_tree(EVENTS_TREE).expect("events tree");
    let mut stored = Vec::new();
    for (expected, entry) in (0u64..).zip(events.iter()) {
        let (key, bytes) = entry.expect("scan events");
        assert_eq!(decode_u64(&key).expect("position key"), expected, "round {round}: $all has a gap");
        let event = decode_event(&bytes).unwrap_or_else(|e| panic!("round {round}: event {expected}: {e}"));
        assert_eq!(event.position, expected, "round {round}: event stored under another position");
        stored.push(event);
    }
    assert_eq!(stored.len() as u64, total, "round {round}: head and events tree disagree");
    assert_eq!(read_all_to_end(&store).len() as u64, total, "round {round}: read_all misses events");

    // Each stream is dense, matches its head and index, and follows $all order.
    let heads = store.db().open_tree(HEADS_TREE).expect("heads tree");
    let index = store.db().open_tree(STREAMS_TREE).expect("streams tree");
    let mut per_stream: HashMap<String, u64> = HashMap::new();
    for event in &stored {
        *per_stream.entry(event.stream.clone()).or_default() += 1;
    }
    assert_eq!(heads.len(), per_stream.len(), "round {round}: a stream without a head or a head without events");
    assert_eq!(index.len() as u64, total, "round {round}: index and events disagree");
    for entry in heads.iter() {
        let (name, last) = entry.expect("scan heads");
        let stream = String::from_utf8(name.to_vec()).expect("stream name");
        let last = decode_u64(&last).expect("head version");
        let events = read_stream_to_end(&store, &stream);
        let versions: Vec<u64> = events.iter().map(|e| e.version).collect();
        assert_eq!(versions, (0..=last).collect::<Vec<_>>(), "round {round}: {stream} is not dense up to its head");
        assert_eq!(per_stream.get(&stream), Some(&(last + 1)), "round {round}: {stream} count");
        assert!(events.windows(2).all(|w| w[0].position < w[1].position), "round {round}: {stream} order");
        for event in &events {
            assert_eq!(&stored[event.position as usize], event, "round {round}: index points at another event");
        }
    }

    // Every acknowledged event is there, unchanged; every acknowledged command is kept.
    for ack in acks {
        let event = stored
            .get(ack.position as usize)
            .unwrap_or_else(|| panic!("round {round}: acknowledged position {} lost", ack.position));
        assert_eq!(
            (&event.stream, event.version, event.id.to_string(), &event.data.to_value()),
            (&ack.stream, ack.version, ack.id.clone(), &ack.data),
            "round {round}: acknowledged event changed"
        );
    }
    for (command_id, stream, first_version) in commands {
        let command = store.stored_command(command_id).expect("read command");
        let command = command.unwrap_or_else(|| panic!("round {round}: acknowledged command {command_id} lost"));
        assert_eq!((&command.stream, command.first_version), (stream, *first_version));
    }
    total
}
