//! Hand analysis before the win (bench/analysis.md): shanten of a 14-tile
//! hand in every form the ruleset scores, the acceptance of a 13-tile hand,
//! the whole analysis of a 14-tile hand without chances, and chances at
//! one, two and three from ready, self-draw only and with the others'
//! discards.
//!
//! `cargo bench --bench analysis`.
//!
//! `ANALYSIS_COUNT=group/case ANALYSIS_ITERS=N target/release/deps/analysis-*`
//! runs one case N times without criterion, for callgrind or `perf stat`:
//! the count of a run with N less that of a run with N = 0, over N, is the
//! case's count per call (`bench/analysis_instructions.sh`).

use criterion::{black_box, criterion_group, Criterion};
use faan::core::analysis::{acceptance, analyze, Ask};
use faan::core::hand_changes::Changes;
use faan::core::shanten::{self, Forms};
use faan::core::tile::{counts_of, parse_tiles, Counts};
use faan::core::waits::WaitContext;
use faan::core::{HandSpec, Registry, Ruleset, Wind};

const CTX: WaitContext = WaitContext {
    seat_wind: Wind::South,
    round_wind: Wind::East,
    last_tile: false,
};

const SHANTEN_14: [(&str, &str); 4] = [
    ("plain", "123m456m78p55s122z9s"),
    ("flush", "1112345678999m5m"),
    ("pairs", "1133m5577p99s1133z"),
    ("far", "147m258p369s1357z5m"),
];
const ACCEPTANCE_13: [(&str, &str); 2] = [
    ("one_from_ready", "123m456m789m11p5s7z"),
    ("two_from_ready", "123m456m78p5s1z2z2z9s"),
];
const ANALYZE_14: [(&str, &str); 2] = [
    ("one_from_ready", "123m456m78p55s122z9s"),
    ("ready_after", "123m456m789m11p5s9s7z"),
];
const CHANCES_13: [(&str, &str, bool); 6] = [
    ("one_from_ready_self_draw", "123m456m789m11p5s7z", false),
    ("two_from_ready_self_draw", "123m456m78p5s1z2z2z9s", false),
    ("one_from_ready_discards", "123m456m789m11p5s7z", true),
    ("two_from_ready_discards", "123m456m78p5s1z2z2z9s", true),
    ("three_from_ready_self_draw", "123m458p367s12z39s", false),
    ("three_from_ready_discards", "123m458p367s12z39s", true),
];

/// Hand changes on (swaps; swaps and shanten-down), self-draw only: the
/// cases mahjong-cpp's calculator is measured on beside them.
const CHANGES_13: [(&str, &str, bool); 6] = [
    ("one_from_ready_swaps", "123m456m789m11p5s7z", false),
    ("two_from_ready_swaps", "123m456m78p5s1z2z2z9s", false),
    ("three_from_ready_swaps", "123m458p367s12z39s", false),
    ("one_from_ready_both", "123m456m789m11p5s7z", true),
    ("two_from_ready_both", "123m456m78p5s1z2z2z9s", true),
    ("three_from_ready_both", "123m458p367s12z39s", true),
];

/// The whole analysis of a 14-tile hand with chances (17 draws, self-draw
/// only): every discard, or only those that keep shanten.
const ANALYZE_CHANCES_14: [(&str, &str, bool); 5] = [
    ("one_from_ready_every", "123m456m78p55s122z9s", true),
    ("one_from_ready_keeping", "123m456m78p55s122z9s", false),
    ("two_from_ready_every", "123m456m78p5s122z9s7z", true),
    ("two_from_ready_keeping", "123m456m78p5s122z9s7z", false),
    ("three_from_ready_keeping", "123m458p367s12z39s5m", false),
];

fn every(every_discard: bool) -> Option<Ask> {
    Some(Ask {
        draws: 17,
        discards: false,
        changes: Changes::default(),
        every_discard,
    })
}

fn changes(shanten_down: bool) -> Option<Ask> {
    Some(Ask {
        draws: 17,
        discards: false,
        changes: Changes {
            swaps: true,
            shanten_down,
        },
        every_discard: true,
    })
}

fn counts(s: &str) -> Counts {
    counts_of(&parse_tiles(s).expect("bench tiles"))
}

fn spec(tiles: &str) -> HandSpec {
    HandSpec {
        tiles: tiles.into(),
        ..HandSpec::default()
    }
}

fn ask(discards: bool) -> Option<Ask> {
    Some(Ask {
        draws: 17,
        discards,
        changes: Changes::default(),
        every_discard: true,
    })
}

fn mjtime() -> Ruleset {
    let reg = Registry::builtin().expect("rulesets");
    let r = reg.get("mjtime").expect("mjtime").as_ref().clone();
    shanten::warm();
    r
}

