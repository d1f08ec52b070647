//! Read cases: streams forwards and backwards, `$all` from a position, versions and the head.

use super::{positions, read_all_to_end, request, unique_stream, versions};
use std::ops::ControlFlow;

use crate::{Direction, EventStore, ExpectedVersion};

/// Forwards reads start at the given version and return at most `limit` events.
pub fn read_stream_forwards_starts_at_a_version_and_honours_the_limit(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    store.append(request(&stream, ExpectedVersion::Any, 10)).expect("append");
    let read = |from, limit| versions(&store.read_stream(&stream, from, Direction::Forwards, limit).expect("read"));
    assert_eq!(read(0, 100), (0..10).collect::<Vec<_>>());
    assert_eq!(read(3, 4), [3, 4, 5, 6]);
    assert_eq!(read(8, 100), [8, 9]);
    assert_eq!(read(10, 100), Vec::<u64>::new());
    assert_eq!(read(0, 0), Vec::<u64>::new());
}

/// Backwards from `u64::MAX` reads from the end; from a version reads that one and older.
pub fn read_stream_backwards_reads_from_the_end_or_from_a_version(store: &dyn EventStore) {
    let stream = unique_stream("battle");
    let other = unique_stream("battle");
    store.append(request(&stream, ExpectedVersion::Any, 6)).expect("append");
    store.append(request(&other, ExpectedVersion::Any, 3)).expect("interleave another stream");
    store.append(request(&stream, ExpectedVersion::Any, 2)).expect("append more");
    let read = |from, limit| versions(&store.read_stream(&stream, from, Direction::Backwards, limit).expect("read"));
    assert_eq!(read(u64::MAX, 3), [7, 6, 5]);
    assert_eq!(read(u64::MAX, 100), [7, 6, 5, 4, 3, 2, 1, 0]);
    assert_eq!(read(4, 2), [4, 3]);
    assert_eq!(read(0, 10), [0]);
    let last = store.read_stream(&stream, u64::MAX, Direction::Backwards, 1).expect("read last");
    assert!(last.iter().all(|event| event.stream == stream), "backwards reads stay in their stream");
}

/// A stream that was never written reads empty in both directions and has no version.
pub fn read_stream_of_a_missing_stream_is_empty(store: &dyn EventStore) {
    store.append(request(&unique_stream("battle"), ExpectedVersion::Any, 2)).expect("append");
    let missing = unique_stream("battle");
    assert!(store.read_stream(&missing, 0, Direction::Forwards, 10).expect("read").is_empty());
    assert!(store.read_stream(&missing, u64::MAX, Direction::Backwards, 10).expect("read").is_empty());
    assert_eq!(store.stream_version(&missing).expect("version"), None);
}

