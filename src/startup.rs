//! Building and running the server: bind, wire state and middleware, serve
//! until SIGTERM/SIGINT (actix finishes in-flight requests within the
//! shutdown timeout).

use crate::config::{HealthcheckArgs, LogFormat, ServeArgs};
use crate::core::Registry;
use crate::http::compress::{self, Compressors};
use crate::http::conn::{Expect, Guarded};
use crate::http::{self, meta, metrics::Metrics, observe, AppState, Limits};
use crate::service::{self, cache::ScoreCache};
use crate::{logging, telemetry};
use actix_web::dev::Server;
use actix_web::http::KeepAlive;
use actix_web::{web, App};
use std::net::TcpListener;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::signal::unix::{signal, SignalKind};
use tracing_appender::non_blocking::WorkerGuard;

pub use crate::http::observe::X_REQUEST_ID;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("{0}")]
    Rulesets(String),
    #[error("{0}")]
    Store(#[from] crate::store::OpenError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
}

/// A bound, not yet running server: the API and, unless turned off, the
/// probes' own listener.
pub struct Application {
    port: u16,
    admin_port: Option<u16>,
    server: Server,
    admin: Option<Server>,
    shutting_down: Arc<AtomicBool>,
    shutdown_delay: Duration,
}

/// Connections the probes' listener serves at once: kubelet's two probes
/// and a scraper, with room to spare (deploy/README.md, "Memory").
pub const ADMIN_MAX_CONNECTIONS: usize = 16;

/// The timeouts of a listener's connections.
#[derive(Clone, Copy)]
struct Conn {
    keep_alive: KeepAlive,
    client_request_timeout: Duration,
    write_timeout: Option<Duration>,
    /// Plain (not event stream) connections a worker serves at once.
    plain: usize,
}

/// An actix-http HTTP/1 service over [`Guarded`] sockets, as actix-web's
/// `HttpServer` builds it over plain ones (which leaves no room for the
/// socket wrapper or the `Expect` service): the app, the connection
/// timeouts, and keep-alive connections closed on a graceful stop.
macro_rules! h1_service {
    ($app:expr, $conn:expr, $expect:expr, $addr:expr, $signal:expr) => {{
        let conn: Conn = $conn;
        let signal = $signal.clone();
        let h1 = actix_http::HttpService::build()
            .keep_alive(conn.keep_alive)
            .client_request_timeout(conn.client_request_timeout)
            .client_disconnect_timeout(Duration::from_secs(1))
            .local_addr($addr)
            // Each request sees its connection (`http::streams::watch`).
            .on_connect_ext(
                |io: &Guarded<actix_web::rt::net::TcpStream>, ext: &mut actix_http::Extensions| {
                    if let Some(c) = io.conn() {
                        ext.insert(c.clone());
                    }
                },
            )
            .graceful_shutdown_signal(move || {
                let signal = signal.clone();
                async move { signal.notified().await }
            })
            .expect($expect)
            .h1(actix_service::map_config($app, |_| {
                actix_web::dev::AppConfig::default()
            }));
        let write_timeout = conn.write_timeout;
        // This worker's `--max-connections` places: a connection takes one
        // before a byte is read (waiting, as it would in the backlog, while
        // all are taken) and gives it back when it closes or becomes an
        // event stream (`http::streams`).
        let plain = Arc::new(tokio::sync::Semaphore::new(conn.plain));
        actix_service::ServiceFactoryExt::and_then(
            actix_service::fn_service(move |io: actix_web::rt::net::TcpStream| {
                let plain = plain.clone();
                async move {
                    let place = plain.acquire_owned().await.ok();
                    let peer = io.peer_addr().ok();
                    Ok::<_, actix_http::error::DispatchError>((
                        Guarded::tracked(io, write_timeout, place),
                        peer,
                    ))
                }
            }),
            h1,
        )
    }};
}

impl Application {
    /// Loads the rulesets the configuration names and binds.
    pub fn build(config: &ServeArgs) -> Result<Application, StartupError> {
        let registry = config.registry().map_err(StartupError::Rulesets)?;
        Application::build_with_registry(config, registry)
    }

