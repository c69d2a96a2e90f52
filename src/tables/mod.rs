//! Shared tables and groups (docs/tables.md): a table is a night kept by
//! the server under an id, answered with the ledger's answer. Every rule of
//! the night stays the ledger's: a change plays one hand onto the night's
//! state with the ledger's own code (`night`), or drops one.
//!
//! This module holds what HTTP does not need to know: ids and keys, the
//! typed requests and their plays (`night`), the store's runtime (every
//! store call runs there, never on an HTTP worker), the bounds (count,
//! creation rate, event streams), the event hub and the PostgreSQL
//! listener that feeds it, and the JSON of a table and a group.

pub mod hub;
pub mod json;
pub mod metrics;
pub mod night;
pub mod rate;

use crate::store::{
    Change, GroupRow, HandRow, HeadUpdate, Kept, NightRow, OpenError, Refused, Store, TableRow,
};
use base64::Engine;
use clap::Args;
use hub::Hub;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use subtle::ConstantTimeEq;

/// The flags of shared tables (part of `faan serve`).
#[derive(Args, Debug, Clone)]
pub struct TablesArgs {
    /// Where tables are kept: `sqlite:PATH` (the folder is made), `postgres://...`, or `none` (no tables).
    #[arg(long, env = "FAAN_STORE", default_value = DEFAULT_STORE)]
    pub store: String,
    /// Connections to the store.
    #[arg(long, env = "FAAN_STORE_CONNECTIONS", default_value_t = 8)]
    pub store_connections: u32,
    /// Most tables in all; past it a new table is a 503 `/problems/tables-full`.
    #[arg(long, env = "FAAN_TABLES_MAX", default_value_t = 100_000)]
    pub tables_max: u64,
    /// Most new tables (and, apart, new groups) per client address an hour; past it a 429.
    #[arg(long, env = "FAAN_TABLES_PER_HOUR", default_value_t = 30)]
    pub tables_per_hour: u32,
    /// Take the client address from the last hop of `X-Forwarded-For` (behind a proxy you run).
    #[arg(long, env = "FAAN_TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// Days a table neither read nor changed is kept.
    #[arg(long, env = "FAAN_TABLE_TTL_DAYS", default_value_t = 90)]
    pub table_ttl_days: u64,
    /// Most event streams on one table.
    #[arg(long, env = "FAAN_EVENTS_PER_TABLE", default_value_t = 16)]
    pub events_per_table: usize,
    /// Most event streams in all (outside --max-connections: streams have their own budget).
    #[arg(long, env = "FAAN_EVENTS_MAX", default_value_t = DEFAULT_EVENTS_MAX)]
    pub events_max: usize,
    /// Most groups in all; past it a new group is a 503 `/problems/groups-full`.
    #[arg(long, env = "FAAN_GROUPS_MAX", default_value_t = 10_000)]
    pub groups_max: u64,
}

/// Event streams an instance holds by default: each costs its connection's
/// bytes, not a place in `--max-connections` (docs/operations.md, "Memory").
pub const DEFAULT_EVENTS_MAX: usize = 10_000;

/// The default store, relative to the working directory.
pub const DEFAULT_STORE: &str = "sqlite:faan-data/tables.db";

impl Default for TablesArgs {
    fn default() -> Self {
        TablesArgs {
            store: DEFAULT_STORE.into(),
            store_connections: 8,
            tables_max: 100_000,
            tables_per_hour: 30,
            trust_forwarded_for: false,
            table_ttl_days: 90,
            events_per_table: 16,
            events_max: DEFAULT_EVENTS_MAX,
            groups_max: 10_000,
        }
    }
}

/// Seconds a client is told to wait when a count bound is reached.
pub const RETRY_AFTER_FULL: u64 = 3600;
/// Seconds a client is told to wait when the stream bounds are reached.
pub const RETRY_AFTER_STREAMS: u64 = 30;
/// Seconds a client is told to wait when the store does not answer.
pub const RETRY_AFTER_STORE: u64 = 5;
/// How often readiness pings the store and the gauges are counted.
const HEALTH_EVERY: Duration = Duration::from_secs(2);
/// Tables caught up at once from the store after notifications (within
/// `--store-connections`).
const CATCH_UP_AT_ONCE: usize = 4;
/// Notifications read before catching up the tables they name.
const CATCH_UP_BATCH: usize = 256;
/// How often the TTL sweep runs.
const SWEEP_EVERY: Duration = Duration::from_secs(3600);
/// A read marks a table touched only when its mark is older than this, so
/// that reads stay reads.
const TOUCH_AFTER_MS: i64 = 24 * 3600 * 1000;

