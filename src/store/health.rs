//! Whether the store is still the one that was opened.
//!
//! A SQLite file removed or replaced while the server runs does not fail
//! a single statement: the open connections keep writing to the old file,
//! which nobody will read again (a restart opens whatever is at the path).
//! So the file's identity (device and inode) is recorded when the store is
//! opened, and looked at again before and after every store call (a commit
//! is so looked at before it is acknowledged) and by the readiness loop. PostgreSQL has no file to
//! lose, but a database dropped and made again under the same name is a
//! different one (another oid), empty until someone migrates it: its oid
//! is recorded and looked at by the readiness loop.
//!
//! Once the store is found to be another, it stays lost until a restart:
//! the pool's connections still hold the old file, so nothing written
//! through them could be kept.
//!
//! The file is also held open for the life of the process, so that a file
//! removed by mistake stays readable through `/proc/PID/fd` until the
//! operator has copied it (docs/operations.md, "A lost store"): without it
//! the pool closing its idle connections would fold the WAL into the old
//! file and let the kernel free it.

use super::{Pool, Store};
use sqlx::Row;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The store was found to be another than the one opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lost;

#[derive(Debug)]
enum Origin {
    /// Nothing to watch: an in-memory SQLite, or a store not opened yet.
    Nothing,
    /// A SQLite file: its path and what it was when opened.
    File { path: PathBuf, dev: u64, ino: u64 },
    /// A PostgreSQL database: its oid when opened.
    Database { oid: i64 },
}

/// What the store was when opened, and whether it has been lost since.
#[derive(Debug)]
pub struct Health {
    origin: Origin,
    lost: AtomicBool,
}

impl Default for Health {
    fn default() -> Self {
        Health {
            origin: Origin::Nothing,
            lost: AtomicBool::new(false),
        }
    }
}

/// Whether the file at `path` is still the one with this device and inode:
/// `Err` with what is wrong when not.
fn same_file(path: &Path, dev: u64, ino: u64) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(m) if m.dev() == dev && m.ino() == ino => Ok(()),
        Ok(m) => Err(format!(
            "another file is there now (inode {} on device {}, was inode {ino} on device {dev})",
            m.ino(),
            m.dev()
        )),
        Err(e) => Err(format!("it is gone ({e})")),
    }
}

impl Health {
    /// The identity of the SQLite file at `path`, just opened. A file that
    /// cannot be looked at even now is lost from the start.
    pub(super) fn file(path: &Path) -> Health {
        let opened = std::fs::File::open(path).and_then(|f| {
            let m = f.metadata()?;
            // Never closed: closing any descriptor of a file drops every
            // POSIX lock the process holds on it, SQLite's included.
            let _ = std::os::fd::IntoRawFd::into_raw_fd(f);
            Ok(m)
        });
        match opened {
            Ok(m) => Health {
                origin: Origin::File {
                    path: path.to_path_buf(),
                    dev: m.dev(),
                    ino: m.ino(),
                },
                lost: AtomicBool::new(false),
            },
            Err(e) => {
                tracing::error!(path = %path.display(), error = %e,
                    "the SQLite file cannot be looked at: every change refused until a restart");
                Health {
                    origin: Origin::Nothing,
                    lost: AtomicBool::new(true),
                }
            }
        }
    }

    pub(super) fn database(oid: i64) -> Health {
        Health {
            origin: Origin::Database { oid },
            lost: AtomicBool::new(false),
        }
    }

    fn mark_lost(&self, what: &str, why: &str) {
        // Logged once, by whoever finds it first.
        if !self.lost.swap(true, Ordering::SeqCst) {
            tracing::error!(
                store = what,
                "the store is not the one opened: {why}; every store call refused and not ready \
                 until a restart (docs/operations.md, \"A lost store\")"
            );
        }
    }

