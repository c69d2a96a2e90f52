//! The score handler's own work, without the network: for each body of the
//! benchmark corpus (`bench/corpus.jsonl`), the time `POST /v1/score`
//! spends between having the body and having the response bytes.
//!
//! `cargo bench --bench service` times, as a pass over the corpus (time per
//! hand = total / count):
//! - `parse`: the body to a `ScoreRequest` with serde (`parse_json`, the
//!   general reader with error pointers);
//! - `parse_quick`: the same with the handler's reader (`http::quick`: the
//!   fast reader for the plain shape, straight into the core's types;
//!   serde otherwise);
//! - `miss`: parse, resolve the ruleset, validate, key, score, render the
//!   JSON body (a cache of size 0);
//! - `hit`: the same with every hand already cached (what another tile
//!   order of a cached hand costs: parse, validate, key, look up);
//! - `hit_same_bytes`: a repeat of cached request bytes (the cache's front
//!   answers before parsing).
//!
//! Run it beside `bench/load.sh`: the load test's CPU per request minus
//! these figures is what the framework and the kernel cost.

use criterion::{black_box, Criterion, Throughput};
use faan::core::Registry;
use faan::http::cache::ScoreCache;
use faan::http::dto::ScoreRequest;
use faan::http::handlers::{parse_json, score_request_body, score_request_bytes};
use faan::http::metrics::Metrics;
use faan::http::{AppState, Limits};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

fn state(cache_size: u64) -> AppState {
    AppState {
        registry: Arc::new(Registry::builtin().expect("built-in rulesets")),
        cache: ScoreCache::new(cache_size, 64 << 20, Duration::from_secs(3600)),
        metrics: Arc::new(Metrics::new()),
        limits: Limits {
            body: 64 * 1024,
            batch_body: 1 << 20,
            batch: 100,
            json_depth: 32,
            body_timeout: Duration::from_secs(10),
        },
        shutting_down: Arc::new(AtomicBool::new(false)),
    }
}

fn respond(state: &AppState, body: &[u8]) -> usize {
    let (bytes, _) = score_request_bytes(state, body).expect("corpus bodies score");
    bytes.len()
}

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/corpus.jsonl");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let bodies: Vec<Vec<u8>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.as_bytes().to_vec())
        .collect();
    let miss = state(0);
    let hit = state(1 << 20);
    let mut bytes = 0usize;
    for b in &bodies {
        bytes += respond(&hit, b);
        assert_eq!(
            respond(&miss, b),
            respond(&hit, b),
            "same body from the cache"
        );
    }
    println!(
        "{} corpus bodies, mean request {} bytes, mean response {} bytes",
        bodies.len(),
        bodies.iter().map(Vec::len).sum::<usize>() / bodies.len(),
        bytes / bodies.len()
    );

    println!(
        "{} of {} bodies read by the fast reader (the rest by serde)",
        bodies
            .iter()
            .filter(|b| faan::http::quick::score_request(b).is_some())
            .count(),
        bodies.len()
    );
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("service");
    g.throughput(Throughput::Elements(bodies.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for body in &bodies {
                black_box(parse_json::<ScoreRequest>(black_box(body)).is_ok());
            }
        })
    });
    g.bench_function("parse_quick", |b| {
        b.iter(|| {
            for body in &bodies {
                let body = black_box(body);
                match faan::http::quick::score_request(body) {
                    Some(q) => black_box(q.hand.tiles.len()),
                    None => black_box(parse_json::<ScoreRequest>(body).is_ok().into()),
                };
            }
        })
    });
    g.bench_function("miss", |b| {
        b.iter(|| {
            for body in &bodies {
                black_box(respond(&miss, black_box(body)));
            }
        })
    });
    g.bench_function("hit", |b| {
        b.iter(|| {
            for body in &bodies {
                black_box(respond(&hit, black_box(body)));
            }
        })
    });
    let front = state(1 << 20);
    for body in &bodies {
        let b = actix_web::web::Bytes::copy_from_slice(body);
        let r: ScoreRequest = parse_json(body).unwrap();
        let (out, _) = score_request_body(&front, r).unwrap();
        front.cache.remember_request(&b, &out);
    }
    let remembered = bodies
        .iter()
        .filter(|b| front.cache.get_by_request(b).is_some())
        .count();
    println!(
        "{remembered} of {} bodies held by the cache's front",
        bodies.len()
    );
    g.bench_function("hit_same_bytes", |b| {
        b.iter(|| {
            for body in &bodies {
                black_box(
                    front
                        .cache
                        .get_by_request(black_box(body))
                        .map_or(0, |b| b.len()),
                );
            }
        })
    });
    g.finish();
    c.final_summary();
}
