//! PostgreSQL-specific behaviour the backend-agnostic suite cannot express: several processes
//! sharing one log, the head lock that keeps `$all` gap-free (docs/adr/0001), notifications
//! between stores, and schema migrations.

mod support;

use std::collections::HashMap;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use herald_store::conformance::cluster::{execute, Schema, URL_VARIABLE};
use herald_store::conformance::{positions, read_all_to_end, request, unique_stream};
use herald_store::{
    EventStore, ExpectedVersion, PostgresOptions, PostgresStore, RecordedEvent, StoreError, Subscription, WritePaths,
};

/// Set to the schema in the appending child processes.
const CHILD_SCHEMA: &str = "HERALD_STORE_PROCESSES_CHILD_SCHEMA";
const CHILD_TAG: &str = "HERALD_STORE_PROCESSES_CHILD_TAG";
const CHILD_TEST: &str = "appending_child_process";
/// Appends each writer thread of each child gets acknowledged.
const APPENDS: u64 = 150;
const WRITERS: usize = 3;

/// Run `body` on a client of `schema`, from a runtime of its own.
fn with_client<T: Send + 'static>(
    url: &str,
    schema: &str,
    application: &str,
    body: impl FnOnce(tokio_postgres::Client) -> std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send>>
        + Send
        + 'static,
) -> T {
    let url = format!("{url}?application_name={application}&options=-csearch_path%3D{schema}");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async move {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.expect("connect");
            tokio::spawn(connection);
            body(client).await
        })
    })
    .join()
    .expect("client thread")
}

/// Another process in the middle of an append holds the `$all` head: this store's append must
/// wait for it, and no read may show a position past the uncommitted one. This is the property
/// a plain sequence lacks (a reader sees 1001 before 1000 commits and skips 1000 for ever);
/// positions taken without the head lock would let the append through at once, and the wait
/// below would never be seen.
#[test]
fn an_append_waits_for_another_process_holding_the_head_so_all_never_shows_a_hole() {
    let Some(schema) = Schema::fresh() else { return };
    let application = format!("lock-{}", uuid::Uuid::now_v7().simple());
    let store =
        PostgresStore::connect_with(&format!("{}?application_name={application}", schema.url()), schema.options())
            .expect("connect");
    store.append(request(&unique_stream("battle"), ExpectedVersion::NoStream, 2)).expect("positions 0 and 1");

    // The other process: a raw connection doing what the store's writer does, up to COMMIT.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (locked, is_locked) = std::sync::mpsc::channel::<i64>();
    let (url, name) = (schema.url().to_string(), schema.name().to_string());
    let other = std::thread::spawn(move || {
        with_client(&url, &name, "other-process", move |client| {
            Box::pin(async move {
                client.batch_execute("BEGIN").await.expect("begin");
                let next: i64 = client
                    .query_one("SELECT next_position FROM herald_head FOR UPDATE", &[])
                    .await
                    .expect("lock the head")
                    .get(0);
                client
                    .execute(
                        "INSERT INTO herald_events (position, stream, version, id, event_type, schema, recorded_at, \
                         recorded_nanos, actor, rules, data) \
                         VALUES ($1, 'battle-other', 0, $2, 'test.Happened', 1, now(), 0, 'other', 'test@1', '{}')",
                        &[&next, &uuid::Uuid::now_v7()],
                    )
                    .await
                    .expect("insert");
                client.execute("INSERT INTO herald_streams VALUES ('battle-other', 0)", &[]).await.expect("head");
                client.execute("UPDATE herald_head SET next_position = $1", &[&(next + 1)]).await.expect("move");
                locked.send(next).expect("report");
                let _ = tokio::task::spawn_blocking(move || held.recv()).await;
                client.batch_execute("COMMIT").await.expect("commit");
            })
        })
    });
    let other_position = is_locked.recv().expect("the other process holds the head");
    assert_eq!(other_position, 2);

    std::thread::scope(|scope| {
        let appending = scope.spawn(|| store.append(request(&unique_stream("battle"), ExpectedVersion::NoStream, 1)));
        // Wait until this store's writer is blocked on the head lock (seen by the server).
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let waiting = with_client(schema.url(), schema.name(), "observer", {
                let application = application.clone();
                move |client| {
                    Box::pin(async move {
                        let row = client
                            .query_one(
                                "SELECT count(*) FROM pg_stat_activity \
                                 WHERE application_name = $1 AND wait_event_type = 'Lock'",
                                &[&application],
                            )
                            .await
                            .expect("pg_stat_activity");
                        row.get::<_, i64>(0)
                    })
                }
            });
            if waiting > 0 {
                break;
            }
            assert!(!appending.is_finished(), "the append went through while another process held the head");
            assert!(Instant::now() < deadline, "the append never waited for the head lock");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(positions(&store.read_all(0, 100).expect("read")), [0, 1], "nothing past the uncommitted append");
        assert_eq!(store.head_position().expect("head"), Some(1));
        release.send(()).expect("let the other process commit");
        let appended = appending.join().expect("appender").expect("append");
        assert_eq!(positions(&appended.events), [3], "the append took the position after the other's");
    });
    // The writer knew the head it left (2), so its append went in one flight; the claim waited
    // for the other process's lock, found the head it left at 3, and the batch was planned again
    // from what was committed (docs/adr/0007).
    let paths = store.write_paths();
    assert_eq!((paths.one_flight, paths.fell_back, paths.two_flights), (0, 1, 1), "{paths:?}");
    other.join().expect("other process");
    let all = read_all_to_end(&store);
    assert_eq!(positions(&all), [0, 1, 2, 3]);
    assert_eq!(all[2].stream, "battle-other");
}

