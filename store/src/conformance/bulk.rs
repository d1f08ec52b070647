//! Bulk cases: several appends in one call, and listing every command and secret (what exports
//! and imports use).

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use super::{positions, read_all_to_end, request, unique_stream, versions};
use crate::{AppendRequest, EventStore, ExpectedVersion, StoreError};

/// `append_many` judges each request as `append` would, against the ones before it, and writes
/// them in order.
pub fn append_many_writes_each_request_in_order(store: &dyn EventStore) {
    let (a, b) = (unique_stream("battle"), unique_stream("battle"));
    let results = store.append_many(vec![
        request(&a, ExpectedVersion::NoStream, 2),
        request(&b, ExpectedVersion::NoStream, 1),
        request(&a, ExpectedVersion::Exact(1), 1),
        request(&a, ExpectedVersion::NoStream, 1),
        request("", ExpectedVersion::Any, 1),
        AppendRequest { command_id: Some("bulk-1".into()), ..request(&b, ExpectedVersion::Exact(0), 3) },
        AppendRequest { command_id: Some("bulk-1".into()), ..request(&b, ExpectedVersion::Exact(0), 3) },
    ]);
    assert_eq!(results.len(), 7);
    let written: Vec<Vec<u64>> =
        results.iter().map(|result| result.as_ref().map_or(Vec::new(), |done| positions(&done.events))).collect();
    assert_eq!(written, [vec![0, 1], vec![2], vec![3], vec![], vec![], vec![4, 5, 6], vec![4, 5, 6]]);
    assert!(matches!(results[3], Err(StoreError::WrongExpectedVersion { actual: Some(2), .. })), "{:?}", results[3]);
    assert!(matches!(results[4], Err(StoreError::Invalid(_))), "{:?}", results[4]);
    assert!(results[6].as_ref().is_ok_and(|repeat| repeat.replayed), "{:?}", results[6]);
    assert_eq!(positions(&read_all_to_end(store)), (0..7).collect::<Vec<_>>());
    assert_eq!(versions(&store.read_stream(&b, 0, crate::Direction::Forwards, 10).expect("read")), [0, 1, 2, 3]);
}

/// `submit` queues an append and answers it as `append` would, in the order submitted: handles
/// waited for in any order give each request's own result, a refused request its own error, and
/// a handle dropped unread still has its append written.
pub fn submitted_appends_are_answered_as_appends_in_submit_order(store: &dyn EventStore) {
    let (a, b) = (unique_stream("battle"), unique_stream("battle"));
    let first = store.submit(request(&a, ExpectedVersion::NoStream, 2)).expect("submit");
    let second = store.submit(request(&a, ExpectedVersion::Exact(1), 1)).expect("submit");
    let conflict = store.submit(request(&a, ExpectedVersion::NoStream, 1)).expect("submit");
    drop(store.submit(request(&b, ExpectedVersion::NoStream, 1)).expect("submit"));
    let last = store.submit(request(&b, ExpectedVersion::Exact(0), 2)).expect("submit");
    let last = last.wait().expect("the last append");
    assert_eq!((positions(&last.events), last.stream_version), (vec![4, 5], 2), "after the dropped one");
    assert!(
        matches!(conflict.wait(), Err(StoreError::WrongExpectedVersion { actual: Some(2), .. })),
        "judged against the appends submitted before it"
    );
    let second = second.wait().expect("the second append");
    assert_eq!((positions(&second.events), second.stream_version), (vec![2], 2));
    let first = first.wait().expect("the first append");
    assert_eq!((positions(&first.events), versions(&first.events)), (vec![0, 1], vec![0, 1]));
    assert_eq!(positions(&read_all_to_end(store)), (0..6).collect::<Vec<_>>());
    let refused = store.submit(request("", ExpectedVersion::Any, 1)).and_then(crate::Pending::wait);
    assert!(matches!(refused, Err(StoreError::Invalid(_))), "{refused:?}");
}

/// `scan_commands` lists every stored command once, as `stored_command` returns it, and
/// `scan_secrets` every secret with its latest value.
pub fn scans_list_every_command_and_secret(store: &dyn EventStore) {
    let mut expected = BTreeMap::new();
    for n in 0..5 {
        let stream = unique_stream("battle");
        let command_id = format!("scan-{n}");
        let append = AppendRequest {
            command_id: Some(command_id.clone()),
            command: (n % 2 == 0).then(|| serde_json::json!({ "n": n }).into()),
            ..request(&stream, ExpectedVersion::Any, 1 + n % 3)
        };
        store.append(append).expect("append");
        let stored = store.stored_command(&command_id).expect("read").expect("stored");
        expected.insert(command_id, stored);
    }
    store.append(request(&unique_stream("battle"), ExpectedVersion::Any, 1)).expect("no command");
    let mut listed = BTreeMap::new();
    let count = store
        .scan_commands(&mut |command| {
            listed.insert(command.command_id.clone(), command);
            ControlFlow::Continue(())
        })
        .expect("scan commands");
    assert_eq!(count, 5);
    assert_eq!(listed, expected);

    store.put_secret("seed:a", b"one").expect("put");
    store.put_secret("seed:b", &[0, 1, 255]).expect("put");
    store.put_secret("seed:a", b"two").expect("replace");
    let mut secrets = BTreeMap::new();
    store
        .scan_secrets(&mut |key, value| {
            secrets.insert(key.to_string(), value.to_vec());
            ControlFlow::Continue(())
        })
        .expect("scan secrets");
    assert_eq!(secrets, BTreeMap::from([("seed:a".into(), b"two".to_vec()), ("seed:b".into(), vec![0, 1, 255])]));
}
