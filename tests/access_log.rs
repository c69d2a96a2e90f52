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
    // A body refused by its `Content-Length` (70,000 bytes against the
    // 64 KiB of single requests) before `100 Continue`, at a 60 KB path:
    // answered before routing, and logged there, with the path cut too.
    let long = format!("/{}", "e".repeat(60_000));
    assert_eq!(
        status_of(
            &addr,
            &format!("POST {long} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 70000\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        ),
        Some(413),
        "case: refused by its Content-Length"
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
    // 253 bytes of the path and the 3-byte mark: 256 (`logging::FIELD_BYTES`).
    let refused = done
        .iter()
        .find(|l| l.contains(" status=413 "))
        .unwrap_or_else(|| panic!("case refused: a line with status=413 in\n{log}"));
    let path = refused
        .split("url.path=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_default();
    assert!(
        path == format!("{}\u{2026}", &long[..253]),
        "case refused: the path cut to 256 bytes, not {} bytes",
        path.len()
    );
    assert!(
        refused.contains(r#" route="unmatched" latency_us=0"#),
        "case refused: {}",
        &refused[..refused.len().min(300)]
    );
    assert!(
        log.lines().any(|l| l.contains("faan::startup: stopped")),
        "case: the last line is written out at exit:\n{log}"
    );
}

/// Reads one answer (head and `Content-Length` body) from a keep-alive
/// connection; its status.
fn read_answer(s: &mut TcpStream, buf: &mut Vec<u8>) -> Option<u16> {
    loop {
        if let Some(h) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..h]).to_ascii_lowercase();
            let len: usize = head
                .split("content-length:")
                .nth(1)?
                .split("\r\n")
                .next()?
                .trim()
                .parse()
                .ok()?;
            if buf.len() >= h + 4 + len {
                let status = head.split_whitespace().nth(1)?.parse().ok();
                buf.drain(..h + 4 + len);
                return status;
            }
        }
        let mut chunk = [0u8; 65536];
        let n = s.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// The peak resident memory of a process (VmHWM), in bytes.
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

/// Standard error never read (a stalled log reader) at the default level,
/// 600 requests for a 60 KB path: each line repeats 256 bytes of the path
/// (253 and the 3-byte `…`), and the writer holds at most
/// `--log-queue-bytes` (64 KiB here, each line counted with 128 bytes more),
/// dropping and counting the rest. A line is about 470 bytes (400 at
/// least), so at most (64 KiB queued + 64 KiB in the pipe + 8 KiB in the
/// writer's buffer) / 400 + 2 = 139,264 / 400 + 2 = 350 lines get through
/// and at least 250 are dropped; the memory stays within 16 MiB of what the
/// server held when ready. Whole
/// 60 KB lines in a queue of lines would hold 600 x 60 KB = 36 MB.
#[test]
fn a_stalled_stderr_holds_the_log_queue_to_its_bytes_and_cuts_long_paths() {
    const QUEUE: usize = 64 * 1024;
    const SENT: usize = 600;
    let addr = format!("127.0.0.1:{}", free_port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_faan"))
        // Scoring only (no table store in the working directory), and no
        // probes' listener on the default port another server may hold.
        .env("FAAN_STORE", "none")
        .args(["serve", "--addr", &addr, "--admin-addr", "none"])
        .args(["--workers", "1"])
        .args([
            "--shutdown-delay",
            "0",
            "--log-queue-bytes",
            &QUEUE.to_string(),
        ])
        .env_remove("RUST_LOG")
        .env_remove("FAAN_LOG_LEVEL")
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
    let ready = peak_rss(child.id());
    let path = format!("/{}", "a".repeat(60_000));
    let request = format!("GET {path} HTTP/1.1\r\nHost: t\r\n\r\n");
    let mut s = TcpStream::connect(&addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut buf = Vec::new();
    for i in 0..SENT {
        s.write_all(request.as_bytes()).expect("request sent");
        assert_eq!(read_answer(&mut s, &mut buf), Some(404), "request {i}");
    }
    drop(s);
    let grown = peak_rss(child.id()).saturating_sub(ready);
    let mut s = TcpStream::connect(&addr).expect("connect");
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut metrics = String::new();
    s.read_to_string(&mut metrics).unwrap();
    let dropped: usize = metrics
        .lines()
        .find_map(|l| l.strip_prefix("faan_log_lines_dropped_total "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no dropped-lines counter in\n{metrics}"));

    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    let mut log = String::new();
    child
        .stderr
        .take()
        .expect("stderr piped")
        .read_to_string(&mut log)
        .expect("stderr read to its end");
    let status = child.wait().expect("the server exits");
    assert!(status.success(), "exit 0 after SIGTERM: {status:?}");

    let long: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("url.path=\"/aaaa"))
        .collect();
    let cut = format!("{}\u{2026}", &path[..253]);
    for line in &long {
        let field = line
            .split("url.path=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_default();
        assert_eq!(
            field,
            cut,
            "case: the path cut to 256 bytes: {}",
            &line[..200]
        );
    }
    assert!(!long.is_empty(), "case: some lines got through");
    let most = (QUEUE + 64 * 1024 + 8 * 1024) / 400 + 2;
    println!(
        "{} long lines written, {dropped} dropped, peak memory +{grown} bytes",
        long.len()
    );
    assert!(
        long.len() <= most,
        "case: {} long lines got through, at most {most}",
        long.len()
    );
    assert!(
        dropped >= SENT - most,
        "case: {dropped} lines dropped, at least {}",
        SENT - most
    );
    assert!(
        long.len() + dropped >= SENT,
        "case: every line written or counted ({} + {dropped})",
        long.len()
    );
    assert!(
        grown < 16 * 1024 * 1024,
        "case: peak memory grew {grown} bytes past the ready server's"
    );
}
