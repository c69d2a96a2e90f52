//! Where shared tables and groups are kept: SQLite (embedded, the default)
//! or PostgreSQL, through one query layer (`sqlx`). The SQL is the same text
//! for both (`$1` placeholders, which SQLite reads too); PostgreSQL adds a
//! `NOTIFY` in the transaction of each change, so that every instance hears
//! of changes another committed.
//!
//! Nothing here runs on the HTTP workers: `tables::Tables` runs every call on
//! the store's own runtime. sqlx's SQLite driver does its blocking work on a
//! worker thread of its own per connection; PostgreSQL is plain async IO.
//!
//! Every call that returns `Ok` after a write has committed it: SQLite in WAL
//! mode with `synchronous=FULL`, PostgreSQL after `COMMIT`.

mod health;

pub use health::Lost;
use sqlx::migrate::{MigrateError, Migration, MigrationType, Migrator};
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;
use std::borrow::Cow;
use std::str::FromStr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The channel every change is announced on (PostgreSQL): [`Change`]'s
/// payload.
pub const CHANNEL: &str = "faan_tables";

/// The migrations built into this binary, in order. A store that has one
/// this list lacks was made by a newer binary and is refused.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "tables and groups",
        include_str!("migrations/0001_tables.sql"),
    ),
    (
        2,
        "tables hand by hand",
        include_str!("migrations/0002_hands.sql"),
    ),
];

/// The newest schema version this binary knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// Why the store could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("--store {0:?}: expected sqlite:PATH, postgres://... or none")]
    Url(String),
    #[error("--store {url}: cannot make the folder {folder}: {source}")]
    Folder {
        url: String,
        folder: String,
        source: std::io::Error,
    },
    #[error("--store {url}: cannot connect: {source}")]
    Connect { url: String, source: sqlx::Error },
    #[error(
        "--store {url}: the store is newer than this binary (it has schema version {found}; \
         this faan knows versions 1 to {SCHEMA_VERSION}): run a faan at least as new as the one \
         that last used it"
    )]
    Newer { url: String, found: i64 },
    #[error("--store {url}: migrating the schema failed: {source}")]
    Migrate { url: String, source: MigrateError },
}

/// One table's head as stored: everything but its hands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    pub id: String,
    /// SHA-256 of the key, hex.
    pub key_hash: String,
    pub title: Option<String>,
    pub group_id: Option<String>,
    /// How many changes were ever made (1 at creation).
    pub version: i64,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub updated_at: i64,
    /// Last read or change (what the TTL sweep goes by).
    pub touched_at: i64,
    /// The ledger request without its hands, JSON (column `request`).
    pub night: String,
    /// The ledger's answer without its hands, JSON (column `ledger`).
    pub ledger: String,
    /// What a group shows of the night, JSON.
    pub summary: String,
    /// The night after its last hand (`service::wire::night::NightState`),
    /// JSON. `None` for a table an older faan stored whole (`night` and
    /// `ledger` then hold the whole request and answer) until start-up
    /// splits it.
    pub state: Option<String>,
    /// How many hands it has.
    pub hands: i64,
}

/// One hand of a table as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandRow {
    /// The hand as the ledger request holds it, JSON.
    pub request: String,
    /// Its row of the ledger's answer, JSON.
    pub answer: String,
    /// The night after it, JSON.
    pub state: String,
}

/// One group as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupRow {
    pub id: String,
    pub key_hash: String,
    pub name: String,
    pub created_at: i64,
}

/// A night of a group: the columns a group's page needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NightRow {
    pub id: String,
    pub title: Option<String>,
    pub created_at: i64,
    pub summary: String,
}

/// Why an insert was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The count bound (`--tables-max`, `--groups-max`).
    Full,
    /// The group already has its most nights.
    GroupFull,
}

/// A clock in milliseconds since the Unix epoch, moved by an offset tests set.
#[derive(Clone, Debug, Default)]
pub struct Clock(Arc<AtomicI64>);

impl Clock {
    pub fn now_ms(&self) -> i64 {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        now + self.0.load(Ordering::Relaxed)
    }

    /// Moves the clock on by `ms` (tests: the TTL sweep).
    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::Relaxed);
    }
}

