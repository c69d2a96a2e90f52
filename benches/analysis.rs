//! Hand analysis before the win (bench/analysis.md): shanten of a 14-tile
//! hand in every form the ruleset scores, the acceptance of a 13-tile hand,
//! the whole analysis of a 14-tile hand without chances, and chances at
//! one, two and three from ready, self-draw only and with the others'
//! discards.
//!
//! `cargo bench --bench analysis`.

use criterion::{black_box, criterion_group, Criterion};
use faan::core::analysis::{acceptance, analyze, Ask};
use faan::core::shanten::{self, Forms};
use faan::core::tile::{counts_of, parse_tiles, Counts};
use faan::core::waits::WaitContext;
use faan::core::{HandSpec, Registry, Wind};

const CTX: WaitContext = WaitContext {
    seat_wind: Wind::South,
    round_wind: Wind::East,
    last_tile: false,
};

fn counts(s: &str) -> Counts {
    counts_of(&parse_tiles(s).expect("bench tiles"))
}

fn spec(tiles: &str) -> HandSpec {
    HandSpec {
        tiles: tiles.into(),
        ..HandSpec::default()
    }
}

fn bench(c: &mut Criterion) {
    let reg = Registry::builtin().expect("rulesets");
    let mjtime = reg.get("mjtime").expect("mjtime").clone();
    let forms = Forms::of(&mjtime);
    shanten::warm();

    let fourteen = [
        ("plain", "123m456m78p55s122z9s"),
        ("flush", "1112345678999m5m"),
        ("pairs", "1133m5577p99s1133z"),
        ("far", "147m258p369s1357z5m"),
    ];
    let mut g = c.benchmark_group("shanten_14");
    for (name, t) in fourteen {
        let h = counts(t);
        g.bench_function(name, |b| {
            b.iter(|| shanten::shanten(black_box(&h), 0, forms))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("acceptance_13");
    for (name, t) in [
        ("one_from_ready", "123m456m789m11p5s7z"),
        ("two_from_ready", "123m456m78p5s1z2z2z9s"),
    ] {
        let h = counts(t);
        let unseen = h.map(|n| 4 - n);
        let best = shanten::shanten(&h, 0, forms).best;
        g.bench_function(name, |b| {
            b.iter(|| acceptance(black_box(&h), 0, forms, best, &unseen))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("analyze_14");
    for (name, t) in [
        ("one_from_ready", "123m456m78p55s122z9s"),
        ("ready_after", "123m456m789m11p5s9s7z"),
    ] {
        let h = spec(t);
        g.bench_function(name, |b| {
            b.iter(|| analyze(&mjtime, black_box(&h), &CTX, None, None))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("chances_13");
    g.sample_size(10);
    for (name, t, discards) in [
        ("one_from_ready_self_draw", "123m456m789m11p5s7z", false),
        ("two_from_ready_self_draw", "123m456m78p5s1z2z2z9s", false),
        ("one_from_ready_discards", "123m456m789m11p5s7z", true),
        ("two_from_ready_discards", "123m456m78p5s1z2z2z9s", true),
        ("three_from_ready_self_draw", "123m458p367s12z39s", false),
        ("three_from_ready_discards", "123m458p367s12z39s", true),
    ] {
        let h = spec(t);
        let ask = Some(Ask {
            draws: 17,
            discards,
        });
        g.bench_function(name, |b| {
            b.iter(|| analyze(&mjtime, black_box(&h), &CTX, None, ask))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
