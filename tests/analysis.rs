//! Hand analysis before the win (core::analysis, core::chances): closed
//! forms of the model, the minimum, and a Monte Carlo simulation of the same
//! model that follows the solver's discards.

mod common;

use common::Rng;
use faan::core::analysis::{analyze, Analysis, Analyzed, Ask};
use faan::core::chances::{self, Chances, Start, Win, WinValues};
use faan::core::hand_changes::Changes;
use faan::core::shanten::Forms;
use faan::core::tile::{counts_of, parse_tiles, Counts, KINDS};
use faan::core::waits::WaitContext;
use faan::core::{
    HandSpec, HouseRuleFields, HouseRules, MeldKind, MeldSpec, Registry, Ruleset, Wind,
};

const CTX: WaitContext = WaitContext {
    seat_wind: Wind::South,
    round_wind: Wind::East,
    last_tile: false,
};

fn ruleset(id: &str) -> Ruleset {
    let reg = Registry::builtin().expect("built-in rulesets load");
    (**reg.get(id).expect("a built-in id")).clone()
}

fn hand(tiles: &str, melds: &[(MeldKind, &str)]) -> HandSpec {
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
        ..HandSpec::default()
    }
}

fn chances_of(r: &Ruleset, h: &HandSpec, seen: Option<&str>, ask: Ask) -> (Analysis, Chances) {
    let a = analyze(r, h, &CTX, seen, Some(ask)).expect("the hand analyses");
    let c = match &a.analyzed {
        Analyzed::Drawing { chances, .. } => chances.clone().expect("chances asked for"),
        Analyzed::Discarding { .. } => panic!("13 tiles expected"),
    };
    (a, c)
}

/// C(n, k) / C(m, k) as a product, for the closed forms.
fn none_of(k_good: f64, n: f64, t: usize) -> f64 {
    (0..t)
        .map(|j| (n - k_good - j as f64) / (n - j as f64))
        .product()
}

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-12, "{what}: {got} against {want}");
}

/// Thirteen orphans on its thirteen-sided wait, self-draw only: the wait
/// never changes, so with k winning tiles of N unseen the win within t
/// draws is 1 − C(N − k, t) / C(N, t).
#[test]
fn thirteen_sided_wait_wins_by_the_closed_form() {
    let r = ruleset("hkma");
    let h = hand("19m19p19s1234567z", &[]);
    // Three seen: 1m, 9p, 5z.
    let ask = Ask {
        draws: 17,
        discards: false,
        changes: Changes::default(),
        every_discard: true,
    };
    let (a, c) = chances_of(&r, &h, Some("1m9p5z"), ask);
    assert_eq!(a.shanten.best, 0);
    let n = 136.0 - 13.0 - 3.0;
    let k = 39.0 - 3.0;
    for t in 1..=17 {
        close(
            c.win[t - 1],
            1.0 - none_of(k, n, t),
            &format!("win within {t}"),
        );
        assert_eq!(c.ready[t - 1], 1.0, "ready from the start");
    }
}

/// The same hand with hand changes on: no swap keeps it ready (throwing an
/// orphan for a drawn simple leaves twelve kinds and no pair, one from
/// ready), and it is never on course once changed, so no step back either:
/// the same closed form, through the graph's recursion.
#[test]
fn thirteen_sided_wait_no_change_helps() {
    let r = ruleset("hkma");
    let h = hand("19m19p19s1234567z", &[]);
    let ask = Ask {
        draws: 17,
        discards: false,
        changes: Changes {
            swaps: true,
            shanten_down: true,
        },
        every_discard: true,
    };
    let (_, c) = chances_of(&r, &h, Some("1m9p5z"), ask);
    let (n, k) = (120.0, 36.0);
    for t in 1..=17 {
        close(
            c.win[t - 1],
            1.0 - none_of(k, n, t),
            &format!("win within {t}"),
        );
        assert_eq!(c.ready[t - 1], 1.0, "ready from the start");
    }
}