/// 128 random bits from the operating system, base64url (22 characters).
pub fn random_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// Whether `s` could be a token: 22 base64url characters. Anything else is
/// no table, answered without asking the store.
pub fn is_token(s: &str) -> bool {
    s.len() == 22
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// SHA-256 of a key, hex: what is stored.
pub fn key_hash(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// Whether `key` is the key whose digest is `stored`, in constant time.
pub fn key_matches(key: &str, stored: &str) -> bool {
    let given = key_hash(key);
    given.as_bytes().ct_eq(stored.as_bytes()).into()
}

/// Why a table operation failed, besides the ledger's own problems.
#[derive(Debug)]
pub enum Failure {
    /// The store did not answer or failed.
    Store,
    /// The operating system's generator failed.
    Random,
}

impl From<sqlx::Error> for Failure {
    fn from(_: sqlx::Error) -> Self {
        Failure::Store
    }
}

/// The live side of tables: the store, its runtime, the hub and the bounds.
pub struct Live {
    pub store: Store,
    rt: tokio::runtime::Handle,
    pub hub: Hub,
    pub rate_tables: rate::RateLimit,
    pub rate_groups: rate::RateLimit,
    pub args: TablesArgs,
    pub metrics: metrics::TableMetrics,
    ready: AtomicBool,
}

/// Shared tables as the HTTP layer sees them: off (`--store none`) or live.
pub struct Tables {
    pub live: Option<Arc<Live>>,
}

impl Tables {
    /// No tables (`--store none`).
    pub fn disabled() -> Tables {
        Tables { live: None }
    }

    /// Opens the store on a runtime of its own (a thread named `faan-store`)
    /// and starts the readiness probe, the TTL sweep and, on PostgreSQL, the
    /// listener. Returns once the store is open and migrated.
    pub fn open(args: &TablesArgs) -> Result<Tables, OpenError> {
        if args.store == "none" {
            return Ok(Tables::disabled());
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let url = args.store.clone();
        let connections = args.store_connections;
        let spawned = std::thread::Builder::new()
            .name("faan-store".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = tx.send(Err(OpenError::Url(format!("{url}: runtime: {e}"))));
                        return;
                    }
                };
                let opened = rt.block_on(Store::open(&url, connections));
                let _ = tx.send(opened.map(|s| (s, rt.handle().clone())));
                // The store's tasks run here for the life of the process.
                rt.block_on(std::future::pending::<()>());
            });
        if let Err(e) = spawned {
            return Err(OpenError::Url(format!("{}: thread: {e}", args.store)));
        }
        let (store, rt) = rx
            .recv()
            .map_err(|_| OpenError::Url(args.store.clone()))??;
        let live = Arc::new(Live {
            store,
            rt,
            hub: Hub::new(args.events_per_table, args.events_max),
            rate_tables: rate::RateLimit::new(args.tables_per_hour),
            rate_groups: rate::RateLimit::new(args.tables_per_hour),
            args: args.clone(),
            metrics: metrics::TableMetrics::new(),
            ready: AtomicBool::new(true),
        });
        live.start_background();
        Ok(Tables { live: Some(live) })
    }

    /// Splits the tables an older faan stored whole (request and answer in
    /// one text each) into a head and hands, before the server serves:
    /// how many. A table whose night no longer plays (a ruleset since
    /// removed) is left whole, with a warning: it still reads, and
    /// refuses changes.
    pub fn split_whole(&self, service: &crate::service::Service) -> Result<usize, OpenError> {
        let Some(live) = &self.live else {
            return Ok(0);
        };
        let store = live.store.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        live.rt.spawn(async move {
            let _ = tx.send(store.whole_tables().await);
        });
        let ids = rx
            .recv()
            .map_err(|_| OpenError::Url(live.args.store.clone()))?
            .map_err(|source| OpenError::Connect {
                url: crate::store::redact(&live.args.store),
                source,
            })?;
        let mut split = 0;
        for id in ids {
            let store = live.store.clone();
            let (tx, rx) = std::sync::mpsc::channel();
            live.rt.spawn(async move {
                let _ = tx.send(store.table(&id).await);
            });
            let Ok(Ok(Some(row))) = rx.recv() else {
                continue;
            };
            let played = night::parts_of_whole(&row.night)
                .and_then(|(n, hands)| Ok((night::play_night(service, &n, &hands)?, n, hands)));
            let (played, n, _) = match played {
                Ok(p) => p,
                Err(e) => {
                    tracing::warn!(table = %row.id, error = %e, "a table stored whole does not play: left whole");
                    continue;
                }
            };
            let new = TableRow {
                night: n,
                ledger: played.head.ledger,
                summary: played.head.summary,
                state: Some(played.head.state),
                hands: played.hands.len() as i64,
                ..row.clone()
            };
            let store = live.store.clone();
            let (tx, rx) = std::sync::mpsc::channel();
            live.rt.spawn(async move {
                let _ = tx.send(store.split_table(&new, &played.hands).await);
            });
            if let Ok(Ok(true)) = rx.recv() {
                split += 1;
            }
        }
        if split > 0 {
            tracing::info!(tables = split, "tables stored whole split into hands");
        }
        Ok(split)
    }

    /// Whether the store (if any) answered its last ping.
    pub fn ready(&self) -> bool {
        self.live
            .as_ref()
            .is_none_or(|l| l.ready.load(Ordering::Relaxed))
    }

    /// The Prometheus text of the tables' metrics (empty without a store).
    pub fn render_metrics(&self) -> String {
        match &self.live {
            Some(l) => l.metrics.render(l.hub.streams()),
            None => String::new(),
        }
    }
}

