//! Backend-agnostic conformance suite: the event log's contract, as tests any backend must pass.
//!
//! Every case is a plain function taking a fresh, empty `&dyn EventStore` and panicking on a
//! violation. [`conformance_suite!`](crate::conformance_suite) expands to one `#[test]` per case
//! for a factory returning `(Box<dyn EventStore>, guard)`; the guard (a temp dir, a database
//! schema) is dropped after the store. For the sled backend:
//!
//! ```ignore
//! herald_store::conformance_suite!(herald_store::conformance::sled);
//! ```
//!
//! A factory that may have no store to give (PostgreSQL where it is not installed, see
//! [`cluster`]) returns an `Option` and is passed as `optional: factory`; its cases then pass
//! without running when it gives `None`, after the factory has said why.
//!
//! [`CASES`] lists the same functions for runners that want to loop instead. The helpers
//! ([`sled()`], [`request`], [`new_event`], [`read_stream_to_end`], [`read_all_to_end`]) are public
//! so other crates' tests can build requests and stores the same way.

mod bulk;
pub mod cluster;
mod envelope;
mod idempotency;
mod live;
mod reads;
mod tmpfs;
mod versions;

pub use bulk::*;
pub use cluster::{postgres, postgres_store, postgres_url};
pub use envelope::*;
pub use idempotency::*;
pub use live::*;
pub use reads::*;
pub use tmpfs::Tmpfs;
pub use versions::*;

use crate::{AppendRequest, Direction, EventStore, ExpectedVersion, NewEvent, RecordedEvent, SledStore};

/// A conformance case: panics when `store` breaks the contract.
pub type Case = fn(&dyn EventStore);

/// Every case, by name, in the order [`conformance_suite!`](crate::conformance_suite) runs them.
pub const CASES: &[(&str, Case)] = &[
    ("append_with_any_creates_a_missing_stream", append_with_any_creates_a_missing_stream),
    ("append_with_any_extends_an_existing_stream", append_with_any_extends_an_existing_stream),
    ("append_with_no_stream_creates_a_missing_stream", append_with_no_stream_creates_a_missing_stream),
    ("append_with_no_stream_conflicts_when_stream_exists", append_with_no_stream_conflicts_when_stream_exists),
    ("append_with_stream_exists_extends_an_existing_stream", append_with_stream_exists_extends_an_existing_stream),
    (
        "append_with_stream_exists_conflicts_when_stream_is_missing",
        append_with_stream_exists_conflicts_when_stream_is_missing,
    ),
    (
        "append_with_exact_version_extends_a_stream_at_that_version",
        append_with_exact_version_extends_a_stream_at_that_version,
    ),
    (
        "append_with_exact_version_conflicts_when_stream_moved_on",
        append_with_exact_version_conflicts_when_stream_moved_on,
    ),
    (
        "append_with_exact_version_conflicts_when_stream_is_missing",
        append_with_exact_version_conflicts_when_stream_is_missing,
    ),
    ("append_without_events_is_invalid", append_without_events_is_invalid),
    ("append_to_an_empty_or_reserved_stream_name_is_invalid", append_to_an_empty_or_reserved_stream_name_is_invalid),
    (
        "repeated_command_id_returns_the_first_result_and_writes_nothing",
        repeated_command_id_returns_the_first_result_and_writes_nothing,
    ),
    (
        "repeated_command_id_is_replayed_even_after_the_stream_moved_on",
        repeated_command_id_is_replayed_even_after_the_stream_moved_on,
    ),
    ("command_id_reused_for_another_stream_is_rejected", command_id_reused_for_another_stream_is_rejected),
    ("stored_command_returns_the_command_with_what_it_wrote", stored_command_returns_the_command_with_what_it_wrote),
    ("concurrent_repeats_of_a_command_write_it_once", concurrent_repeats_of_a_command_write_it_once),
    ("events_keep_their_whole_envelope", events_keep_their_whole_envelope),
    ("secrets_are_kept_apart_from_the_event_log", secrets_are_kept_apart_from_the_event_log),
    (
        "read_stream_forwards_starts_at_a_version_and_honours_the_limit",
        read_stream_forwards_starts_at_a_version_and_honours_the_limit,
    ),
    (
        "read_stream_backwards_reads_from_the_end_or_from_a_version",
        read_stream_backwards_reads_from_the_end_or_from_a_version,
    ),
    ("read_stream_of_a_missing_stream_is_empty", read_stream_of_a_missing_stream_is_empty),
    (
        "replay_stream_visits_every_event_from_a_version_in_order",
        replay_stream_visits_every_event_from_a_version_in_order,
    ),
    ("replay_all_visits_every_event_from_a_position_in_order", replay_all_visits_every_event_from_a_position_in_order),
    ("read_all_starts_at_a_position_and_honours_the_limit", read_all_starts_at_a_position_and_honours_the_limit),
    (
        "all_positions_are_dense_and_in_commit_order_across_streams",
        all_positions_are_dense_and_in_commit_order_across_streams,
    ),
    ("stream_version_and_head_position_follow_appends", stream_version_and_head_position_follow_appends),
    ("concurrent_exact_appenders_on_one_stream_lose_nothing", concurrent_exact_appenders_on_one_stream_lose_nothing),
    ("a_conflicting_append_does_not_fail_concurrent_appends", a_conflicting_append_does_not_fail_concurrent_appends),
    ("subscription_catches_up_then_follows_later_appends", subscription_catches_up_then_follows_later_appends),
    ("watch_head_moves_before_append_returns", watch_head_moves_before_append_returns),
    ("append_many_writes_each_request_in_order", append_many_writes_each_request_in_order),
    (
        "submitted_appends_are_answered_as_appends_in_submit_order",
        submitted_appends_are_answered_as_appends_in_submit_order,
    ),
    ("scans_list_every_command_and_secret", scans_list_every_command_and_secret),
];

