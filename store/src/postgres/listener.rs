//! Following other processes' appends: `LISTEN` on the store's channel, plus a poll of the head.
//!
//! Every appending transaction notifies the channel with its last position; PostgreSQL delivers
//! notifications at commit, in commit order. The listener keeps [`crate::EventStore::watch_head`]
//! at the highest position heard of, so subscriptions and read models in this process wake up
//! for appends made by any process. A notification can be missed while the listening connection
//! is down, so the head is also read on every (re)connection and every [`POLL`]: readers follow
//! `$all` by position from where they are, so a missed notification delays them, never skips.
//!
//! The poll is also the store's probe of the database: its outcome keeps `health` current, so
//! `/readyz` says when the database is away and stops saying so within a [`POLL`] of its return.

use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::Pool;
use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio_postgres::{AsyncMessage, NoTls};

use super::{health::Health, pool_error, reads};
use crate::StoreError;

/// Longest time between two reads of the head: the bound on how late this process hears of
/// another's append if notifications are lost.
pub(crate) const POLL: Duration = Duration::from_secs(1);
/// First pause before connecting again after the listening connection failed; it doubles up to
/// [`RECONNECT_MAX`] while the database stays away, and starts again once a connection held.
const RECONNECT: Duration = Duration::from_millis(100);
/// Longest pause between two attempts to connect.
const RECONNECT_MAX: Duration = Duration::from_secs(2);

/// Listen until the store's runtime shuts down.
pub(crate) async fn run(
    config: tokio_postgres::Config,
    pool: Pool,
    channel: String,
    head: Arc<watch::Sender<Option<u64>>>,
    health: Arc<Health>,
) {
    let mut pause = RECONNECT;
    loop {
        let started = tokio::time::Instant::now();
        if let Err(error) = listen(&config, &pool, &channel, &head, &health).await {
            health.note::<()>(&Err(error.clone()));
            tracing::warn!(%error, "the postgres listener lost its connection; reconnecting");
        }
        // A connection that held a while was a success: the next failure starts the backoff anew.
        pause = if started.elapsed() > RECONNECT_MAX { RECONNECT } else { (pause * 2).min(RECONNECT_MAX) };
        tokio::time::sleep(pause).await;
    }
}

/// Raise the watch to `last` if that is further than it is.
pub(crate) fn publish(head: &watch::Sender<Option<u64>>, last: Option<u64>) {
    head.send_if_modified(|current| {
        let moved = last > *current;
        if moved {
            *current = last;
        }
        moved
    });
}

async fn listen(
    config: &tokio_postgres::Config,
    pool: &Pool,
    channel: &str,
    head: &watch::Sender<Option<u64>>,
    health: &Health,
) -> Result<(), StoreError> {
    let (client, mut connection) = config.connect(NoTls).await.map_err(super::backend)?;
    let (notifications, mut heard) = mpsc::unbounded_channel();
    // The connection delivers notifications only while it is polled; this task polls it.
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(notification)) => {
                    if notifications.send(notification.payload().parse::<u64>().ok()).is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(_) => return,
            }
        }
    });
    // The channel name is `herald_all_` and a checked schema name: nothing to escape.
    let listening = client.batch_execute(&format!("LISTEN \"{channel}\"")).await.map_err(super::backend);
    let result = match listening {
        Ok(()) => follow(pool, head, health, &mut heard).await,
        Err(error) => Err(error),
    };
    driver.abort();
    result
}

/// Publish what is heard, and the head read every [`POLL`], until the connection ends.
async fn follow(
    pool: &Pool,
    head: &watch::Sender<Option<u64>>,
    health: &Health,
    heard: &mut mpsc::UnboundedReceiver<Option<u64>>,
) -> Result<(), StoreError> {
    let mut poll = tokio::time::interval(POLL);
    loop {
        tokio::select! {
            notification = heard.recv() => match notification {
                Some(Some(last)) => publish(head, Some(last)),
                Some(None) => {}
                None => return Err(StoreError::Backend("the listening connection closed".into())),
            },
            // The first tick is at once: anything committed before LISTEN took effect.
            _ = poll.tick() => {
                let polled = match pool.get().await.map_err(pool_error) {
                    Ok(client) => reads::head(&client).await,
                    Err(error) => Err(error),
                };
                health.note(&polled);
                publish(head, polled?);
            }
        }
    }
}
