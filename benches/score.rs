//! Time to score a fixed mixed set of hands: plain, flushes with many
//! readings, kongs, thirteen orphans, seven pairs, a limit hand.
//!
//! `cargo bench --bench score` reports, per hand, the time to validate and
//! fully score (`score`: parse, validate, decompose, evaluate every reading,
//! choose, settle), the same with house rules applied first (`score_house`)
//! and to score an already validated hand (`score_hand`).
//!
//! `SCORE_COUNT=group/case SCORE_ITERS=N target/release/deps/score-*` runs
//! one case N times without criterion, for callgrind: the instructions of a
//! run with N minus those of a run with N = 0, over N, are the case's
//! instructions per call (`bench/core_instructions.sh`).

use criterion::{black_box, criterion_group, Criterion};
use faan::core::evaluate::{allowances, score, score_hand};
use faan::core::hand::validate;
use faan::core::ruleset::{HouseRuleFields, HouseRules, Number, PatternOverride};
use faan::core::{
    ContextSpec, HandSpec, MeldKind, MeldSpec, Registry, Ruleset, Score, ScoreError, WinBy, Wind,
};

fn hand(tiles: &str, win: &str, melds: &[(MeldKind, &str, bool)]) -> HandSpec {
    HandSpec {
        tiles: tiles.into(),
        melds: melds
            .iter()
            .map(|&(kind, t, concealed)| MeldSpec {
                kind,
                tiles: t.into(),
                concealed,
                added: false,
            })
            .collect(),
        winning_tile: Some(win.into()),
        flowers: vec![],
    }
}

/// The house rules of `score_house`: what the page's House rules panel
/// typically sends (a pattern's value, the dealer's multiplier, a stake).
fn house() -> HouseRules {
    HouseRules::try_from(HouseRuleFields {
        patterns: vec![("all_chows".into(), PatternOverride::Faan(2))],
        dealer_multiplier: Some(Number(2.0)),
        stake: Some(Number(0.5)),
        ..HouseRuleFields::default()
    })
    .expect("checked house rules")
}

/// Checked house rules applied over `r` (the overlay), then the hand
/// validated and scored: what a request with house rules costs the core.
fn score_house(
    r: &Ruleset,
    house: &HouseRules,
    spec: &HandSpec,
    ctx: &ContextSpec,
) -> Result<Score, ScoreError> {
    let r = r.with_house_rules(house).map_err(ScoreError::Invalid)?;
    score(&r, spec, ctx)
}

type Case = (&'static str, &'static str, HandSpec, ContextSpec);

fn cases() -> Vec<Case> {
    let self_draw = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
    let discard = ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West));
    vec![
        (
            "plain",
            "hkma",
            hand("234m567m345p22s789s", "2s", &[]),
            self_draw,
        ),
        (
            "plain-melds",
            "wisteria-court",
            hand("456p789s222s55m", "5m", &[(MeldKind::Chow, "123m", false)]),
            discard,
        ),
        (
            "flush-many-readings",
            "hkma",
            hand("11122233344455m", "5m", &[]),
            self_draw,
        ),
        (
            "flush-nine-gates",
            "hkma",
            hand("11123455678999s", "5s", &[]),
            discard,
        ),
        (
            "flush-pairs",
            "hefen-new-style",
            hand("22334455667788p", "8p", &[]),
            self_draw,
        ),
        (
            "kongs",
            "wisteria-court",
            hand(
                "55p",
                "5p",
                &[
                    (MeldKind::Kong, "1111m", true),
                    (MeldKind::Kong, "7777z", false),
                    (MeldKind::Pung, "999s", false),
                    (MeldKind::Chow, "345p", false),
                ],
            ),
            discard,
        ),
        (
            "thirteen-orphans",
            "hkma",
            hand("119m19p19s1234567z", "1m", &[]),
            self_draw,
        ),
        (
            "seven-pairs",
            "hefen-new-style",
            hand("1133m5577p2299s66z", "6z", &[]),
            self_draw,
        ),
        (
            "big-three-dragons",
            "sc-hk13",
            hand("555666777z234m99s", "9s", &[]),
            discard,
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let registry = Registry::builtin().unwrap();
    let cases = cases();
    let mut group = c.benchmark_group("score");
    for (name, rid, spec, ctx) in &cases {
        let r = registry.get(rid).unwrap();
        score(r, spec, ctx).unwrap_or_else(|e| panic!("{name}: {e}"));
        group.bench_function(*name, |b| {
            b.iter(|| score(black_box(r), black_box(spec), black_box(ctx)))
        });
    }
    group.finish();
    // `score` with house rules: what applying them costs per request.
    let house = house();
    let mut group = c.benchmark_group("score_house");
    for (name, rid, spec, ctx) in &cases {
        let r = registry.get(rid).unwrap();
        score_house(r, &house, spec, ctx).unwrap_or_else(|e| panic!("{name}: {e}"));
        group.bench_function(*name, |b| {
            b.iter(|| {
                score_house(
                    black_box(r),
                    black_box(&house),
                    black_box(spec),
                    black_box(ctx),
                )
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("score_hand");
    for (name, rid, spec, ctx) in &cases {
        let r = registry.get(rid).unwrap();
        let (h, cx) = validate(spec, ctx, allowances(r)).unwrap();
        group.bench_function(*name, |b| {
            b.iter(|| score_hand(black_box(r), black_box(&h), black_box(&cx)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1)).sample_size(30);
    targets = bench
}
/// One case `SCORE_ITERS` times, for callgrind (see the module doc).
fn count(which: &str, iters: u64) {
    let registry = Registry::builtin().unwrap();
    let (group, name) = which.split_once('/').expect("SCORE_COUNT is group/case");
    let (_, rid, spec, ctx) = cases()
        .into_iter()
        .find(|c| c.0 == name)
        .unwrap_or_else(|| panic!("no case {name}"));
    let r = registry.get(rid).unwrap();
    let (h, cx) = validate(&spec, &ctx, allowances(r)).unwrap();
    let house = house();
    for _ in 0..iters {
        match group {
            "score" => drop(black_box(score(
                black_box(r),
                black_box(&spec),
                black_box(&ctx),
            ))),
            "score_house" => drop(black_box(score_house(
                black_box(r),
                black_box(&house),
                black_box(&spec),
                black_box(&ctx),
            ))),
            "score_hand" => drop(black_box(score_hand(
                black_box(r),
                black_box(&h),
                black_box(&cx),
            ))),
            _ => panic!("no group {group}"),
        }
    }
}

fn main() {
    if let Ok(which) = std::env::var("SCORE_COUNT") {
        let iters = std::env::var("SCORE_ITERS").map_or(0, |n| n.parse().expect("SCORE_ITERS"));
        return count(&which, iters);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
