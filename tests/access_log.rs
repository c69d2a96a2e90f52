//! The access log line of the real binary (text to a pipe, the default
//! level): one "request done" line per request with every field of the
//! request on the line itself, written out by the non-blocking writer before
//! the process exits.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Sends one request on a new connection (`Connection: close`) and returns
/// the status.
fn status_of(addr: &str, request: &str) -> Option<u16> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    s.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    s.read_to_string(&mut answer).ok()?;
    answer.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn each_request_writes_one_line_with_all_its_fields() {
    let addr = format!("127.0.0.1:{}", free_port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_faan"))
        .args([
            "serve",
            "--addr",
            &addr,
            "--admin-addr",
            "none",
            "--workers",
            "1",
        ])
        .args(["--shutdown-delay", "0"])
        .env_remove("RUST_LOG")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while status_of(
        &addr,
        "GET /readyz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
    ) != Some(200)
    {
        assert!(Instant::now() < deadline, "the server did not get ready");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        status_of(
            &addr,
            "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Request-Id: log-24\r\nConnection: close\r\n\r\n"
        ),
        Some(200),
        "case: /healthz"
    );
    let body = r#"{"ruleset":"wisteria-court","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#;
    let score = format!(
        "POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    assert_eq!(status_of(&addr, &score), Some(200), "case: a score");
    assert_eq!(
        status_of(
            &addr,
            "GET /nowhere HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
        ),
        Some(404),
        "case: no route"
    );
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success(), "SIGTERM sent");
    let mut log = String::new();
    child
        .stderr
        .take()
        .expect("stderr piped")
        .read_to_string(&mut log)
        .expect("stderr read to its end");
    let status = child.wait().expect("the server exits");
    assert!(status.success(), "exit 0 after SIGTERM: {status:?}\n{log}");

    let done: Vec<&str> = log.lines().filter(|l| l.contains("request done")).collect();
    // The readiness probes, /healthz, the score and the 404.
    assert!(done.len() >= 4, "a line per request:\n{log}");
    for (case, wanted) in [
        (
            "/healthz with the client's id",
            r#"  INFO faan::http::observe: request done http.request.method="GET" url.path="/healthz" request_id="log-24" status=200 route="/healthz" latency_us="#,
        ),
        (
            "a score",
            r#"  INFO faan::http::observe: request done http.request.method="POST" url.path="/v1/score" request_id=""#,
        ),
        (
            "no route",
            r#"  INFO faan::http::observe: request done http.request.method="GET" url.path="/nowhere" request_id=""#,
        ),
    ] {
        let line = done
            .iter()
            .find(|l| l.contains(wanted))
            .unwrap_or_else(|| panic!("case {case}: a line with {wanted:?} in\n{log}"));
        // An RFC 3339 timestamp in UTC with microseconds first.
        let stamp = &line[..27];
        assert!(
            stamp.len() == 27 && stamp.as_bytes()[10] == b'T' && stamp.ends_with('Z'),
            "case {case}: timestamp {stamp:?}"
        );
        let latency = line.rsplit("latency_us=").next().unwrap_or("");
        assert!(
            latency.parse::<u64>().is_ok(),
            "case {case}: the latency is the last field, a number: {line}"
        );
    }
    let score = done.iter().find(|l| l.contains("/v1/score")).unwrap();
    assert!(
        score.contains(r#" status=200 route="/v1/score" latency_us="#),
        "case a score: status and route: {score}"
    );
    // A generated id is a UUID (36 characters).
    let id = score
        .split("request_id=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or("");
    assert_eq!(id.len(), 36, "case a score: a generated request id {id:?}");
    let missing = done.iter().find(|l| l.contains("/nowhere")).unwrap();
    assert!(
        missing.contains(r#" status=404 route="unmatched" latency_us="#),
        "case no route: {missing}"
    );
    assert!(
        log.lines().any(|l| l.contains("faan::startup: stopped")),
        "case: the last line is written out at exit:\n{log}"
    );
}
