//! Command line and environment configuration (clap derive, every flag has
//! a `FAAN_*` environment variable).
//!
//! `faan` with no subcommand is `faan serve`, so `cargo run --release`
//! starts the server.

use crate::core::Registry;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// Hong Kong mahjong scoring as a service.
#[derive(Parser, Debug, Clone)]
#[command(name = "faan", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Server options when no subcommand is given (same as `faan serve`).
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Subcommand, Debug, Clone)]
pub enum Command {
    /// Run the HTTP service (the default).
    Serve(ServeArgs),
    /// Score a hand from the command line (or score requests as JSON lines with --json).
    Score(crate::cli::ScoreArgs),
    /// Play a whole match from a ledger request (JSON, as POST /v1/ledger takes it) and print its table.
    Ledger(crate::cli::LedgerArgs),
    /// List the built-in rulesets.
    Rulesets(crate::cli::RulesetsArgs),
    /// Before the win: shanten, acceptance, and which tile to discard (the answer of POST /v1/analyze as a table).
    Analyze(crate::cli::AnalyzeArgs),
    /// Print the OpenAPI document (JSON) to standard output.
    Openapi,
    /// Probe a running server's /readyz; exit 0 when it answers 200 (for container health checks).
    Healthcheck(HealthcheckArgs),
}

/// Log output format.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

/// Connections per worker by default: each may hold a request head of up
/// to 128 KiB inside actix, and the default keeps them all within the
/// pod's memory (deploy/README.md, "Memory"; measured in bench/hostile.md).
pub const DEFAULT_MAX_CONNECTIONS: usize = 64;
/// Bodies and answers held at once by default: 16 MiB, four 4 MiB ledger bodies.
pub const DEFAULT_MAX_BUFFERED_BYTES: usize = 16 * 1024 * 1024;
/// Heavy requests waiting for a blocking thread by default.
pub const DEFAULT_BLOCKING_QUEUE: usize = 32;
/// Answers being compressed at once by default (past it, answers go
/// uncompressed): a compressor's state is small, so eight fit the pod's
/// memory (bench/hostile.md).
pub const DEFAULT_MAX_COMPRESSORS: usize = 8;
/// Where the probes listen by default.
pub const DEFAULT_ADMIN_ADDR: &str = "0.0.0.0:9090";