/// `replay_all` visits `$all` from a position to the head, in order, the same events as reads
/// give, across more than a few of a backend's pages (PostgreSQL reads several at once), and
/// stops when the visitor breaks.
pub fn replay_all_visits_every_event_from_a_position_in_order(store: &dyn EventStore) {
    let (a, b) = (unique_stream("battle"), unique_stream("campaign"));
    for round in 0..5 {
        store.append(request(if round % 2 == 0 { &a } else { &b }, ExpectedVersion::Any, 1_100)).expect("append");
    }
    let all = read_all_to_end(store);
    assert_eq!(all.len(), 5_500);
    let replay = |from: u64, stop: Option<u64>| {
        let mut seen = Vec::new();
        let count = store
            .replay_all(from, &mut |event| {
                seen.push(event.to_owned().expect("a stored payload is JSON"));
                if Some(event.position) == stop {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .expect("replay");
        assert_eq!(count, seen.len() as u64);
        seen
    };
    assert_eq!(replay(0, None), all, "the same events as reads, in order");
    assert_eq!(positions(&replay(2_047, None)), (2_047..5_500).collect::<Vec<_>>());
    assert_eq!(positions(&replay(100, Some(4_200))), (100..=4_200).collect::<Vec<_>>(), "stops where told");
    assert!(replay(5_500, None).is_empty(), "nothing past the head");
}

/// `$all` reads start at a position, honour the limit, and are empty past the head.
pub fn read_all_starts_at_a_position_and_honours_the_limit(store: &dyn EventStore) {
    let (a, b) = (unique_stream("battle"), unique_stream("campaign"));
    store.append(request(&a, ExpectedVersion::Any, 3)).expect("append");
    store.append(request(&b, ExpectedVersion::Any, 3)).expect("append");
    assert_eq!(positions(&store.read_all(0, 100).expect("read")), [0, 1, 2, 3, 4, 5]);
    let page = store.read_all(2, 3).expect("read");
    assert_eq!(positions(&page), [2, 3, 4]);
    assert_eq!(page[0].stream, a);
    assert_eq!(page[1].stream, b);
    assert!(store.read_all(6, 100).expect("read past the head").is_empty());
    assert!(store.read_all(0, 0).expect("read nothing").is_empty());
}

/// `$all` positions run 0..n with no gap, in commit order, across interleaved streams.
pub fn all_positions_are_dense_and_in_commit_order_across_streams(store: &dyn EventStore) {
    let streams: Vec<String> = (0..3).map(|_| unique_stream("battle")).collect();
    let mut expected_positions = 0;
    for round in 0..4 {
        for (i, stream) in streams.iter().enumerate() {
            let result = store.append(request(stream, ExpectedVersion::Any, 1 + (round + i) % 3)).expect("append");
            for event in &result.events {
                assert_eq!(event.position, expected_positions, "positions are assigned in commit order");
                expected_positions += 1;
            }
        }
    }
    let all = read_all_to_end(store);
    assert_eq!(positions(&all), (0..expected_positions).collect::<Vec<_>>());
    for stream in &streams {
        let mine: Vec<u64> = all.iter().filter(|e| e.stream == *stream).map(|e| e.version).collect();
        assert_eq!(mine, (0..mine.len() as u64).collect::<Vec<_>>(), "a stream's versions follow $all order");
    }
}

/// `stream_version` and `head_position` report the last version and position after each append.
pub fn stream_version_and_head_position_follow_appends(store: &dyn EventStore) {
    let (a, b) = (unique_stream("battle"), unique_stream("battle"));
    assert_eq!(store.head_position().expect("head"), None);
    store.append(request(&a, ExpectedVersion::Any, 2)).expect("append");
    assert_eq!(store.head_position().expect("head"), Some(1));
    store.append(request(&b, ExpectedVersion::Any, 3)).expect("append");
    store.append(request(&a, ExpectedVersion::Any, 1)).expect("append");
    assert_eq!(store.stream_version(&a).expect("version"), Some(2));
    assert_eq!(store.stream_version(&b).expect("version"), Some(2));
    assert_eq!(store.head_position().expect("head"), Some(5));
}

/// `replay_stream` visits the stream's events from a version, in order and only that stream's,
/// and stops when the visitor breaks.
pub fn replay_stream_visits_every_event_from_a_version_in_order(store: &dyn EventStore) {
    let (stream, other) = (unique_stream("battle"), unique_stream("battle"));
    store.append(request(&stream, ExpectedVersion::Any, 3)).expect("append");
    store.append(request(&other, ExpectedVersion::Any, 2)).expect("interleave another stream");
    store.append(request(&stream, ExpectedVersion::Any, 300)).expect("append more than a page");
    let mut seen = Vec::new();
    let count = store
        .replay_stream(&stream, 2, &mut |event| {
            seen.push(event.to_owned().expect("a stored payload is JSON"));
            ControlFlow::Continue(())
        })
        .expect("replay");
    assert_eq!(count, 301);
    assert_eq!(versions(&seen), (2..303).collect::<Vec<_>>());
    assert_eq!(seen, store.read_stream(&stream, 2, Direction::Forwards, 1000).expect("read"), "same events as a read");

    let mut upto = Vec::new();
    let count = store
        .replay_stream(&stream, 0, &mut |event| {
            upto.push(event.version);
            if event.version == 260 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .expect("replay up to a version");
    assert_eq!((count, upto), (261, (0..=260).collect::<Vec<_>>()));

    let mut none = 0;
    let mut never = |_: crate::EventRef<'_>| {
        none += 1;
        ControlFlow::Continue(())
    };
    assert_eq!(store.replay_stream(&unique_stream("battle"), 0, &mut never).expect("replay missing"), 0);
    assert_eq!(store.replay_stream(&stream, 303, &mut never).expect("replay past the end"), 0);
    assert_eq!(none, 0);
}
