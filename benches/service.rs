//! The pipeline's own work, without the network: for each body of the
//! benchmark corpus (`bench/corpus.jsonl`), the time `POST /v1/score`
//! spends between having the body and having the response bytes
//! (`service::Service::score_body`).
//!
//! `cargo bench --bench service` times, as a pass over the corpus (time per
//! hand = total / count):
//! - `parse`: the body to a `ScoreRequest` with serde (borrowed strings);
//! - `miss`: parse, resolve the ruleset, validate, key, score, serialise
//!   the body (a cache of size 0);
//! - `hit`: every hand already cached under another tile order (parse,
//!   validate, key, look up);
//! - `hit_same_bytes`: a repeat of cached request bytes (the cache's front,
//!   moka keyed by the request bytes, answers before parsing).
//!
//! - `score_by_id` / `score_inline` / `score_inline_extends` (their own
//!   group, one body each, no score cache so every request is scored): one
//!   hand under HKMA named by id, under HKMA's whole canonical document with
//!   another id (its notes too: 5.8 KB, keyed by `ruleset_hash`), the same
//!   without notes, source and summary (`score_inline_rules`), and under a
//!   small `extends` document; the difference is what an inline ruleset
//!   costs a request (read past, looked up in the document cache); figures
//!   in `bench/inline.md`.
//! - `ledger_1000_hands` (its own group): one `POST /v1/ledger` body of
//!   1,000 hands, the night of `benches/ledger.rs` written as JSON (the
//!   cycle of `bench/ledger-night.json`), from the bytes to the answer's
//!   bytes (`Service::ledger`: parse, resolve, play, write); figures in
//!   `bench/ledger.md`, instructions by `bench/ledger_instructions.sh`.
//!
//! Run it beside `bench/load.sh`: the load test's CPU per request minus
//! these figures is what the framework and the kernel cost.

use criterion::{black_box, Criterion, Throughput};
use faan::api::json::parse;
use faan::api::{LedgerRequest, ScoreRequest};
use faan::core::ledger;
use faan::core::Registry;
use faan::service::cache::ScoreCache;
use faan::service::{Limits, Service};
use std::sync::Arc;
use std::time::Duration;

fn service(cache_size: u64) -> Service {
    Service::new(
        Arc::new(Registry::builtin().expect("built-in rulesets")),
        ScoreCache::new(cache_size, 64 << 20, Duration::from_secs(3600)),
        Limits::default(),
    )
}

fn respond(service: &Service, body: &[u8]) -> usize {
    let (bytes, _) = service.score_body(body).expect("corpus bodies score");
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
    let miss = service(0);
    let front = service(1 << 20);
    let mut bytes = 0usize;
    for b in &bodies {
        bytes += respond(&front, b);
        assert_eq!(
            respond(&miss, b),
            respond(&front, b),
            "same body from the cache"
        );
    }
    println!(
        "{} corpus bodies, mean request {} bytes, mean response {} bytes",
        bodies.len(),
        bodies.iter().map(Vec::len).sum::<usize>() / bodies.len(),
        bytes / bodies.len()
    );
    // The same hands, each body with one space more: the front misses, the
    // main cache (keyed by hand_hash) hits.
    let hit = service(1 << 20);
    let spaced: Vec<Vec<u8>> = bodies
        .iter()
        .map(|b| [b" ", b.as_slice()].concat())
        .collect();
    for b in &bodies {
        respond(&hit, b);
    }
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("service");
    g.throughput(Throughput::Elements(bodies.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for body in &bodies {
                black_box(parse::<ScoreRequest>(black_box(body)).is_ok());
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
            for body in &spaced {
                black_box(respond(&hit, black_box(body)));
            }
        })
    });
    g.bench_function("hit_same_bytes", |b| {
        b.iter(|| {
            for body in &bodies {
                black_box(respond(&front, black_box(body)));
            }
        })
    });
    g.finish();
    inline(&mut c, &miss);
    let body = ledger_body(1000);
    let answer = miss.ledger(&body).expect("the night is valid");
    println!(
        "ledger: request {} bytes, answer {} bytes",
        body.len(),
        answer.len()
    );
    let mut g = c.benchmark_group("service");
    g.throughput(Throughput::Elements(1));
    g.bench_function("ledger_1000_hands", |b| {
        b.iter(|| black_box(miss.ledger(black_box(&body)).map(|a| a.len())))
    });
    // Its parts: reading the body into core specs, then playing them too (no answer written).
    let hkma = miss.registry().get("hkma").expect("hkma");
    g.bench_function("ledger_1000_hands_parse", |b| {
        b.iter(|| {
            let r: LedgerRequest = parse(black_box(&body)).expect("parses");
            black_box(r.to_core().map(|s| s.hands.len()).ok())
        })
    });
    g.bench_function("ledger_1000_hands_parse_play", |b| {
        b.iter(|| {
            let r: LedgerRequest = parse(black_box(&body)).expect("parses");
            let spec = r.to_core().expect("fits");
            black_box(
                ledger::ledger(hkma, &spec, 2000)
                    .map(|l| l.hands.len())
                    .ok(),
            )
        })
    });
    g.finish();
    c.final_summary();
}

/// One hand by id and under inline documents (see the module docs).
fn inline(c: &mut Criterion, miss: &Service) {
    use serde_json::json;
    let hkma = miss.registry().get("hkma").expect("hkma");
    let mut full = hkma.to_document();
    full["id"] = json!("my-table");
    // The rules alone (what a page exports without the guide's prose).
    let mut rules = full.clone();
    for k in ["notes", "source", "summary"] {
        rules.as_object_mut().map(|o| o.remove(k));
    }
    let extends =
        json!({"extends": "hkma", "id": "my-table", "patterns": {"all_simples": {"faan": 1}}});
    let body = |ruleset: serde_json::Value| {
        serde_json::to_vec(&json!({"ruleset": ruleset,
            "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
            "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}))
        .unwrap_or_default()
    };
    let bodies = [
        ("score_by_id", body(json!("hkma"))),
        ("score_inline", body(full)),
        ("score_inline_rules", body(rules)),
        ("score_inline_extends", body(extends)),
    ];
    let mut g = c.benchmark_group("service");
    g.throughput(Throughput::Elements(1));
    for (name, b) in &bodies {
        println!("{name}: request {} bytes", b.len());
        respond(miss, b);
        g.bench_function(*name, |bench| {
            bench.iter(|| black_box(respond(miss, black_box(b))))
        });
    }
    g.finish();
}

/// The night of `benches/ledger.rs` as a `POST /v1/ledger` body of `n`
/// hands: the cycle of eight in `bench/ledger-night.json` (hkma, Ann deals
/// throughout: she wins, or it is a draw or a false win), repeated.
/// `tests/writer.rs` checks the answer to it against serde.
fn ledger_body(n: usize) -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/ledger-night.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut night: serde_json::Value = serde_json::from_str(&text).expect("the night is JSON");
    let cycle = night["hands"].as_array().cloned().unwrap_or_default();
    night["hands"] = cycle.iter().cycle().take(n).cloned().collect();
    serde_json::to_vec(&night).unwrap_or_default()
}