/// The store's backend. A new backend is one variant here, one in `Pool`,
/// and its SQL where it differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Embedded, one instance.
    Sqlite,
    /// Shared by several instances, which hear of each other's changes.
    Postgres,
}

impl Backend {
    /// Whether other instances change the same tables (so their changes
    /// must be listened for).
    pub const fn shared(self) -> bool {
        matches!(self, Backend::Postgres)
    }
}

#[derive(Clone, Debug)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The store: a connection pool to SQLite or PostgreSQL.
#[derive(Clone, Debug)]
pub struct Store {
    pool: Pool,
    pub clock: Clock,
    /// What the store was when opened (`health`).
    health: Arc<health::Health>,
}

/// Runs the same expression on whichever pool the store has (each arm is
/// type-checked for its own driver).
macro_rules! on {
    ($self:expr, $p:ident => $e:expr) => {
        match &$self.pool {
            Pool::Sqlite($p) => $e,
            Pool::Postgres($p) => $e,
        }
    };
}

mod tables;

pub use tables::{Change, HeadUpdate, Kept, KEPT_CHANGES};

/// The most nights one group holds.
pub const GROUP_NIGHTS: i64 = 1000;

impl Store {
    /// Opens `url` (`sqlite:PATH` or `postgres://...`) with at most
    /// `connections` connections, and migrates its schema.
    pub async fn open(url: &str, connections: u32) -> Result<Store, OpenError> {
        let connections = connections.max(1);
        let connect = |source| OpenError::Connect {
            url: redact(url),
            source,
        };
        let mut file = None;
        let pool = if let Some(rest) = url.strip_prefix("sqlite:") {
            let path = rest.strip_prefix("//").unwrap_or(rest);
            let path = path.split('?').next().unwrap_or(path);
            if path.is_empty() {
                return Err(OpenError::Url(url.into()));
            }
            if let Some(folder) = std::path::Path::new(path).parent() {
                if !folder.as_os_str().is_empty() {
                    std::fs::create_dir_all(folder).map_err(|source| OpenError::Folder {
                        url: url.into(),
                        folder: folder.display().to_string(),
                        source,
                    })?;
                }
            }
            let options = SqliteConnectOptions::from_str(url)
                .map_err(connect)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .busy_timeout(Duration::from_secs(5));
            if !url.contains(":memory:") && !url.contains("mode=memory") {
                file = Some(options.get_filename().to_path_buf());
            }
            Pool::Sqlite(
                SqlitePoolOptions::new()
                    .max_connections(connections)
                    .acquire_timeout(Duration::from_secs(5))
                    .connect_with(options)
                    .await
                    .map_err(connect)?,
            )
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let options = PgConnectOptions::from_str(url).map_err(connect)?;
            Pool::Postgres(
                PgPoolOptions::new()
                    .max_connections(connections)
                    .acquire_timeout(Duration::from_secs(5))
                    .connect_with(options)
                    .await
                    .map_err(connect)?,
            )
        } else {
            return Err(OpenError::Url(redact(url)));
        };
        let mut store = Store {
            pool,
            clock: Clock::default(),
            health: Arc::default(),
        };
        store.migrate(url).await?;
        store.health = store.identify(file.as_deref()).await.map_err(connect)?;
        Ok(store)
    }

    async fn migrate(&self, url: &str) -> Result<(), OpenError> {
        let migrator = Migrator {
            migrations: Cow::Owned(
                MIGRATIONS
                    .iter()
                    .map(|(v, d, sql)| {
                        Migration::new(
                            *v,
                            Cow::Borrowed(*d),
                            MigrationType::Simple,
                            Cow::Borrowed(*sql),
                            false,
                        )
                    })
                    .collect(),
            ),
            ignore_missing: false,
            locking: true,
            no_tx: false,
        };
        let result = on!(self, p => migrator.run(p).await);
        match result {
            Ok(()) => Ok(()),
            Err(MigrateError::VersionMissing(found)) => Err(OpenError::Newer {
                url: redact(url),
                found,
            }),
            Err(source) => Err(OpenError::Migrate {
                url: redact(url),
                source,
            }),
        }
    }

    /// Which backend this store is.
    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// A listener on [`CHANNEL`] when the store is PostgreSQL.
    pub async fn listener(&self) -> Result<Option<PgListener>, sqlx::Error> {
        match &self.pool {
            Pool::Sqlite(_) => Ok(None),
            Pool::Postgres(p) => {
                let mut l = PgListener::connect_with(p).await?;
                l.listen(CHANNEL).await?;
                Ok(Some(l))
            }
        }
    }

