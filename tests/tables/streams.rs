//! Event streams' own budget (docs/operations.md, "Event streams"):
//! streams do not count against `--max-connections`, a stream
//! whose client has gone frees its place within a second, and one whose
//! client does not read is closed after the write timeout.

use super::support::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Ben's all pungs self-drawn under HKMA: all pungs 3 + self-draw 1 = 4 faan.
fn score_body() -> Value {
    json!({"ruleset": "hkma",
        "hand": {"tiles": "77755p", "winning_tile": "5p", "melds": [
            {"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999s"}, {"kind": "pung", "tiles": "222p"}]},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

/// A stream request's status without reading its body (kept open while
/// the response is).
async fn try_stream(app: &App, id: &str) -> (u16, reqwest::Response) {
    let res = app
        .client
        .get(app.url(&format!("/v1/tables/{id}/events")))
        .send()
        .await
        .expect("request sent");
    (res.status().as_u16(), res)
}

/// Polls for a new stream on `id` every 20 ms until one is accepted or
/// `limit` passes: the time it took, if it was accepted.
async fn accepted_within(app: &App, id: &str, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        let (status, res) = try_stream(app, id).await;
        if status == 200 {
            drop(res);
            return Some(start.elapsed());
        }
        assert_eq!(status, 503, "a full table answers 503");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

#[tokio::test]
async fn a_thousand_streams_leave_the_api_answering_and_the_next_is_refused_at_once() {
    // One worker with the default 64 connections, --events-max 1,000: all
    // 1,000 streams open (200, text/event-stream) on one table.
    let app = spawn_sqlite("streams_thousand", |t| {
        t.events_max = 1000;
        t.events_per_table = 1000;
    })
    .await;
    assert_eq!(
        faan::config::DEFAULT_MAX_CONNECTIONS,
        64,
        "the default connection bound"
    );
    let (id, key, _) = app.create(night(vec![])).await;
    let url = app.url(&format!("/v1/tables/{id}/events"));
    let started = Instant::now();
    let streams: Vec<Events> = futures_util::stream::iter(0..1000)
        .map(|_| events(&app.client, &url, None))
        .buffer_unordered(100)
        .collect()
        .await;
    assert_eq!(streams.len(), 1000, "1,000 streams open");
    let opening = started.elapsed();
    assert!(opening < Duration::from_secs(30), "opened in {opening:?}");

    // While they are open, a score and an append answer at once.
    let t = Instant::now();
    let r = app.post("/v1/score", &score_body(), &[]).await;
    let score_took = t.elapsed();
    assert_eq!((r.status, r.json()["total_faan"].clone()), (200, json!(4)));
    assert!(
        score_took < Duration::from_secs(1),
        "score took {score_took:?}"
    );
    let t = Instant::now();
    let r = app.append(&id, &key, 1, ben_self_draw()).await;
    let append_took = t.elapsed();
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        append_took < Duration::from_secs(2),
        "append took {append_took:?}"
    );

    // The 1,001st: a 503 streams-full with Retry-After, at once.
    let t = Instant::now();
    let r = app.get(&format!("/v1/tables/{id}/events"), &[]).await;
    let refused_in = t.elapsed();
    assert_eq!(
        (r.status, r.json()["type"].clone()),
        (503, json!("/problems/streams-full"))
    );
    assert_eq!(r.header("retry-after").as_deref(), Some("30"));
    assert!(
        refused_in < Duration::from_secs(1),
        "refused in {refused_in:?}"
    );
    drop(streams);
}

#[tokio::test]
async fn streams_do_not_count_against_max_connections_and_plain_ones_still_do() {
    // --max-connections 2: five streams open and a score still answers;
    // then two idle connections take both plain places, and a score waits
    // until one of them closes.
    // No keep-alive, so that no finished request keeps a place.
    let app = spawn_sqlite_args("streams_plain", |a| {
        a.max_connections = 2;
        a.keep_alive = 0;
    })
    .await;
    let (id, _, _) = app.create(night(vec![])).await;
    let mut open = Vec::new();
    for _ in 0..5 {
        open.push(app.stream(&id, None).await);
    }
    let r = app.post("/v1/score", &score_body(), &[]).await;
    assert_eq!(r.status, 200, "a score beside five streams");

    let addr = app.base.trim_start_matches("http://").to_string();
    let idle1 = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let _idle2 = tokio::net::TcpStream::connect(&addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A fresh client, so that no pooled connection (holding a place) is reused.
    let client = reqwest::Client::new();
    let body = score_body().to_string();
    let score = {
        let client = client.clone();
        let url = app.url("/v1/score");
        tokio::spawn(async move {
            let r = client
                .post(url)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), Instant::now())
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !score.is_finished(),
        "the score waits while both plain places are held"
    );
    let closed = Instant::now();
    drop(idle1);
    let (status, answered) = score.await.unwrap();
    assert_eq!(status, 200, "answered once a place is free");
    assert!(answered >= closed, "not before the idle connection closed");
    drop(open);
}

#[tokio::test]
async fn a_stream_whose_client_closed_frees_its_place_within_a_second() {
    // --events-per-table 2: both places taken; one client closes its
    // connection, and a new stream is accepted within 1 s.
    let app = spawn_sqlite("streams_closed", |t| t.events_per_table = 2).await;
    let (id, _, _) = app.create(night(vec![])).await;
    let first = app.stream(&id, None).await;
    let _second = app.stream(&id, None).await;
    let (status, third) = try_stream(&app, &id).await;
    assert_eq!(status, 503, "the third is refused while two are open");
    drop(third);
    drop(first);
    let took = accepted_within(&app, &id, Duration::from_secs(3))
        .await
        .expect("a new stream accepted after the client closed");
    assert!(took < Duration::from_secs(1), "place freed in {took:?}");
}

#[tokio::test]
async fn a_stream_whose_client_never_reads_is_closed_after_the_write_timeout() {
    // --write-timeout 2, one stream a table. A raw client sends the GET and
    // never reads (its receive buffer small, so its window fills soon);
    // three appends make events flow. They fit in the server's send buffer,
    // so no write ever blocks: only the bytes the client leaves
    // unacknowledged show it stalled. Its place is freed no sooner than the
    // write timeout after the stream opened, and within the timeout and a
    // margin (a look every 500 ms) of the last append.
    let app = spawn_sqlite_args("streams_stalled", |a| {
        a.write_timeout = 2;
        a.tables.events_per_table = 1;
    })
    .await;
    let (id, key, _) = app.create(night(vec![])).await;
    let addr: std::net::SocketAddr = app.base.trim_start_matches("http://").parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stalled = socket.connect(addr).await.unwrap();
    stalled
        .write_all(format!("GET /v1/tables/{id}/events HTTP/1.1\r\nHost: t\r\n\r\n").as_bytes())
        .await
        .unwrap();
    // Its answer begins 200 (twelve bytes read, then never another); its
    // place is taken, so the next stream is refused.
    let mut head = [0u8; 12];
    tokio::time::timeout(Duration::from_secs(5), stalled.read_exact(&mut head))
        .await
        .expect("the raw client's stream answers")
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    let (status, res) = try_stream(&app, &id).await;
    drop(res);
    assert_eq!(
        status, 503,
        "the stalled client holds the table's one place"
    );
    let opened = Instant::now();
    for v in 1..=3 {
        let r = app.append(&id, &key, v, ben_self_draw()).await;
        assert_eq!(r.status, 200, "append {v}: {}", r.text());
    }
    let last_append = Instant::now();
    accepted_within(&app, &id, Duration::from_secs(8))
        .await
        .expect("the stalled stream's place is freed");
    let (after_open, after_append) = (opened.elapsed(), last_append.elapsed());
    // Not before the write timeout could pass, and within it and a margin
    // (a look every 500 ms) of the last bytes it could have taken.
    assert!(
        after_open >= Duration::from_secs(2),
        "freed {after_open:?} after the stream opened (write timeout 2 s)"
    );
    assert!(
        after_append < Duration::from_millis(3500),
        "freed {after_append:?} after the last append (write timeout 2 s)"
    );
    drop(stalled);
}
