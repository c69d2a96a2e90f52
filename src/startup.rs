//! Building and running the server: bind, wire state and middleware, serve
//! until SIGTERM/SIGINT (actix finishes in-flight requests within the
//! shutdown timeout).

use crate::config::{HealthcheckArgs, LogFormat, ServeArgs};
use crate::core::Registry;
use crate::http::{self, meta, metrics::Metrics, observe, AppState, Limits};
use crate::service::{self, cache::ScoreCache};
use crate::{logging, telemetry};
use actix_web::dev::Server;
use actix_web::http::KeepAlive;
use actix_web::{web, App, HttpServer};
use opentelemetry_sdk::trace::SdkTracerProvider;
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

/// A bound, not yet running server.
pub struct Application {
    port: u16,
    server: Server,
    shutting_down: Arc<AtomicBool>,
    shutdown_delay: Duration,
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
        let bind_err = |source| StartupError::Bind {
            addr: config.addr.clone(),
            source,
        };
        let listener = TcpListener::bind(&config.addr).map_err(bind_err)?;
        let port = listener.local_addr().map_err(bind_err)?.port();
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
        });
        let server = HttpServer::new(move || {
            App::new()
                .app_data(state.clone())
                .app_data(tables.clone())
                .configure(http::configure)
                .default_service(web::to(meta::not_found))
                // gzip or brotli when the client asks (Accept-Encoding): the page and JSON answers.
                .wrap(actix_web::middleware::Compress::default())
                .wrap_fn(observe::observe)
                .wrap(tracing_actix_web::TracingLogger::<observe::RootSpan>::new())
        })
        .workers(config.workers())
        .shutdown_timeout(config.shutdown_timeout)
        .client_request_timeout(Duration::from_millis(config.client_request_timeout_ms))
        .keep_alive(match config.keep_alive {
            0 => KeepAlive::Disabled,
            s => KeepAlive::Timeout(Duration::from_secs(s)),
        })
        .max_connections(config.max_connections.max(1))
        .backlog(config.backlog)
        // SIGTERM/SIGINT are handled by `run_until_signalled` (readiness first, then a graceful stop).
        .disable_signals()
        .listen(listener)
        .map_err(bind_err)?
        .run();
        Ok(Application {
            port,
            server,
            shutting_down,
            shutdown_delay: Duration::from_secs(config.shutdown_delay),
        })
    }

    /// The port actually bound (useful with port 0).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until the server is stopped by a handle (no signal handling).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }

    /// Serves until SIGTERM or SIGINT: /readyz turns 503 at once, the listener
    /// closes after the shutdown delay, and in-flight requests get the
    /// shutdown timeout to finish. A second signal stops at once.
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
        self.server.await
    }

    /// A handle to stop the server.
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }
}

/// What [`init_logging`] set up; keep it until exit.
pub struct Logging {
    /// The tracer provider while traces go out (to flush at exit).
    pub traces: Option<SdkTracerProvider>,
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

/// `faan serve`: logs, loads, binds and serves; a start-up error exits non-zero.
/// glibc gives each thread that allocates an arena of its own, and freed
/// memory stays in it: under the heavy endpoints' mix the process peaked at
/// 200 MiB where two arenas hold it to 163 MiB (bench/hostile.md). Two, not
/// one: one arena costs a third of the light requests' throughput there.
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
    tracing::info!(addr = %config.addr, port = app.port(), workers = config.workers(),
        traces = logging.traces.is_some(), "listening");
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
