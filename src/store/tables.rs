//! Shared tables as stored: a head (`faan_tables`), its hands
//! (`faan_hands`), and its last changes as their events' data
//! (`faan_changes`). Every change is one transaction, conditional on the
//! version, that writes one hand at most, so its cost does not grow with
//! the night; on PostgreSQL it announces itself ([`Change`]) in the same
//! transaction.

use super::{notify, HandRow, Pool, Refused, Store, TableRow, GROUP_NIGHTS};
use sqlx::Row;

/// Changes kept per table for streams that resume and for other
/// instances: at least the last 64 versions (docs/tables.md).
pub const KEPT_CHANGES: i64 = 64;

/// A change announced to the other instances (PostgreSQL `NOTIFY`): a
/// table's new version, whose event data `faan_changes` holds, or its
/// deletion. The one writer and the one reader of the payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Version { id: String, version: i64 },
    Deleted { id: String },
}

impl Change {
    /// `"{id} {version}"` or `"{id} deleted"` (ids are base64url: no space).
    pub fn payload(&self) -> String {
        match self {
            Change::Version { id, version } => format!("{id} {version}"),
            Change::Deleted { id } => format!("{id} deleted"),
        }
    }

    /// The change a payload names, if it is one.
    pub fn parse(payload: &str) -> Option<Change> {
        let (id, what) = payload.split_once(' ')?;
        let id = id.to_string();
        if what == "deleted" {
            return Some(Change::Deleted { id });
        }
        what.parse()
            .ok()
            .map(|version| Change::Version { id, version })
    }
}

/// A change kept: its version and its event (`kind`, `hand` or `undo`, and
/// its data).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub version: i64,
    pub kind: String,
    pub data: String,
}

/// What a change writes on the head besides its version.
#[derive(Clone, Debug)]
pub struct HeadUpdate<'a> {
    /// The answer without its hands.
    pub ledger: &'a str,
    /// What a group shows.
    pub summary: &'a str,
    /// The night after the change.
    pub state: &'a str,
    pub now: i64,
}

const HEAD_COLUMNS: &str = "id, key_hash, title, group_id, version, created_at, updated_at, \
     touched_at, request, ledger, summary, state, hands";

fn head(r: &impl HeadRow) -> Result<TableRow, sqlx::Error> {
    r.head()
}

/// A row of `faan_tables` read as a head, whichever the driver.
trait HeadRow {
    fn head(&self) -> Result<TableRow, sqlx::Error>;
}

macro_rules! head_row {
    ($row:ty) => {
        impl HeadRow for $row {
            fn head(&self) -> Result<TableRow, sqlx::Error> {
                Ok(TableRow {
                    id: self.try_get("id")?,
                    key_hash: self.try_get("key_hash")?,
                    title: self.try_get("title")?,
                    group_id: self.try_get("group_id")?,
                    version: self.try_get("version")?,
                    created_at: self.try_get("created_at")?,
                    updated_at: self.try_get("updated_at")?,
                    touched_at: self.try_get("touched_at")?,
                    night: self.try_get("request")?,
                    ledger: self.try_get("ledger")?,
                    summary: self.try_get("summary")?,
                    state: self.try_get("state")?,
                    hands: self.try_get("hands")?,
                })
            }
        }
    };
}
head_row!(sqlx::sqlite::SqliteRow);
head_row!(sqlx::postgres::PgRow);

/// Runs `$body` in a transaction on either driver (`$tx` the transaction);
/// on PostgreSQL, announces the change `$change` makes of its result
/// before the commit.
macro_rules! in_tx {
    ($self:expr, $tx:ident => $body:expr, $change:expr) => {
        match &$self.pool {
            Pool::Sqlite(p) => {
                let mut $tx = p.begin().await?;
                let out = $body;
                $tx.commit().await?;
                Ok::<_, sqlx::Error>(out)
            }
            Pool::Postgres(p) => {
                let mut $tx = p.begin().await?;
                let out = $body;
                for c in IntoIterator::into_iter($change(&out)) {
                    notify(&mut $tx, &c.payload()).await?;
                }
                $tx.commit().await?;
                Ok::<_, sqlx::Error>(out)
            }
        }
    };
}

/// Keeps a change's event data in the transaction `$tx`, and forgets the
/// table's changes older than the last [`KEPT_CHANGES`].
macro_rules! keep_change {
    ($tx:ident, $id:expr, $version:expr, $kind:expr, $data:expr) => {{
        sqlx::query(
            "INSERT INTO faan_changes (table_id, version, kind, data) VALUES ($1, $2, $3, $4)",
        )
        .bind($id)
        .bind($version)
        .bind($kind)
        .bind($data)
        .execute(&mut *$tx)
        .await?;
        sqlx::query("DELETE FROM faan_changes WHERE table_id = $1 AND version <= $2")
            .bind($id)
            .bind($version - KEPT_CHANGES)
            .execute(&mut *$tx)
            .await?;
    }};
}

