//! Shared tables and groups (api-contract.md, "Shared tables: /v1/tables",
//! "Groups"): a table is a ledger request kept by the server under an id,
//! answered with the ledger's answer. Every rule of the night stays the
//! ledger's: a change is the stored request with one hand more or less,
//! played again by `service::Service::ledger`.
//!
//! This module holds what HTTP does not need to know: ids and keys, the
//! store's runtime (every store call runs there, never on an HTTP worker),
//! the bounds (count, creation rate, event streams), the event hub and the
//! PostgreSQL listener that feeds it, and the JSON of a table and a group.

pub mod hub;
pub mod json;
pub mod metrics;
pub mod rate;

use crate::store::{GroupRow, NightRow, OpenError, Refused, Store, TableRow};
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
        let out = match self.rt.spawn(fut).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => {
                tracing::warn!(op = op.as_str(), error = %e, "store call failed");
                Err(Failure::Store)
            }
            Err(_) => Err(Failure::Store),
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
                let ok = tokio::time::timeout(HEALTH_EVERY, store.ping())
                    .await
                    .is_ok_and(|r| r.is_ok());
                if me.ready.swap(ok, Ordering::Relaxed) != ok {
                    if ok {
                        tracing::info!("store reachable again: ready");
                    } else {
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
        if self.store.kind() == "postgres" {
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

    /// Reads `"{id} {version}"` notifications and fans each table out to
    /// this instance's streams (once per notification, whatever the number
    /// of streams). After a lost connection every watched table is read
    /// again, since notifications sent meanwhile are gone.
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
            for id in self.hub.watched() {
                self.refresh(&id).await;
            }
            loop {
                match listener.try_recv().await {
                    Ok(Some(n)) => {
                        let mut parts = n.payload().splitn(2, ' ');
                        let (Some(id), Some(what)) = (parts.next(), parts.next()) else {
                            continue;
                        };
                        if what == "deleted" {
                            self.hub.deleted(id);
                        } else if let Ok(v) = what.parse::<i64>() {
                            if self.hub.wants(id, v) {
                                self.refresh(id).await;
                            }
                        }
                    }
                    // The connection was lost; the listener reconnects on the next call.
                    Ok(None) => {
                        for id in self.hub.watched() {
                            self.refresh(&id).await;
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "store listener failed");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        break;
                    }
                }
            }
        }
    }

    /// Reads a table and offers it to its streams.
    async fn refresh(&self, id: &str) {
        match self.store.table(id).await {
            Ok(Some(row)) => self.hub.publish(id, row.version, &json::table(&row)),
            Ok(None) => self.hub.deleted(id),
            Err(e) => tracing::warn!(error = %e, "store listener: cannot read a table"),
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

    /// Stores a new table.
    pub async fn insert(&self, row: TableRow) -> Result<Result<(), Refused>, Failure> {
        let store = self.store.clone();
        let max = self.args.tables_max;
        let out = self
            .run(metrics::Op::Create, async move {
                store.insert_table(&row, max).await
            })
            .await?;
        if out.is_ok() {
            self.metrics.created_table();
        }
        Ok(out)
    }

    /// Replaces a table's request and answer if its version is still
    /// `row.version`: the table as committed, or `None` when the version
    /// moved or the table is gone.
    pub async fn update(
        &self,
        row: &TableRow,
        request: String,
        ledger: String,
        summary: String,
    ) -> Result<Option<TableRow>, Failure> {
        let store = self.store.clone();
        let now = self.store.clock.now_ms();
        let new = TableRow {
            version: row.version + 1,
            updated_at: now,
            touched_at: now,
            request,
            ledger,
            summary,
            ..row.clone()
        };
        let (id, expected) = (row.id.clone(), row.version);
        let (request, ledger, summary) =
            (new.request.clone(), new.ledger.clone(), new.summary.clone());
        let version = self
            .run(metrics::Op::Update, async move {
                store
                    .update_table(&id, expected, &request, &ledger, &summary, now)
                    .await
            })
            .await?;
        match version {
            Some(v) if v == new.version => {
                self.hub.publish(&new.id, new.version, &json::table(&new));
                Ok(Some(new))
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