    /// Binds with the given rulesets.
    pub fn build_with_registry(
        config: &ServeArgs,
        registry: Registry,
    ) -> Result<Application, StartupError> {
        let bind = |addr: &str| {
            let err = |source| StartupError::Bind {
                addr: addr.to_string(),
                source,
            };
            let listener = TcpListener::bind(addr).map_err(err)?;
            let local = listener.local_addr().map_err(err)?;
            Ok::<_, StartupError>((listener, local))
        };
        raise_open_files(config.open_files_needed());
        let (listener, local) = bind(&config.addr)?;
        let admin_listener = config.admin_addr().map(bind).transpose()?;
        let shutting_down = Arc::new(AtomicBool::new(false));
        let tables = web::Data::new(crate::tables::Tables::open(&config.tables)?);
        let state = web::Data::new(AppState {
            service: service::Service::new(
                Arc::new(registry),
                ScoreCache::new(
                    config.cache_size,
                    config.cache_max_bytes,
                    config.cache_ttl(),
                ),
                service::Limits {
                    json_depth: config.json_depth_limit,
                    batch: config.batch_limit,
                    ledger_hands: config.ledger_hands,
                    ruleset_bytes: config.ruleset_bytes,
                },
            ),
            metrics: Arc::new(Metrics::new()),
            limits: Limits {
                body: config.body_limit,
                batch_body: config.batch_body_limit,
                ledger_body: config.ledger_body_limit,
                body_timeout: Duration::from_millis(config.body_timeout_ms),
            },
            budget: http::bounds::ByteBudget::new(config.max_buffered_bytes),
            pool: http::bounds::Pool::new(config.blocking_threads(), config.blocking_queue),
            shutting_down: shutting_down.clone(),
            health: std::sync::OnceLock::new(),
        });
        // Tables an older faan stored whole are split before the first request.
        tables.split_whole(&state.service)?;
        // The files served as built are compressed before the first request.
        http::warm();
        let conn = Conn {
            keep_alive: match config.keep_alive {
                0 => KeepAlive::Disabled,
                s => KeepAlive::Timeout(Duration::from_secs(s)),
            },
            client_request_timeout: Duration::from_millis(config.client_request_timeout_ms),
            write_timeout: config.write_timeout(),
            plain: config.max_connections.max(1),
        };
        let compressors = Compressors::new(config.max_compressors);
        let bind_err = |source| StartupError::Bind {
            addr: config.addr.clone(),
            source,
        };
        let builder = actix_server::Server::build()
            .workers(config.workers())
            .max_concurrent_connections(config.accept_limit())
            .backlog(config.backlog)
            .shutdown_timeout(config.shutdown_timeout)
            // SIGTERM/SIGINT are handled by `run_until_signalled` (readiness first, then a graceful stop).
            .disable_signals();
        let signal = builder.graceful_shutdown_signal();
        let api_state = state.clone();
        let api_tables = tables.clone();
        let server = builder
            .listen("faan-api", listener, move || {
                let compressors = compressors.clone();
                let app = App::new()
                    .app_data(api_state.clone())
                    .app_data(api_tables.clone())
                    .configure(http::configure)
                    .default_service(web::to(meta::not_found))
                    // gzip or brotli when the client asks, bounded (`http::compress`).
                    .wrap_fn(move |req, srv| compress::compress(&compressors, req, srv))
                    .wrap_fn(observe::observe)
                    .wrap(tracing_actix_web::TracingLogger::<observe::RootSpan>::new());
                let expect = Expect {
                    state: api_state.clone(),
                };
                h1_service!(app, conn, expect, local, signal)
            })
            .map_err(bind_err)?
            .run();
        let mut admin_port = None;
        let admin = match admin_listener {
            None => None,
            Some((listener, local)) => {
                admin_port = Some(local.port());
                let builder = actix_server::Server::build()
                    .workers(1)
                    .max_concurrent_connections(ADMIN_MAX_CONNECTIONS)
                    .shutdown_timeout(1)
                    .disable_signals();
                let signal = builder.graceful_shutdown_signal();
                let admin_err = |source| StartupError::Bind {
                    addr: config.admin_addr.clone(),
                    source,
                };
                Some(
                    builder
                        .listen("faan-admin", listener, move || {
                            let app = App::new()
                                .app_data(state.clone())
                                .app_data(tables.clone())
                                .configure(http::configure_probes)
                                .default_service(web::to(meta::not_found))
                                .wrap_fn(observe::observe)
                                .wrap(tracing_actix_web::TracingLogger::<observe::RootSpan>::new());
                            let expect = Expect {
                                state: state.clone(),
                            };
                            let conn = Conn {
                                plain: ADMIN_MAX_CONNECTIONS,
                                ..conn
                            };
                            h1_service!(app, conn, expect, local, signal)
                        })
                        .map_err(admin_err)?
                        .run(),
                )
            }
        };
        Ok(Application {
            port: local.port(),
            admin_port,
            server,
            admin,
            shutting_down,
            shutdown_delay: Duration::from_secs(config.shutdown_delay),
        })
    }

