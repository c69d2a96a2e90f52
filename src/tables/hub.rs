//! The event streams of this instance: one `watch` channel per watched
//! table, holding only its latest `TABLE` (or its deletion). A stream that
//! is slow therefore never makes anything queue: it skips to the latest.
//! Streams are counted per table and in all; a stream's guard gives its
//! place back when the stream ends.

use bytes::Bytes;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::watch;

/// What a stream shows next.
#[derive(Clone, Debug)]
pub enum Event {
    /// The table at `version` as its whole server-sent event, published at
    /// `at`. Built once and shared: every stream of the table writes the
    /// same bytes, so streams cost no copy of a table each.
    Table {
        version: i64,
        frame: Bytes,
        at: Instant,
    },
    /// The table is gone.
    Deleted,
}

impl Event {
    fn version(&self) -> i64 {
        match self {
            Event::Table { version, .. } => *version,
            Event::Deleted => i64::MAX,
        }
    }
}

struct Entry {
    tx: watch::Sender<Option<Arc<Event>>>,
    streams: usize,
}

struct Inner {
    tables: HashMap<String, Entry>,
    total: usize,
}

/// The server-sent event of a table at `version`.
fn table_event(version: i64, json: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(json.len() + 48);
    out.extend_from_slice(b"event: table\nid: ");
    out.extend_from_slice(itoa::Buffer::new().format(version).as_bytes());
    out.extend_from_slice(b"\ndata: ");
    out.extend_from_slice(json);
    out.extend_from_slice(b"\n\n");
    Bytes::from(out)
}

/// Every watched table of this instance.
pub struct Hub {
    inner: Arc<Mutex<Inner>>,
    per_table: usize,
    max: usize,
}

/// Why a stream was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// `--events-per-table`.
    Table,
    /// `--events-max`.
    All,
}

/// A stream's place: its receiver, and its count given back on drop.
pub struct Subscription {
    pub rx: watch::Receiver<Option<Arc<Event>>>,
    _guard: Guard,
}

struct Guard {
    inner: Arc<Mutex<Inner>>,
    id: String,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut inner = lock(&self.inner);
        inner.total = inner.total.saturating_sub(1);
        let empty = match inner.tables.get_mut(&self.id) {
            Some(e) => {
                e.streams = e.streams.saturating_sub(1);
                e.streams == 0
            }
            None => false,
        };
        if empty {
            inner.tables.remove(&self.id);
        }
    }
}

fn lock(m: &Mutex<Inner>) -> std::sync::MutexGuard<'_, Inner> {
    // A panic while holding the lock leaves the counts as they were: usable.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Hub {
    pub fn new(per_table: usize, max: usize) -> Hub {
        Hub {
            inner: Arc::new(Mutex::new(Inner {
                tables: HashMap::new(),
                total: 0,
            })),
            per_table,
            max,
        }
    }

    /// A place for one more stream on `id`, within the bounds.
    pub fn subscribe(&self, id: &str) -> Result<Subscription, Full> {
        let mut inner = lock(&self.inner);
        if inner.total >= self.max {
            return Err(Full::All);
        }
        let per_table = self.per_table;
        let entry = inner.tables.entry(id.to_string()).or_insert_with(|| Entry {
            tx: watch::Sender::new(None),
            streams: 0,
        });
        if entry.streams >= per_table {
            return Err(Full::Table);
        }
        entry.streams += 1;
        let rx = entry.tx.subscribe();
        inner.total += 1;
        Ok(Subscription {
            rx,
            _guard: Guard {
                inner: self.inner.clone(),
                id: id.to_string(),
            },
        })
    }

    /// Offers the table at `version` to its streams, if it has any and the
    /// version is newer than what they hold.
    pub fn publish(&self, id: &str, version: i64, json: &[u8]) {
        self.publish_at(id, version, json, Instant::now());
    }

    /// [`Hub::publish`] of a change made at `at`.
    pub fn publish_at(&self, id: &str, version: i64, json: &[u8], at: Instant) {
        let inner = lock(&self.inner);
        if let Some(e) = inner.tables.get(id) {
            e.tx.send_if_modified(|cur| {
                if cur.as_ref().is_some_and(|c| c.version() >= version) {
                    return false;
                }
                let frame = table_event(version, json);
                *cur = Some(Arc::new(Event::Table { version, frame, at }));
                true
            });
        }
    }

    /// Tells a table's streams it is gone.
    pub fn deleted(&self, id: &str) {
        let inner = lock(&self.inner);
        if let Some(e) = inner.tables.get(id) {
            e.tx.send_replace(Some(Arc::new(Event::Deleted)));
        }
    }

    /// Whether a notification of `version` is news here: the table is
    /// watched and its streams hold an older version.
    pub fn wants(&self, id: &str, version: i64) -> bool {
        let inner = lock(&self.inner);
        inner
            .tables
            .get(id)
            .is_some_and(|e| e.tx.borrow().as_ref().is_none_or(|c| c.version() < version))
    }

    /// The watched tables.
    pub fn watched(&self) -> Vec<String> {
        lock(&self.inner).tables.keys().cloned().collect()
    }

    /// Streams open now.
    pub fn streams(&self) -> usize {
        lock(&self.inner).total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version_of(s: &Subscription) -> Option<i64> {
        s.rx.borrow().as_ref().map(|e| e.version())
    }

    #[test]
    fn streams_are_bounded_per_table_and_in_all() {
        // Two per table, three in all: the third on one table is refused
        // for the table, the fourth anywhere for the total.
        let hub = Hub::new(2, 3);
        let a1 = hub.subscribe("a").unwrap();
        let _a2 = hub.subscribe("a").unwrap();
        assert_eq!(hub.subscribe("a").err(), Some(Full::Table));
        let _b1 = hub.subscribe("b").unwrap();
        assert_eq!(hub.subscribe("c").err(), Some(Full::All));
        assert_eq!(hub.streams(), 3);
        drop(a1);
        assert_eq!(hub.streams(), 2);
        assert!(hub.subscribe("c").is_ok());
    }

    #[test]
    fn a_stream_only_holds_the_latest_version() {
        // Versions 2, 3 and then 2 again (a late notification): the stream
        // holds 3, never a queue and never an older one.
        let hub = Hub::new(4, 4);
        let s = hub.subscribe("t").unwrap();
        hub.publish("t", 2, b"{}");
        hub.publish("t", 3, b"{}");
        hub.publish("t", 2, b"{}");
        assert_eq!(version_of(&s), Some(3));
        assert!(!hub.wants("t", 3));
        assert!(hub.wants("t", 4));
        assert!(!hub.wants("unwatched", 9));
        hub.deleted("t");
        assert!(matches!(s.rx.borrow().as_deref(), Some(Event::Deleted)));
    }

    #[test]
    fn an_unwatched_table_costs_nothing() {
        // Publishing to a table nobody watches keeps no entry.
        let hub = Hub::new(4, 4);
        hub.publish("t", 1, b"{}");
        assert!(hub.watched().is_empty());
        let s = hub.subscribe("t").unwrap();
        drop(s);
        assert!(hub.watched().is_empty());
    }
}
