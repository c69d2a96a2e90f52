//! Time to score a fixed mixed set of hands: plain, flushes with many
//! readings, kongs, thirteen orphans, seven pairs, a limit hand.
//!
//! `cargo bench --bench score` reports, per hand, the time to validate and
//! fully score (`score`: parse, validate, decompose, evaluate every reading,
//! choose, settle) and to score an already validated hand (`score_hand`).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use faan::core::evaluate::{allowances, score, score_hand};
use faan::core::hand::validate;
use faan::core::{ContextSpec, HandSpec, MeldKind, MeldSpec, Registry, WinBy, Wind};

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

fn bench(c: &mut Criterion) {
    let registry = Registry::builtin().unwrap();
    let self_draw = ContextSpec::new(WinBy::SelfDraw, Wind::South, Wind::East, None);
    let discard = ContextSpec::new(WinBy::Discard, Wind::South, Wind::East, Some(Wind::West));
    let cases: Vec<(&str, &str, HandSpec, ContextSpec)> = vec![
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
    ];
    let mut group = c.benchmark_group("score");
    for (name, rid, spec, ctx) in &cases {
        let r = registry.get(rid).unwrap();
        score(r, spec, ctx).unwrap_or_else(|e| panic!("{name}: {e}"));
        group.bench_function(*name, |b| {
            b.iter(|| score(black_box(r), black_box(spec), black_box(ctx)))
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
criterion_main!(benches);