    /// The port actually bound (useful with port 0).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The probes' port, unless `--admin-addr none`.
    pub fn admin_port(&self) -> Option<u16> {
        self.admin_port
    }

    /// Serves until the server is stopped by a handle (no signal handling).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        serve_both(self.server, self.admin).await
    }

    /// Serves until SIGTERM or SIGINT: /readyz turns 503 at once, the listener
    /// closes after the shutdown delay, and in-flight requests get the
    /// shutdown timeout to finish. A second signal stops at once. The
    /// probes' listener stops last.
    pub async fn run_until_signalled(self) -> std::io::Result<()> {
        let handle = self.server.handle();
        let flag = self.shutting_down.clone();
        let delay = self.shutdown_delay;
        actix_web::rt::spawn(async move {
            let Ok(mut term) = signal(SignalKind::terminate()) else {
                tracing::error!("cannot listen for SIGTERM");
                return;
            };
            let Ok(mut int) = signal(SignalKind::interrupt()) else {
                tracing::error!("cannot listen for SIGINT");
                return;
            };
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            flag.store(true, Ordering::SeqCst);
            tracing::info!(
                delay_s = delay.as_secs(),
                "shutdown signal: not ready; finishing in-flight requests"
            );
            tokio::select! {
                _ = actix_web::rt::time::sleep(delay) => {}
                _ = term.recv() => { handle.stop(false).await; return; }
                _ = int.recv() => { handle.stop(false).await; return; }
            }
            let graceful = handle.stop(true);
            tokio::select! {
                _ = graceful => {}
                _ = term.recv() => handle.stop(false).await,
                _ = int.recv() => handle.stop(false).await,
            }
        });
        serve_both(self.server, self.admin).await
    }

    /// A handle to stop the server (the probes' listener follows it).
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }
}

/// Runs the API and the probes' listener; once the API has stopped, the
/// probes' listener stops too.
async fn serve_both(api: Server, admin: Option<Server>) -> std::io::Result<()> {
    let Some(admin) = admin else {
        return api.await;
    };
    let admin_handle = admin.handle();
    let api = async move {
        let r = api.await;
        admin_handle.stop(false).await;
        r
    };
    let (r, a) = futures_util::future::join(api, admin).await;
    r.and(a)
}

/// What [`init_logging`] set up; keep it until exit.
pub struct Logging {
    /// The tracer provider while traces go out (to flush at exit).
    pub traces: Option<telemetry::Provider>,
    /// Writes out the log lines still queued when dropped.
    _lines: WorkerGuard,
}

/// Sets up `tracing` output (text or JSON) with the level from the flag or
/// RUST_LOG and, when the `OTEL_*` environment asks for traces
/// ([`telemetry::requested`]), the OpenTelemetry layer beside it.
/// Lines go to standard error through [`logging::writer`] (non-blocking,
/// bounded to `--log-queue-bytes`, drops counted), stamped by [`logging::Timestamp`]; text not
/// bound for a terminal is [`logging::TextLine`] and [`logging::TextFields`]. Each is what the
/// default writes, cheaper (bench/load.md).
///
/// An invalid `--log-level` is an error; an invalid RUST_LOG falls back to `info`.
pub fn init_logging(config: &ServeArgs) -> Result<Logging, String> {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{EnvFilter, Layer};
    let filter = match &config.log_level {
        Some(l) => EnvFilter::try_new(l).map_err(|e| format!("--log-level {l:?}: {e}"))?,
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
    };
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let (writer, lines) = logging::writer(config.log_queue_bytes);
    let logs = log_layer(config.log_format, ansi, writer);
    // A second initialisation (tests) keeps the first subscriber.
    if !telemetry::requested() {
        // No OpenTelemetry layer at all: the subscriber of logs alone, filtered as a whole.
        let _ = tracing_subscriber::registry()
            .with(logs)
            .with(filter)
            .try_init();
        return Ok(Logging {
            traces: None,
            _lines: lines,
        });
    }
    let provider = telemetry::otlp_provider()?;
    // The log filter applies to the log output only: spans go out at info whatever the log level.
    let _ = tracing_subscriber::registry()
        .with(logs.with_filter(filter))
        .with(telemetry::layer(&provider))
        .try_init();
    Ok(Logging {
        traces: Some(provider),
        _lines: lines,
    })
}