#[test]
fn appending_child_process() {
    let (Some(schema), Some(tag), Ok(url)) =
        (std::env::var_os(CHILD_SCHEMA), std::env::var_os(CHILD_TAG), std::env::var(URL_VARIABLE))
    else {
        return;
    };
    let options = PostgresOptions { schema: schema.to_str().map(String::from), ..PostgresOptions::default() };
    let store = PostgresStore::connect_with(&url, options).expect("child connects");
    let tag = tag.to_string_lossy().into_owned();
    support::append_and_print(&store, &tag, WRITERS, APPENDS, true, Duration::from_secs(120));
}

/// Two processes append at once, each with three threads: to one shared stream with exact
/// versions (retrying conflicts) and to streams of their own, while this process follows
/// `$all` with a subscription. No version is duplicated or lost, every acknowledged event is
/// where it was acknowledged, `$all` is dense and agrees with every stream's order, and the
/// subscriber saw exactly the final `$all`: it never read past an event committed later.
#[test]
fn two_processes_append_at_once_and_a_subscriber_never_skips() {
    let Some(schema) = Schema::fresh() else { return };
    let store = schema.connect().expect("connect");
    let exe = std::env::current_exe().expect("test binary");
    let children: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|tag| {
            let child = Command::new(&exe)
                .args(["--exact", CHILD_TEST, "--nocapture", "--test-threads=1"])
                .env(URL_VARIABLE, schema.url())
                .env(CHILD_SCHEMA, schema.name())
                .env(CHILD_TAG, tag)
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("spawn a child");
            support::KillOnDrop(child)
        })
        .collect();
    let mut children = children;
    // Read as they write: a full pipe would stop them.
    let readers: Vec<_> = children
        .iter_mut()
        .map(|child| {
            let mut stdout = child.0.stdout.take().expect("stdout");
            std::thread::spawn(move || {
                let mut output = String::new();
                stdout.read_to_string(&mut output).expect("child output");
                output
            })
        })
        .collect();
    let mut subscription = Subscription::new(&store, 0);
    let mut delivered: Vec<RecordedEvent> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        while let Some(event) = subscription.next_timeout(Duration::from_millis(20)).expect("subscription") {
            assert_eq!(event.position, delivered.len() as u64, "the subscriber skipped or repeated a position");
            delivered.push(event);
        }
        let all_done = children.iter_mut().all(|child| child.0.try_wait().expect("child status").is_some());
        if all_done {
            break;
        }
        assert!(Instant::now() < deadline, "the children did not finish in time");
    }
    for child in &mut children {
        assert!(child.0.wait().expect("child").success(), "a child failed");
    }
    let outputs: Vec<String> = readers.into_iter().map(|reader| reader.join().expect("reader")).collect();
    // Whatever was committed last is delivered now: the subscription is caught up.
    while let Some(event) = subscription.next_timeout(Duration::from_millis(200)).expect("subscription") {
        assert_eq!(event.position, delivered.len() as u64, "the subscriber skipped or repeated a position");
        delivered.push(event);
    }
    let (mut acks, mut commands) = (Vec::new(), Vec::new());
    for output in &outputs {
        support::parse_acknowledgements(output, &mut acks, &mut commands);
    }
    assert_eq!(commands.len() as u64, 2 * WRITERS as u64 * APPENDS, "every child append was acknowledged");
    let all = support::verify_log(&store, &acks, &commands, 0);
    assert_eq!(delivered, all, "the subscriber saw exactly the final $all, in order");
    assert_eq!(all.len(), acks.len(), "nothing stored that was not acknowledged");
    let shared: Vec<&RecordedEvent> = all.iter().filter(|event| event.stream == "crash-shared").collect();
    let mut by_process: HashMap<String, usize> = HashMap::new();
    for event in &shared {
        *by_process.entry(event.data.to_value()["tag"].as_str().unwrap_or("?").to_string()).or_default() += 1;
    }
    assert_eq!(by_process.len(), 2, "both processes wrote to the shared stream: {by_process:?}");
}