/// Everything `faan serve` needs.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "FAAN_ADDR", default_value = "0.0.0.0:8080")]
    pub addr: String,
    /// Address of the probes' own listener (GET /healthz, /readyz, /metrics), outside the API's
    /// connection limit; `none` turns it off (the API address answers them too).
    #[arg(long, env = "FAAN_ADMIN_ADDR", default_value = DEFAULT_ADMIN_ADDR)]
    pub admin_addr: String,
    /// Worker threads (default: the number of CPUs).
    #[arg(long, env = "FAAN_WORKERS")]
    pub workers: Option<usize>,
    /// Largest body accepted by POST /v1/score, /v1/waits and /v1/penalties/false-win, in bytes.
    #[arg(long, env = "FAAN_BODY_LIMIT", default_value_t = crate::service::BODY_LIMIT)]
    pub body_limit: usize,
    /// Largest body accepted by POST /v1/score/batch and /v1/compare, in bytes.
    #[arg(long, env = "FAAN_BATCH_BODY_LIMIT", default_value_t = crate::service::BATCH_BODY_LIMIT)]
    pub batch_body_limit: usize,
    /// Most score requests in one POST /v1/score/batch.
    #[arg(long, env = "FAAN_BATCH_LIMIT", default_value_t = 1000)]
    pub batch_limit: usize,
    /// Most hands in one POST /v1/ledger (more is a 422 at `/hands`).
    #[arg(long, env = "FAAN_LEDGER_HANDS", default_value_t = 2000)]
    pub ledger_hands: usize,
    /// Largest ruleset document sent in a request (`"ruleset": {...}`), in bytes; a larger one is a 422 at its `ruleset`.
    #[arg(long, env = "FAAN_RULESET_BYTES", default_value_t = 32 * 1024)]
    pub ruleset_bytes: usize,
    /// Largest body accepted by POST /v1/ledger, in bytes.
    #[arg(long, env = "FAAN_LEDGER_BODY_LIMIT", default_value_t = crate::service::LEDGER_BODY_LIMIT)]
    pub ledger_body_limit: usize,
    /// Most cached score responses (0 disables the cache).
    #[arg(long, env = "FAAN_CACHE_SIZE", default_value_t = 100_000)]
    pub cache_size: u64,
    /// Most bytes of cached score responses (whichever bound is reached first).
    #[arg(long, env = "FAAN_CACHE_MAX_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub cache_max_bytes: u64,
    /// Seconds a cached score response lives.
    #[arg(long, env = "FAAN_CACHE_TTL", default_value_t = 3600)]
    pub cache_ttl: u64,
    /// Seconds to let in-flight requests finish after SIGTERM/SIGINT.
    #[arg(long, env = "FAAN_SHUTDOWN_TIMEOUT", default_value_t = 30)]
    pub shutdown_timeout: u64,
    /// Seconds between SIGTERM/SIGINT and closing the listener, while /readyz already answers 503 (lets a load balancer drain).
    #[arg(long, env = "FAAN_SHUTDOWN_DELAY", default_value_t = 0)]
    pub shutdown_delay: u64,
    /// Deepest JSON nesting accepted in a request body (deeper is a 400; in a ruleset document, a 422 at the document).
    #[arg(long, env = "FAAN_JSON_DEPTH_LIMIT", default_value_t = 32)]
    pub json_depth_limit: usize,
    /// Milliseconds a client has to send a request's headers (slow clients get a 408 and are closed; 0 disables).
    #[arg(long, env = "FAAN_CLIENT_REQUEST_TIMEOUT_MS", default_value_t = 5000)]
    pub client_request_timeout_ms: u64,
    /// Milliseconds a client has to send a request's whole body once its headers are in (408 problem after that).
    #[arg(long, env = "FAAN_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    pub body_timeout_ms: u64,
    /// Seconds a connection may go without the client taking a byte of its answers; then it is
    /// closed and what it held (answers, the byte budget) is dropped (0 disables).
    #[arg(long, env = "FAAN_WRITE_TIMEOUT", default_value_t = 10)]
    pub write_timeout: u64,
    /// Answers compressed at once (gzip or brotli, as the client asks); past it an answer goes
    /// uncompressed. The page, /docs and /openapi.json are compressed once at start-up and not counted.
    #[arg(long, env = "FAAN_MAX_COMPRESSORS", default_value_t = DEFAULT_MAX_COMPRESSORS)]
    pub max_compressors: usize,
    /// Seconds an idle keep-alive connection stays open (0 disables keep-alive).
    #[arg(long, env = "FAAN_KEEP_ALIVE", default_value_t = 5)]
    pub keep_alive: u64,
    /// Most concurrent connections per worker; beyond it the worker stops accepting until one closes
    /// (the default fits the pod's 192 MiB with the other bounds: deploy/README.md, "Memory").
    #[arg(long, env = "FAAN_MAX_CONNECTIONS", default_value_t = DEFAULT_MAX_CONNECTIONS)]
    pub max_connections: usize,
    /// Most bytes of request bodies and unsent answers held at once, across every connection
    /// and worker; past it a request is a 503 `/problems/overloaded` with `Retry-After`.
    #[arg(long, env = "FAAN_MAX_BUFFERED_BYTES", default_value_t = DEFAULT_MAX_BUFFERED_BYTES)]
    pub max_buffered_bytes: usize,
    /// Threads that run ledger, batch and compare off the async workers (default: one fewer than the workers, at least one).
    #[arg(long, env = "FAAN_BLOCKING_THREADS")]
    pub blocking_threads: Option<usize>,
    /// Heavy requests (ledger, batch, compare) that may wait for a blocking thread; past it a 503
    /// `/problems/overloaded` with `Retry-After`.
    #[arg(long, env = "FAAN_BLOCKING_QUEUE", default_value_t = DEFAULT_BLOCKING_QUEUE)]
    pub blocking_queue: usize,
    /// Listen backlog: connections the kernel queues before they are accepted.
    #[arg(long, env = "FAAN_BACKLOG", default_value_t = 2048)]
    pub backlog: u32,
    /// Log format.
    #[arg(long, env = "FAAN_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Log filter (tracing EnvFilter syntax, e.g. `info` or `faan=debug`); RUST_LOG is used when this is not set.
    #[arg(long, env = "FAAN_LOG_LEVEL")]
    pub log_level: Option<String>,
    /// Most bytes of log lines waiting to be written to standard error (each line counted with
    /// 128 bytes more); past it a line is dropped and counted in `faan_log_lines_dropped_total`.
    #[arg(long, env = "FAAN_LOG_QUEUE_BYTES", default_value_t = crate::logging::DEFAULT_LOG_QUEUE_BYTES)]
    pub log_queue_bytes: usize,
    /// Load every *.toml ruleset in DIR instead of the built-in rulesets.
    #[arg(long, env = "FAAN_RULESETS_DIR", value_name = "DIR")]
    pub rulesets_dir: Option<PathBuf>,
    /// Shared tables: the store and its bounds.
    #[command(flatten)]
    pub tables: crate::tables::TablesArgs,
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            addr: "0.0.0.0:8080".into(),
            admin_addr: DEFAULT_ADMIN_ADDR.into(),
            workers: None,
            body_limit: crate::service::BODY_LIMIT,
            batch_body_limit: crate::service::BATCH_BODY_LIMIT,
            batch_limit: 1000,
            ledger_hands: 2000,
            ledger_body_limit: crate::service::LEDGER_BODY_LIMIT,
            ruleset_bytes: 32 * 1024,
            cache_size: 100_000,
            cache_max_bytes: 64 * 1024 * 1024,
            cache_ttl: 3600,
            shutdown_timeout: 30,
            shutdown_delay: 0,
            json_depth_limit: 32,
            client_request_timeout_ms: 5000,
            body_timeout_ms: 10_000,
            write_timeout: 10,
            max_compressors: DEFAULT_MAX_COMPRESSORS,
            keep_alive: 5,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_buffered_bytes: DEFAULT_MAX_BUFFERED_BYTES,
            blocking_threads: None,
            blocking_queue: DEFAULT_BLOCKING_QUEUE,
            backlog: 2048,
            log_format: LogFormat::Text,
            log_level: None,
            log_queue_bytes: crate::logging::DEFAULT_LOG_QUEUE_BYTES,
            rulesets_dir: None,
            tables: crate::tables::TablesArgs::default(),
        }
    }
}

