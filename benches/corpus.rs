//! Time to fully score every hand of the benchmark corpus
//! (`bench/corpus.jsonl`, written by `bench/gen_corpus.py`).
//!
//! `cargo bench --bench corpus` first scores every corpus line once and
//! panics, naming the line, if any of them fails: every line must be a
//! winning hand its ruleset scores. Then it times each hand on its own
//! (`score`: validate, decompose, evaluate every reading, choose, settle):
//! a batch of calls long enough to dwarf the timer, repeated in several
//! rounds; the hand's time is the median of its rounds' per-call means. It
//! prints the median, p90, p99 and max across hands, per ruleset, and the
//! slowest hands; the time per hand of a pass over each ruleset's hands in
//! corpus order (a stream: no hand repeats back to back, so the branch
//! predictors cannot learn it, as in a server); then the per-hand medians
//! of the two halves of `score`, `validate` and `score_hand`. Last,
//! criterion times a pass over the whole corpus of each ruleset (time per
//! hand = total / count, shown as throughput).
//!
//! Environment:
//! - `FAAN_CORPUS`: another corpus file (default `bench/corpus.jsonl`).
//! - `FAAN_CORPUS_JSON=PATH`: also write the per-hand times as JSON to PATH
//!   (`-` for stdout): `{"hands": [{"line": 0, "ruleset": "hkma", "ns": 123.4,
//!   "score_hand_ns": 80.1}, ...]}`, `line` counting corpus lines from 0, `ns`
//!   the time of `score` and `score_hand_ns` (absent with
//!   `FAAN_CORPUS_NO_SPLIT`) that of `score_hand` on the validated hand (used
//!   by `bench/peers.py`).
//! - `FAAN_CORPUS_NO_CRITERION=1`: stop after the per-hand tables.
//! - `FAAN_CORPUS_NO_SPLIT=1`: skip the table that splits each hand's time
//!   into `validate` and `score_hand`.
//! - `FAAN_CORPUS_LOOP=N`: only score the whole corpus N times, untimed
//!   (a driver for `valgrind --tool=callgrind` or `perf record`).
//! - `FAAN_CORPUS_LOOP_CORE=N`: only call `score_hand` N times in a row on
//!   each validated hand (warm, as the per-hand timing), for a profiler.
//!
//! Without `--bench` on the command line (`cargo test --benches`), it only
//! checks the corpus and runs each criterion benchmark once.

use criterion::{black_box, Criterion, Throughput};
use faan::api::json::parse;
use faan::api::ScoreRequest;
use faan::core::evaluate::{allowances, score, score_hand};
use faan::core::hand::validate;
use faan::core::{ContextSpec, HandSpec, Registry, Ruleset};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One corpus line, converted to core types.
struct Case {
    line: usize,
    ruleset: String,
    hand: HandSpec,
    context: ContextSpec,
}

/// A corpus line parsed exactly as `POST /v1/score` parses a body, then converted to core types.
fn case(v: &Value, line: usize) -> Case {
    let bad = |what: &str| -> ! { panic!("corpus line {}: {what}", line + 1) };
    let text = v.to_string();
    let req: ScoreRequest =
        parse(text.as_bytes()).unwrap_or_else(|e| bad(&format!("{:?}", e.problem())));
    if req.house_rules.is_some() {
        bad("house_rules are not supported by the corpus benchmark");
    }
    Case {
        line,
        ruleset: req.ruleset.id().unwrap_or_default().to_string(),
        hand: req.hand.to_core().to_owned_spec(),
        context: req.context.to_core(),
    }
}

fn load() -> (String, Vec<Case>) {
    let path = std::env::var("FAAN_CORPUS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/bench/corpus.jsonl").into());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let v: Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{path} line {}: {e}", i + 1));
            case(&v, i)
        })
        .collect();
    (path, cases)
}

/// Scores every case once; panics on the first that fails.
fn check(registry: &Registry, cases: &[Case]) -> Vec<Arc<Ruleset>> {
    cases
        .iter()
        .map(|c| {
            let r = registry.get(&c.ruleset).unwrap_or_else(|| {
                panic!("corpus line {}: unknown ruleset {}", c.line + 1, c.ruleset)
            });
            if let Err(e) = score(r, &c.hand, &c.context) {
                panic!(
                    "corpus line {} ({} {:?}): {e}",
                    c.line + 1,
                    c.ruleset,
                    c.hand.tiles
                );
            }
            Arc::clone(r)
        })
        .collect()
}

/// Per-call time of `f`, in ns: the median over `rounds` of the mean of a
/// batch of calls sized to take about `batch_target`.
fn time_calls(mut f: impl FnMut(), rounds: usize, batch_target: Duration) -> f64 {
    for _ in 0..3 {
        f();
    }
    // Calibrate: double the batch until it takes batch_target / 4.
    let mut n: u32 = 8;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        if t.elapsed() * 4 >= batch_target || n >= 1 << 20 {
            break;
        }
        n *= 2;
    }
    n *= 4;
    let mut means: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            t.elapsed().as_nanos() as f64 / f64::from(n)
        })
        .collect();
    means.sort_by(f64::total_cmp);
    means[means.len() / 2]
}

