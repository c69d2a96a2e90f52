//! The event streams of this instance. Per watched table: the latest
//! version known (a `watch` channel, which wakes its streams), the last
//! changes as their events, and the latest `TABLE` event once a stream
//! needed it. Nothing queues per stream: a stream asks for what follows
//! the version it last sent, and gets those changes while they are held
//! and few, else one `table` event. Streams are counted per table and in
//! all; a stream's guard gives its place back when the stream ends.

use bytes::Bytes;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// Changes held per watched table (the store keeps as many for resumes).
pub const HELD: usize = 64;
/// Most bytes of changes a stream is sent to catch up at once; past it one
/// `table` event is less to send than the changes.
pub const CATCH_UP_BYTES: usize = 64 * 1024;

/// The latest version of a deleted table.
const DELETED: i64 = i64::MAX;

struct Entry {
    /// The latest version known ([`DELETED`] once deleted).
    tx: watch::Sender<i64>,
    /// The last changes, oldest first, each following the one before.
    changes: VecDeque<(i64, Bytes)>,
    /// The latest `TABLE` event made, by version.
    table: Option<(i64, Bytes)>,
    streams: usize,
}

struct Inner {
    tables: HashMap<String, Entry>,
    total: usize,
}

/// A server-sent event: `event: {kind}`, `id: {version}`, `data: {data}`
/// (`data` is one line of JSON).
pub fn frame(kind: &str, version: i64, data: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(data.len() + 32);
    out.extend_from_slice(b"event: ");
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(b"\nid: ");
    out.extend_from_slice(itoa::Buffer::new().format(version).as_bytes());
    out.extend_from_slice(b"\ndata: ");
    out.extend_from_slice(data);
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

/// What a stream sends after the version it last sent.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// Nothing newer yet.
    Wait,
    /// The changes that follow, as events, up to this version.
    Changes(Vec<Bytes>, i64),
    /// Changes were skipped or are too many: the table at this version
    /// (or later) as one `table` event.
    Table(i64),
    /// The table is gone.
    Deleted,
}

/// A stream's place: its wake-ups, and its count given back on drop.
pub struct Subscription {
    pub rx: watch::Receiver<i64>,
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
    // A panic while holding the lock leaves the entries as they were: usable.
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
            tx: watch::Sender::new(0),
            changes: VecDeque::new(),
            table: None,
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

    /// Offers the change that made `version` of `id`, as its event, to the
    /// table's streams (if it has any and the version is new here). A
    /// change that does not follow the last one held drops those: a
    /// stream that needed the ones between gets the table.
    pub fn publish(&self, id: &str, version: i64, event: Bytes) {
        let mut inner = lock(&self.inner);
        let Some(e) = inner.tables.get_mut(id) else {
            return;
        };
        let latest = *e.tx.borrow();
        if version <= latest {
            return;
        }
        if version != latest + 1 {
            e.changes.clear();
        }
        if e.changes.len() == HELD {
            e.changes.pop_front();
        }
        e.changes.push_back((version, event));
        e.tx.send_replace(version);
    }

    /// Tells the table's streams that it is at `version` (read from the
    /// store) without the change that made it: a stream behind it gets
    /// the table.
    pub fn seen(&self, id: &str, version: i64) {
        let mut inner = lock(&self.inner);
        if let Some(e) = inner.tables.get_mut(id) {
            if version > *e.tx.borrow() {
                e.changes.clear();
                e.tx.send_replace(version);
            }
        }
    }

    /// Tells a table's streams it is gone.
    pub fn deleted(&self, id: &str) {
        let mut inner = lock(&self.inner);
        if let Some(e) = inner.tables.get_mut(id) {
            e.changes.clear();
            e.table = None;
            e.tx.send_replace(DELETED);
        }
    }

    /// What follows version `last` of `id` for a stream.
    pub fn next(&self, id: &str, last: i64) -> Next {
        let inner = lock(&self.inner);
        let Some(e) = inner.tables.get(id) else {
            return Next::Wait;
        };
        let latest = *e.tx.borrow();
        if latest == DELETED {
            return Next::Deleted;
        }
        if latest <= last {
            return Next::Wait;
        }
        let first = e.changes.front().map_or(i64::MAX, |c| c.0);
        if first > last + 1 {
            return Next::Table(latest);
        }
        let mut out = Vec::new();
        let mut bytes = 0;
        for (v, ev) in e.changes.iter().filter(|(v, _)| *v > last) {
            bytes += ev.len();
            if bytes > CATCH_UP_BYTES {
                return Next::Table(latest);
            }
            out.push(ev.clone());
            debug_assert!(*v <= latest);
        }
        Next::Changes(out, latest)
    }

