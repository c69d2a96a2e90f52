//! The bounded score cache: serialised result bodies.
//!
//! Two moka caches holding the same `Bytes` (one copy of each body): the
//! main one keyed by `hand_hash`, so the same hand in any tile order hits;
//! and in front of it one keyed by the exact request bytes, so a repeated
//! request is answered before it is even parsed. Both are bounded in
//! entries and bytes and honour the TTL.

use super::key::KeyBy;
use super::key::KeyHash;
use crate::core::ruleset::DocError;
use crate::core::Ruleset;
use bytes::Bytes;
#[cfg(feature = "cache")]
use moka::sync::Cache;
#[cfg(not(feature = "cache"))]
use off::Cache;
use std::sync::Arc;
use std::time::Duration;

/// What an entry costs beside its body (key, bookkeeping), in bytes.
pub const ENTRY_OVERHEAD: u64 = 96;
/// Requests longer than this are not remembered by their bytes (a score
/// request is a few hundred).
pub const FRONT_MAX_REQUEST: usize = 1024;
/// The share of the byte bound the front may use: one part in this many.
#[cfg_attr(not(feature = "cache"), allow(dead_code))]
const FRONT_SHARE: u64 = 4;

#[derive(Clone)]
pub struct ScoreCache {
    inner: Option<Cache<KeyHash, Bytes>>,
    // foldhash (seeded per process) over the request's bytes: SipHash was a
    // measurable share of a cache hit (bench/load.md, "The body's timer and
    // the front's hasher").
    front: Option<Cache<Bytes, Bytes, foldhash::fast::RandomState>>,
}

impl ScoreCache {
    /// A cache of at most `max_entries` bodies and `max_bytes` bytes of
    /// them (whichever comes first; either 0 disables the cache).
    ///
    /// The main cache weighs each body by its bytes plus [`ENTRY_OVERHEAD`],
    /// but at least `max_bytes / max_entries`: its total weight stays within
    /// `max_bytes`, and no more than `max_entries` bodies fit in it. The
    /// front weighs request and body and holds a quarter of that.
    #[cfg(feature = "cache")]
    pub fn new(max_entries: u64, max_bytes: u64, ttl: Duration) -> Self {
        let on = max_entries > 0 && max_bytes > 0;
        let floor = (max_bytes / max_entries.max(1)).min(u64::from(u32::MAX));
        let weight = move |w: u64| u32::try_from(w.max(floor)).unwrap_or(u32::MAX);
        let inner = on.then(|| {
            Cache::builder()
                .max_capacity(max_bytes)
                .weigher(move |_k: &KeyHash, v: &Bytes| weight(v.len() as u64 + ENTRY_OVERHEAD))
                .time_to_live(ttl)
                .build()
        });
        let front = on.then(|| {
            Cache::builder()
                .max_capacity(max_bytes / FRONT_SHARE)
                .weigher(move |k: &Bytes, v: &Bytes| {
                    weight((k.len() + v.len()) as u64 + ENTRY_OVERHEAD)
                })
                .time_to_live(ttl)
                .build_with_hasher(foldhash::fast::RandomState::default())
        });
        ScoreCache { inner, front }
    }

    /// Without the `cache` feature every cache is off.
    #[cfg(not(feature = "cache"))]
    pub fn new(_max_entries: u64, _max_bytes: u64, _ttl: Duration) -> Self {
        ScoreCache {
            inner: None,
            front: None,
        }
    }

    pub fn get(&self, k: &KeyHash) -> Option<Bytes> {
        self.inner.as_ref()?.get(k)
    }

    pub fn insert(&self, k: KeyHash, body: Bytes) {
        if let Some(c) = &self.inner {
            c.insert(k, body);
        }
    }

    /// The body answered to exactly these request bytes, if remembered and fresh.
    pub fn get_by_request(&self, request: &[u8]) -> Option<Bytes> {
        if request.len() > FRONT_MAX_REQUEST {
            return None;
        }
        self.front.as_ref()?.get(request)
    }

    /// Remembers that `request` (the exact bytes) was answered with `response`.
    pub fn remember_request(&self, request: &[u8], response: &Bytes) {
        if let Some(front) = &self.front {
            if request.len() <= FRONT_MAX_REQUEST {
                // A copy: the request may be a view into a larger read buffer.
                front.insert(Bytes::copy_from_slice(request), response.clone());
            }
        }
    }

    /// Bytes the main cache counts against its bound now.
    pub fn weighted_bytes(&self) -> u64 {
        self.inner.as_ref().map_or(0, |c| {
            c.run_pending_tasks();
            c.weighted_size()
        })
    }

    /// Bytes the front counts against its bound now.
    pub fn front_weighted_bytes(&self) -> u64 {
        self.front.as_ref().map_or(0, |c| {
            c.run_pending_tasks();
            c.weighted_size()
        })
    }