/// The store's appends since `before`: (one flight, refused then two flights, two flights).
fn since(store: &PostgresStore, before: WritePaths) -> (u64, u64, u64) {
    let now = store.write_paths();
    (now.one_flight - before.one_flight, now.fell_back - before.fell_back, now.two_flights - before.two_flights)
}

/// Another instance on the same log commits between two appends of this one, to the same
/// stream: this writer's knowledge (the head and the stream's version its last commit left) is
/// stale, and its next append still lands at the next version and position, gap-free
/// (docs/adr/0007). Once it has read the committed state again it is back to one flight.
#[test]
fn another_instance_committing_between_two_appends_sends_the_next_the_long_way() {
    let Some(schema) = Schema::fresh() else { return };
    let (first, second) = (schema.connect().expect("connect"), schema.connect().expect("connect"));
    let stream = unique_stream("battle");
    let start = first.write_paths();
    first.append(request(&stream, ExpectedVersion::NoStream, 2)).expect("create");
    assert_eq!(since(&first, start), (0, 0, 1), "a cold writer reads the committed state");
    let known = first.append(request(&stream, ExpectedVersion::Exact(1), 1)).expect("append");
    assert_eq!(known.stream_version, 2);
    assert_eq!(since(&first, start), (1, 0, 1), "a warm writer sends one flight");

    let other = second.append(request(&stream, ExpectedVersion::Exact(2), 2)).expect("the other instance");
    assert_eq!(positions(&other.events), [3, 4]);

    let before = first.write_paths();
    // Whether this writer heard the other's notify yet or not, it must not trust what it knew.
    let next = first.append(request(&stream, ExpectedVersion::Exact(4), 1)).expect("after the other");
    assert_eq!((next.stream_version, positions(&next.events)), (5, vec![5]));
    let (one, fell_back, two) = since(&first, before);
    assert_eq!((one, fell_back + two), (0, 1), "planned again from what is committed");
    let before = first.write_paths();
    let again = first.append(request(&stream, ExpectedVersion::Exact(5), 1)).expect("and again");
    assert_eq!((again.stream_version, positions(&again.events)), (6, vec![6]));
    assert_eq!(since(&first, before), (1, 0, 0), "what the long way read is known again");
    let all = read_all_to_end(&first);
    assert_eq!(positions(&all), (0..=6).collect::<Vec<_>>());
    assert_eq!(all.iter().map(|event| event.version).collect::<Vec<_>>(), (0..=6).collect::<Vec<_>>());
}

