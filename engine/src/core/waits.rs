//! Waits: for a hand one tile short, every tile kind that completes it, how
//! many copies are still unseen, and the best evaluation of a win on a
//! discard and on a self-draw.

use super::evaluate::{allowances, score_hand, Score, ScoreError};
use super::hand::{validate, Allowances, ContextSpec, HandSpec, Replacement, WinBy};
use super::ruleset::Ruleset;
use super::shanten::{self, Forms};
use super::tile::{Tile, Wind};

/// One tile that completes the hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    pub tile: Tile,
    /// Copies not in the hand or its melds (4 minus those held).
    pub unseen: u8,
    /// The win on a discard (from the seat before the winner), if it is a win.
    pub discard: Option<Score>,
    /// The win on a self-draw, if it is a win.
    pub self_draw: Option<Score>,
}

/// The circumstances that apply to a wait, whatever the winning tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WaitContext {
    pub seat_wind: Wind,
    pub round_wind: Wind,
    pub last_tile: bool,
}

/// Every wait of `hand` (13 tiles plus one per kong, no winning tile), in tile order.
///
/// A tile whose four copies are all in the hand is still listed when it
/// would complete the hand, with `unseen` 0: the wait exists but cannot come.
pub fn waits<S: AsRef<str>>(
    ruleset: &Ruleset,
    hand: &HandSpec<S>,
    ctx: &WaitContext,
) -> Result<Vec<Wait>, ScoreError> {
    waits_among(ruleset, hand, ctx, false, true)
}

/// [`waits`], the same answer, scoring only the kinds that shanten says
/// complete the hand in a form the ruleset scores (a kind held four times
/// too: its fifth copy is beyond the shanten tables). Scoring the other
/// kinds only to fail was most of a call's time; the analysis, which has
/// the shanten tables built, uses this. `POST /v1/waits` keeps [`waits`]
/// so that it never builds the tables.
pub fn waits_by_shanten<S: AsRef<str>>(
    ruleset: &Ruleset,
    hand: &HandSpec<S>,
    ctx: &WaitContext,
) -> Result<Vec<Wait>, ScoreError> {
    waits_among(ruleset, hand, ctx, true, true)
}

/// [`waits_by_shanten`] with only the self-drawn wins scored (`discard`
/// is `None` throughout): for the chances of a model in which nobody
/// else discards, half the scoring.
pub fn self_drawn_waits_by_shanten<S: AsRef<str>>(
    ruleset: &Ruleset,
    hand: &HandSpec<S>,
    ctx: &WaitContext,
) -> Result<Vec<Wait>, ScoreError> {
    waits_among(ruleset, hand, ctx, true, false)
}

