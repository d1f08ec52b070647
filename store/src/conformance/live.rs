//! Concurrency and live cases: racing appenders, subscriptions that catch up and follow, and the
//! head watch.

use std::time::Duration;

use super::{positions, read_all_to_end, read_stream_to_end, request, unique_stream, versions};
use crate::{EventStore, ExpectedVersion, RecordedEvent, StoreError, Subscription};

/// Eight threads append to one stream with exact versions, retrying on conflict. Every
/// acknowledged event is in the stream exactly once, versions are dense, and `$all` agrees.
pub fn concurrent_exact_appenders_on_one_stream_lose_nothing(store: &dyn EventStore) {
    const THREADS: u64 = 8;
    const PER_THREAD: u64 = 12;
    let stream = unique_stream("battle");
    let acknowledged: Vec<RecordedEvent> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|thread| {
                let stream = &stream;
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    for n in 0..PER_THREAD {
                        loop {
                            let expected = match store.stream_version(stream).expect("version") {
                                Some(version) => ExpectedVersion::Exact(version),
                                None => ExpectedVersion::NoStream,
                            };
                            let mut append = request(stream, expected, 1);
                            append.events[0].data = serde_json::json!({ "thread": thread, "n": n }).into();
                            match store.append(append) {
                                Ok(result) => {
                                    mine.extend(result.events);
                                    break;
                                }
                                Err(StoreError::WrongExpectedVersion { .. }) => std::thread::yield_now(),
                                Err(e) => panic!("append failed: {e}"),
                            }
                        }
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("appender thread")).collect()
    });
    let total = THREADS * PER_THREAD;
    assert_eq!(acknowledged.len() as u64, total);
    let stored = read_stream_to_end(store, &stream);
    assert_eq!(versions(&stored), (0..total).collect::<Vec<_>>(), "no duplicate or missing version");
    for event in &acknowledged {
        assert_eq!(&stored[event.version as usize], event, "an acknowledged event is stored as acknowledged");
    }
    assert!(stored.windows(2).all(|w| w[0].position < w[1].position), "$all order matches stream order");
    let all = read_all_to_end(store);
    assert_eq!(positions(&all), (0..total).collect::<Vec<_>>(), "$all is dense");
    for thread in 0..THREADS {
        let mine: Vec<serde_json::Value> = stored
            .iter()
            .map(|e| e.data.to_value())
            .filter(|d| d["thread"] == thread)
            .map(|d| d["n"].clone())
            .collect();
        assert_eq!(mine, (0..PER_THREAD).map(serde_json::Value::from).collect::<Vec<_>>());
    }
}

/// Sixteen threads race to create one stream with `NoStream` while each also creates its own:
/// exactly one wins the shared stream, and the losers' other appends are unaffected.
pub fn a_conflicting_append_does_not_fail_concurrent_appends(store: &dyn EventStore) {
    let shared = unique_stream("campaign");
    let outcomes: Vec<(bool, bool)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..16)
            .map(|_| {
                let shared = &shared;
                scope.spawn(move || {
                    let won = match store.append(request(shared, ExpectedVersion::NoStream, 2)) {
                        Ok(_) => true,
                        Err(StoreError::WrongExpectedVersion { .. }) => false,
                        Err(e) => panic!("append failed: {e}"),
                    };
                    let own = store.append(request(&unique_stream("battle"), ExpectedVersion::NoStream, 1));
                    (won, own.is_ok())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("appender thread")).collect()
    });
    assert_eq!(outcomes.iter().filter(|(won, _)| *won).count(), 1, "exactly one creates the shared stream");
    assert!(outcomes.iter().all(|(_, own)| *own), "every own-stream append succeeds");
    assert_eq!(versions(&read_stream_to_end(store, &shared)), [0, 1]);
    assert_eq!(positions(&read_all_to_end(store)), (0..18).collect::<Vec<_>>());
}

/// A subscription from a position delivers the events from there, then events appended later
/// by another thread, in order, and then times out quietly.
pub fn subscription_catches_up_then_follows_later_appends(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    store.append(request(&stream, ExpectedVersion::Any, 5)).expect("history");
    let mut subscription = Subscription::new(store, 2);
    let next = |subscription: &mut Subscription<'_>| {
        subscription.next_timeout(Duration::from_secs(10)).expect("subscription read").expect("an event in time")
    };
    let caught_up: Vec<u64> = (0..3).map(|_| next(&mut subscription).position).collect();
    assert_eq!(caught_up, [2, 3, 4]);
    assert_eq!(subscription.position(), 5);
    let later = unique_stream("battle");
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(30));
            store.append(request(&later, ExpectedVersion::NoStream, 2)).expect("append later");
            std::thread::sleep(Duration::from_millis(30));
            store.append(request(&stream, ExpectedVersion::Exact(4), 1)).expect("append later");
        });
        let followed: Vec<(u64, String)> = (0..3)
            .map(|_| {
                let event = next(&mut subscription);
                (event.position, event.stream)
            })
            .collect();
        assert_eq!(followed, [(5, later.clone()), (6, later.clone()), (7, stream.clone())]);
    });
    let quiet = subscription.next_timeout(Duration::from_millis(20)).expect("subscription read");
    assert_eq!(quiet, None, "nothing more to deliver");
}

/// The head watch already shows an append's last position when the append returns.
pub fn watch_head_moves_before_append_returns(store: &dyn EventStore) {
    let mut head = store.watch_head();
    assert_eq!(*head.borrow_and_update(), None);
    let result = store.append(request(&unique_stream("battle"), ExpectedVersion::Any, 3)).expect("append");
    assert!(head.has_changed().expect("store alive"), "the watch was notified");
    assert_eq!(*head.borrow_and_update(), Some(result.events[2].position));
    assert_eq!(store.head_position().expect("head"), Some(2));
}
