//! Shared tables on PostgreSQL: a throwaway cluster under the target
//! directory (`initdb`, `pg_ctl`, on a loopback port; as the `postgres`
//! user when run as root), the same endpoints, two instances on one
//! database, readiness while the database is down, a database dropped under
//! the server, and the kill test.

use super::durability::{kill_rounds, start};
use super::lost::{append, appends_until_refused, create, log_line, not_ready_within};
use super::support::*;
use serde_json::json;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A cluster of its own, stopped when dropped.
pub struct Cluster {
    bin: PathBuf,
    data: PathBuf,
    pub url: String,
    port: u16,
}

fn bin_dir() -> PathBuf {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (/usr/lib/postgresql)")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("initdb").exists())
        .collect();
    dirs.sort();
    dirs.pop()
        .expect("an initdb under /usr/lib/postgresql/*/bin")
}

fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Runs a PostgreSQL tool, as `postgres` when root (it refuses root).
fn pg(bin: &std::path::Path, tool: &str, args: &[&str]) -> std::process::Output {
    let exe = bin.join(tool);
    let mut cmd = if root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    cmd.args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// Where clusters go: the target directory, unless run as root from a
/// checkout the `postgres` user cannot reach (a home directory of mode
/// 700), then the system's temporary directory.
fn cluster_root() -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let reachable = target
        .ancestors()
        .all(|a| std::fs::metadata(a).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
    if !root() || reachable {
        target
    } else {
        std::env::temp_dir().join(format!("faan-tables-{}", std::process::id()))
    }
}

impl Cluster {
    pub fn start(name: &str) -> Cluster {
        let bin = bin_dir();
        let dir = cluster_root().join(format!("pg-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if root() {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .unwrap()
                .success();
            assert!(ok, "chown of {}", dir.display());
        }
        let data = dir.join("data");
        let out = pg(
            &bin,
            "initdb",
            &[
                "-D",
                data.to_str().unwrap(),
                "-A",
                "trust",
                "-U",
                "faan",
                "--no-sync",
            ],
        );
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let c = Cluster {
            bin,
            data,
            url: format!("postgres://faan@127.0.0.1:{port}/postgres"),
            port,
        };
        c.up();
        c
    }

    fn up(&self) {
        let opts = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {} -c fsync=on",
            self.port,
            self.data.parent().unwrap().display()
        );
        let log = self.data.parent().unwrap().join("pg.log");
        let out = pg(
            &self.bin,
            "pg_ctl",
            &[
                "-D",
                self.data.to_str().unwrap(),
                "-o",
                &opts,
                "-l",
                log.to_str().unwrap(),
                "-w",
                "start",
            ],
        );
        assert!(
            out.status.success(),
            "pg_ctl start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn down(&self) {
        let _ = pg(
            &self.bin,
            "pg_ctl",
            &[
                "-D",
                self.data.to_str().unwrap(),
                "-m",
                "fast",
                "-w",
                "stop",
            ],
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.down();
    }
}

async fn spawn_pg(url: &str) -> App {
    let mut config = faan::config::ServeArgs::for_tests();
    config.tables.store = url.to_string();
    spawn_with(config).await
}

#[tokio::test]
#[ignore = "needs PostgreSQL (apt-get install postgresql)"]
async fn postgres_keeps_a_table_with_two_hands_and_one_conflict() {
    let pg = Cluster::start("flow");
    let app = spawn_pg(&pg.url).await;
    let (id, key, _) = app.create(night(vec![])).await;
    // Ben's self-draw: Ben +96, the others -32.
    let t = app.append(&id, &key, 1, ben_self_draw()).await.json();
    assert_eq!(
        t["ledger"]["balances"],
        json!({"Ann": -32, "Ben": 96, "Cat": -32, "Dan": -32})
    );
    // Two from version 2 at once: one 200 (version 3), one 412.
    let (a, b) = tokio::join!(
        app.append(&id, &key, 2, json!({"result": "draw"})),
        app.append(
            &id,
            &key,
            2,
            json!({"result": "false_win", "offender": "Dan"})
        )
    );
    let mut s = [a.status, b.status];
    s.sort();
    assert_eq!(s, [200, 412]);
    let r = app.get(&format!("/v1/tables/{id}"), &[]).await;
    assert_eq!(r.header("etag").as_deref(), Some("\"v3\""));
    assert_eq!(r.json()["ledger"]["hands"].as_array().unwrap().len(), 2);
    // A store newer than the binary: record a migration 99 and open again.
    let pool = sqlx::PgPool::connect(&pg.url).await.unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (99, 'from the future', TRUE, '\\x00', 0)",
    )
    .execute(&pool)
    .await
    .unwrap();
    let err = faan::store::Store::open(&pg.url, 1)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("newer than this binary"), "{err}");
}

#[tokio::test]
#[ignore = "needs PostgreSQL (apt-get install postgresql)"]
async fn a_change_on_one_instance_reaches_a_stream_on_the_other_within_a_second() {
    let pg = Cluster::start("two");
    let a = spawn_pg(&pg.url).await;
    let b = spawn_pg(&pg.url).await;
    let (id, key, _) = a.create(night(vec![])).await;
    let mut on_b = b.stream(&id, None).await;
    assert_eq!(on_b.next_event().await, ("table".into(), Some(1)));
    let sent = Instant::now();
    assert_eq!(a.append(&id, &key, 1, ben_self_draw()).await.status, 200);
    let got = on_b.next_within(Duration::from_secs(1)).await;
    assert_eq!(
        got,
        Some(("hand".into(), Some(2))),
        "the change, within a second of A's commit"
    );
    assert!(sent.elapsed() < Duration::from_secs(1));
    assert_eq!(on_b.last_data()["ledger"]["balances"]["Ben"], 96);
    assert_eq!(on_b.last_data()["hand"]["index"], 0);
    // A deletion on A ends B's stream with `deleted`.
    assert_eq!(a.delete_table(&id, Some(&key)).await.status, 204);
    assert_eq!(
        on_b.next_within(Duration::from_secs(1)).await,
        Some(("deleted".into(), None))
    );
}

async fn ready_status(app: &App) -> u16 {
    app.get("/readyz", &[]).await.status
}

async fn wait_ready(app: &App, want: u16) -> bool {
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline {
        if ready_status(app).await == want {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    false
}

#[tokio::test]
#[ignore = "needs PostgreSQL (apt-get install postgresql)"]
async fn readiness_fails_while_the_store_is_down_and_recovers_by_itself() {
    let pg = Cluster::start("ready");
    let app = spawn_pg(&pg.url).await;
    assert_eq!(ready_status(&app).await, 200);
    pg.down();
    assert!(
        wait_ready(&app, 503).await,
        "not ready while PostgreSQL is down"
    );
    // A change meanwhile is a 503 store-unavailable, never a 500.
    let r = app.post("/v1/tables", &night(vec![]), &[]).await;
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (503, json!("/problems/store-unavailable"))
    );
    pg.up();
    assert!(
        wait_ready(&app, 200).await,
        "ready again once PostgreSQL is back"
    );
    app.create(night(vec![])).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL (apt-get install postgresql)"]
async fn no_acknowledged_hand_is_lost_to_sigkill_on_postgres() {
    let pg = Cluster::start("durability");
    let (key, log) = kill_rounds(&pg.url, "durability-pg", 10).await;
    let text = std::fs::read_to_string(log).unwrap();
    assert!(!text.contains(&key), "the key is in the log");
}

#[tokio::test]
#[ignore = "needs PostgreSQL (apt-get install postgresql)"]
async fn a_dropped_database_refuses_writes_and_one_made_again_is_not_taken_for_it() {
    let pg = Cluster::start("dropped");
    let admin = sqlx::PgPool::connect(&pg.url).await.unwrap();
    sqlx::query("CREATE DATABASE night")
        .execute(&admin)
        .await
        .unwrap();
    let url = pg.url.replace("/postgres", "/night");
    let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pg-dropped.log");
    let _ = std::fs::remove_file(&log);
    let s = start(&url, &log).await;
    let (id, key) = create(&s.base).await;
    let r = append(&s.base, &id, &key, 1).await;
    assert_eq!(r.status, 200, "before the drop: {}", r.body);
    sqlx::query("DROP DATABASE night WITH (FORCE)")
        .execute(&admin)
        .await
        .unwrap();
    // The drop has ended every connection: the first append after it fails.
    assert_eq!(
        appends_until_refused(&s.base, &id, &key, 2).await,
        0,
        "appends acknowledged after the database was dropped"
    );
    assert_eq!(
        not_ready_within(&s.base, Duration::from_secs(5)).await,
        "store_unreachable"
    );
    log_line(&log, &["WARN", "database \"night\" does not exist"]).await;
    // Made again under the same name: empty, unmigrated, another oid. The
    // server must not take it for its store (a ping alone would).
    sqlx::query("CREATE DATABASE night")
        .execute(&admin)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let status = not_ready_within(&s.base, Duration::from_secs(1)).await;
        if status == "store_lost" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "/readyz still {status} 5 s after the database was made again"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    log_line(&log, &["ERROR", "dropped and made again"]).await;
    assert_eq!(
        appends_until_refused(&s.base, &id, &key, 2).await,
        0,
        "appends acknowledged on the database made again"
    );
}
