//! Time to answer a match of 1,000 hands in the core (`core::ledger::ledger`):
//! seat every hand, validate, score and settle every winner, move the deal,
//! keep the balances, then standings and transfers.
//!
//! `cargo bench --bench ledger`. The night is hkma's: the dealer (Ann) keeps
//! the deal by winning and on draws, so 1,000 hands stay within one match;
//! wins are a mix of discards, self-draws, robbed kongs and double wins on one
//! discard, with draws and false wins between. Target: under 2 ms.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use faan::core::ledger::{ledger, LedgerContext, LedgerHandSpec, LedgerSpec, LedgerWinnerSpec};
use faan::core::{ContextSpec, HandSpec, MeldKind, MeldSpec, Registry, WinBy, Wind};

fn hand(tiles: &str, win: &str, melds: &[(MeldKind, &str)]) -> HandSpec {
    HandSpec {
        tiles: tiles.into(),
        melds: melds
            .iter()
            .map(|&(kind, t)| MeldSpec {
                kind,
                tiles: t.into(),
                concealed: false,
                added: false,
            })
            .collect(),
        winning_tile: Some(win.into()),
        flowers: vec![],
    }
}

fn winner(
    player: &str,
    hand: &HandSpec,
    win_by: WinBy,
    discarder: Option<&str>,
) -> LedgerWinnerSpec {
    LedgerWinnerSpec {
        player: player.into(),
        claim: hand.clone().into(),
        context: LedgerContext {
            rest: ContextSpec::new(win_by, Wind::East, Wind::East, None),
            seat_wind: None,
            round_wind: None,
            discarder: discarder.map(Into::into),
            liable: None,
        },
    }
}

/// A night of `n` hands in which Ann always deals.
pub fn night(n: usize) -> LedgerSpec {
    // All pungs (3 faan), on 5p.
    let pungs = hand(
        "77755p",
        "5p",
        &[
            (MeldKind::Pung, "111m"),
            (MeldKind::Pung, "999s"),
            (MeldKind::Pung, "222p"),
        ],
    );
    // Mixed one suit and a dragon pung (4 faan), on 5p.
    let mixed = hand(
        "345p789p99p",
        "5p",
        &[(MeldKind::Chow, "123p"), (MeldKind::Pung, "555z")],
    );
    // All chows, concealed, self-drawn (3 faan).
    let chows = hand("234m567m345p22s789s", "2s", &[]);
    // Pure one suit, many readings (a flush: the decomposer's hard case).
    let flush = hand("11122233344455m", "5m", &[]);
    // Mixed one suit, robbing a kong of 6s.
    let robbed = hand(
        "456s777z33s",
        "6s",
        &[(MeldKind::Pung, "111s"), (MeldKind::Pung, "999s")],
    );
    let cycle: Vec<LedgerHandSpec> = vec![
        LedgerHandSpec::Win {
            winners: vec![winner("Ann", &pungs, WinBy::Discard, Some("Ben"))],
        },
        LedgerHandSpec::Win {
            winners: vec![winner("Ann", &chows, WinBy::SelfDraw, None)],
        },
        LedgerHandSpec::Draw,
        LedgerHandSpec::Win {
            winners: vec![
                winner("Ann", &pungs, WinBy::Discard, Some("Cat")),
                winner("Dan", &mixed, WinBy::Discard, Some("Cat")),
            ],
        },
        LedgerHandSpec::Win {
            winners: vec![winner("Ann", &flush, WinBy::SelfDraw, None)],
        },
        LedgerHandSpec::FalseWin {
            offender: "Ben".into(),
        },
        LedgerHandSpec::Win {
            winners: vec![winner("Ann", &robbed, WinBy::RobbingKong, Some("Dan"))],
        },
        LedgerHandSpec::Win {
            winners: vec![winner("Ann", &mixed, WinBy::Discard, Some("Cat"))],
        },
    ];
    LedgerSpec {
        players: ["Ann", "Ben", "Cat", "Dan"].map(String::from).to_vec(),
        start: None,
        hands: cycle.iter().cycle().take(n).cloned().collect(),
    }
}

fn bench(c: &mut Criterion) {
    let registry = Registry::builtin().unwrap();
    let hkma = registry.get("hkma").unwrap();
    let spec = night(1000);
    let check = ledger(hkma, &spec, 2000).expect("the night is valid");
    assert_eq!(check.hands.len(), 1000);
    assert!(!check.next.complete);
    c.bench_function("ledger/1000-hands", |b| {
        b.iter(|| ledger(black_box(hkma), black_box(&spec), 2000))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