impl Live {
    /// Runs a store call on the store's runtime, timed and counted under `op`.
    pub async fn run<T, F>(&self, op: metrics::Op, fut: F) -> Result<T, Failure>
    where
        F: std::future::Future<Output = Result<T, sqlx::Error>> + Send + 'static,
        T: Send + 'static,
    {
        let start = Instant::now();
        // A SQLite file removed or replaced takes every write to a file
        // nobody will read again: looked at before the call, and after it
        // before anything is acknowledged (`store::health`).
        let store = self.store.clone();
        let checked = async move {
            store.check()?;
            let out = fut.await;
            store.check()?;
            Ok(out)
        };
        let out = match self.rt.spawn(checked).await {
            Ok(Ok(Ok(v))) => Ok(v),
            Ok(Ok(Err(e))) => {
                tracing::warn!(op = op.as_str(), error = %e, "store call failed");
                Err(Failure::Store)
            }
            Ok(Err(crate::store::Lost)) | Err(_) => Err(Failure::Store),
        };
        self.metrics.observe(op, start.elapsed(), out.is_err());
        out
    }

    fn start_background(self: &Arc<Self>) {
        // Readiness and gauges.
        let me = self.clone();
        self.rt.spawn(async move {
            let mut tick = tokio::time::interval(HEALTH_EVERY);
            let mut counted = Instant::now() - Duration::from_secs(3600);
            loop {
                tick.tick().await;
                let store = me.store.clone();
                // The file first: a lost store may still answer a ping.
                let ok = store.check().is_ok()
                    && tokio::time::timeout(HEALTH_EVERY, async {
                        store.ping().await.is_ok() && store.still_the_one().await
                    })
                    .await
                    .unwrap_or(false);
                if me.ready.swap(ok, Ordering::Relaxed) != ok {
                    if ok {
                        tracing::info!("store reachable again: ready");
                    } else if !store.lost() {
                        tracing::warn!("store unreachable: not ready");
                    }
                }
                if ok && counted.elapsed() >= Duration::from_secs(15) {
                    counted = Instant::now();
                    if let (Ok(t), Ok(g)) = (store.count_tables().await, store.count_groups().await)
                    {
                        me.metrics.set_counts(t, g);
                    }
                }
            }
        });
        // The TTL sweep.
        let me = self.clone();
        self.rt.spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            loop {
                tick.tick().await;
                me.sweep_once().await;
            }
        });
        // Changes other instances committed (PostgreSQL).
        if self.store.backend().shared() {
            let me = self.clone();
            self.rt.spawn(async move { me.listen().await });
        }
    }

    /// Deletes the tables past the TTL and tells their streams: how many.
    pub async fn sweep_once(&self) -> usize {
        let ttl_ms = i64::try_from(self.args.table_ttl_days)
            .unwrap_or(i64::MAX / 86_400_000)
            .saturating_mul(86_400_000);
        let cutoff = self.store.clock.now_ms().saturating_sub(ttl_ms);
        let store = self.store.clone();
        match self
            .run(metrics::Op::Sweep, async move { store.sweep(cutoff).await })
            .await
        {
            Ok(ids) => {
                for id in &ids {
                    self.hub.deleted(id);
                }
                if !ids.is_empty() {
                    tracing::info!(deleted = ids.len(), "TTL sweep");
                }
                ids.len()
            }
            Err(_) => 0,
        }
    }

    /// Hears the changes other instances committed ([`Change`]) and offers
    /// each to this instance's streams, once per change whatever the
    /// number of streams. After a lost connection every watched table is
    /// caught up again, since notifications sent meanwhile are gone.
    async fn listen(self: Arc<Self>) {
        loop {
            let mut listener = match self.store.listener().await {
                Ok(Some(l)) => l,
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!(error = %e, "store listener: cannot connect");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            };
            self.catch_up_all(self.hub.watched()).await;
            loop {
                match listener.try_recv().await {
                    Ok(Some(first)) => {
                        // Every notification already here, each watched
                        // table that is behind caught up once.
                        let mut behind: Vec<String> = Vec::new();
                        let mut next = Some(first);
                        while let Some(n) = next.take() {
                            match Change::parse(n.payload()) {
                                Some(Change::Deleted { id }) => self.hub.deleted(&id),
                                Some(Change::Version { id, version })
                                    if self.hub.wants(&id, version) && !behind.contains(&id) =>
                                {
                                    behind.push(id);
                                }
                                Some(Change::Version { .. }) | None => {}
                            }
                            if behind.len() < CATCH_UP_BATCH {
                                next = listener.next_buffered();
                            }
                        }
                        self.catch_up_all(behind).await;
                    }
                    // The connection was lost; the listener reconnects on the next call.
                    Ok(None) => self.catch_up_all(self.hub.watched()).await,
                    Err(e) => {
                        tracing::warn!(error = %e, "store listener failed");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        break;
                    }
                }
            }
        }
    }

    /// Catches up `ids`, at most [`CATCH_UP_AT_ONCE`] at a time: one
    /// instance hears every instance's changes, and a table read at a time
    /// falls behind them.
    async fn catch_up_all(&self, ids: Vec<String>) {
        use futures_util::StreamExt;
        futures_util::stream::iter(ids)
            .for_each_concurrent(
                CATCH_UP_AT_ONCE,
                |id| async move { self.catch_up(&id).await },
            )
            .await;
    }

    /// Offers a watched table's changes since the latest version known
    /// here to its streams, from the store; a change no longer kept, or a
    /// deleted table, is told as such.
    async fn catch_up(&self, id: &str) {
        let Some(after) = self.hub.latest(id) else {
            return;
        };
        match self.store.changes_since(id, after).await {
            Ok(changes) if !changes.is_empty() => {
                for c in changes {
                    let event = hub::frame(&c.kind, c.version, c.data.as_bytes());
                    self.hub.publish(id, c.version, event);
                }
            }
            Ok(_) => match self.store.table(id).await {
                Ok(Some(row)) => self.hub.seen(id, row.version),
                Ok(None) => self.hub.deleted(id),
                Err(e) => tracing::warn!(error = %e, "store listener: cannot read a table"),
            },
            Err(e) => tracing::warn!(error = %e, "store listener: cannot read changes"),
        }
    }

    /// The table with this id, marked read when its mark is old.
    pub async fn read(&self, id: &str) -> Result<Option<TableRow>, Failure> {
        let store = self.store.clone();
        let owned = id.to_string();
        let row = self
            .run(metrics::Op::Read, async move { store.table(&owned).await })
            .await?;
        if let Some(r) = &row {
            let now = self.store.clock.now_ms();
            if now - r.touched_at > TOUCH_AFTER_MS {
                let store = self.store.clone();
                let owned = id.to_string();
                // A failed mark only shortens the table's life; the read stands.
                let _ = self
                    .run(
                        metrics::Op::Touch,
                        async move { store.touch(&owned, now).await },
                    )
                    .await;
            }
        }
        Ok(row)
    }

    /// A table's head and hands, as one version.
    pub async fn whole(
        &self,
        id: &str,
    ) -> Result<Option<(TableRow, Vec<(String, String)>)>, Failure> {
        let store = self.store.clone();
        let owned = id.to_string();
        self.run(
            metrics::Op::Read,
            async move { store.table_whole(&owned).await },
        )
        .await
    }

    /// The state stored with hand `idx` of a table (the night after it).
    pub async fn hand_state(&self, id: &str, idx: i64) -> Result<Option<String>, Failure> {
        let store = self.store.clone();
        let owned = id.to_string();
        self.run(metrics::Op::Read, async move {
            store.hand_state(&owned, idx).await
        })
        .await
    }

    /// A table's changes after `after`, oldest first.
    pub async fn changes_since(&self, id: &str, after: i64) -> Result<Vec<Kept>, Failure> {
        let store = self.store.clone();
        let owned = id.to_string();
        self.run(metrics::Op::Read, async move {
            store.changes_since(&owned, after).await
        })
        .await
    }

    /// Stores a new table with its hands.
    pub async fn insert(
        &self,
        row: TableRow,
        hands: Vec<HandRow>,
    ) -> Result<Result<(), Refused>, Failure> {
        let store = self.store.clone();
        let max = self.args.tables_max;
        let out = self
            .run(metrics::Op::Create, async move {
                store.insert_table(&row, &hands, max).await
            })
            .await?;
        if out.is_ok() {
            self.metrics.created_table();
        }
        Ok(out)
    }

    /// Commits a change of the table `row` (still at its version): a hand
    /// added (`Some`) or the last one dropped (`None`), with the new head.
    /// Answers the head as committed with the change's event data, which
    /// its streams are offered; or `None` when the version moved or the
    /// table is gone.
    pub async fn change(
        &self,
        row: &TableRow,
        head: night::Head,
        hand: Option<HandRow>,
    ) -> Result<Option<(TableRow, Vec<u8>)>, Failure> {
        let now = self.store.clock.now_ms();
        let new = TableRow {
            version: row.version + 1,
            updated_at: now,
            touched_at: now,
            ledger: head.ledger,
            summary: head.summary,
            state: Some(head.state),
            hands: row.hands + if hand.is_some() { 1 } else { -1 },
            ..row.clone()
        };
        let (kind, data) = match &hand {
            Some(h) => ("hand", json::hand_change(&new, &h.request, &h.answer)),
            None => ("undo", json::undo_change(&new)),
        };
        let store = self.store.clone();
        let (old, stored, text) = (
            row.clone(),
            new.clone(),
            String::from_utf8(data.clone()).unwrap_or_default(),
        );
        let version = self
            .run(metrics::Op::Update, async move {
                let head = HeadUpdate {
                    ledger: &stored.ledger,
                    summary: &stored.summary,
                    state: stored.state.as_deref().unwrap_or_default(),
                    now,
                };
                match &hand {
                    Some(h) => store.append_hand(&old, &head, h, &text).await,
                    None => store.drop_hand(&old, &head, &text).await,
                }
            })
            .await?;
        match version {
            Some(v) if v == new.version => {
                self.hub
                    .publish(&new.id, new.version, hub::frame(kind, new.version, &data));
                Ok(Some((new, data)))
            }
            Some(_) => Err(Failure::Store),
            None => Ok(None),
        }
    }

    /// Deletes a table: whether it was there.
    pub async fn delete(&self, id: &str) -> Result<bool, Failure> {
        let store = self.store.clone();
        let owned = id.to_string();
        let gone = self
            .run(metrics::Op::Delete, async move {
                store.delete_table(&owned).await
            })
            .await?;
        if gone {
            self.hub.deleted(id);
        }
        Ok(gone)
    }

    pub async fn group(&self, id: &str) -> Result<Option<GroupRow>, Failure> {
        let store = self.store.clone();
        let owned = id.to_string();
        self.run(metrics::Op::Group, async move { store.group(&owned).await })
            .await
    }

    pub async fn nights(&self, id: &str) -> Result<Vec<NightRow>, Failure> {
        let store = self.store.clone();
        let owned = id.to_string();
        self.run(
            metrics::Op::Group,
            async move { store.nights(&owned).await },
        )
        .await
    }

    pub async fn insert_group(&self, row: GroupRow) -> Result<Result<(), Refused>, Failure> {
        let store = self.store.clone();
        let max = self.args.groups_max;
        self.run(metrics::Op::Group, async move {
            store.insert_group(&row, max).await
        })
        .await
    }

    pub async fn delete_group(&self, id: &str) -> Result<bool, Failure> {
        let store = self.store.clone();
        let owned = id.to_string();
        self.run(metrics::Op::Group, async move {
            store.delete_group(&owned).await
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bits_in_base64url() {
        // 16 bytes in base64 without padding: ceil(128 / 6) = 22 characters.
        let a = random_token().unwrap();
        let b = random_token().unwrap();
        assert_eq!(a.len(), 22);
        assert!(is_token(&a));
        assert_ne!(a, b);
        assert!(!is_token("not-a-token"));
        assert!(!is_token("aaaaaaaaaaaaaaaaaaaaa/"));
    }

    #[test]
    fn a_key_matches_only_its_digest() {
        // SHA-256("abc") is the FIPS 180-2 example digest.
        assert_eq!(
            key_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(key_matches("abc", &key_hash("abc")));
        assert!(!key_matches("abd", &key_hash("abc")));
    }
}