/// A one-shanten hand becomes ready on any of its k accepted tiles, which
/// never change before it does: ready within t is the same closed form.
/// 123m 456m 789m 11p 5s 7z: ready on 1p, 3s..7s, 7z (k = 2 + 3·4 + 3 + 3).
#[test]
fn one_shanten_readies_by_the_closed_form() {
    let r = ruleset("wisteria-court");
    let h = hand("123m456m789m11p5s7z", &[]);
    let ask = Ask {
        draws: 12,
        discards: false,
        changes: Changes::default(),
        every_discard: true,
    };
    let (a, c) = chances_of(&r, &h, None, ask);
    assert_eq!(a.shanten.best, 1);
    let Analyzed::Drawing { acceptance, .. } = &a.analyzed else {
        panic!("13 tiles")
    };
    let kinds: Vec<String> = acceptance
        .tiles
        .iter()
        .map(|(t, _)| t.to_string())
        .collect();
    assert_eq!(kinds, ["1p", "3s", "4s", "5s", "6s", "7s", "7z"]);
    assert_eq!(acceptance.count, 2 + 4 + 4 + 3 + 4 + 4 + 3);
    let n = 136.0 - 13.0;
    for t in 1..=12 {
        close(
            c.ready[t - 1],
            1.0 - none_of(f64::from(acceptance.count), n, t),
            &format!("ready within {t}"),
        );
    }
}

/// Nine gates under hkma: every completion is the limit, so the win
/// within t draws, self-draw only, is the closed form with k = 23.
#[test]
fn nine_gates_wins_by_the_closed_form() {
    let r = ruleset("hkma");
    let h = hand("1112345678999m", &[]);
    let ask = Ask {
        draws: 20,
        discards: false,
        changes: Changes::default(),
        every_discard: true,
    };
    let (_, c) = chances_of(&r, &h, None, ask);
    let n = 136.0 - 13.0;
    for t in 1..=20 {
        close(
            c.win[t - 1],
            1.0 - none_of(23.0, n, t),
            &format!("win within {t}"),
        );
    }
    // Each self-drawn limit collects from three: 2 × 128 (East) + 128 + 128
    // for South under hkma's limit of 128 base points... read the value
    // from the score rather than restate the table here.
    let waits = faan::core::waits::waits(&r, &h, &CTX).expect("waits");
    let each = waits[0]
        .self_draw
        .as_ref()
        .expect("a self-draw win")
        .payments[1] as f64;
    close(c.expected_points, c.win[19] * each, "expected points");
}

/// Under hkma's three-faan minimum a hand whose wins are all below it has
/// no chance; 2s or 5s reach three faan only when self-drawn, so they count
/// that way alone (docs/rules.md).
#[test]
fn wins_below_the_minimum_count_for_nothing() {
    let r = ruleset("hkma");
    let melds = [(MeldKind::Chow, "234m"), (MeldKind::Pung, "888p")];
    let low = hand("567s345p9s", &melds);
    let ask = Ask {
        draws: 10,
        discards: true,
        changes: Changes::default(),
        every_discard: true,
    };
    let (a, c) = chances_of(&r, &low, None, ask);
    assert_eq!(a.shanten.best, 0, "ready on 9s");
    assert!(c.win.iter().all(|&w| w == 0.0), "{:?}", c.win);
    assert_eq!(c.expected_points, 0.0);
    // The same hand with no minimum: a chance to win.
    let free = r
        .with_house_rules(
            &HouseRules::try_from(HouseRuleFields {
                min_faan: Some(0),
                ..HouseRuleFields::default()
            })
            .expect("min_faan 0 checks"),
        )
        .expect("min_faan 0 applies");
    let (_, c) = chances_of(&free, &low, None, ask);
    assert!(c.win[9] > 0.3, "{:?}", c.win);

    // 123m456m789p234s + 5s: 2s or 5s, 2 faan on a discard, 3 self-drawn.
    // With discards counted, only the player's own draws can win: the same
    // chances as self-draw only.
    let h = hand("123m456m789p234s5s", &[]);
    let (_, both) = chances_of(&r, &h, None, ask);
    let (_, own) = chances_of(
        &r,
        &h,
        None,
        Ask {
            draws: 10,
            discards: false,
            changes: Changes::default(),
            every_discard: true,
        },
    );
    // Own draws: the pool shrinks by one a turn alone, by four with the
    // others' discards, so compare with the closed form of each.
    let k = 6.0;
    let n = 136.0 - 13.0;
    let with_others: f64 = 1.0
        - (0..10)
            .map(|j| (n - 4.0 * j as f64 - k) / (n - 4.0 * j as f64))
            .product::<f64>();
    close(
        both.win[9],
        with_others,
        "self-draws only, the pool taking four a turn",
    );
    close(own.win[9], 1.0 - none_of(k, n, 10), "self-draws only");
    close(
        own.expected_points,
        own.win[9] * 48.0,
        "each self-draw collects 48",
    );
}