    /// Whether the store answers.
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        on!(self, p => sqlx::query("SELECT 1").execute(p).await.map(|_| ()))
    }

    /// How many tables there are.
    pub async fn count_tables(&self) -> Result<i64, sqlx::Error> {
        let sql = "SELECT COUNT(*) AS n FROM faan_tables";
        on!(self, p => sqlx::query(sql).fetch_one(p).await?.try_get("n"))
    }

    /// How many groups there are.
    pub async fn count_groups(&self) -> Result<i64, sqlx::Error> {
        let sql = "SELECT COUNT(*) AS n FROM faan_groups";
        on!(self, p => sqlx::query(sql).fetch_one(p).await?.try_get("n"))
    }

    /// Inserts a group unless there are `max` already.
    pub async fn insert_group(
        &self,
        g: &GroupRow,
        max: u64,
    ) -> Result<Result<(), Refused>, sqlx::Error> {
        let sql = "INSERT INTO faan_groups (id, key_hash, name, created_at) \
                   SELECT $1, $2, $3, $4 WHERE (SELECT COUNT(*) FROM faan_groups) < $5";
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let done = on!(self, p => sqlx::query(sql)
            .bind(&g.id)
            .bind(&g.key_hash)
            .bind(&g.name)
            .bind(g.created_at)
            .bind(max)
            .execute(p)
            .await?
            .rows_affected());
        Ok(if done == 1 {
            Ok(())
        } else {
            Err(Refused::Full)
        })
    }

    /// The group with this id.
    pub async fn group(&self, id: &str) -> Result<Option<GroupRow>, sqlx::Error> {
        let sql = "SELECT id, key_hash, name, created_at FROM faan_groups WHERE id = $1";
        on!(self, p => {
            match sqlx::query(sql).bind(id).fetch_optional(p).await? {
                Some(r) => Ok(Some(GroupRow {
                    id: r.try_get("id")?,
                    key_hash: r.try_get("key_hash")?,
                    name: r.try_get("name")?,
                    created_at: r.try_get("created_at")?,
                })),
                None => Ok(None),
            }
        })
    }

    /// A group's nights, newest first (at most [`GROUP_NIGHTS`]).
    pub async fn nights(&self, group: &str) -> Result<Vec<NightRow>, sqlx::Error> {
        let sql = "SELECT id, title, created_at, summary FROM faan_tables WHERE group_id = $1 \
                   ORDER BY created_at DESC, id LIMIT $2";
        on!(self, p => {
            let rows = sqlx::query(sql).bind(group).bind(GROUP_NIGHTS).fetch_all(p).await?;
            rows.iter()
                .map(|r| {
                    Ok(NightRow {
                        id: r.try_get("id")?,
                        title: r.try_get("title")?,
                        created_at: r.try_get("created_at")?,
                        summary: r.try_get("summary")?,
                    })
                })
                .collect()
        })
    }

    /// Deletes a group (its tables stay, in no group): whether it was there.
    pub async fn delete_group(&self, id: &str) -> Result<bool, sqlx::Error> {
        on!(self, p => {
            let mut tx = p.begin().await?;
            let gone = sqlx::query("DELETE FROM faan_groups WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            sqlx::query("UPDATE faan_tables SET group_id = NULL WHERE group_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(gone)
        })
    }

    /// Closes the pool (waits for the connections to close).
    pub async fn close(&self) {
        on!(self, p => p.close().await)
    }
}

async fn notify(conn: &mut sqlx::PgConnection, payload: &str) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(payload)
        .execute(conn)
        .await
        .map(|_| ())
}

/// A store URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let auth = &url[s + 3..at];
            match auth.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &auth[..c], &url[at..]),
                None => url.into(),
            }
        }
        _ => url.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn a_password_is_never_shown() {
        // The user stays, the password becomes ***.
        assert_eq!(
            redact("postgres://faan:s3cret@db:5432/faan"),
            "postgres://faan:***@db:5432/faan"
        );
        assert_eq!(
            redact("sqlite:faan-data/tables.db"),
            "sqlite:faan-data/tables.db"
        );
    }
}
