//! Each rule of a ruleset, checked in one place: a ruleset document
//! (`document`) and house rules (`house`) call the same function, and each
//! places the message at its own pointer (`/ruleset/...` by path,
//! `/house_rules/...`).

use super::super::pattern::{PatternId, PatternSet};
use super::model::{FalseWin, PointsSpec, Stake, MAX_EIGHTHS};
use crate::core::echo::{Echo, Quoted};
use std::fmt;

/// A rule's answer: the checked value, or the sentence that says why not.
pub(super) type Checked<T> = Result<T, String>;

/// The limit: 1 to 64 faan.
pub(super) fn limit(v: i64) -> Checked<u32> {
    match v {
        1..=64 => Ok(v as u32),
        _ => Err(format!("the limit must be from 1 to 64 faan, got {v}")),
    }
}

/// What a limit pattern without its own value scores: never above the
/// limit (refused, not clamped).
pub(super) fn limit_faan(v: i64, limit: u32) -> Checked<u32> {
    if v > i64::from(limit) {
        return Err(format!(
            "limit_faan ({v}) is above the limit ({limit} faan)"
        ));
    }
    whole(v)
}

/// The minimum is never above the limit.
pub(super) fn min_within_limit(min: u32, limit: u32) -> Checked<()> {
    if min > limit {
        Err(format!(
            "the minimum ({min} faan) is above the limit ({limit} faan)"
        ))
    } else {
        Ok(())
    }
}

/// A minimum among the settings the ruleset's guide offers (empty: any).
pub(super) fn min_setting(min: u32, settings: &[u32], id: &str) -> Checked<()> {
    if settings.is_empty() || settings.contains(&min) {
        return Ok(());
    }
    let opts: Vec<String> = settings.iter().map(u32::to_string).collect();
    Err(format!(
        "{id} offers minimum settings {} only, not {min}",
        opts.join(", ")
    ))
}

/// Base points for 0..=limit faan.
pub(super) fn points_table(points: &PointsSpec, limit: u32) -> Checked<Vec<u64>> {
    points.table(limit).map_err(|e| e.explain(limit))
}

/// A payment multiplier: a multiple of 1/8 from 0 to 64, in eighths.
pub(super) fn eighths(v: f64) -> Checked<u32> {
    to_eighths(v, 0.0).ok_or_else(|| format!("must be a multiple of 1/8 from 0 to 64, got {v}"))
}

/// The dealer's multiplier: a multiple of 1/8 from 1 to 64, in eighths.
pub(super) fn dealer_multiplier(v: f64) -> Checked<u32> {
    to_eighths(v, 1.0).ok_or_else(|| {
        format!("the dealer multiplier must be a multiple of 1/8 from 1 to 64, got {v}")
    })
}

/// Money per point: above 0, at most a million, six decimal places.
pub(super) fn stake(v: f64) -> Checked<Stake> {
    Stake::from_number(v).ok_or_else(|| stake_refused(v))
}

/// Money per point from a JSON number's text (`Stake::from_decimal`).
pub fn stake_decimal(text: &str) -> Checked<Stake> {
    Stake::from_decimal(text).ok_or_else(|| stake_refused(text))
}

/// Why a stake is refused, with the number as sent (cut: its text is the client's).
fn stake_refused(v: impl fmt::Display) -> String {
    format!(
        "the stake (money per point) must be above 0 and at most 1000000, with at most six decimal places, got {}",
        Echo(v)
    )
}

/// A false win's penalty: `faan` from 0 to 255, `points` from 1 to 2^40.
pub(super) fn false_win(v: FalseWin) -> Checked<FalseWin> {
    match v {
        FalseWin::Faan(n) if n > FalseWin::MAX_FAAN => Err(format!(
            "a false win paid as a self-drawn win takes 0 to {} faan, got {n}",
            FalseWin::MAX_FAAN
        )),
        FalseWin::Points(p) if p == 0 || p > FalseWin::MAX_POINTS => Err(format!(
            "a false win's points to each player are from 1 to 2^40 ({}), got {p}",
            FalseWin::MAX_POINTS
        )),
        v => Ok(v),
    }
}

/// A multiplier in eighths (8 is x1), for a number that is a multiple of 1/8
/// from `min` to 64; `None` otherwise.
pub fn to_eighths(v: f64, min: f64) -> Option<u32> {
    let e = v * 8.0;
    (v >= min && e <= f64::from(MAX_EIGHTHS) && e.fract() == 0.0).then_some(e as u32)
}

/// A count of the document (a version, a minimum, chips): a whole number from 0.
pub(super) fn whole(v: i64) -> Checked<u32> {
    u32::try_from(v).map_err(|_| format!("must be a whole number from 0, got {v}"))
}

/// A pattern's faan: from 0, at most `u32::MAX` (refused, not clamped:
/// a line's faan is a u32).
pub(super) fn faan(n: i64) -> Checked<u32> {
    if n < 0 {
        return Err(format!("a pattern value must not be negative, got {n}"));
    }
    u32::try_from(n).map_err(|_| format!("a pattern value is at most {} faan, got {n}", u32::MAX))
}

/// A pattern id of the contract.
pub(super) fn pattern_id(key: &str) -> Checked<PatternId> {
    key.parse::<PatternId>()
        .map_err(|()| format!("unknown pattern id {}", Quoted(key)))
}

/// The ids a pattern contains, and each one that is no pattern id, by its
/// index in the list (a chain back to itself is `contains::cycle`'s).
pub(super) fn contains_list(list: &[String]) -> (PatternSet, Vec<(usize, String)>) {
    let mut set = 0;
    let mut errs = Vec::new();
    for (i, c) in list.iter().enumerate() {
        match pattern_id(c) {
            Ok(id) => set |= id.bit(),
            Err(m) => errs.push((i, m)),
        }
    }
    (set, errs)
}

/// A problem of an exclusive pair: at the pair, or at one id of it.
pub(super) struct PairError {
    pub(super) at: Option<usize>,
    pub(super) message: String,
}

/// An exclusive pair: two different pattern ids.
pub(super) fn exclusive_pair(pair: &[String]) -> Result<(PatternId, PatternId), Vec<PairError>> {
    if pair.len() != 2 {
        return Err(vec![PairError {
            at: None,
            message: format!("give two different pattern ids, got {}", pair.len()),
        }]);
    }
    let ids: Vec<Checked<PatternId>> = pair.iter().map(|p| pattern_id(p)).collect();
    match (&ids[0], &ids[1]) {
        (Ok(a), Ok(b)) if a == b => Err(vec![PairError {
            at: None,
            message: format!("{a} cannot exclude itself: give two different pattern ids"),
        }]),
        (Ok(a), Ok(b)) => Ok((*a, *b)),
        _ => Err(ids
            .into_iter()
            .enumerate()
            .filter_map(|(j, r)| {
                r.err().map(|message| PairError {
                    at: Some(j),
                    message,
                })
            })
            .collect()),
    }
}

/// A ruleset id: 1 to 64 lower-case letters, digits and '-'.
pub(super) fn ruleset_id(id: &str) -> Checked<()> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} is not a ruleset id (1 to 64 lower-case letters, digits and '-')",
            Quoted(id)
        ))
    }
}