/// A simulation of the same model: draws from the model's pool, the
/// solver's discards, the others' discards. 200,000 plays a hand; each
/// figure within four standard errors of the exact one.
#[test]
fn monte_carlo_of_the_model_agrees() {
    let cases: &[(&str, &str, &str, u32, bool)] = &[
        ("wisteria-court", "123m456m789m11p5s7z", "", 12, false),
        ("wisteria-court", "123m456m789m11p5s7z", "", 12, true),
        ("hkma", "123m456m789p234s5s", "5s", 15, true),
        ("mjtime", "1133m5577p99s113z", "", 10, true),
        ("wisteria-court", "12m456m789p11s57z7z", "", 14, false),
        ("hkma", "123m456m78p55s122z", "1z1z", 12, true),
    ];
    for &(id, tiles, seen, draws, discards) in cases {
        let r = ruleset(id);
        let h = hand(tiles, &[]);
        let c0 = counts_of(&parse_tiles(tiles).unwrap());
        let mut unseen = [4u8; KINDS];
        for (u, n) in unseen.iter_mut().zip(&c0) {
            *u -= n;
        }
        for t in parse_tiles(seen).unwrap() {
            unseen[t.index()] -= 1;
        }
        let forms = Forms::of(&r);
        let values = |ready: &Counts| win_values(&r, &h, ready);
        let start = Start {
            hand: &c0,
            melds: 0,
            forms,
            unseen: &unseen,
            draws,
            discards,
        };
        let (exact, policy) = chances::solve(start, values).expect("near enough");
        let plays = 200_000;
        let mut rng = Rng(0x1234_5678_9abc_def1 ^ tiles.len() as u64);
        let (mut wins, mut readies, mut points, mut points2) = (0u32, 0u32, 0f64, 0f64);
        let mut memo = std::collections::HashMap::new();
        for _ in 0..plays {
            let (won, ready, pts) = play(
                &c0, &unseen, forms, draws, discards, &policy, &mut memo, &r, &h, &mut rng,
            );
            wins += won as u32;
            readies += ready as u32;
            points += pts;
            points2 += pts * pts;
        }
        let p = f64::from(wins) / f64::from(plays);
        let q = f64::from(readies) / f64::from(plays);
        let mean = points / f64::from(plays);
        let var = points2 / f64::from(plays) - mean * mean;
        let last = draws as usize - 1;
        let se = |x: f64| (x * (1.0 - x) / f64::from(plays)).sqrt().max(1e-9);
        let name = format!("{id} {tiles} seen {seen:?}, {draws} draws, discards {discards}");
        assert!(
            (p - exact.win[last]).abs() < 4.0 * se(exact.win[last]),
            "{name}: win {p} against {}",
            exact.win[last]
        );
        assert!(
            (q - exact.ready[last]).abs() < 4.0 * se(exact.ready[last]),
            "{name}: ready {q} against {}",
            exact.ready[last]
        );
        let se_points = (var / f64::from(plays)).sqrt().max(1e-9);
        assert!(
            (mean - exact.expected_points).abs() < 4.0 * se_points,
            "{name}: points {mean} against {}",
            exact.expected_points
        );
        assert!(exact.win[last] > 0.0, "{name}: a case that can win");
    }
}