/// The claim trusts the database's head, not the writer's memory: a head moved with no event
/// at the position this writer would take (which no append does, so only the claim can see it)
/// still sends the batch the long way, and the append lands at the head the database holds.
#[test]
fn a_head_moved_behind_the_writers_back_is_claimed_from_where_it_is() {
    let Some(schema) = Schema::fresh() else { return };
    let store = schema.connect().expect("connect");
    let stream = unique_stream("battle");
    store.append(request(&stream, ExpectedVersion::NoStream, 2)).expect("create");
    let before = store.write_paths();
    execute(schema.url(), &format!("UPDATE \"{}\".herald_head SET next_position = next_position + 5", schema.name()))
        .expect("move the head");
    let moved = store.append(request(&stream, ExpectedVersion::Exact(1), 1)).expect("append");
    assert_eq!((moved.stream_version, positions(&moved.events)), (2, vec![7]), "at the database's head");
    let (one, fell_back, two) = since(&store, before);
    assert_eq!((one, fell_back + two), (0, 1));
    assert_eq!(store.head_position().expect("head"), Some(7));
}

/// A command id retried once the writer is warm: the one flight plans it as new, the commands
/// insert fails on the id's primary key, and the batch, planned again from what is committed,
/// replays the first append. A retry whose expected version no longer holds never goes in one
/// flight (a conflict is judged from the committed state) and is replayed too.
#[test]
fn a_retried_command_with_a_warm_writer_is_replayed() {
    let Some(schema) = Schema::fresh() else { return };
    let store = schema.connect().expect("connect");
    let stream = unique_stream("battle");
    let command =
        |expected| herald_store::AppendRequest { command_id: Some("cmd-warm".into()), ..request(&stream, expected, 2) };
    let first = store.append(command(ExpectedVersion::NoStream)).expect("first");
    store.append(request(&stream, ExpectedVersion::Exact(1), 1)).expect("warm");
    let before = store.write_paths();
    let retried = store.append(command(ExpectedVersion::Any)).expect("retry");
    assert!(retried.replayed);
    assert_eq!(retried.events, first.events);
    assert_eq!(since(&store, before), (0, 1, 0), "refused on the command id, then replayed");
    let before = store.write_paths();
    let stale = store.append(command(ExpectedVersion::NoStream)).expect("retry with its first expectation");
    assert!(stale.replayed);
    assert_eq!(stale.events, first.events);
    assert_eq!(since(&store, before), (0, 0, 1));
    assert_eq!(positions(&read_all_to_end(&store)), [0, 1, 2], "nothing written twice");
    assert_eq!(store.stream_version(&stream).expect("version"), Some(2));
}

/// With a warm writer an expected-version conflict is refused as before, and a stream the
/// writer does not know but expects to be new, which another instance created, is refused
/// too: its version 0 is taken (`UNIQUE (stream, version)` fails the one flight).
#[test]
fn a_conflict_with_a_warm_writer_is_refused_as_before() {
    let Some(schema) = Schema::fresh() else { return };
    let (store, other) = (schema.connect().expect("connect"), schema.connect().expect("connect"));
    let stream = unique_stream("battle");
    store.append(request(&stream, ExpectedVersion::NoStream, 1)).expect("create");
    store.append(request(&stream, ExpectedVersion::Exact(0), 1)).expect("warm");
    for expected in [ExpectedVersion::Exact(0), ExpectedVersion::NoStream] {
        match store.append(request(&stream, expected, 1)) {
            Err(StoreError::WrongExpectedVersion { actual: Some(1), .. }) => {}
            other => panic!("{expected:?} on a stream at 1: {other:?}"),
        }
    }
    let taken = unique_stream("battle");
    other.append(request(&taken, ExpectedVersion::NoStream, 1)).expect("the other instance creates it");
    // This writer reads the committed state again (the head moved), learning `stream`, not `taken`.
    store.append(request(&stream, ExpectedVersion::Exact(1), 1)).expect("after the other");
    let before = store.write_paths();
    match store.append(request(&taken, ExpectedVersion::NoStream, 1)) {
        Err(StoreError::WrongExpectedVersion { actual: Some(0), .. }) => {}
        other => panic!("a stream another instance created is not new: {other:?}"),
    }
    assert_eq!(since(&store, before), (0, 1, 0), "refused on (stream, version), then judged");
    let fresh = store.append(request(&unique_stream("battle"), ExpectedVersion::NoStream, 1)).expect("a new stream");
    assert_eq!(positions(&fresh.events), [4], "no position lost to the refused flights");
    assert_eq!(positions(&read_all_to_end(&store)), [0, 1, 2, 3, 4]);
}