/// Expands to one `#[test]` per conformance case for `$factory`.
///
/// `$factory` is called once per test and returns `(Box<dyn EventStore>, guard)`; the store is
/// dropped before the guard. With `optional: $factory`, it returns an `Option` of that, and a
/// `None` passes the case without running it (the factory says why).
#[macro_export]
macro_rules! conformance_suite {
    (@tests ($factory:expr) [@cases]) => {
        $crate::conformance_suite!(@tests ($factory) [
            append_with_any_creates_a_missing_stream,
            append_with_any_extends_an_existing_stream,
            append_with_no_stream_creates_a_missing_stream,
            append_with_no_stream_conflicts_when_stream_exists,
            append_with_stream_exists_extends_an_existing_stream,
            append_with_stream_exists_conflicts_when_stream_is_missing,
            append_with_exact_version_extends_a_stream_at_that_version,
            append_with_exact_version_conflicts_when_stream_moved_on,
            append_with_exact_version_conflicts_when_stream_is_missing,
            append_without_events_is_invalid,
            append_to_an_empty_or_reserved_stream_name_is_invalid,
            repeated_command_id_returns_the_first_result_and_writes_nothing,
            repeated_command_id_is_replayed_even_after_the_stream_moved_on,
            command_id_reused_for_another_stream_is_rejected,
            stored_command_returns_the_command_with_what_it_wrote,
            concurrent_repeats_of_a_command_write_it_once,
            events_keep_their_whole_envelope,
            secrets_are_kept_apart_from_the_event_log,
            read_stream_forwards_starts_at_a_version_and_honours_the_limit,
            read_stream_backwards_reads_from_the_end_or_from_a_version,
            read_stream_of_a_missing_stream_is_empty,
            replay_stream_visits_every_event_from_a_version_in_order,
            replay_all_visits_every_event_from_a_position_in_order,
            read_all_starts_at_a_position_and_honours_the_limit,
            all_positions_are_dense_and_in_commit_order_across_streams,
            stream_version_and_head_position_follow_appends,
            concurrent_exact_appenders_on_one_stream_lose_nothing,
            a_conflicting_append_does_not_fail_concurrent_appends,
            subscription_catches_up_then_follows_later_appends,
            watch_head_moves_before_append_returns,
            append_many_writes_each_request_in_order,
            submitted_appends_are_answered_as_appends_in_submit_order,
            scans_list_every_command_and_secret,
        ]);
    };
    (@tests ($factory:expr) [$($case:ident),* $(,)?]) => {
        $(
            #[test]
            fn $case() {
                let Some((store, guard)) = ($factory)() else { return };
                $crate::conformance::$case(&*store);
                drop(store);
                drop(guard);
            }
        )*

        #[test]
        fn conformance_suite_runs_every_case() {
            let names = [$(stringify!($case)),*];
            let all: Vec<&str> = $crate::conformance::CASES.iter().map(|(name, _)| *name).collect();
            assert_eq!(names.as_slice(), all.as_slice(), "the macro and CASES list different cases");
        }
    };
    (optional: $factory:expr) => {
        $crate::conformance_suite!(@tests (|| ($factory)()) [@cases]);
    };
    ($factory:expr) => {
        $crate::conformance_suite!(@tests (|| Some(($factory)())) [@cases]);
    };
}