    /// The `TABLE` event of `id` at `version`, if one was made.
    pub fn table(&self, id: &str, version: i64) -> Option<Bytes> {
        let inner = lock(&self.inner);
        let (v, t) = inner.tables.get(id)?.table.as_ref()?;
        (*v == version).then(|| t.clone())
    }

    /// Keeps the `TABLE` event of `id` at `version` for the next stream
    /// that needs it (while the table is watched).
    pub fn keep_table(&self, id: &str, version: i64, event: Bytes) {
        let mut inner = lock(&self.inner);
        if let Some(e) = inner.tables.get_mut(id) {
            if e.table.as_ref().is_none_or(|(v, _)| *v < version) {
                e.table = Some((version, event));
            }
        }
    }

    /// The latest version of `id` known here, if it is watched.
    pub fn latest(&self, id: &str) -> Option<i64> {
        lock(&self.inner).tables.get(id).map(|e| *e.tx.borrow())
    }

    /// Whether a change to `version` is news here: the table is watched
    /// and no newer version is known.
    pub fn wants(&self, id: &str, version: i64) -> bool {
        self.latest(id).is_some_and(|v| v < version)
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

    fn ev(v: i64) -> Bytes {
        frame("hand", v, b"{}")
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
    fn a_stream_gets_the_changes_after_its_version() {
        // The table was read at 1; changes 2 and 3 follow. A stream at 1
        // gets both, one at 2 gets 3, one at 3 waits; a late 2 is ignored.
        let hub = Hub::new(4, 4);
        let _s = hub.subscribe("t").unwrap();
        hub.seen("t", 1);
        hub.publish("t", 2, ev(2));
        hub.publish("t", 3, ev(3));
        hub.publish("t", 2, ev(2));
        assert_eq!(hub.next("t", 1), Next::Changes(vec![ev(2), ev(3)], 3));
        assert_eq!(hub.next("t", 2), Next::Changes(vec![ev(3)], 3));
        assert_eq!(hub.next("t", 3), Next::Wait);
        // A stream from before the first change held gets the table.
        assert_eq!(hub.next("t", 0), Next::Table(3));
        hub.deleted("t");
        assert_eq!(hub.next("t", 3), Next::Deleted);
    }

    #[test]
    fn a_gap_or_too_many_bytes_gives_the_table() {
        // Version 5 arrives after 3 (4 was missed): a stream at 3 gets the
        // table at 5. Then 65 KiB of changes: more than a stream catches up
        // on at once.
        let hub = Hub::new(4, 4);
        let _s = hub.subscribe("t").unwrap();
        hub.seen("t", 2);
        hub.publish("t", 3, ev(3));
        hub.publish("t", 5, ev(5));
        assert_eq!(hub.next("t", 3), Next::Table(5));
        assert_eq!(hub.next("t", 4), Next::Changes(vec![ev(5)], 5));
        let big = frame("hand", 6, &vec![b'x'; CATCH_UP_BYTES]);
        hub.publish("t", 6, big);
        assert_eq!(hub.next("t", 4), Next::Table(6));
    }

    #[test]
    fn at_most_held_changes_are_kept() {
        // HELD + 1 changes after version 0: the first is dropped, so a
        // stream at 0 gets the table and one at 1 gets the rest.
        let hub = Hub::new(4, 4);
        let _s = hub.subscribe("t").unwrap();
        for v in 1..=HELD as i64 + 1 {
            hub.publish("t", v, ev(v));
        }
        assert_eq!(hub.next("t", 0), Next::Table(HELD as i64 + 1));
        match hub.next("t", 1) {
            Next::Changes(c, v) => assert_eq!((c.len(), v), (HELD, HELD as i64 + 1)),
            other => panic!("expected changes, got {other:?}"),
        }
    }

    #[test]
    fn an_unwatched_table_costs_nothing() {
        // Publishing to a table nobody watches keeps no entry.
        let hub = Hub::new(4, 4);
        hub.publish("t", 1, ev(1));
        assert!(hub.watched().is_empty());
        let s = hub.subscribe("t").unwrap();
        drop(s);
        assert!(hub.watched().is_empty());
    }
}
