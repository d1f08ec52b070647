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
    /// Each client's open readers: a permit's number and its connection, when known.
    per_client: HashMap<String, Vec<(u64, Option<Connection>)>>,
    next: u64,
}

impl Open {
    /// Return the places of `client`'s readers whose clients went away (their streams end on
    /// their own soon, and their permits then find their place returned already).
    fn reclaim_closed(&mut self, client: &str) {
        let Some(readers) = self.per_client.get_mut(client) else { return };
        let before = readers.len();
        readers.retain(|(_, connection)| !connection.is_some_and(|connection| connection.closed()));
        self.total = self.total.saturating_sub(before - readers.len());
    }
}

/// One admitted reader; returns its place when dropped.
#[derive(Debug)]
pub struct LivePermit {
    readers: Arc<LiveReaders>,
    client: String,
    number: u64,
}

impl LiveReaders {
    /// Limits: in all, per token, and for every anonymous reader together.
    pub fn new(max_total: usize, max_per_client: usize, max_anonymous: usize) -> Arc<Self> {
        Arc::new(Self { max_total, max_per_client, max_anonymous, open: Mutex::new(Open::default()) })
    }

    /// Admit one more reader for `client` (a token id, or [`ANONYMOUS`]), or say why not: 429
    /// when this client has its share open, 503 when the server has.
    /// `connection` is the reader's own, when known: a reader whose client has gone away does
    /// not count against it.
    pub fn admit(self: &Arc<Self>, client: &str, connection: Option<Connection>) -> Result<LivePermit, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let limit = if client == ANONYMOUS { self.max_anonymous } else { self.max_per_client };
        if open.per_client.get(client).map_or(0, Vec::len) >= limit {
            open.reclaim_closed(client);
        }
        if open.total >= self.max_total {
            let clients: Vec<String> = open.per_client.keys().cloned().collect();
            for other in clients {
                open.reclaim_closed(&other);
            }
        }
        let mine = open.per_client.get(client).map_or(0, Vec::len);
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
        open.next += 1;
        let number = open.next;
        open.per_client.entry(client.to_string()).or_default().push((number, connection));
        Ok(LivePermit { readers: self.clone(), client: client.to_string(), number })
    }

    /// The most readers open at once.
    pub fn limit(&self) -> usize {
        self.max_total
    }

    /// How many readers are open now.
    pub fn open(&self) -> usize {
        self.open.lock().map_or(0, |open| open.total)
    }
}

impl Drop for LivePermit {
    fn drop(&mut self) {
        let mut open = self.readers.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(readers) = open.per_client.get_mut(&self.client) {
            let before = readers.len();
            readers.retain(|(number, _)| *number != self.number);
            let returned = before - readers.len();
            if readers.is_empty() {
                open.per_client.remove(&self.client);
            }
            // Returned already if its client was seen gone (`Open::reclaim_closed`).
            open.total = open.total.saturating_sub(returned);
        }
        if open.total == 0 {
            drop(open);
            return_freed_memory();
        }
    }
}

/// The socket of a connection, kept in its extensions at connect (`HttpServer::on_connect`), so
/// a live reader can tell that its client went away while it waits for events: actix notices a
/// closed connection only when a write to it fails, which for a reader idle between keep-alives
/// took up to two of them (30 s), holding the client's place although `Retry-After` said 1.
#[derive(Debug, Clone, Copy)]
pub struct Connection {
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
}

/// `HttpServer::on_connect`: remember a plain TCP connection's socket.
pub fn remember_connection(connection: &dyn std::any::Any, extensions: &mut actix_web::dev::Extensions) {
    #[cfg(unix)]
    if let Some(stream) = connection.downcast_ref::<actix_web::rt::net::TcpStream>() {
        use std::os::fd::AsRawFd;
        extensions.insert(Connection { fd: stream.as_raw_fd() });
    }
    #[cfg(not(unix))]
    let _ = (connection, extensions);
}

impl Connection {
    /// Whether the client closed its side (or the connection broke). Called only while the
    /// request on this connection is being answered, so the socket is still the connection's.
    #[allow(unsafe_code)]
    pub fn closed(&self) -> bool {
        #[cfg(target_os = "linux")]
        {
            let mut probe = libc::pollfd { fd: self.fd, events: libc::POLLRDHUP, revents: 0 };
            // SAFETY: one pollfd on the stack, a zero timeout; poll reads nothing from the socket.
            let ready = unsafe { libc::poll(&mut probe, 1, 0) };
            ready > 0 && probe.revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
        }
        #[cfg(not(target_os = "linux"))]
        false
    }
}

/// Give the memory the closed readers freed back to the system. glibc's allocator keeps freed
/// memory in its per-thread arenas (a heap only shrinks from its top), so a server that once
/// served many readers of large events would stay at that size; `malloc_trim` releases every
/// free page of every arena. Called when the last live reader closes, so it runs once per burst.
fn return_freed_memory() {
    crate::allocator::trim();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_at_most_its_share_and_a_closed_reader_returns_its_place() {
        let readers = LiveReaders::new(10, 2, 3);
        let first = readers.admit("token-a", None).expect("first");
        let _second = readers.admit("token-a", None).expect("second");
        assert!(matches!(readers.admit("token-a", None), Err(ApiError::TooManyRequests(_))));
        assert!(readers.admit("token-b", None).is_ok(), "another token has its own share");
        drop(first);
        assert!(readers.admit("token-a", None).is_ok(), "a closed reader's place is free again");
    }

    #[test]
    fn anonymous_readers_share_one_budget_and_the_server_has_a_total() {
        let readers = LiveReaders::new(4, 4, 3);
        let anonymous: Vec<_> = (0..3).map(|_| readers.admit(ANONYMOUS, None).expect("anonymous")).collect();
        assert!(matches!(readers.admit(ANONYMOUS, None), Err(ApiError::TooManyRequests(_))));
        let _token = readers.admit("token-a", None).expect("the fourth place");
        assert!(matches!(readers.admit("token-b", None), Err(ApiError::Unavailable(_))), "the server is full");
        drop(anonymous);
        assert_eq!(readers.open(), 1);
    }
}
