//! Which PostgreSQL failures mean "the database is away for now", in one place.
//!
//! A stopped, restarting or unreachable server, and a backend connection the server ended
//! (`pg_terminate_backend`, a fast or immediate shutdown), are [`StoreError::Unavailable`]: the
//! API answers them `503 storage_unavailable` with `Retry-After`, and the store reconnects by
//! itself. Everything else (a constraint, a bad statement, a corrupt row) stays
//! [`StoreError::Backend`], a 500 with the cause logged.

use std::error::Error as _;

use tokio_postgres::error::SqlState;

use crate::StoreError;

/// SQLSTATE codes outside class 08 that say the server is going away or not there yet.
const AWAY: [&SqlState; 5] = [
    &SqlState::ADMIN_SHUTDOWN,       // 57P01: terminated by an administrator or a fast/smart stop
    &SqlState::CRASH_SHUTDOWN,       // 57P02: another backend crashed, or an immediate stop
    &SqlState::CANNOT_CONNECT_NOW,   // 57P03: starting up, shutting down, in recovery
    &SqlState::TOO_MANY_CONNECTIONS, // 53300: every connection slot is taken, for now
    &SqlState::IDLE_SESSION_TIMEOUT, // 57P05: the server closed an idle session
];

/// Whether `error` means the server (or the connection to it) is away, not that the statement
/// was wrong: the connection closed, an IO error under it, SQLSTATE class 08 (connection
/// exception), or one of [`AWAY`].
pub(crate) fn is_away(error: &tokio_postgres::Error) -> bool {
    if error.is_closed() {
        return true;
    }
    if let Some(code) = error.code() {
        return code.code().starts_with("08") || AWAY.contains(&code);
    }
    // A failed connect or a broken socket: the cause is an IO error somewhere down the chain.
    let mut cause = error.source();
    while let Some(inner) = cause {
        if inner.is::<std::io::Error>() {
            return true;
        }
        cause = inner.source();
    }
    false
}

/// `error` as a [`StoreError`]: [`StoreError::Unavailable`] when [`is_away`] says so, naming the
/// cause, [`StoreError::Backend`] otherwise.
pub(crate) fn classify(error: tokio_postgres::Error) -> StoreError {
    // The plain Display of a server error is "db error"; the cause carries the server's message.
    let message = match error.as_db_error() {
        Some(db) => format!("postgres: {} ({})", db.message(), db.code().code()),
        None => match error.source() {
            Some(cause) => format!("postgres: {error}: {cause}"),
            None => format!("postgres: {error}"),
        },
    };
    if is_away(&error) {
        StoreError::Unavailable(format!("the database cannot be reached ({message})"))
    } else {
        StoreError::Backend(message)
    }
}

/// A connection pool's failure: the database's own classified, a pool that timed out waiting
/// for or creating a connection is a database away.
pub(crate) fn pool(error: deadpool_postgres::PoolError) -> StoreError {
    match error {
        deadpool_postgres::PoolError::Backend(error) => classify(error),
        deadpool_postgres::PoolError::Timeout(kind) => StoreError::Unavailable(format!(
            "the database cannot be reached (no connection in time: {kind:?} timed out)"
        )),
        deadpool_postgres::PoolError::Closed => StoreError::Closed,
        other => StoreError::Backend(format!("postgres connection pool: {other}")),
    }
}

/// What an append whose connection was lost while it committed is answered: nobody can tell
/// whether it was recorded, so it is never acknowledged. A retry with the same command id
/// (the API's `Idempotency-Key`) learns which: it replays the append if it was recorded and
/// writes it if it was not.
pub(crate) fn commit_unknown(error: StoreError) -> StoreError {
    match error {
        StoreError::Unavailable(cause) => StoreError::Unavailable(format!("{cause}{UNKNOWN}")),
        other => other,
    }
}

/// What [`commit_unknown`] adds to the cause.
const UNKNOWN: &str = "; the connection was lost while this write committed, so it may or may not have been \
                       recorded: retry with the same Idempotency-Key to learn which";

/// The cause alone, without what [`commit_unknown`] added: what the database's state is, for
/// `/readyz` and for the writes answered during the backoff (which were not sent at all).
pub(crate) fn cause(error: &StoreError) -> StoreError {
    match error {
        StoreError::Unavailable(message) => {
            StoreError::Unavailable(message.strip_suffix(UNKNOWN).unwrap_or(message).to_string())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_away_codes_are_the_shutdown_and_connection_ones() {
        for code in ["57P01", "57P02", "57P03", "53300", "57P05"] {
            assert!(AWAY.iter().any(|away| away.code() == code), "{code}");
        }
        assert!(!AWAY.iter().any(|away| away.code() == SqlState::UNIQUE_VIOLATION.code()));
    }

    #[test]
    fn an_unknown_commit_says_to_retry_with_the_same_key_and_leaves_other_errors_alone() {
        let unknown = commit_unknown(StoreError::Unavailable("the database cannot be reached (x)".into()));
        assert!(matches!(&unknown, StoreError::Unavailable(m) if m.contains("same Idempotency-Key")), "{unknown}");
        assert!(matches!(commit_unknown(StoreError::Backend("y".into())), StoreError::Backend(_)));
        assert!(matches!(cause(&unknown), StoreError::Unavailable(m) if m == "the database cannot be reached (x)"));
    }
}