/// The log output's layer: JSON, or text (coloured for a terminal).
fn log_layer(
    format: LogFormat,
    ansi: bool,
    writer: logging::LogWriter,
) -> Box<dyn tracing_subscriber::Layer<tracing_subscriber::Registry> + Send + Sync> {
    use tracing_subscriber::{fmt, Layer};
    let logs = fmt::layer()
        .with_ansi(ansi)
        .with_timer(logging::Timestamp)
        .with_writer(writer);
    match format {
        LogFormat::Json => logs.json().boxed(),
        LogFormat::Text if ansi => logs.boxed(),
        LogFormat::Text => logs
            .fmt_fields(logging::TextFields)
            .event_format(logging::TextLine)
            .boxed(),
    }
}

/// glibc gives each thread that allocates an arena of its own, and freed
/// memory stays in it: under the heavy endpoints' mix the process went past
/// the pod's memory limit, and two arenas keep it within (bench/hostile.md).
/// Two, not one: one arena costs the light requests' throughput there.
/// `MALLOC_ARENA_MAX` in the environment still decides when it is set.
fn cap_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: mallopt only sets an allocator parameter; it is called
        // before the server starts its threads.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 2);
        }
    }
}

/// Every connection and event stream is an open file, and the usual soft
/// limit (1,024) is far below `--events-max`: the soft limit is raised to
/// the hard one, which needs no privilege. A warning says when even that
/// is below what the bounds allow, since past it accepts fail.
fn raise_open_files(needed: u64) {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit to the pointer, which points at `lim`.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return;
    }
    if lim.rlim_cur < lim.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: lim.rlim_max,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: setrlimit reads one rlimit from the pointer, which points
        // at `raised`; a refusal leaves the limit as it was.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            lim.rlim_cur = lim.rlim_max;
        }
    }
    if lim.rlim_cur < needed {
        tracing::warn!(
            open_files = lim.rlim_cur,
            needed,
            "the open files limit (RLIMIT_NOFILE) is below what --max-connections and \
             --events-max allow: raise the hard limit (ulimit -Hn, LimitNOFILE=) or lower them"
        );
    }
}

/// Building the OpenAPI document and the compressed files at start-up
/// passes through far more heap than it keeps, and glibc holds on to the
/// freed pages: they are handed back once the start-up work is done
/// (bench/hostile.md, "Start-up memory").
fn return_start_up_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory to the system; it takes
    // the allocator's own locks and no pointer of ours.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// `faan serve`: logs, loads, binds and serves; a start-up error exits non-zero.
pub fn serve(config: ServeArgs) -> ExitCode {
    cap_malloc_arenas();
    let logging = match init_logging(&config) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("faan: {e}");
            return ExitCode::FAILURE;
        }
    };
    let app = match Application::build(&config) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("faan: {e}");
            return ExitCode::FAILURE;
        }
    };
    return_start_up_heap();
    tracing::info!(addr = %config.addr, port = app.port(), workers = config.workers(),
        admin_addr = config.admin_addr().unwrap_or("none"), traces = logging.traces.is_some(), "listening");
    let code = match actix_web::rt::System::new().block_on(app.run_until_signalled()) {
        Ok(()) => {
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("faan: {e}");
            ExitCode::FAILURE
        }
    };
    // Sends the spans still batched.
    if let Some(Err(e)) = logging.traces.as_ref().map(|p| p.shutdown()) {
        eprintln!("faan: OpenTelemetry shutdown: {e}");
    }
    // Dropping `logging` writes out the queued lines.
    code
}

/// `faan healthcheck`: GET /readyz on a running server; exit 0 on a 200.
pub fn healthcheck(args: &HealthcheckArgs) -> ExitCode {
    use std::io::{Read, Write};
    use std::net::{TcpStream, ToSocketAddrs};
    let probe = || -> std::io::Result<bool> {
        let addr = args
            .addr
            .to_socket_addrs()?
            .next()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no address"))?;
        let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(3))?;
        s.set_read_timeout(Some(Duration::from_secs(3)))?;
        s.write_all(format!("GET /readyz HTTP/1.0\r\nHost: {}\r\n\r\n", args.addr).as_bytes())?;
        let mut buf = [0u8; 16];
        let n = s.read(&mut buf)?;
        let head = String::from_utf8_lossy(&buf[..n]);
        Ok(head.starts_with("HTTP/1.1 200") || head.starts_with("HTTP/1.0 200"))
    };
    match probe() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("faan healthcheck: {} is not ready", args.addr);
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("faan healthcheck: {}: {e}", args.addr);
            ExitCode::FAILURE
        }
    }
}
