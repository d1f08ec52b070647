//! Whether the database is reachable, as this process last found it: for `/readyz`
//! ([`crate::EventStore::write_failure`]) and for the writer's backoff while it is away.
//!
//! Set by any failure that [`super::errors`] calls [`StoreError::Unavailable`], cleared by the
//! next success (an append, or the listener's poll of the head every second, so the state
//! clears within a second of the database's return even when nobody writes).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::StoreError;

/// The first pause of the writer after the database was found away.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// The longest pause: the most a write waits past the database's return (the listener's poll
/// usually clears the state sooner).
const MAX_BACKOFF: Duration = Duration::from_secs(2);

#[derive(Debug, Default)]
pub(crate) struct Health(Mutex<Option<Away>>);

#[derive(Debug)]
struct Away {
    /// The last failure, as the store reported it.
    error: StoreError,
    /// Before this, the writer answers with `error` at once instead of trying.
    retry_at: Instant,
    /// The pause after the next failure (doubling up to [`MAX_BACKOFF`]).
    backoff: Duration,
}

impl Health {
    /// Record what an operation on the database found: a failure that means it is away starts
    /// (or lengthens) the backoff, a success ends it. Other errors say nothing about reach.
    pub(crate) fn note<T>(&self, result: &Result<T, StoreError>) {
        let Ok(mut away) = self.0.lock() else { return };
        match result {
            Ok(_) => *away = None,
            Err(error @ StoreError::Unavailable(_)) => {
                // The database's state, not one write's outcome.
                let backoff = away.as_ref().map_or(FIRST_BACKOFF, |away| away.backoff);
                *away = Some(Away {
                    error: super::errors::cause(error),
                    retry_at: Instant::now() + backoff,
                    backoff: (backoff * 2).min(MAX_BACKOFF),
                });
            }
            Err(_) => {}
        }
    }

    /// The failure to answer at once while the backoff runs; `Ok` when it is time to try.
    pub(crate) fn gate(&self) -> Result<(), StoreError> {
        let Ok(away) = self.0.lock() else { return Ok(()) };
        match away.as_ref() {
            Some(away) if Instant::now() < away.retry_at => Err(away.error.clone()),
            _ => Ok(()),
        }
    }

    /// Why the database is away, while it is.
    pub(crate) fn failure(&self) -> Option<StoreError> {
        self.0.lock().ok()?.as_ref().map(|away| away.error.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_gates_until_its_backoff_ends_and_a_success_clears_it() {
        let health = Health::default();
        assert!(health.gate().is_ok() && health.failure().is_none());
        health.note::<()>(&Err(StoreError::Backend("a bad statement".into())));
        assert!(health.failure().is_none(), "only an unreachable database counts");
        health.note::<()>(&Err(StoreError::Unavailable("refused".into())));
        assert!(matches!(health.failure(), Some(StoreError::Unavailable(_))));
        assert!(matches!(health.gate(), Err(StoreError::Unavailable(_))), "within the first backoff");
        health.note(&Ok(()));
        assert!(health.gate().is_ok() && health.failure().is_none());
    }
}
