//! An append queued with [`EventStore::submit`](crate::EventStore::submit), answered once durable.

use std::{
    future::{Future, IntoFuture},
    pin::Pin,
    task::{Context, Poll},
};

use crate::{AppendResult, StoreError};

type Answer = Result<AppendResult, StoreError>;

/// The answer to a queued append: it resolves once the append is durable, as
/// [`EventStore::append`](crate::EventStore::append) would have returned, or with the error that
/// refused it.
///
/// Wait for it on a thread that may block ([`Pending::wait`]) or await it (`pending.await`) on any
/// executor: the backends answer over a oneshot channel whose receiver is runtime-agnostic, so an
/// async caller waits without holding a thread. Dropping it does not cancel the append: whatever
/// was queued is still written (and answered to nobody).
#[derive(Debug)]
#[must_use = "an append is acknowledged only once its answer is received"]
pub struct Pending(Queued);

#[derive(Debug)]
enum Queued {
    /// Answered already (a backend that appends synchronously).
    Answered(Answer),
    /// Queued to a writer thread, which answers after the group commit's flush.
    Writer(oneshot::Receiver<Answer>),
}

impl Pending {
    /// An append already answered (what the default [`EventStore::submit`](crate::EventStore::submit) returns).
    pub fn answered(answer: Answer) -> Self {
        Self(Queued::Answered(answer))
    }

    /// An append a writer answers on `receiver`; a writer gone before it answers is
    /// [`StoreError::Closed`].
    pub(crate) fn queued(receiver: oneshot::Receiver<Answer>) -> Self {
        Self(Queued::Writer(receiver))
    }

    /// Block this thread until the append is durable (or refused). Do not call it on an async
    /// executor's thread; await the handle there.
    pub fn wait(self) -> Answer {
        match self.0 {
            Queued::Answered(answer) => answer,
            Queued::Writer(receiver) => receiver.recv().map_err(|_| StoreError::Closed)?,
        }
    }
}

impl IntoFuture for Pending {
    type Output = Answer;
    type IntoFuture = PendingFuture;

    fn into_future(self) -> PendingFuture {
        PendingFuture(match self.0 {
            Queued::Answered(answer) => Awaited::Answered(Some(answer)),
            Queued::Writer(receiver) => Awaited::Writer(receiver.into_future()),
        })
    }
}

/// A [`Pending`] being awaited.
#[derive(Debug)]
#[must_use = "futures do nothing unless awaited"]
pub struct PendingFuture(Awaited);

#[derive(Debug)]
enum Awaited {
    Answered(Option<Answer>),
    Writer(oneshot::AsyncReceiver<Answer>),
}

impl Future for PendingFuture {
    type Output = Answer;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Answer> {
        match &mut self.0 {
            // Polled again after it was ready is a caller's bug; answer Closed rather than panic.
            Awaited::Answered(answer) => Poll::Ready(answer.take().unwrap_or(Err(StoreError::Closed))),
            Awaited::Writer(receiver) => {
                Pin::new(receiver).poll(cx).map(|answer| answer.map_err(|_| StoreError::Closed)?)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(version: u64) -> AppendResult {
        AppendResult { events: vec![], stream_version: version, replayed: false }
    }

    #[test]
    fn an_answered_append_waits_for_nothing() {
        let answer = Pending::answered(Ok(result(3))).wait().expect("answered");
        assert_eq!(answer.stream_version, 3);
        let awaited = block_on(Pending::answered(Err(StoreError::Closed)).into_future());
        assert!(matches!(awaited, Err(StoreError::Closed)));
    }

    #[test]
    fn a_queued_append_resolves_when_its_writer_answers_and_fails_when_it_goes() {
        let (reply, receiver) = oneshot::channel();
        let pending = Pending::queued(receiver);
        let writer = std::thread::spawn(move || reply.send(Ok(result(7))));
        let answer = block_on(pending.into_future()).expect("answered");
        assert_eq!(answer.stream_version, 7);
        writer.join().expect("writer").expect("sent");

        let (reply, receiver) = oneshot::channel::<Answer>();
        drop(reply);
        assert!(matches!(Pending::queued(receiver).wait(), Err(StoreError::Closed)));
    }

    /// A minimal executor for the tests (the store has no async runtime of its own).
    fn block_on<F: Future>(future: F) -> F::Output {
        struct Unpark(std::thread::Thread);
        impl std::task::Wake for Unpark {
            fn wake(self: std::sync::Arc<Self>) {
                self.0.unpark();
            }
        }
        let waker = std::task::Waker::from(std::sync::Arc::new(Unpark(std::thread::current())));
        let mut cx = Context::from_waker(&waker);
        let mut future = std::pin::pin!(future);
        loop {
            if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
                return output;
            }
            std::thread::park();
        }
    }
}