/// The points of each wait of a ready hand, as the service counts them.
fn win_values(r: &Ruleset, h: &HandSpec, ready: &Counts) -> WinValues {
    let tiles: String = faan::core::tile::format_tiles(
        &(0..KINDS)
            .flat_map(|i| {
                std::iter::repeat_n(faan::core::Tile::from_index(i).unwrap(), ready[i] as usize)
            })
            .collect::<Vec<_>>(),
    );
    let spec = HandSpec { tiles, ..h.clone() };
    let pts = |s: &Option<faan::core::Score>| {
        s.as_ref()
            .filter(|s| s.meets_minimum)
            .map(|s| s.payments[CTX.seat_wind.index()] as f64)
    };
    WinValues {
        wins: faan::core::waits::waits(r, &spec, &CTX)
            .expect("a ready hand's waits")
            .iter()
            .map(|w| Win {
                kind: w.tile.index(),
                self_draw: pts(&w.self_draw),
                discard: pts(&w.discard),
            })
            .collect(),
    }
}

/// What a hand can do, found here by shanten and the waits, not from the
/// solver: the draws that lower shanten or win by self-draw (with the
/// points), the discards that win.
struct Useful {
    shanten: i8,
    useful: Vec<(usize, Option<f64>)>,
    on_discard: Vec<(usize, f64)>,
}

fn useful_draws(h: &Counts, forms: Forms, r: &Ruleset, spec: &HandSpec) -> Useful {
    let s = faan::core::shanten::shanten(h, 0, forms).best;
    let mut out = Useful {
        shanten: s,
        useful: Vec::new(),
        on_discard: Vec::new(),
    };
    if s == 0 {
        for Win {
            kind: y,
            self_draw: own,
            discard: disc,
        } in win_values(r, spec, h).wins
        {
            if own.is_some() {
                out.useful.push((y, own));
            }
            if let Some(d) = disc {
                out.on_discard.push((y, d));
            }
        }
    } else {
        for y in 0..KINDS {
            if h[y] < 4 {
                let mut d = *h;
                d[y] += 1;
                if faan::core::shanten::shanten(&d, 0, forms).best < s {
                    out.useful.push((y, None));
                }
            }
        }
    }
    out
}

/// One play of the model: (won, became or was ready, points collected).
#[allow(clippy::too_many_arguments)]
fn play(
    h0: &Counts,
    u0: &Counts,
    forms: Forms,
    draws: u32,
    discards: bool,
    policy: &chances::Policy,
    memo: &mut std::collections::HashMap<Counts, Useful>,
    r: &Ruleset,
    spec: &HandSpec,
    rng: &mut Rng,
) -> (bool, bool, f64) {
    let pool: f64 = u0.iter().map(|&u| f64::from(u)).sum();
    let turn = if discards { 4.0 } else { 1.0 };
    let mut h = *h0;
    let mut ready = false;
    let weight = |h: &Counts, y: usize| f64::from(u0[y]) + f64::from(h0[y]) - f64::from(h[y]);
    for k in 0..draws as usize {
        let left = pool - turn * k as f64;
        if left < 1.0 {
            break;
        }
        let useful: Vec<(usize, f64, Option<f64>)> = memo
            .entry(h)
            .or_insert_with(|| useful_draws(&h, forms, r, spec))
            .useful
            .iter()
            .map(|&(y, own)| (y, weight(&h, y) / left, own))
            .collect();
        let sum: f64 = useful.iter().map(|u| u.1).sum();
        let scale = if sum > 1.0 { 1.0 / sum } else { 1.0 };
        let mut x = rng.unit();
        for &(y, p, own) in &useful {
            if x < p * scale {
                if let Some(pts) = own {
                    return (true, true, pts);
                }
                h = policy.keep(k, &h, y).expect("the solver saw this draw");
                break;
            }
            x -= p * scale;
        }
        let now = memo
            .entry(h)
            .or_insert_with(|| useful_draws(&h, forms, r, spec));
        ready |= now.shanten <= 0;
        if discards && now.shanten == 0 {
            for j in 1..=3 {
                let pool_j = left - j as f64;
                if pool_j < 1.0 {
                    break;
                }
                let mut x = rng.unit();
                for &(y, on_discard) in &now.on_discard {
                    let p = weight(&h, y) / pool_j;
                    if x < p {
                        return (true, true, on_discard);
                    }
                    x -= p;
                }
            }
        }
    }
    (false, ready, 0.0)
}