/// A store hears of another store's appends (another process sharing the log) through
/// `watch_head`, without appending itself.
#[test]
fn a_store_hears_of_another_stores_appends() {
    let Some(schema) = Schema::fresh() else { return };
    let (writer, reader) = (schema.connect().expect("connect"), schema.connect().expect("connect"));
    let mut head = reader.watch_head();
    assert_eq!(*head.borrow_and_update(), None);
    let written = writer.append(request(&unique_stream("battle"), ExpectedVersion::Any, 3)).expect("append");
    let deadline = Instant::now() + Duration::from_secs(30);
    while *head.borrow() != Some(written.events[2].position) {
        assert!(Instant::now() < deadline, "the other store never heard of the append");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(read_all_to_end(&reader), written.events);
}

/// Reconnecting continues positions, and remembers streams and commands.
#[test]
fn a_reconnected_store_continues_positions_and_remembers_streams_and_commands() {
    let Some(schema) = Schema::fresh() else { return };
    let stream = unique_stream("battle");
    let first = {
        let store = schema.connect().expect("connect");
        store.append(request(&stream, ExpectedVersion::NoStream, 3)).expect("append");
        let with_command = herald_store::AppendRequest {
            command_id: Some("cmd-1".into()),
            ..request(&stream, ExpectedVersion::Exact(2), 1)
        };
        store.append(with_command).expect("append with command")
    };
    let store = schema.connect().expect("reconnect");
    assert_eq!(*store.watch_head().borrow(), Some(3), "the watch starts at the stored head");
    let again =
        herald_store::AppendRequest { command_id: Some("cmd-1".into()), ..request(&stream, ExpectedVersion::Any, 1) };
    let replay = store.append(again).expect("repeat after reconnect");
    assert!(replay.replayed);
    assert_eq!(replay.events, first.events);
    let next = store.append(request(&unique_stream("battle"), ExpectedVersion::Any, 2)).expect("append");
    assert_eq!(positions(&next.events), [4, 5], "positions continue densely");
}

/// A text field with NUL (which PostgreSQL cannot store) is refused before it can fail the
/// group commit it would have joined.
#[test]
fn an_envelope_with_nul_is_refused_alone() {
    let Some((store, _schema)) = herald_store::conformance::postgres_store() else { return };
    let mut bad = request(&unique_stream("battle"), ExpectedVersion::Any, 1);
    bad.events[0].actor = "nul\0actor".into();
    assert!(matches!(store.append(bad), Err(StoreError::Invalid(_))));
    store.append(request(&unique_stream("battle"), ExpectedVersion::Any, 1)).expect("others still append");
}

/// Migrations are applied once and recorded; a store that may not migrate refuses a schema
/// that needs it, and every store refuses a schema newer than it knows.
#[test]
fn migrations_are_applied_once_and_a_schema_out_of_step_is_refused() {
    let Some(schema) = Schema::fresh() else { return };
    let without_migrating = PostgresOptions { migrate: false, ..schema.options() };
    let refused = PostgresStore::connect_with(schema.url(), without_migrating.clone()).err();
    assert!(matches!(&refused, Some(StoreError::Backend(m)) if m.contains("herald migrate")), "{refused:?}");
    drop(schema.connect().expect("migrate"));
    drop(schema.connect().expect("connect again: nothing to apply"));
    drop(PostgresStore::connect_with(schema.url(), without_migrating).expect("up to date: no migration needed"));
    let versions = with_client(schema.url(), schema.name(), "migrations", |client| {
        Box::pin(async move {
            let rows = client.query("SELECT version FROM herald_migrations ORDER BY version", &[]).await.expect("read");
            rows.iter().map(|row| row.get::<_, i32>(0)).collect::<Vec<_>>()
        })
    });
    let known: Vec<i32> = herald_store::postgres::MIGRATIONS.iter().map(|(version, _, _)| *version).collect();
    assert_eq!(versions, known);
    let future = format!(
        "SET search_path = {}; INSERT INTO herald_migrations (version, name) VALUES (9999, 'from the future')",
        schema.name()
    );
    execute(schema.url(), &future).expect("pretend a newer herald migrated");
    let refused = schema.connect().err();
    assert!(matches!(&refused, Some(StoreError::Backend(m)) if m.contains("upgrade herald")), "{refused:?}");
}