    /// Entries of the main cache now (after pending maintenance).
    pub fn entries(&self) -> u64 {
        self.inner.as_ref().map_or(0, |c| {
            c.run_pending_tasks();
            c.entry_count()
        })
    }
}

/// What a ruleset document resolves to: its ruleset and how the cache
/// key names it, or every problem of the document.
pub type Resolution = Result<(Arc<Ruleset>, KeyBy), Arc<Vec<DocError>>>;

/// Bytes of ruleset documents (and their rulesets) remembered: a few
/// hundred full documents, thousands of small `extends` ones.
pub const RULESETS_MAX_BYTES: u64 = 8 << 20;
/// What a resolved ruleset costs beside its document's bytes.
#[cfg_attr(not(feature = "cache"), allow(dead_code))]
const RULESET_OVERHEAD: u64 = 4096;

/// Ruleset documents sent with requests, resolved: moka keyed by the
/// document's exact bytes, so a document repeated across requests (a batch,
/// a ledger, a client sending its house ruleset each time) is parsed and
/// validated once. Problems are remembered too. Bounded in bytes. Off
/// ([`RulesetCache::off`]) it resolves every document it is given, and
/// never touches moka (whose clock panics in the WebAssembly module).
#[derive(Clone)]
pub struct RulesetCache {
    // foldhash (seeded per process): SipHash over a whole document was a
    // measurable share of the request (bench/inline.md).
    inner: Option<Cache<Bytes, Resolution, foldhash::fast::RandomState>>,
}

impl Default for RulesetCache {
    fn default() -> Self {
        Self::new()
    }
}

impl RulesetCache {
    #[cfg(feature = "cache")]
    pub fn new() -> Self {
        RulesetCache {
            inner: Some(
                Cache::builder()
                    .max_capacity(RULESETS_MAX_BYTES)
                    .weigher(|k: &Bytes, _v: &Resolution| {
                        u32::try_from(k.len() as u64 + RULESET_OVERHEAD).unwrap_or(u32::MAX)
                    })
                    .build_with_hasher(foldhash::fast::RandomState::default()),
            ),
        }
    }

    /// Without the `cache` feature the cache is off.
    #[cfg(not(feature = "cache"))]
    pub fn new() -> Self {
        Self::off()
    }

    /// No cache: each document is resolved where it is read.
    pub fn off() -> Self {
        RulesetCache { inner: None }
    }

    /// The resolution of `doc`, remembered or made by `resolve` now.
    pub fn get_or_resolve(&self, doc: &[u8], resolve: impl FnOnce() -> Resolution) -> Resolution {
        let Some(inner) = &self.inner else {
            return resolve();
        };
        if let Some(r) = inner.get(doc) {
            return r;
        }
        let r = resolve();
        inner.insert(Bytes::copy_from_slice(doc), r.clone());
        r
    }

    /// Documents remembered now (after pending maintenance).
    pub fn entries(&self) -> u64 {
        self.inner.as_ref().map_or(0, |c| {
            c.run_pending_tasks();
            c.entry_count()
        })
    }
}

/// moka's `Cache` as far as this file uses it, for a build without the
/// `cache` feature: a type with no values, so every cache is `None`.
#[cfg(not(feature = "cache"))]
mod off {
    use std::convert::Infallible;
    use std::marker::PhantomData;

    #[derive(Clone)]
    pub struct Cache<K, V, S = ()>(Infallible, PhantomData<(K, V, S)>);

    impl<K, V, S> Cache<K, V, S> {
        pub fn get<Q: ?Sized>(&self, _k: &Q) -> Option<V> {
            match self.0 {}
        }
        pub fn insert(&self, _k: K, _v: V) {
            match self.0 {}
        }
        pub fn run_pending_tasks(&self) {
            match self.0 {}
        }
        pub fn weighted_size(&self) -> u64 {
            match self.0 {}
        }
        pub fn entry_count(&self) -> u64 {
            match self.0 {}
        }
    }
}

#[cfg(all(test, feature = "cache"))]
mod tests {
    use super::*;

    fn key(i: u32) -> KeyHash {
        let mut k = [0u8; 32];
        k[..4].copy_from_slice(&i.to_le_bytes());
        k
    }

