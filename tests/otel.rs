//! OpenTelemetry request spans through the SDK's in-memory exporter: the
//! server span of a request, its parent from an incoming W3C `traceparent`,
//! and the step spans under it. A test binary of its own: it installs the
//! process-wide subscriber and propagator.
#![cfg(feature = "otel")]

#[allow(dead_code)]
#[path = "api/helpers.rs"]
mod helpers;

use opentelemetry::trace::{SpanId, SpanKind, TraceId};
use opentelemetry::Value;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::{json, Value as Json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tracing_subscriber::layer::SubscriberExt;

fn attr<'a>(span: &'a SpanData, key: &str) -> Option<&'a Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

/// The finished spans once `n` server spans are in (a span ends when the
/// server drops the response body, a moment after the client has read it).
fn finished(
    provider: &SdkTracerProvider,
    exporter: &InMemorySpanExporter,
    n: usize,
) -> Vec<SpanData> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        provider.force_flush().expect("flush");
        let spans = exporter.get_finished_spans().expect("spans");
        let servers = spans
            .iter()
            .filter(|s| s.span_kind == SpanKind::Server)
            .count();
        if servers >= n || Instant::now() > deadline {
            return spans;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test]
async fn request_span_continues_the_callers_trace() {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let subscriber = tracing_subscriber::registry().with(faan::telemetry::layer(&provider));
    tracing::subscriber::set_global_default(subscriber).expect("the only subscriber");
    assert!(faan::telemetry::traces_on());

    let app = helpers::spawn_app().await;
    // The W3C spec's own example ids (trace-context, section 3.2).
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let parent = "00f067aa0ba902b7";
    let body = json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}});
    let r = app
        .send(
            app.client
                .post(format!("{}/v1/score", app.base))
                .header("traceparent", format!("00-{trace}-{parent}-01"))
                .header("x-request-id", "otel-1")
                .json(&body),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    // No traceparent: a new trace, the request span its root.
    assert_eq!(app.get("/v1/rulesets/hkma").await.status, 200);

    let spans = finished(&provider, &exporter, 2);
    let servers: Vec<&SpanData> = spans
        .iter()
        .filter(|s| s.span_kind == SpanKind::Server)
        .collect();
    assert_eq!(servers.len(), 2, "one server span per request: {spans:#?}");

    let score = servers
        .iter()
        .find(|s| s.name == "POST /v1/score")
        .unwrap_or_else(|| panic!("a span named after method and route: {servers:#?}"));
    assert_eq!(
        score.span_context.trace_id(),
        TraceId::from_hex(trace).unwrap(),
        "the caller's trace"
    );
    assert_eq!(
        score.parent_span_id,
        SpanId::from_hex(parent).unwrap(),
        "the caller's span"
    );
    assert!(score.parent_span_is_remote, "the parent came over the wire");
    assert_eq!(attr(score, "http.route"), Some(&Value::from("/v1/score")));
    assert_eq!(
        attr(score, "http.request.method"),
        Some(&Value::from("POST"))
    );
    assert_eq!(
        attr(score, "http.response.status_code"),
        Some(&Value::I64(200))
    );
    assert_eq!(attr(score, "request_id"), Some(&Value::from("otel-1")));

    // The steps of a miss, each a child of the request span, in the caller's trace.
    for step in ["parse", "validate", "score", "render"] {
        let s = spans
            .iter()
            .find(|s| s.name == step)
            .unwrap_or_else(|| panic!("a {step} span: {spans:#?}"));
        assert_eq!(
            s.parent_span_id,
            score.span_context.span_id(),
            "{step} under the request"
        );
        assert_eq!(
            s.span_context.trace_id(),
            score.span_context.trace_id(),
            "{step}'s trace"
        );
    }

    let rulesets = servers
        .iter()
        .find(|s| s.name == "GET /v1/rulesets/{id}")
        .unwrap_or_else(|| panic!("the rulesets span: {servers:#?}"));
    assert_eq!(
        rulesets.parent_span_id,
        SpanId::INVALID,
        "no traceparent: a root span"
    );
    assert_ne!(
        rulesets.span_context.trace_id(),
        score.span_context.trace_id(),
        "a new trace"
    );
}

// ------------------------------------------------- end to end, over OTLP/HTTP