/// Deletes a table's hands and changes in the transaction `$tx`.
macro_rules! delete_parts {
    ($tx:ident, $id:expr) => {{
        for sql in [
            "DELETE FROM faan_hands WHERE table_id = $1",
            "DELETE FROM faan_changes WHERE table_id = $1",
        ] {
            sqlx::query(sql).bind($id).execute(&mut *$tx).await?;
        }
    }};
}

impl Store {
    /// Inserts a table and its hands unless there are `max` tables
    /// already, or its group holds [`GROUP_NIGHTS`]. The bound and the
    /// insert are one statement, and the hands the same commit.
    pub async fn insert_table(
        &self,
        t: &TableRow,
        hands: &[HandRow],
        max: u64,
    ) -> Result<Result<(), Refused>, sqlx::Error> {
        let sql = format!(
            "INSERT INTO faan_tables ({HEAD_COLUMNS}) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 \
             WHERE (SELECT COUNT(*) FROM faan_tables) < $14 \
             AND (SELECT COUNT(*) FROM faan_tables WHERE group_id = $4) < $15"
        );
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        let none = |_: &bool| Vec::<Change>::new();
        let done: bool = in_tx!(self, tx => {
            let done = sqlx::query(&sql)
                .bind(&t.id)
                .bind(&t.key_hash)
                .bind(&t.title)
                .bind(&t.group_id)
                .bind(t.version)
                .bind(t.created_at)
                .bind(t.updated_at)
                .bind(t.touched_at)
                .bind(&t.night)
                .bind(&t.ledger)
                .bind(&t.summary)
                .bind(&t.state)
                .bind(t.hands)
                .bind(max)
                .bind(GROUP_NIGHTS)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            if done {
                for (i, h) in hands.iter().enumerate() {
                    sqlx::query(INSERT_HAND)
                        .bind(&t.id)
                        .bind(i as i64)
                        .bind(t.version)
                        .bind(&h.request)
                        .bind(&h.answer)
                        .bind(&h.state)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            done
        }, none)?;
        if done {
            return Ok(Ok(()));
        }
        match &t.group_id {
            Some(g) if self.group_nights_count(g).await? >= GROUP_NIGHTS => {
                Ok(Err(Refused::GroupFull))
            }
            _ => Ok(Err(Refused::Full)),
        }
    }

    async fn group_nights_count(&self, group: &str) -> Result<i64, sqlx::Error> {
        let sql = "SELECT COUNT(*) AS n FROM faan_tables WHERE group_id = $1";
        on!(self, p => sqlx::query(sql).bind(group).fetch_one(p).await?.try_get("n"))
    }

    /// The head of the table with this id.
    pub async fn table(&self, id: &str) -> Result<Option<TableRow>, sqlx::Error> {
        let sql = format!("SELECT {HEAD_COLUMNS} FROM faan_tables WHERE id = $1");
        on!(self, p => {
            match sqlx::query(&sql).bind(id).fetch_optional(p).await? {
                Some(r) => Ok(Some(head(&r)?)),
                None => Ok(None),
            }
        })
    }

    /// A table's head and hands (request and row), read in one
    /// transaction so that they are of one version.
    pub async fn table_whole(
        &self,
        id: &str,
    ) -> Result<Option<(TableRow, Vec<(String, String)>)>, sqlx::Error> {
        let sql = format!("SELECT {HEAD_COLUMNS} FROM faan_tables WHERE id = $1");
        let hands_sql = "SELECT request, answer FROM faan_hands WHERE table_id = $1 ORDER BY idx";
        let none = |_: &Option<(TableRow, Vec<(String, String)>)>| Vec::<Change>::new();
        in_tx!(self, tx => {
            match sqlx::query(&sql).bind(id).fetch_optional(&mut *tx).await? {
                None => None,
                Some(r) => {
                    let head = head(&r)?;
                    let rows = sqlx::query(hands_sql).bind(id).fetch_all(&mut *tx).await?;
                    let hands = rows
                        .iter()
                        .map(|r| Ok((r.try_get("request")?, r.try_get("answer")?)))
                        .collect::<Result<Vec<_>, sqlx::Error>>()?;
                    Some((head, hands))
                }
            }
        }, none)
    }

    /// The night after hand `idx` of a table (`faan_hands.state`).
    pub async fn hand_state(&self, id: &str, idx: i64) -> Result<Option<String>, sqlx::Error> {
        let sql = "SELECT state FROM faan_hands WHERE table_id = $1 AND idx = $2";
        on!(self, p => {
            match sqlx::query(sql).bind(id).bind(idx).fetch_optional(p).await? {
                Some(r) => Ok(Some(r.try_get("state")?)),
                None => Ok(None),
            }
        })
    }

    /// Marks a table read now (for the TTL sweep).
    pub async fn touch(&self, id: &str, now: i64) -> Result<(), sqlx::Error> {
        let sql = "UPDATE faan_tables SET touched_at = $2 WHERE id = $1";
        on!(self, p => sqlx::query(sql).bind(id).bind(now).execute(p).await.map(|_| ()))
    }

    /// Adds `hand` as hand `row.hands` of the table if its version is still
    /// `row.version`, with the head's new parts and the change's event
    /// data: the new version, or `None` when the version moved or the
    /// table is gone.
    pub async fn append_hand(
        &self,
        row: &TableRow,
        head: &HeadUpdate<'_>,
        hand: &HandRow,
        data: &str,
    ) -> Result<Option<i64>, sqlx::Error> {
        const KIND: &str = "hand";
        let version = row.version + 1;
        let change = |done: &bool| {
            done.then(|| Change::Version {
                id: row.id.clone(),
                version,
            })
        };
        let done: bool = in_tx!(self, tx => {
            let done = sqlx::query(UPDATE_HEAD)
                .bind(&row.id)
                .bind(row.version)
                .bind(head.ledger)
                .bind(head.summary)
                .bind(head.state)
                .bind(head.now)
                .bind(row.hands + 1)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            if done {
                sqlx::query(INSERT_HAND)
                    .bind(&row.id)
                    .bind(row.hands)
                    .bind(version)
                    .bind(&hand.request)
                    .bind(&hand.answer)
                    .bind(&hand.state)
                    .execute(&mut *tx)
                    .await?;
                keep_change!(tx, &row.id, version, KIND, data);
            }
            done
        }, change)?;
        Ok(done.then_some(version))
    }

    /// Drops the table's last hand if its version is still `row.version`
    /// (and it has one): the new version, or `None`.
    pub async fn drop_hand(
        &self,
        row: &TableRow,
        head: &HeadUpdate<'_>,
        data: &str,
    ) -> Result<Option<i64>, sqlx::Error> {
        const KIND: &str = "undo";
        let version = row.version + 1;
        let change = |done: &bool| {
            done.then(|| Change::Version {
                id: row.id.clone(),
                version,
            })
        };
        let done: bool = in_tx!(self, tx => {
            let done = row.hands > 0
                && sqlx::query(UPDATE_HEAD)
                    .bind(&row.id)
                    .bind(row.version)
                    .bind(head.ledger)
                    .bind(head.summary)
                    .bind(head.state)
                    .bind(head.now)
                    .bind(row.hands - 1)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                    == 1;
            if done {
                sqlx::query("DELETE FROM faan_hands WHERE table_id = $1 AND idx = $2")
                    .bind(&row.id)
                    .bind(row.hands - 1)
                    .execute(&mut *tx)
                    .await?;
                keep_change!(tx, &row.id, version, KIND, data);
            }
            done
        }, change)?;
        Ok(done.then_some(version))
    }

    /// A table's changes after version `after`, oldest first (those still
    /// kept).
    pub async fn changes_since(&self, id: &str, after: i64) -> Result<Vec<Kept>, sqlx::Error> {
        let sql = "SELECT version, kind, data FROM faan_changes \
                   WHERE table_id = $1 AND version > $2 ORDER BY version";
        on!(self, p => {
            let rows = sqlx::query(sql).bind(id).bind(after).fetch_all(p).await?;
            rows.iter()
                .map(|r| {
                    Ok(Kept {
                        version: r.try_get("version")?,
                        kind: r.try_get("kind")?,
                        data: r.try_get("data")?,
                    })
                })
                .collect()
        })
    }

    /// Deletes a table with its hands and changes: whether it was there.
    pub async fn delete_table(&self, id: &str) -> Result<bool, sqlx::Error> {
        let change = |gone: &bool| gone.then(|| Change::Deleted { id: id.to_string() });
        in_tx!(self, tx => {
            let gone = sqlx::query("DELETE FROM faan_tables WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            delete_parts!(tx, id);
            gone
        }, change)
    }

    /// Deletes the tables neither read nor changed since `cutoff`: their ids.
    pub async fn sweep(&self, cutoff: i64) -> Result<Vec<String>, sqlx::Error> {
        let sql = "DELETE FROM faan_tables WHERE touched_at < $1 RETURNING id";
        let change = |ids: &Vec<String>| {
            ids.iter()
                .map(|id| Change::Deleted { id: id.clone() })
                .collect::<Vec<_>>()
        };
        in_tx!(self, tx => {
            let rows = sqlx::query(sql).bind(cutoff).fetch_all(&mut *tx).await?;
            let ids: Vec<String> = rows
                .iter()
                .map(|r| r.try_get("id"))
                .collect::<Result<_, _>>()?;
            for id in &ids {
                delete_parts!(tx, id);
            }
            ids
        }, change)
    }

    /// The ids of the tables an older faan stored whole (to be split).
    pub async fn whole_tables(&self) -> Result<Vec<String>, sqlx::Error> {
        let sql = "SELECT id FROM faan_tables WHERE state IS NULL";
        on!(self, p => {
            let rows = sqlx::query(sql).fetch_all(p).await?;
            rows.iter().map(|r| r.try_get("id")).collect()
        })
    }

    /// The ids of the tables kept hand by hand before each row had its
    /// game and number (their state has no `played`), to be played again.
    pub async fn unnumbered_tables(&self) -> Result<Vec<String>, sqlx::Error> {
        let sql = "SELECT id FROM faan_tables WHERE state IS NOT NULL \
                   AND state NOT LIKE '%\"played\"%'";
        on!(self, p => {
            let rows = sqlx::query(sql).fetch_all(p).await?;
            rows.iter().map(|r| r.try_get("id")).collect()
        })
    }

    /// Rewrites a table's head and its hands' rows and states as played
    /// again (still at `row.version`), their requests and versions kept:
    /// whether it was.
    pub async fn replay_table(
        &self,
        row: &TableRow,
        hands: &[HandRow],
    ) -> Result<bool, sqlx::Error> {
        let sql = "UPDATE faan_tables SET ledger = $3, summary = $4, state = $5 \
                   WHERE id = $1 AND version = $2 AND hands = $6";
        let hand_sql = "UPDATE faan_hands SET answer = $3, state = $4 \
                        WHERE table_id = $1 AND idx = $2";
        let none = |_: &bool| Vec::<Change>::new();
        in_tx!(self, tx => {
            let done = sqlx::query(sql)
                .bind(&row.id)
                .bind(row.version)
                .bind(&row.ledger)
                .bind(&row.summary)
                .bind(&row.state)
                .bind(hands.len() as i64)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            if done {
                for (i, h) in hands.iter().enumerate() {
                    sqlx::query(hand_sql)
                        .bind(&row.id)
                        .bind(i as i64)
                        .bind(&h.answer)
                        .bind(&h.state)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            done
        }, none)
    }

    /// Replaces a table stored whole (still at `row.version`) by its head
    /// and hands: whether it was.
    pub async fn split_table(
        &self,
        row: &TableRow,
        hands: &[HandRow],
    ) -> Result<bool, sqlx::Error> {
        let sql = "UPDATE faan_tables SET request = $3, ledger = $4, summary = $5, state = $6, \
                   hands = $7 WHERE id = $1 AND version = $2 AND state IS NULL";
        let none = |_: &bool| Vec::<Change>::new();
        in_tx!(self, tx => {
            let done = sqlx::query(sql)
                .bind(&row.id)
                .bind(row.version)
                .bind(&row.night)
                .bind(&row.ledger)
                .bind(&row.summary)
                .bind(&row.state)
                .bind(hands.len() as i64)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            if done {
                delete_parts!(tx, &row.id);
                for (i, h) in hands.iter().enumerate() {
                    sqlx::query(INSERT_HAND)
                        .bind(&row.id)
                        .bind(i as i64)
                        .bind(row.version)
                        .bind(&h.request)
                        .bind(&h.answer)
                        .bind(&h.state)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            done
        }, none)
    }
}

const INSERT_HAND: &str =
    "INSERT INTO faan_hands (table_id, idx, version, request, answer, state) \
     VALUES ($1, $2, $3, $4, $5, $6)";

const UPDATE_HEAD: &str = "UPDATE faan_tables SET version = version + 1, ledger = $3, \
     summary = $4, state = $5, updated_at = $6, touched_at = $6, hands = $7 \
     WHERE id = $1 AND version = $2";

#[cfg(test)]
mod tests {
    use super::Change;

    #[test]
    fn a_change_reads_back_from_its_payload() {
        // A version and a deletion round-trip; anything else is no change.
        for c in [
            Change::Version {
                id: "AAAAAAAAAAAAAAAAAAAAAA".into(),
                version: 17,
            },
            Change::Deleted {
                id: "b-_AAAAAAAAAAAAAAAAAAA".into(),
            },
        ] {
            assert_eq!(Change::parse(&c.payload()), Some(c));
        }
        assert_eq!(
            Change::Version {
                id: "x".into(),
                version: 3
            }
            .payload(),
            "x 3"
        );
        assert_eq!(Change::parse("x"), None);
        assert_eq!(Change::parse("x seven"), None);
    }
}