fn bench(c: &mut Criterion) {
    let mjtime = mjtime();
    let forms = Forms::of(&mjtime);

    let mut g = c.benchmark_group("shanten_14");
    for (name, t) in SHANTEN_14 {
        let h = counts(t);
        g.bench_function(name, |b| {
            b.iter(|| shanten::shanten(black_box(&h), 0, forms))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("acceptance_13");
    for (name, t) in ACCEPTANCE_13 {
        let h = counts(t);
        let unseen = h.map(|n| 4 - n);
        let best = shanten::shanten(&h, 0, forms).best;
        g.bench_function(name, |b| {
            b.iter(|| acceptance(black_box(&h), 0, forms, best, &unseen))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("analyze_14");
    for (name, t) in ANALYZE_14 {
        let h = spec(t);
        g.bench_function(name, |b| {
            b.iter(|| analyze(&mjtime, black_box(&h), &CTX, None, None))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("chances_13");
    g.sample_size(10);
    for (name, t, discards) in CHANCES_13 {
        let h = spec(t);
        g.bench_function(name, |b| {
            b.iter(|| analyze(&mjtime, black_box(&h), &CTX, None, ask(discards)))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("changes_13");
    g.sample_size(10);
    for (name, t, down) in CHANGES_13 {
        let h = spec(t);
        g.bench_function(name, |b| {
            b.iter(|| analyze(&mjtime, black_box(&h), &CTX, None, changes(down)))
        });
    }
    g.finish();
}

/// One case `ANALYSIS_ITERS` times, for callgrind (see the module doc).
fn count(which: &str, iters: u64) {
    let mjtime = mjtime();
    let forms = Forms::of(&mjtime);
    let (group, name) = which.split_once('/').expect("ANALYSIS_COUNT is group/case");
    let find = |list: &[(&'static str, &'static str)]| {
        list.iter()
            .find(|c| c.0 == name)
            .unwrap_or_else(|| panic!("no case {name}"))
            .1
    };
    match group {
        "shanten_14" => {
            let h = counts(find(&SHANTEN_14));
            for _ in 0..iters {
                black_box(shanten::shanten(black_box(&h), 0, forms));
            }
        }
        "acceptance_13" => {
            let h = counts(find(&ACCEPTANCE_13));
            let unseen = h.map(|n| 4 - n);
            let best = shanten::shanten(&h, 0, forms).best;
            for _ in 0..iters {
                black_box(acceptance(black_box(&h), 0, forms, best, &unseen));
            }
        }
        "necessary_13" => {
            // Standard form only, the bitmask: mahjong-cpp's
            // `NecessaryTileCalculator::calc` with `StandardHand`.
            let h = counts(find(&ACCEPTANCE_13));
            for _ in 0..iters {
                black_box(shanten::necessary(black_box(&h), 0, Forms::default()));
            }
        }
        "necessary_13_all" => {
            let h = counts(find(&ACCEPTANCE_13));
            for _ in 0..iters {
                black_box(shanten::necessary(black_box(&h), 0, forms));
            }
        }
        "analyze_14" => {
            let h = spec(find(&ANALYZE_14));
            for _ in 0..iters {
                drop(black_box(analyze(&mjtime, black_box(&h), &CTX, None, None)));
            }
        }
        "chances_13" => {
            let &(_, t, discards) = CHANCES_13
                .iter()
                .find(|c| c.0 == name)
                .unwrap_or_else(|| panic!("no case {name}"));
            let h = spec(t);
            for _ in 0..iters {
                drop(black_box(analyze(
                    &mjtime,
                    black_box(&h),
                    &CTX,
                    None,
                    ask(discards),
                )));
            }
        }
        "analyze_chances_14" => {
            let &(_, t, all) = ANALYZE_CHANCES_14
                .iter()
                .find(|c| c.0 == name)
                .unwrap_or_else(|| panic!("no case {name}"));
            let h = spec(t);
            for _ in 0..iters {
                drop(black_box(analyze(
                    &mjtime,
                    black_box(&h),
                    &CTX,
                    None,
                    every(all),
                )));
            }
        }
        "changes_13" => {
            let &(_, t, down) = CHANGES_13
                .iter()
                .find(|c| c.0 == name)
                .unwrap_or_else(|| panic!("no case {name}"));
            let h = spec(t);
            for _ in 0..iters {
                drop(black_box(analyze(
                    &mjtime,
                    black_box(&h),
                    &CTX,
                    None,
                    changes(down),
                )));
            }
        }
        _ => panic!("no group {group}"),
    }
}

criterion_group!(benches, bench);

fn main() {
    if let Ok(which) = std::env::var("ANALYSIS_COUNT") {
        let iters =
            std::env::var("ANALYSIS_ITERS").map_or(0, |n| n.parse().expect("ANALYSIS_ITERS"));
        return count(&which, iters);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