/// The receiver's one dependency, pinned.
const OTLP_PROTO: &str = "opentelemetry-proto==1.45.2";

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// The Python of a venv under target/ with `opentelemetry-proto`, made on
/// first use (from PyPI). No python3, venv or package: the test fails.
fn receiver_python() -> PathBuf {
    let venv = target_dir().join("otlp-venv");
    let python = venv.join("bin/python");
    let version = OTLP_PROTO.split("==").nth(1).unwrap();
    let check = format!(
        "import importlib.metadata as m, opentelemetry.proto; assert m.version('opentelemetry-proto') == '{version}'"
    );
    let ready = || {
        Command::new(&python)
            .args(["-c", &check])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !ready() {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status();
        assert!(
            made.is_ok_and(|s| s.success()),
            "python3 -m venv {} failed: the OTLP receiver needs python3 with venv",
            venv.display()
        );
        let installed = Command::new(venv.join("bin/pip"))
            .args(["install", "-q", OTLP_PROTO])
            .status();
        assert!(
            installed.is_ok_and(|s| s.success()),
            "pip install {OTLP_PROTO} into {} failed",
            venv.display()
        );
        assert!(ready(), "{OTLP_PROTO} does not import");
    }
    python
}

/// A child process stopped when the test ends, however it ends.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// One request on a new connection; the status.
fn http(addr: &str, request: &str) -> Option<u16> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    s.write_all(request.as_bytes()).ok()?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).ok()?;
    String::from_utf8_lossy(&answer).get(9..12)?.parse().ok()
}

/// The real binary with `OTEL_EXPORTER_OTLP_ENDPOINT` set sends its spans to
/// a collector on 127.0.0.1 (tests/otlp_receiver.py): the request's server
/// span in the caller's trace, under the caller's span, with its four steps
/// under it.
#[test]
fn spans_reach_an_otlp_http_collector() {
    let python = receiver_python();
    let mut receiver = Child(
        Command::new(python)
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/otlp_receiver.py"))
            .args(["--lifetime", "60"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the receiver starts"),
    );
    let (tx, rx) = mpsc::channel::<Json>();
    let out = BufReader::new(receiver.0.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            let Ok(v) = serde_json::from_str(&line) else {
                continue;
            };
            if tx.send(v).is_err() {
                break;
            }
        }
    });
    let first = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the receiver's port");
    let collector = format!("http://127.0.0.1:{}", first["port"]);

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let addr = format!("127.0.0.1:{port}");
    let _faan = Child(
        Command::new(env!("CARGO_BIN_EXE_faan"))
            // Scoring only: no table store in the working directory.
            .env("FAAN_STORE", "none")
            .args([
                "serve",
                "--addr",
                &addr,
                "--admin-addr",
                "none",
                "--workers",
                "1",
                "--log-level",
                "warn",
            ])
            .env("OTEL_EXPORTER_OTLP_ENDPOINT", &collector)
            .env("OTEL_BSP_SCHEDULE_DELAY", "100")
            .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            .env_remove("OTEL_SERVICE_NAME")
            .env_remove("OTEL_RESOURCE_ATTRIBUTES")
            .env_remove("OTEL_SDK_DISABLED")
            .env_remove("OTEL_TRACES_SAMPLER")
            .stdout(Stdio::null())
            .spawn()
            .expect("the binary starts"),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while http(
        &addr,
        "GET /readyz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
    ) != Some(200)
    {
        assert!(Instant::now() < deadline, "the server did not get ready");
        std::thread::sleep(Duration::from_millis(50));
    }

    // A trace id of this run, and the caller's span.
    let trace = format!("{:032x}", u128::from(std::process::id()) << 64 | 0x5eed);
    let parent = "b7ad6b7169203331";
    let body = r#"{"ruleset":"wisteria-court","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#;
    let request = format!(
        "POST /v1/score HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\ntraceparent: 00-{trace}-{parent}-01\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    assert_eq!(http(&addr, &request), Some(200), "the scored request");

    // The spans of that trace: the server span and its four steps (batched every 100 ms).
    let mut spans: Vec<Json> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while spans.len() < 5 {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(span) = rx.recv_timeout(left) else {
            panic!("no more spans of trace {trace} within 20 s: {spans:#?}");
        };
        if span["trace_id"] == trace.as_str() {
            spans.push(span);
        }
    }
    let server = spans
        .iter()
        .find(|s| s["kind"] == 2)
        .unwrap_or_else(|| panic!("a server span (kind 2): {spans:#?}"));
    assert_eq!(server["name"], "POST /v1/score", "{server}");
    assert_eq!(
        server["parent_span_id"], parent,
        "the caller's span: {server}"
    );
    assert_eq!(
        server["service"], "faan",
        "the default service name: {server}"
    );
    assert_eq!(server["attributes"]["http.route"], "/v1/score", "{server}");
    assert_eq!(
        server["attributes"]["http.response.status_code"], 200,
        "{server}"
    );
    let mut steps: Vec<&str> = spans
        .iter()
        .filter(|s| s["parent_span_id"] == server["span_id"])
        .filter_map(|s| s["name"].as_str())
        .collect();
    steps.sort_unstable();
    assert_eq!(
        steps,
        ["parse", "render", "score", "validate"],
        "steps under the server span"
    );
    println!(
        "OTLP/HTTP end to end: {} spans of trace {trace} from service {}; server span {} \
         (span {}, parent {parent}), steps {steps:?} under it",
        spans.len(),
        server["service"],
        server["name"],
        server["span_id"].as_str().unwrap_or(""),
    );
    drop(receiver);
}
