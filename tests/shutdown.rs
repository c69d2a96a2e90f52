//! Graceful shutdown of the real binary: requests in flight when SIGTERM
//! arrives all get a complete 200, /readyz answers 503 during the shutdown
//! delay, and the process exits 0 within the shutdown timeout.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const SHUTDOWN_TIMEOUT_S: u64 = 20;
/// Seconds the listener stays open after SIGTERM with /readyz answering 503.
const SHUTDOWN_DELAY_S: u64 = 2;

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        // Only when the test failed before the server exited.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn start() -> Server {
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let child = Command::new(env!("CARGO_BIN_EXE_faan"))
        // Scoring only: no table store in the working directory.
        .env("FAAN_STORE", "none")
        .args([
            "serve",
            "--addr",
            &addr,
            "--admin-addr",
            "none",
            "--workers",
            "2",
            "--cache-size",
            "0",
            "--shutdown-timeout",
            &SHUTDOWN_TIMEOUT_S.to_string(),
            "--shutdown-delay",
            &SHUTDOWN_DELAY_S.to_string(),
            "--log-level",
            "warn",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let server = Server { child, addr };
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(mut s) = TcpStream::connect(&server.addr) {
            let (status, _) = exchange(
                &mut s,
                b"GET /readyz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
            );
            if status == 200 {
                return server;
            }
        }
        assert!(Instant::now() < deadline, "the server did not get ready");
        thread::sleep(Duration::from_millis(50));
    }
}

/// Writes a whole request and reads one response (headers and a
/// Content-Length body); returns the status and the body.
fn exchange(s: &mut TcpStream, request: &[u8]) -> (u16, Vec<u8>) {
    s.write_all(request).expect("request written");
    read_response(s)
}

fn read_response(s: &mut TcpStream) -> (u16, Vec<u8>) {
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 65536];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut chunk).expect("response read");
        assert!(
            n > 0,
            "connection closed before the headers: {:?}",
            String::from_utf8_lossy(&buf)
        );
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .unwrap_or_else(|| panic!("no content-length in {head:?}"));
    while buf.len() < head_end + length {
        let n = s.read(&mut chunk).expect("body read");
        assert!(
            n > 0,
            "connection closed after {} of {length} body bytes",
            buf.len() - head_end
        );
        buf.extend_from_slice(&chunk[..n]);
    }
    (status, buf[head_end..head_end + length].to_vec())
}

fn post_head(path: &str, len: usize) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
    )
    .into_bytes()
}

/// A batch of `n` different winning hands (so each is scored, no cache).
fn batch_body(n: usize) -> Vec<u8> {
    let winds = ["east", "south", "west", "north"];
    let rulesets = ["hkma", "wisteria-court", "sc-hk13", "mjb"];
    let hands = [
        ("123456m789p23455s", "9p"),
        ("11122233344455m", "5m"),
        ("234m567m345m99m777z", "9m"),
        ("222m888p77z555z666z", "8p"),
    ];
    let items: Vec<String> = (0..n)
        .map(|i| {
            let (tiles, win) = hands[i % hands.len()];
            format!(
                r#"{{"ruleset":"{}","hand":{{"tiles":"{tiles}","winning_tile":"{win}"}},"context":{{"win_by":"self_draw","seat_wind":"{}","round_wind":"{}"}}}}"#,
                rulesets[(i / 4) % 4],
                winds[(i / 16) % 4],
                winds[(i / 64) % 4],
            )
        })
        .collect();
    format!(r#"{{"requests":[{}]}}"#, items.join(",")).into_bytes()
}

#[test]
fn sigterm_finishes_in_flight_requests_and_exits_zero() {
    let mut server = start();

    // Requests in flight: headers and all but the last bytes of the body
    // sent, so the server has accepted them and is reading the body.
    let score = br#"{"ruleset":"hkma","hand":{"tiles":"234m567m345m99m777z","winning_tile":"9m"},"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}"#.to_vec();
    let mut in_flight: Vec<(String, TcpStream, Vec<u8>)> = Vec::new();
    for i in 0..4 {
        let body = batch_body(1000);
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.write_all(&post_head("/v1/score/batch", body.len()))
            .unwrap();
        s.write_all(&body[..body.len() - 1]).unwrap();
        in_flight.push((format!("batch {i}"), s, body[body.len() - 1..].to_vec()));
    }
    for i in 0..4 {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.write_all(&post_head("/v1/score", score.len())).unwrap();
        s.write_all(&score[..10]).unwrap();
        in_flight.push((format!("slow score {i}"), s, score[10..].to_vec()));
    }
    thread::sleep(Duration::from_millis(300));

    let pid = server.child.id().to_string();
    let signalled = Instant::now();
    let ok = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(ok.success(), "kill -TERM {pid}");
    thread::sleep(Duration::from_millis(300));

    // Shutdown has begun: during the shutdown delay the listener is still
    // open and readiness says 503 (actix closes idle keep-alive connections
    // at once, so a probe needs a new connection).
    let mut probe = TcpStream::connect(&server.addr).expect("still listening during the delay");
    let (status, body) = exchange(
        &mut probe,
        b"GET /readyz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 503, "{}", String::from_utf8_lossy(&body));
    assert!(String::from_utf8_lossy(&body).contains("shutting_down"));

    // Past the delay the listener is closed and actix is draining: finish
    // the uploads now; every in-flight request gets a complete 200.
    thread::sleep(
        Duration::from_millis(SHUTDOWN_DELAY_S * 1000 + 500).saturating_sub(signalled.elapsed()),
    );
    assert!(
        TcpStream::connect(&server.addr).is_err(),
        "the listener is closed after the shutdown delay"
    );
    let handles: Vec<_> = in_flight
        .into_iter()
        .map(|(name, mut s, rest)| {
            thread::spawn(move || {
                s.write_all(&rest).unwrap();
                let (status, body) = read_response(&mut s);
                (name, status, body)
            })
        })
        .collect();
    for h in handles {
        let (name, status, body) = h.join().expect("client thread");
        let text = String::from_utf8_lossy(&body);
        assert_eq!(
            status,
            200,
            "{name}: {}",
            text.chars().take(300).collect::<String>()
        );
        let v: serde_json::Value = serde_json::from_slice(&body)
            .unwrap_or_else(|e| panic!("{name}: incomplete JSON ({e})"));
        if name.starts_with("batch") {
            let results = v["results"].as_array().expect("results");
            assert_eq!(results.len(), 1000, "{name}");
            assert!(
                results.iter().all(|r| r["total_faan"].is_u64()),
                "{name}: every hand scored"
            );
        } else {
            assert!(v["total_faan"].is_u64(), "{name}: {v}");
        }
    }

    // The process exits 0 within the shutdown timeout.
    let deadline = signalled + Duration::from_secs(SHUTDOWN_TIMEOUT_S + 5);
    let status = loop {
        if let Some(status) = server.child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "still running {:?} after SIGTERM",
            signalled.elapsed()
        );
        thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status {status:?}");
    assert!(
        signalled.elapsed() >= Duration::from_secs(SHUTDOWN_DELAY_S),
        "the shutdown delay was kept"
    );
    assert!(
        signalled.elapsed() < Duration::from_secs(SHUTDOWN_TIMEOUT_S),
        "exited after {:?}",
        signalled.elapsed()
    );
}