/// Per-call time of `score` on one hand, in ns.
fn time_hand(r: &Ruleset, c: &Case, rounds: usize, batch_target: Duration) -> f64 {
    time_calls(
        || {
            black_box(score(black_box(r), black_box(&c.hand), black_box(&c.context)).is_ok());
        },
        rounds,
        batch_target,
    )
}

/// Medians across hands of the two halves of `score`: `validate` (parse and
/// check the request) and `score_hand` (decompose, evaluate, choose, settle).
///
/// Returns each hand's `score_hand` time (for `FAAN_CORPUS_JSON`).
fn split(cases: &[Case], rulesets: &[Arc<Ruleset>]) -> Vec<f64> {
    let rounds = 5;
    let batch = Duration::from_micros(20);
    let mut by: BTreeMap<&str, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    let mut per_hand = Vec::with_capacity(cases.len());
    for (c, r) in cases.iter().zip(rulesets) {
        let allow = allowances(r);
        let v = time_calls(
            || {
                black_box(validate(black_box(&c.hand), black_box(&c.context), allow).is_ok());
            },
            rounds,
            batch,
        );
        let (h, cx) = validate(&c.hand, &c.context, allow).expect("checked");
        let s = time_calls(
            || {
                black_box(score_hand(black_box(r), black_box(&h), black_box(&cx)).is_ok());
            },
            rounds,
            batch,
        );
        let e = by.entry(c.ruleset.as_str()).or_default();
        e.0.push(v);
        e.1.push(s);
        per_hand.push(s);
    }
    println!("\nWhere the time goes (median ns per hand; p99 in brackets):");
    println!("{:<18} {:>18} {:>18}", "ruleset", "validate", "score_hand");
    for (k, (mut v, mut s)) in by {
        v.sort_by(f64::total_cmp);
        s.sort_by(f64::total_cmp);
        println!(
            "{:<18} {:>8.0} [{:>6.0}] {:>8.0} [{:>6.0}]",
            k,
            percentile(&v, 50.0),
            percentile(&v, 99.0),
            percentile(&s, 50.0),
            percentile(&s, 99.0)
        );
    }
    per_hand
}

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn describe(c: &Case) -> String {
    let melds: Vec<String> = c
        .hand
        .melds
        .iter()
        .map(|m| {
            let mark = if m.concealed { "c" } else { "" };
            format!("[{}{mark}]", m.tiles)
        })
        .collect();
    format!(
        "{}{} win {} {}",
        c.hand.tiles,
        melds.join(""),
        c.hand.winning_tile.as_deref().unwrap_or("-"),
        c.context.win_by.name()
    )
}

fn per_hand(cases: &[Case], rulesets: &[Arc<Ruleset>]) -> Vec<f64> {
    let rounds = 7;
    let batch = Duration::from_micros(40);
    let started = Instant::now();
    let times: Vec<f64> = cases
        .iter()
        .zip(rulesets)
        .map(|(c, r)| time_hand(r, c, rounds, batch))
        .collect();
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        groups.entry(c.ruleset.as_str()).or_default().push(i);
    }
    let all: Vec<usize> = (0..cases.len()).collect();
    println!(
        "\nPer-hand time of score() (median of {rounds} rounds of ~{} us batches per hand; {:.1} s)",
        batch.as_micros(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "{:<18} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "ruleset", "hands", "min ns", "median ns", "mean ns", "p90 ns", "p99 ns", "max ns"
    );
    let rows = groups
        .iter()
        .map(|(k, v)| (*k, v))
        .chain(std::iter::once(("all", &all)));
    for (name, idx) in rows {
        let mut t: Vec<f64> = idx.iter().map(|&i| times[i]).collect();
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        println!(
            "{:<18} {:>6} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>10.0} {:>10.0}",
            name,
            t.len(),
            t[0],
            percentile(&t, 50.0),
            mean,
            percentile(&t, 90.0),
            percentile(&t, 99.0),
            t[t.len() - 1]
        );
    }
    let mut order: Vec<usize> = (0..cases.len()).collect();
    order.sort_by(|&a, &b| times[b].total_cmp(&times[a]));
    println!("\nSlowest hands:");
    for &i in order.iter().take(10) {
        let c = &cases[i];
        println!(
            "{:>8.0} ns  line {:>5}  {:<15} {}",
            times[i],
            c.line + 1,
            c.ruleset,
            describe(c)
        );
    }
    println!("\nTargets: median <= 250 ns, worst corpus hand <= 5000 ns.");
    stream(cases, rulesets);
    times
}