    /// Whether the store has been found lost.
    pub fn lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// The file's identity looked at now (a `stat`, about a microsecond):
    /// `Err(Lost)` when it is, or was before, another. The database's oid
    /// needs a query: only the readiness loop looks at it.
    pub fn check_file(&self) -> Result<(), Lost> {
        if self.lost() {
            return Err(Lost);
        }
        if let Origin::File { path, dev, ino } = &self.origin {
            if let Err(why) = same_file(path, *dev, *ino) {
                self.mark_lost(&path.display().to_string(), &why);
                return Err(Lost);
            }
        }
        Ok(())
    }
}

/// The oid of the database a PostgreSQL connection is on.
const OID: &str = "SELECT oid::int8 AS oid FROM pg_database WHERE datname = current_database()";

impl Store {
    /// What the store is, recorded once it is open and migrated.
    pub(super) async fn identify(&self, file: Option<&Path>) -> Result<Arc<Health>, sqlx::Error> {
        Ok(Arc::new(match (&self.pool, file) {
            (Pool::Sqlite(_), Some(path)) => Health::file(path),
            (Pool::Sqlite(_), None) => Health::default(),
            (Pool::Postgres(p), _) => {
                Health::database(sqlx::query(OID).fetch_one(p).await?.try_get("oid")?)
            }
        }))
    }

    /// Whether the store has been found lost (sticky until a restart).
    pub fn lost(&self) -> bool {
        self.health.lost()
    }

    /// `Err(Lost)` when the SQLite file is not, or was once not, the one
    /// opened: looked at before a store call and after it, before its
    /// answer goes out.
    pub fn check(&self) -> Result<(), Lost> {
        self.health.check_file()
    }

    /// The readiness loop's look: the file, or the database's oid. A
    /// database that does not answer is not lost (the ping says it is
    /// unreachable, and it may come back); one that answers with another
    /// oid is.
    pub async fn still_the_one(&self) -> bool {
        if self.check().is_err() {
            return false;
        }
        let (Pool::Postgres(p), Origin::Database { oid }) = (&self.pool, &self.health.origin)
        else {
            return true;
        };
        match sqlx::query(OID).fetch_optional(p).await {
            Ok(Some(r)) => match r.try_get::<i64, _>("oid") {
                Ok(now) if now == *oid => true,
                Ok(now) => {
                    self.health.mark_lost(
                        "postgres",
                        &format!("the database was dropped and made again (oid {now}, was {oid})"),
                    );
                    false
                }
                Err(_) => true,
            },
            Ok(None) | Err(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("faan-health-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_removed_is_lost_for_good() {
        let dir = folder("removed");
        let path = dir.join("t.db");
        std::fs::write(&path, b"one").unwrap();
        let h = Health::file(&path);
        assert_eq!(h.check_file(), Ok(()), "the file as opened");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(h.check_file(), Err(Lost), "removed");
        // A new file at the path does not bring it back: the pool's
        // connections still write to the old one.
        std::fs::write(&path, b"two").unwrap();
        assert_eq!(h.check_file(), Err(Lost), "made again");
        assert!(h.lost());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_renamed_over_is_lost_and_one_written_in_place_is_not() {
        let dir = folder("replaced");
        let (path, other) = (dir.join("t.db"), dir.join("other.db"));
        std::fs::write(&path, b"one").unwrap();
        std::fs::write(&other, b"two").unwrap();
        let h = Health::file(&path);
        // Written in place (what SQLite does): the same inode.
        std::fs::write(&path, b"one, longer").unwrap();
        assert_eq!(h.check_file(), Ok(()), "written in place");
        std::fs::rename(&other, &path).unwrap();
        assert_eq!(h.check_file(), Err(Lost), "renamed over");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_never_there_is_lost_from_the_start() {
        let dir = folder("never");
        let h = Health::file(&dir.join("absent.db"));
        assert!(h.lost());
        assert_eq!(h.check_file(), Err(Lost));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_to_watch_is_never_lost() {
        assert_eq!(Health::default().check_file(), Ok(()));
    }
}