/// Hand changes never expect fewer points: the player who may change the
/// hand has every choice of the one who may not, and maximises the points
/// expected. But the chance to win can fall, a fast cheap wait given up for
/// a slower one worth more: `233456m999p99s111z` throwing 4m under `hkma`
/// (seat and round East, 17 self-draws) wins 0.464 of the time for 44.6
/// points expected without changes, 0.337 for 73.6 with swaps and
/// shanten-down (docs/analysis.md; the figures of the model as it is).
#[test]
fn hand_changes_expect_no_fewer_points_but_may_win_less_often() {
    let r = ruleset("hkma");
    let ctx = WaitContext {
        seat_wind: Wind::East,
        round_wind: Wind::East,
        last_tile: false,
    };
    let ask = |swaps, shanten_down| Ask {
        draws: 17,
        discards: false,
        changes: Changes {
            swaps,
            shanten_down,
        },
        every_discard: true,
    };
    let discards = |tiles: &str, a: Ask| -> Vec<(faan::core::Tile, Chances)> {
        match analyze(&r, &hand(tiles, &[]), &ctx, None, Some(a))
            .expect("the hand analyses")
            .analyzed
        {
            Analyzed::Discarding { discards, .. } => discards
                .into_iter()
                .filter_map(|d| Some((d.tile, d.chances?)))
                .collect(),
            Analyzed::Drawing { .. } => panic!("14 tiles expected"),
        }
    };
    for tiles in ["233456m999p99s111z", "11233m678p55888s4z"] {
        let off = discards(tiles, ask(false, false));
        assert!(!off.is_empty(), "{tiles}: chances");
        for (swaps, down) in [(true, false), (true, true)] {
            let on = discards(tiles, ask(swaps, down));
            for (t, c) in &off {
                let (_, c2) = on
                    .iter()
                    .find(|(t2, _)| t2 == t)
                    .expect("the same discards");
                assert!(
                    c2.expected_points >= c.expected_points - 1e-9,
                    "{tiles} -{t} (shanten-down {down}): {} against {} off",
                    c2.expected_points,
                    c.expected_points
                );
            }
        }
    }
    let four_m = |a: Ask| {
        let d = discards("233456m999p99s111z", a);
        let (_, c) = d
            .into_iter()
            .find(|(t, _)| t.to_string() == "4m")
            .expect("4m");
        (c.win[16], c.expected_points)
    };
    let (win_off, points_off) = four_m(ask(false, false));
    let (win_on, points_on) = four_m(ask(true, true));
    assert!((win_off - 0.464_160_449_852).abs() < 1e-9, "{win_off}");
    assert!((points_off - 44.559_403_185_8).abs() < 1e-6, "{points_off}");
    assert!((win_on - 0.336_722_539_838).abs() < 1e-9, "{win_on}");
    assert!((points_on - 73.602_227_857_9).abs() < 1e-6, "{points_on}");
    assert!(win_on < win_off && points_on > points_off);
}
