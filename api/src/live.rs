//! Limits on live event readers (`GET /v1/events/live`): each is an open connection the server
//! keeps serving for as long as the client wants, so their number is bounded, in all and per
//! client (issue 15: idle readers must not be able to exhaust the server).
//!
//! A reader holds a [`LivePermit`] for as long as its response streams; dropping the response
//! (the client went away, or the server is stopping) returns it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::problem::ApiError;

/// The client a reader is counted against: a token's id, or every anonymous reader together.
pub const ANONYMOUS: &str = "(anonymous)";

/// Counts of open live readers, and their limits.
#[derive(Debug)]
pub struct LiveReaders {
    max_total: usize,
    max_per_client: usize,
    max_anonymous: usize,
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_client: HashMap<String, usize>,
}

/// One admitted reader; returns its place when dropped.
#[derive(Debug)]
pub struct LivePermit {
    readers: Arc<LiveReaders>,
    client: String,
}

impl LiveReaders {
    /// Limits: in all, per token, and for every anonymous reader together.
    pub fn new(max_total: usize, max_per_client: usize, max_anonymous: usize) -> Arc<Self> {
        Arc::new(Self { max_total, max_per_client, max_anonymous, open: Mutex::new(Open::default()) })
    }

    /// Admit one more reader for `client` (a token id, or [`ANONYMOUS`]), or say why not: 429
    /// when this client has its share open, 503 when the server has.
    pub fn admit(self: &Arc<Self>, client: &str) -> Result<LivePermit, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let limit = if client == ANONYMOUS { self.max_anonymous } else { self.max_per_client };
        let mine = open.per_client.get(client).copied().unwrap_or(0);
        if mine >= limit {
            let who = if client == ANONYMOUS { "anonymous readers together" } else { "one token" };
            return Err(ApiError::TooManyRequests(format!(
                "{who} may hold at most {limit} live event streams open at once; close one first"
            )));
        }
        if open.total >= self.max_total {
            return Err(ApiError::Unavailable(format!(
                "the server is serving its limit of {} live event streams; retry later",
                self.max_total
            )));
        }
        open.total += 1;
        *open.per_client.entry(client.to_string()).or_insert(0) += 1;
        Ok(LivePermit { readers: self.clone(), client: client.to_string() })
    }

    /// How many readers are open now.
    pub fn open(&self) -> usize {
        self.open.lock().map_or(0, |open| open.total)
    }
}

impl Drop for LivePermit {
    fn drop(&mut self) {
        let mut open = self.readers.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.per_client.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.per_client.remove(&self.client);
            }
        }
        if open.total == 0 {
            drop(open);
            return_freed_memory();
        }
    }
}

/// Give the memory the closed readers freed back to the system. glibc's allocator keeps freed
/// memory in its per-thread arenas (a heap only shrinks from its top), so a server that once
/// served many readers of large events would stay at that size; `malloc_trim` releases every
/// free page of every arena. Called when the last live reader closes, so it runs once per burst.
#[allow(unsafe_code)]
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_at_most_its_share_and_a_closed_reader_returns_its_place() {
        let readers = LiveReaders::new(10, 2, 3);
        let first = readers.admit("token-a").expect("first");
        let _second = readers.admit("token-a").expect("second");
        assert!(matches!(readers.admit("token-a"), Err(ApiError::TooManyRequests(_))));
        assert!(readers.admit("token-b").is_ok(), "another token has its own share");
        drop(first);
        assert!(readers.admit("token-a").is_ok(), "a closed reader's place is free again");
    }

    #[test]
    fn anonymous_readers_share_one_budget_and_the_server_has_a_total() {
        let readers = LiveReaders::new(4, 4, 3);
        let anonymous: Vec<_> = (0..3).map(|_| readers.admit(ANONYMOUS).expect("anonymous")).collect();
        assert!(matches!(readers.admit(ANONYMOUS), Err(ApiError::TooManyRequests(_))));
        let _token = readers.admit("token-a").expect("the fourth place");
        assert!(matches!(readers.admit("token-b"), Err(ApiError::Unavailable(_))), "the server is full");
        drop(anonymous);
        assert_eq!(readers.open(), 1);
    }
}