/// A fresh sled store in a temp dir, boxed for the suite; keep the dir until the store is dropped.
pub fn sled() -> (Box<dyn EventStore>, tempfile::TempDir) {
    let (store, dir) = sled_store();
    (Box::new(store), dir)
}

/// A fresh sled store in a temp dir, for tests that need the concrete type.
pub fn sled_store() -> (SledStore, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("create a temp dir for the store");
    let store = SledStore::open(dir.path()).expect("open a sled store in a temp dir");
    (store, dir)
}

/// A unique stream name of kind `kind`, `{kind}-{uuid}`.
pub fn unique_stream(kind: &str) -> String {
    format!("{kind}-{}", uuid::Uuid::now_v7())
}

/// A test event of type `event_type` with payload `data`.
pub fn new_event(event_type: &str, data: serde_json::Value) -> NewEvent {
    NewEvent {
        id: uuid::Uuid::now_v7(),
        event_type: event_type.to_string(),
        schema: 1,
        recorded_at: chrono::Utc::now(),
        actor: "conformance".into(),
        command_id: None,
        correlation_id: None,
        causation_id: None,
        rules: "test@1".into(),
        data: data.into(),
    }
}

/// An append of `count` test events (payload `{"n": i}`) to `stream`, without a command id.
pub fn request(stream: &str, expected: ExpectedVersion, count: usize) -> AppendRequest {
    AppendRequest {
        stream: stream.to_string(),
        expected,
        events: (0..count).map(|n| new_event("test.Happened", serde_json::json!({ "n": n }))).collect(),
        command_id: None,
        command: None,
    }
}

/// The whole stream, forwards, read in pages.
pub fn read_stream_to_end(store: &dyn EventStore, stream: &str) -> Vec<RecordedEvent> {
    let mut out: Vec<RecordedEvent> = Vec::new();
    loop {
        let from = out.last().map_or(0, |event| event.version + 1);
        let page = store.read_stream(stream, from, Direction::Forwards, 100).expect("read stream");
        if page.is_empty() {
            return out;
        }
        out.extend(page);
    }
}

/// The whole of `$all`, read in pages.
pub fn read_all_to_end(store: &dyn EventStore) -> Vec<RecordedEvent> {
    let mut out: Vec<RecordedEvent> = Vec::new();
    loop {
        let from = out.last().map_or(0, |event| event.position + 1);
        let page = store.read_all(from, 100).expect("read $all");
        if page.is_empty() {
            return out;
        }
        out.extend(page);
    }
}

/// Positions of `events`, for comparing what a read returned.
pub fn positions(events: &[RecordedEvent]) -> Vec<u64> {
    events.iter().map(|event| event.position).collect()
}

/// Versions of `events`.
pub fn versions(events: &[RecordedEvent]) -> Vec<u64> {
    events.iter().map(|event| event.version).collect()
}
