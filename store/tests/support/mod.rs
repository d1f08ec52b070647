//! Shared by the crash and multi-process tests: a child process that appends in a loop and
//! prints what was acknowledged, the parent's reading of that output, and the checks any
//! backend's log must pass through the `EventStore` trait alone.
#![allow(dead_code)] // Each test binary uses its own part of this module.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::process::Child;
use std::time::{Duration, Instant};

use herald_store::conformance::{new_event, read_all_to_end, read_stream_to_end};
use herald_store::{AppendRequest, EventStore, ExpectedVersion, RecordedEvent, StoreError};

/// One acknowledged event, as a child printed it.
#[derive(Debug, Clone)]
pub struct Ack {
    pub stream: String,
    pub version: u64,
    pub position: u64,
    pub id: String,
    pub data: serde_json::Value,
}

/// One acknowledged command: id, stream, first version.
pub type CommandAck = (String, String, u64);

/// A random number from the process's hash seed: good enough to vary a kill moment.
pub fn random_below(bound: u64) -> u64 {
    RandomState::new().build_hasher().finish() % bound
}

/// Kills the child if the parent panics, so no orphan keeps appending.
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What a child does: `writers` threads append until `appends` each are acknowledged (or until
/// `deadline`), to streams of their own (exact versions) and, every third append, to a stream
/// they all share (`Any`, or exact versions retried on conflict when `exact_shared`). Each
/// acknowledged append is printed as `ACK` lines and a `CMD` line, in one write.
/// The secret a child seals before its append `command_id`.
fn secret_key(command_id: &str) -> String {
    format!("crash-secret:{command_id}")
}

pub fn append_and_print(
    store: &dyn EventStore,
    tag: &str,
    writers: usize,
    appends: u64,
    exact_shared: bool,
    deadline: Duration,
) {
    let started = Instant::now();
    std::thread::scope(|scope| {
        for writer in 0..writers {
            scope.spawn(move || {
                let own = format!("crash-{tag}-{writer}");
                let mut acknowledged = 0;
                for n in 0u64.. {
                    if acknowledged >= appends || started.elapsed() > deadline {
                        return;
                    }
                    let (stream, expected) = if n % 3 == 2 {
                        let shared = "crash-shared".to_string();
                        let expected = if exact_shared {
                            let version = store.stream_version(&shared).expect("stream version");
                            version.map_or(ExpectedVersion::NoStream, ExpectedVersion::Exact)
                        } else {
                            ExpectedVersion::Any
                        };
                        (shared, expected)
                    } else {
                        let version = store.stream_version(&own).expect("stream version");
                        (own.clone(), version.map_or(ExpectedVersion::NoStream, ExpectedVersion::Exact))
                    };
                    let events = (0..1 + n % 3)
                        .map(|i| {
                            new_event(
                                "crash.Appended",
                                serde_json::json!({ "tag": tag, "writer": writer, "n": n, "i": i }),
                            )
                        })
                        .collect();
                    let command_id = uuid::Uuid::now_v7().to_string();
                    // A secret the append depends on, as a stream's sealed seed: it must be
                    // durable once the append is acknowledged (issue 29).
                    store
                        .put_secret_before_append(&secret_key(&command_id), command_id.as_bytes())
                        .expect("child seals a secret");
                    let request = AppendRequest {
                        stream,
                        expected,
                        events,
                        command_id: Some(command_id.clone()),
                        command: Some(serde_json::json!({ "n": n }).into()),
                    };
                    let result = match store.append(request) {
                        Ok(result) => result,
                        Err(StoreError::WrongExpectedVersion { .. }) => continue,
                        Err(e) => panic!("child append failed: {e}"),
                    };
                    acknowledged += 1;
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

/// Read a child's output into `acks` and `commands`; only whole lines count (a kill may cut
/// the last one). The test harness's own `test … ... ` may precede the first line.
pub fn parse_acknowledgements(output: &str, acks: &mut Vec<Ack>, commands: &mut Vec<CommandAck>) {
    let complete = output.rfind('\n').map_or("", |end| &output[..end]);
    for line in complete.lines() {
        let start = [line.find("ACK\t"), line.find("CMD\t")].into_iter().flatten().min().unwrap_or(0);
        let fields: Vec<&str> = line[start..].split('\t').collect();
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
}

/// Check `store` against itself and every acknowledgement, through the trait alone: `$all`
/// dense up to the head, each stream dense and in `$all` order, every acknowledged event and
/// command there unchanged. Returns `$all`.
pub fn verify_log(store: &dyn EventStore, acks: &[Ack], commands: &[CommandAck], round: usize) -> Vec<RecordedEvent> {
    let head = store.head_position().expect("head");
    let total = head.map_or(0, |h| h + 1);
    let all = read_all_to_end(store);
    assert_eq!(all.len() as u64, total, "round {round}: read_all and the head disagree");
    for (expected, event) in (0u64..).zip(&all) {
        assert_eq!(event.position, expected, "round {round}: $all has a gap");
    }
    let mut per_stream: HashMap<&str, u64> = HashMap::new();
    for event in &all {
        *per_stream.entry(&event.stream).or_default() += 1;
    }
    for (stream, count) in &per_stream {
        assert_eq!(store.stream_version(stream).expect("version"), Some(count - 1), "round {round}: {stream} head");
        let events = read_stream_to_end(store, stream);
        let versions: Vec<u64> = events.iter().map(|e| e.version).collect();
        assert_eq!(versions, (0..*count).collect::<Vec<_>>(), "round {round}: {stream} is not dense");
        assert!(events.windows(2).all(|w| w[0].position < w[1].position), "round {round}: {stream} order");
        for event in &events {
            assert_eq!(&all[event.position as usize], event, "round {round}: a stream read differs from $all");
        }
    }
    for ack in acks {
        let event = all
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
        let secret = store.get_secret(&secret_key(command_id)).expect("read secret");
        assert_eq!(
            secret.as_deref(),
            Some(command_id.as_bytes()),
            "round {round}: the secret sealed before acknowledged command {command_id} was lost"
        );
    }
    all
}

/// Run `child_test` of this test binary `rounds` times with `env`, SIGKILL it at a random moment
/// each time, and after each kill call `verify` with everything acknowledged so far (it
/// returns how many events the store holds). Returns (acknowledged events, events stored).
pub fn kill_repeatedly(
    child_test: &str,
    env: &[(&str, String)],
    rounds: usize,
    mut verify: impl FnMut(&[Ack], &[CommandAck], usize) -> u64,
) -> (usize, u64) {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().expect("test binary path");
    let mut acks: Vec<Ack> = Vec::new();
    let mut commands: Vec<CommandAck> = Vec::new();
    let mut stored = 0;
    for round in 0..rounds {
        let mut command = Command::new(&exe);
        command
            .args(["--exact", child_test, "--nocapture", "--test-threads=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = KillOnDrop(command.spawn().expect("spawn the child"));
        let stdout = child.0.stdout.take().expect("child stdout");
        // The reader forwards every complete line; the first acknowledgement tells us the child
        // is past start-up and recovery, however slowly a loaded machine started it.
        let (lines_tx, lines_rx) = std::sync::mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                // Lines keep their newline, so a line cut by the kill stays recognisably partial.
                let mut line = String::new();
                match stdout.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if lines_tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut output = String::new();
        let kill_during_startup = round % 4 == 3;
        if kill_during_startup {
            // Every fourth kill lands in start-up and recovery, on purpose.
            std::thread::sleep(Duration::from_millis(random_below(40)));
        } else {
            // Wait (no deadline but the child's own 30 s safety net) for its first
            // acknowledgement, then kill it mid-append a random moment later.
            for line in lines_rx.iter() {
                output.push_str(&line);
                if line.contains("ACK\t") && line.ends_with('\n') {
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(random_below(300)));
        }
        child.0.kill().expect("SIGKILL the child");
        let status = child.0.wait().expect("reap the child");
        assert!(!status.success(), "round {round}: the child must die by the signal, not finish");
        reader.join().expect("reader thread");
        output.extend(lines_rx.try_iter());
        let before = acks.len();
        parse_acknowledgements(&output, &mut acks, &mut commands);
        assert!(
            kill_during_startup || acks.len() > before,
            "round {round}: the child was killed after an acknowledgement, yet none was parsed"
        );
        stored = verify(&acks, &commands, round);
    }
    (acks.len(), stored)
}