    #[test]
    fn the_front_answers_exactly_the_remembered_bytes() {
        let c = ScoreCache::new(100, 1 << 20, Duration::from_secs(60));
        let req = br#"{"ruleset":"hkma"}"#;
        let body = Bytes::from_static(b"{\"total_faan\":3}");
        assert_eq!(c.get_by_request(req), None, "case: nothing remembered yet");
        c.remember_request(req, &body);
        assert_eq!(
            c.get_by_request(req),
            Some(body.clone()),
            "case: same bytes"
        );
        assert_eq!(
            c.get_by_request(br#"{"ruleset":"hkma" }"#),
            None,
            "case: one more space"
        );
        assert_eq!(
            c.get_by_request(br#"{"ruleset":"hkmb"}"#),
            None,
            "case: one byte differs"
        );
    }

    #[test]
    fn the_main_cache_holds_to_both_bounds() {
        // Entries: 20 at most, small bodies (each weighs the floor, 1 MiB / 20).
        let c = ScoreCache::new(20, 1 << 20, Duration::from_secs(60));
        for i in 0..200 {
            c.insert(key(i), Bytes::from_static(b"{}"));
        }
        assert!(
            c.entries() <= 20,
            "case: entry bound: {} entries",
            c.entries()
        );
        assert!(
            c.entries() >= 10,
            "case: still caches: {} entries",
            c.entries()
        );
        assert!(
            c.weighted_bytes() <= 1 << 20,
            "case: byte bound: {}",
            c.weighted_bytes()
        );
        // Bytes: 64 KiB of 4 KiB bodies, though 1,000 entries are allowed.
        let c = ScoreCache::new(1000, 64 << 10, Duration::from_secs(60));
        for i in 0..200 {
            c.insert(key(i), Bytes::from(vec![b' '; 4096]));
        }
        let (n, bytes) = (c.entries(), c.weighted_bytes());
        assert!(
            bytes <= 64 << 10,
            "case: 4 KiB bodies: {bytes} bytes of at most 64 KiB"
        );
        assert!((8..=15).contains(&n), "case: 4 KiB bodies: {n} entries");
        assert_eq!(
            bytes,
            n * (4096 + ENTRY_OVERHEAD),
            "case: each weighs its body and overhead"
        );
        // Either bound at 0 turns the cache off.
        let off = ScoreCache::new(1000, 0, Duration::from_secs(60));
        off.insert(key(1), Bytes::from_static(b"{}"));
        assert_eq!(
            (off.get(&key(1)), off.entries()),
            (None, 0),
            "case: max bytes 0"
        );
    }

    #[test]
    fn the_front_holds_nothing_when_off_stale_or_long_and_stays_bounded() {
        let req = b"{}";
        let body = Bytes::from_static(b"{}");
        let off = ScoreCache::new(0, 1 << 20, Duration::from_secs(60));
        off.remember_request(req, &body);
        assert_eq!(off.get_by_request(req), None, "case: cache size 0");
        let stale = ScoreCache::new(10, 1 << 20, Duration::ZERO);
        stale.remember_request(req, &body);
        assert_eq!(stale.get_by_request(req), None, "case: TTL 0");
        let c = ScoreCache::new(10_000, 1 << 20, Duration::from_secs(60));
        let long = vec![b' '; FRONT_MAX_REQUEST + 1];
        c.remember_request(&long, &body);
        assert_eq!(
            c.get_by_request(&long),
            None,
            "case: request over {FRONT_MAX_REQUEST} bytes"
        );
        // 10,000 distinct 1 KiB requests: the front keeps to a quarter of 1 MiB.
        for i in 0..10_000u32 {
            let mut r = vec![b' '; FRONT_MAX_REQUEST];
            r[..4].copy_from_slice(&i.to_le_bytes());
            c.remember_request(&r, &body);
        }
        let w = c.front_weighted_bytes();
        assert!(w <= (1 << 20) / 4, "case: front bound: {w} bytes");
        assert!(
            w >= (1 << 20) / 8,
            "case: the front still remembers: {w} bytes"
        );
    }

    /// A document is resolved once however often it comes (a batch, a
    /// ledger); other bytes are resolved apart.
    #[test]
    fn a_document_is_resolved_once() {
        let c = RulesetCache::new();
        let calls = std::cell::Cell::new(0);
        let resolve = || {
            calls.set(calls.get() + 1);
            Err(Arc::new(vec![]))
        };
        for _ in 0..3 {
            assert!(c
                .get_or_resolve(b"{\"extends\":\"hkma\"}", resolve)
                .is_err());
        }
        assert_eq!(calls.get(), 1, "case: the same bytes three times");
        let _ = c.get_or_resolve(b"{\"extends\": \"hkma\"}", resolve);
        assert_eq!(calls.get(), 2, "case: other bytes");
        // 5,000 documents of 4 KiB: the cache keeps to its byte bound.
        for i in 0..5_000u32 {
            let mut doc = vec![b' '; 4096];
            doc[..4].copy_from_slice(&i.to_le_bytes());
            let _ = c.get_or_resolve(&doc, || Err(Arc::new(vec![])));
        }
        let n = c.entries();
        assert!(
            n * (4096 + RULESET_OVERHEAD) <= RULESETS_MAX_BYTES && n >= 100,
            "case: bounded: {n} entries"
        );
    }
}