impl ServeArgs {
    /// Settings for tests: port 0 on localhost, one worker, no probe listener
    /// (tests in parallel would share its port), everything else default.
    pub fn for_tests() -> Self {
        ServeArgs {
            addr: "127.0.0.1:0".into(),
            admin_addr: "none".into(),
            workers: Some(1),
            // Tests that want tables give a store of their own.
            tables: crate::tables::TablesArgs {
                store: "none".into(),
                ..crate::tables::TablesArgs::default()
            },
            ..ServeArgs::default()
        }
    }

    pub fn workers(&self) -> usize {
        self.workers
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// Threads of the blocking pool: `--blocking-threads`, else one fewer
    /// than the workers (at least one), so a core is left for the async
    /// workers and a 2-core pod's memory holds (a worst ledger works in about
    /// 26 MiB: deploy/README.md, "Memory").
    pub fn blocking_threads(&self) -> usize {
        self.blocking_threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| self.workers().saturating_sub(1).max(1))
    }

    /// The probes' address, unless `--admin-addr none`.
    pub fn admin_addr(&self) -> Option<&str> {
        let a = self.admin_addr.trim();
        (!a.is_empty() && !a.eq_ignore_ascii_case("none")).then_some(a)
    }

    /// Connections a worker accepts: its `--max-connections` plain ones and
    /// its share of the event streams (`--events-max` over the workers),
    /// which `--max-connections` does not count (`http::streams`). Accepts
    /// go to the workers with room, so the shares together always hold
    /// `--events-max`.
    pub fn accept_limit(&self) -> usize {
        let plain = self.max_connections.max(1);
        if self.tables.store == "none" {
            return plain;
        }
        plain + self.tables.events_max.div_ceil(self.workers())
    }

    /// Files the server may hold open at its bounds: every connection the
    /// workers accept, the probes', the store's, and a few of its own
    /// (listeners, the poller, the database files).
    pub fn open_files_needed(&self) -> u64 {
        let accepted = self.workers() * self.accept_limit();
        (accepted + crate::startup::ADMIN_MAX_CONNECTIONS) as u64
            + u64::from(self.tables.store_connections)
            + 64
    }

    /// `--write-timeout`, unless 0.
    pub fn write_timeout(&self) -> Option<Duration> {
        (self.write_timeout > 0).then(|| Duration::from_secs(self.write_timeout))
    }

    pub fn cache_ttl(&self) -> Duration {
        Duration::from_secs(self.cache_ttl)
    }

    /// The rulesets to serve: the built-in ones or every `*.toml` in `--rulesets-dir`.
    pub fn registry(&self) -> Result<Registry, String> {
        match &self.rulesets_dir {
            None => Registry::builtin().map_err(|e| format!("built-in rulesets: {e}")),
            Some(dir) => {
                let entries = std::fs::read_dir(dir)
                    .map_err(|e| format!("--rulesets-dir {}: {e}", dir.display()))?;
                let mut files = Vec::new();
                for entry in entries {
                    let entry =
                        entry.map_err(|e| format!("--rulesets-dir {}: {e}", dir.display()))?;
                    let path = entry.path();
                    if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                        continue;
                    }
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    let name = entry.file_name().to_string_lossy().into_owned();
                    files.push((name, text));
                }
                Registry::from_files(files)
                    .map_err(|e| format!("--rulesets-dir {}: {e}", dir.display()))
            }
        }
    }
}

/// Options of `faan healthcheck`.
#[derive(Args, Debug, Clone)]
pub struct HealthcheckArgs {
    /// Address of the server to probe.
    #[arg(long, env = "FAAN_HEALTHCHECK_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
}
