//! The scoring service every entry point calls (HTTP handlers, the CLI),
//! in two halves:
//!
//! - `pipeline`, typed: a `Resolved` ruleset and checked hands in,
//!   `Scored` / `Settled` / `Played` / `Analyzed` out. It knows no JSON, no
//!   bytes and no DTO.
//! - `wire`: parse (request bodies into DTOs), resolve (`wire::resolve`: a
//!   ruleset and `HouseRulesDto` into the core's types, the one crossing
//!   into the pipeline), render (`render`, the hand-written writer), and
//!   the byte-keyed cache front. The HTTP handlers and the CLI use it.
//!
//! Beside them `key` (the canonical key and `hand_hash`, typed) and `cache`
//! (moka: bodies by `hand_hash` and, in front, by request bytes, which the
//! wire reads and fills; resolved ruleset documents by their bytes, which
//! `wire::resolve` reads).
//!
//! ```text
//! request bytes ─► same bytes lately? (cache front) ─► hit: stored body
//!       │ wire parse: api::json::parse
//!       ▼
//! wire resolve: ruleset + HouseRules::try_from ─► Resolved
//!       ▼
//! pipeline: check (Hand/Context::try_from, key::key_hash) ─► cache? ─► hit
//!                                                   │ miss
//!                    pipeline: score (core::evaluate) ◄┘
//!                                       │
//!      wire render: render::score_json (= serde of api::ScoreResponse) ─► body (cached)
//! ```
//!
//! No HTTP here.

pub mod cache;
pub mod error;
pub mod key;
pub mod pipeline;
pub mod wire;

pub use error::ServiceError;
pub(crate) use pipeline::check_hand_size;
pub use pipeline::{Analyzed, Checked, Played, Resolved, Scored, Settled};
pub use wire::to_json;

use crate::core::Registry;
use cache::{RulesetCache, ScoreCache};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The default body limits, in bytes: the server's (`--body-limit` and
/// the others) and the WebAssembly module's, which answers a longer body
/// with the server's 413.
pub const BODY_LIMIT: usize = 64 * 1024;
/// `POST /v1/score/batch` and `/v1/compare`.
pub const BATCH_BODY_LIMIT: usize = 1024 * 1024;
/// `POST /v1/ledger` (and a table created with its night).
pub const LEDGER_BODY_LIMIT: usize = 4 * 1024 * 1024;

/// Limits the pipeline enforces on what it reads (the body limits are the
/// transport's).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest JSON nesting accepted in a body.
    pub json_depth: usize,
    /// Most requests in one batch.
    pub batch: usize,
    /// Most hands in one ledger.
    pub ledger_hands: usize,
    /// Most bytes of a ruleset document sent with a request.
    pub ruleset_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            json_depth: 32,
            batch: 1000,
            ledger_hands: 2000,
            ruleset_bytes: 32 * 1024,
        }
    }
}

/// Whether a score body came from the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheStatus {
    Hit,
    Miss,
}

impl CacheStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CacheStatus::Hit => "hit",
            CacheStatus::Miss => "miss",
        }
    }
}

/// Most tile digits in `hand.tiles` and most melds: far above any real hand
/// (18 tiles, 4 melds), low enough that no tile count can overflow later.
pub const MAX_TILE_DIGITS: usize = 32;
pub const MAX_MELDS: usize = 4;

/// The rulesets, the cache and the counts of hits and misses.
pub struct Service {
    registry: Arc<Registry>,
    cache: ScoreCache,
    documents: RulesetCache,
    limits: Limits,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl Service {
    pub fn new(registry: Arc<Registry>, cache: ScoreCache, limits: Limits) -> Self {
        Service::with_caches(registry, cache, RulesetCache::new(), limits)
    }

    fn with_caches(
        registry: Arc<Registry>,
        cache: ScoreCache,
        documents: RulesetCache,
        limits: Limits,
    ) -> Self {
        Service {
            registry,
            cache,
            documents,
            limits,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The built-in rulesets, no cache of scores or of ruleset documents:
    /// what the CLI and the WebAssembly module use (moka is never built, so
    /// its clock, which panics on `wasm32-unknown-unknown`, is never read).
    pub fn uncached(registry: Registry) -> Self {
        Service::with_caches(
            Arc::new(registry),
            ScoreCache::new(0, 0, std::time::Duration::ZERO),
            RulesetCache::off(),
            Limits::default(),
        )
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub fn cache(&self) -> &ScoreCache {
        &self.cache
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Score results answered from the cache and scored, since start.
    pub fn cache_counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }

    fn count(&self, status: CacheStatus) {
        let c = match status {
            CacheStatus::Hit => &self.hits,
            CacheStatus::Miss => &self.misses,
        };
        c.fetch_add(1, Ordering::Relaxed);
    }
}