/// Time per hand when each ruleset's hands are scored one after the other,
/// in corpus order (no hand repeated back to back, so branch predictors and
/// caches do not learn it): the median of 15 passes, total / count.
fn stream(cases: &[Case], rulesets: &[Arc<Ruleset>]) {
    let mut by: BTreeMap<&str, Vec<(&Case, &Ruleset)>> = BTreeMap::new();
    for (c, r) in cases.iter().zip(rulesets) {
        by.entry(c.ruleset.as_str())
            .or_default()
            .push((c, r.as_ref()));
    }
    println!("\nStream (every hand of a ruleset in corpus order, median of 15 passes):");
    for (k, hands) in by {
        let mut per: Vec<f64> = (0..15)
            .map(|_| {
                let t = Instant::now();
                for (c, r) in &hands {
                    black_box(
                        score(black_box(r), black_box(&c.hand), black_box(&c.context)).is_ok(),
                    );
                }
                t.elapsed().as_nanos() as f64 / hands.len() as f64
            })
            .collect();
        per.sort_by(f64::total_cmp);
        println!(
            "{:<18} {:>6} hands {:>8.0} ns per hand",
            k,
            hands.len(),
            per[per.len() / 2]
        );
    }
}

fn write_json(path: &str, cases: &[Case], times: &[f64], score_hand: Option<&[f64]>) {
    let hands: Vec<Value> = cases
        .iter()
        .zip(times)
        .enumerate()
        .map(|(i, (c, &ns))| {
            let mut v = serde_json::json!({"line": c.line, "ruleset": c.ruleset, "ns": ns});
            if let Some(sh) = score_hand {
                v["score_hand_ns"] = sh[i].into();
            }
            v
        })
        .collect();
    let doc = serde_json::json!({
        "unit": "ns per call: `ns` of score() (validate + score_hand), `score_hand_ns` of score_hand() alone",
        "hands": hands
    });
    let text = serde_json::to_string(&doc).expect("json");
    if path == "-" {
        println!("{text}");
    } else {
        let mut f = std::fs::File::create(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        writeln!(f, "{text}").unwrap_or_else(|e| panic!("{path}: {e}"));
        eprintln!("per-hand times written to {path}");
    }
}

fn criterion_benches(c: &mut Criterion, cases: &[Case], rulesets: &[Arc<Ruleset>]) {
    let mut ids: Vec<&str> = cases.iter().map(|c| c.ruleset.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut group = c.benchmark_group("corpus");
    for id in ids {
        let subset: Vec<(&Case, &Ruleset)> = cases
            .iter()
            .zip(rulesets)
            .filter(|(c, _)| c.ruleset == id)
            .map(|(c, r)| (c, r.as_ref()))
            .collect();
        group.throughput(Throughput::Elements(subset.len() as u64));
        group.bench_function(format!("{id}/{}-hands", subset.len()), |b| {
            b.iter(|| {
                for (c, r) in &subset {
                    black_box(
                        score(black_box(r), black_box(&c.hand), black_box(&c.context)).is_ok(),
                    );
                }
            })
        });
    }
    group.finish();
}

fn main() {
    let registry = Registry::builtin().expect("built-in rulesets");
    let (path, cases) = load();
    let rulesets = check(&registry, &cases);
    eprintln!(
        "{path}: {} requests, every one scores without error",
        cases.len()
    );

    if let Some(n) = std::env::var("FAAN_CORPUS_LOOP")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
    {
        let t = Instant::now();
        for _ in 0..n {
            for (c, r) in cases.iter().zip(&rulesets) {
                black_box(score(black_box(r), black_box(&c.hand), black_box(&c.context)).is_ok());
            }
        }
        let per = t.elapsed().as_nanos() as f64 / (f64::from(n) * cases.len() as f64);
        eprintln!("{n} passes, {per:.0} ns per hand (untimed driver mode)");
        return;
    }

    if let Some(n) = std::env::var("FAAN_CORPUS_LOOP_CORE")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
    {
        let t = Instant::now();
        for (c, r) in cases.iter().zip(&rulesets) {
            let (h, cx) = validate(&c.hand, &c.context, allowances(r)).expect("checked");
            for _ in 0..n {
                black_box(score_hand(black_box(r), black_box(&h), black_box(&cx)).is_ok());
            }
        }
        let per = t.elapsed().as_nanos() as f64 / (f64::from(n) * cases.len() as f64);
        eprintln!("{n} calls per hand, {per:.0} ns per score_hand (untimed driver mode)");
        return;
    }

    let bench_mode = std::env::args().any(|a| a == "--bench");
    if bench_mode {
        let times = per_hand(&cases, &rulesets);
        let score_hand_times = std::env::var_os("FAAN_CORPUS_NO_SPLIT")
            .is_none()
            .then(|| split(&cases, &rulesets));
        if let Ok(p) = std::env::var("FAAN_CORPUS_JSON") {
            write_json(&p, &cases, &times, score_hand_times.as_deref());
        }
        if std::env::var_os("FAAN_CORPUS_NO_CRITERION").is_some() {
            return;
        }
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
        .configure_from_args();
    criterion_benches(&mut c, &cases, &rulesets);
    c.final_summary();
}