fn waits_among<S: AsRef<str>>(
    ruleset: &Ruleset,
    hand: &HandSpec<S>,
    ctx: &WaitContext,
    by_shanten: bool,
    on_discards: bool,
) -> Result<Vec<Wait>, ScoreError> {
    let draw = ContextSpec {
        last_tile: ctx.last_tile,
        ..ContextSpec::new(WinBy::SelfDraw, ctx.seat_wind, ctx.round_wind, None)
    };
    let allow = Allowances {
        waiting: true,
        ..allowances(ruleset)
    };
    let (base, drawn) = validate(hand, &draw, allow).map_err(ScoreError::Invalid)?;
    let all = base.all_counts();
    let previous = Wind::ALL[(ctx.seat_wind.index() + 3) % 4];
    let on_discard = drawn.varied(|c| {
        c.win_by = WinBy::Discard;
        c.discarder = Some(previous);
    });
    let mut tried = u64::MAX;
    if by_shanten {
        // Shanten's acceptance of a ready hand: the kinds that complete it.
        let concealed = &base.concealed_counts;
        let forms = Forms::from(ruleset.tables().special);
        let (now, need) = shanten::necessary(concealed, base.melds.len(), forms);
        tried = if now.best == 0 { need } else { 0 };
        for (i, (&held, &c)) in all.iter().zip(concealed).enumerate() {
            if held >= 4 || c >= 4 {
                tried |= 1 << i;
            }
        }
    }
    let mut out = Vec::new();
    for (i, &held) in all.iter().enumerate() {
        if tried >> i & 1 == 0 {
            continue;
        }
        let tile = Tile::from_index(i).expect("i < KINDS");
        let h = base.with_drawn(tile);
        let discard = if on_discards {
            score_hand(ruleset, &h, &on_discard).ok()
        } else {
            None
        };
        let self_draw = score_hand(
            ruleset,
            &h,
            &drawn.varied(|c| c.replacement = Replacement::None),
        )
        .ok();
        if discard.is_some() || self_draw.is_some() {
            out.push(Wait {
                tile,
                unseen: 4u8.saturating_sub(held),
                discard,
                self_draw,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::hand::{MeldKind, MeldSpec};
    use crate::core::Registry;

    fn wait_tiles(ruleset: &str, tiles: &str) -> Vec<(String, u8, Option<u32>, Option<u32>)> {
        let reg = Registry::builtin().unwrap();
        let r = reg.get(ruleset).unwrap();
        let hand: HandSpec = HandSpec {
            tiles: tiles.into(),
            ..HandSpec::default()
        };
        let ctx = WaitContext {
            seat_wind: Wind::South,
            round_wind: Wind::East,
            last_tile: false,
        };
        waits(r, &hand, &ctx)
            .unwrap_or_else(|e| panic!("{tiles}: {e}"))
            .into_iter()
            .map(|w| {
                (
                    w.tile.to_string(),
                    w.unseen,
                    w.discard.map(|s| s.total_faan()),
                    w.self_draw.map(|s| s.total_faan()),
                )
            })
            .collect()
    }

    /// `waits_by_shanten` gives the waits as scoring every kind gives
    /// them, under every built-in ruleset: each form, a fifth copy, a kong,
    /// a pung declared with a tile of it still concealed, hands not ready.
    #[test]
    fn the_filter_keeps_every_wait() {
        let reg = Registry::builtin().unwrap();
        let hands: &[(&str, &[(MeldKind, &str)])] = &[
            ("1112345678999m", &[]),
            ("1133m5577p99s113z", &[]),
            ("1133m5577p99s111z", &[]),
            ("19m19p19s1234567z", &[]),
            ("19m19p19s1234566z", &[]),
            ("1111m234567p789s", &[]),
            ("234m567m345p789s2s", &[]),
            ("123m456m78p55s122z", &[]),
            (
                "555z11s",
                &[(MeldKind::Pung, "111m"), (MeldKind::Kong, "9999p")],
            ),
            (
                "1m23s456s",
                &[(MeldKind::Pung, "111m"), (MeldKind::Chow, "789p")],
            ),
            ("147m258p369s1357z", &[]),
        ];
        let ctx = WaitContext {
            seat_wind: Wind::South,
            round_wind: Wind::East,
            last_tile: false,
        };
        for id in reg.ids() {
            let r = reg.get(id).unwrap();
            for &(tiles, melds) in hands {
                let hand = HandSpec {
                    tiles,
                    melds: melds
                        .iter()
                        .map(|&(kind, tiles)| MeldSpec {
                            kind,
                            tiles,
                            concealed: false,
                            added: false,
                        })
                        .collect(),
                    winning_tile: None,
                    flowers: vec![],
                };
                let all = waits(r, &hand, &ctx);
                let filtered = waits_by_shanten(r, &hand, &ctx);
                assert_eq!(filtered, all, "{id} {tiles}");
            }
        }
    }

    #[test]
    fn nine_gates_waits_on_all_nine() {
        let w = wait_tiles("hkma", "1112345678999m");
        let tiles: Vec<&str> = w.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(
            tiles,
            ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"],
            "1112345678999m waits"
        );
        // Every wait is nine gates, a limit: 10 faan either way.
        assert!(
            w.iter().all(|x| x.2 == Some(10) && x.3 == Some(10)),
            "{w:?}"
        );
        // 1m and 9m: three copies held, one unseen; 2m..8m: three unseen.
        assert_eq!(w[0].1, 1, "1m unseen");
        assert_eq!(w[4].1, 3, "5m unseen");
    }

    #[test]
    fn a_wait_on_a_tile_all_in_hand_has_zero_unseen() {
        // 1111m 234p 567p 789s: only a fifth 1m would complete it.
        let w = wait_tiles("wisteria-court", "1111m234567p789s");
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!((w[0].0.as_str(), w[0].1), ("1m", 0));
    }

    /// sc-hk13 guide: all chows + concealed hand, one wait on 2s: 2 faan
    /// on a discard, 3 by self-draw; East seat in the East round.
    fn all_chows_on_2s() -> (HandSpec, WaitContext) {
        let hand: HandSpec = HandSpec {
            tiles: "234m567m345p789s2s".into(),
            ..HandSpec::default()
        };
        let ctx = WaitContext {
            seat_wind: Wind::East,
            round_wind: Wind::East,
            last_tile: false,
        };
        (hand, ctx)
    }

    #[test]
    fn discard_below_minimum_self_draw_meets_it() {
        let reg = Registry::builtin().unwrap();
        let r = reg.get("sc-hk13").unwrap();
        let (hand, ctx) = all_chows_on_2s();
        let w = waits(r, &hand, &ctx).unwrap();
        assert_eq!(w.len(), 1, "single wait on 2s: {w:?}");
        let (d, s) = (
            w[0].discard.as_ref().unwrap(),
            w[0].self_draw.as_ref().unwrap(),
        );
        assert_eq!((d.total_faan(), d.meets_minimum), (2, false));
        assert_eq!((s.total_faan(), s.meets_minimum), (3, true));
    }

    #[test]
    fn self_drawn_waits_score_only_the_self_draw() {
        // Its one wait on 2s is 3 faan by self-draw, and no discard is
        // scored.
        let reg = Registry::builtin().unwrap();
        let r = reg.get("sc-hk13").unwrap();
        let (hand, ctx) = all_chows_on_2s();
        let w = self_drawn_waits_by_shanten(r, &hand, &ctx).unwrap();
        assert_eq!(w.len(), 1, "single wait on 2s: {w:?}");
        assert_eq!(w[0].tile.to_string(), "2s");
        assert!(w[0].discard.is_none());
        let s = w[0].self_draw.as_ref().unwrap();
        assert_eq!((s.total_faan(), s.meets_minimum), (3, true));
        let both = waits_by_shanten(r, &hand, &ctx).unwrap();
        assert_eq!(both[0].self_draw.as_ref().unwrap().payments, s.payments);
    }

    #[test]
    fn more_than_one_tile_short_is_an_error() {
        let reg = Registry::builtin().unwrap();
        let r = reg.get("hkma").unwrap();
        let hand: HandSpec = HandSpec {
            tiles: "234m567m345p789s".into(),
            ..HandSpec::default()
        };
        let ctx = WaitContext {
            seat_wind: Wind::East,
            round_wind: Wind::East,
            last_tile: false,
        };
        match waits(r, &hand, &ctx) {
            Err(ScoreError::Invalid(e)) => {
                assert_eq!(e[0].pointer, "/hand/tiles");
                assert!(e[0].message.contains("2 tiles short"), "{}", e[0].message);
            }
            other => panic!("expected an error, got {other:?}"),
        }
    }
}
