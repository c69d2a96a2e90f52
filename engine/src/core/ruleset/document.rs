//! A ruleset document read by serde into [`RawRuleset`] (its shape: an
//! unknown key, a missing one, a wrong type stops at that first problem),
//! then each rule checked (`check`), every problem at its path, and the
//! ruleset compiled.

use super::super::pattern::{Condition, Conditions};
use super::canonical;
use super::check::{self, Checked};
use super::contains::contains_cycle;
use super::error::{DocError, LoadError, PathSeg};
use super::model::{
    About, FalseWin, LiableDiscard, LimitsPay, Money, MultipleWinners, PatternRule, Payment,
    PointsSpec, RobbingKongPayment, Rules, Ruleset, TableRules, Value,
};
use crate::core::echo::{Echo, Quoted};
use serde::de::{DeserializeOwned, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use strum::VariantNames;

impl Ruleset {
    /// Parses and validates one ruleset file: its TOML is read into the
    /// JSON value a ruleset document sent with a request is, then checked by
    /// [`Ruleset::from_document`] (one validation path for both).
    pub fn from_toml(file: &str, text: &str) -> Result<Ruleset, LoadError> {
        let err = |key: String, message: String| LoadError {
            file: file.to_string(),
            key,
            message,
        };
        let doc = super::source::toml_document(text).map_err(|m| err(String::new(), m))?;
        Ruleset::from_document(&doc).map_err(|errs| match errs.into_iter().next() {
            Some(e) => err(e.dotted(), e.message),
            None => err(String::new(), "the ruleset does not load".into()),
        })
    }

    /// Validates a whole ruleset document (`rulesets/README.md`; the keys of
    /// a ruleset file, as JSON): the ruleset, or every problem found, each
    /// at its path in the document. A document that does not have the
    /// document's shape (an unknown key, a missing one, a wrong type) stops
    /// at that first problem; the rules after that are all checked.
    pub fn from_document(doc: &serde_json::Value) -> Result<Ruleset, Vec<DocError>> {
        let raw: RawRuleset = serde_path_to_error::deserialize(doc)
            .map_err(|e| vec![DocError::from_serde(e, &[])])?;
        Ruleset::from_raw(raw)
    }

    /// Checks each rule of a typed document and compiles the ruleset.
    pub fn from_raw(raw: RawRuleset) -> Result<Ruleset, Vec<DocError>> {
        let mut errs = Vec::new();
        let e = &mut errs;
        let min_faan = or(e, at!["min_faan"], check::whole(raw.min_faan), 0);
        let limit = or(e, at!["limit"], check::limit(raw.limit), 0);
        let limit_faan = match raw.limit_faan {
            // Checked against the limit only when the limit is one.
            Some(v) if limit > 0 => or(e, at!["limit_faan"], check::limit_faan(v, limit), limit),
            Some(v) => or(e, at!["limit_faan"], check::whole(v), 0),
            None => limit,
        };
        let mut min_faan_settings = Vec::new();
        for (i, v) in raw
            .min_faan_settings
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            min_faan_settings.push(or(e, at!["min_faan_settings", i], check::whole(v), 0));
        }
        if limit > 0 {
            or(
                e,
                at!["min_faan"],
                check::min_within_limit(min_faan, limit),
                (),
            );
        }
        let points = points(e, raw.points);
        let mut points_table = Vec::new();
        if let (Some(p), true) = (&points, limit > 0) {
            let at = match p {
                PointsSpec::Table(_) | PointsSpec::TableThenLast(_) => at!["points", "table"],
                _ => at!["points"],
            };
            points_table = or(e, at, check::points_table(p, limit), Vec::new());
        }
        let d = &raw.payment;
        let payment = Payment {
            discarder: or(
                e,
                at!["payment", "discard", "discarder"],
                check::eighths(d.discard.discarder),
                0,
            ),
            others: or(
                e,
                at!["payment", "discard", "others"],
                check::eighths(d.discard.others),
                0,
            ),
            self_draw: or(
                e,
                at!["payment", "self_draw"],
                check::eighths(d.self_draw),
                0,
            ),
            robbing_kong: or(
                e,
                at!["payment", "robbing_kong"],
                word(&d.robbing_kong),
                RobbingKongPayment::AsDiscard,
            ),
        };
        let money = raw.money.map(|m| {
            // Whole cents, within float error (0.05 x 100 is 5.000000000000001).
            let cents = m.usd_per_100_chips * 100.0;
            let whole = cents.round();
            if !(0.0..=1e9).contains(&whole) || (cents - whole).abs() > 1e-6 {
                e.push(DocError::new(
                    at!["money", "usd_per_100_chips"],
                    format!(
                        "must be a non-negative amount in cents, got {}",
                        m.usd_per_100_chips
                    ),
                ));
            }
            Money {
                cents_per_100_chips: whole.clamp(0.0, 1e9) as u32,
                bonus_chips: or(
                    e,
                    at!["money", "bonus_chips"],
                    check::whole(m.bonus_chips.unwrap_or(0)),
                    0,
                ),
            }
        });
        let t = &raw.table;
        let table = TableRules {
            multiple_winners: or(
                e,
                at!["table", "multiple_winners"],
                word(&t.multiple_winners),
                MultipleWinners::All,
            ),
            dealer_multiplier: or(
                e,
                at!["table", "dealer_multiplier"],
                check::dealer_multiplier(t.dealer_multiplier),
                8,
            ),
            stake: t.stake.and_then(|v| {
                check::stake(v)
                    .map_err(|m| push(e, at!["table", "stake"], m))
                    .ok()
            }),
            liable_discard: or(
                e,
                at!["table", "liable_discard"],
                word(&t.liable_discard),
                LiableDiscard::AsUsual,
            ),
            dealer_keeps_on_win: t.dealer_keeps_on_win,
            dealer_keeps_on_draw: t.dealer_keeps_on_draw,
            co_winners_pay: t.co_winners_pay.unwrap_or(false),
            false_win: match t.false_win {
                Some(v) => or(e, at!["table", "false_win"], check::false_win(v), v),
                None => FalseWin::Minimum,
            },
        };
        let mut patterns = Vec::with_capacity(raw.patterns.len());
        for (key, p) in raw.patterns {
            if let Some(p) = pattern_rule(e, &key, p) {
                patterns.push(p);
            }
        }
        let version = or(e, at!["version"], check::whole(raw.version), 0);
        or(e, at!["id"], check::ruleset_id(&raw.id), ());
        let limits_pay = match &raw.limits_pay {
            None => LimitsPay::default(),
            Some(w) => or(e, at!["limits_pay"], word(w), LimitsPay::default()),
        };
        let mut exclusive = Vec::new();
        for (i, pair) in raw.exclusive.unwrap_or_default().iter().enumerate() {
            match check::exclusive_pair(pair) {
                Ok(p) => exclusive.push(p),
                Err(problems) => {
                    for p in problems {
                        let at = match p.at {
                            None => at!["exclusive", i],
                            Some(j) => at!["exclusive", i, j],
                        };
                        e.push(DocError::new(at, p.message));
                    }
                }
            }
        }
        if let Some((id, via)) = contains_cycle(&patterns) {
            e.push(DocError::new(
                at!["patterns", id.as_str(), "contains"],
                format!("{id} contains itself through a chain of contains (through {via})"),
            ));
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        let rules = Rules {
            about: Arc::new(About {
                id: raw.id,
                name: raw.name,
                name_zh: raw.name_zh,
                version,
                source: raw.source,
                summary: raw.summary,
                notes: raw.notes,
                notes_zh: raw.notes_zh,
                min_faan_settings,
            }),
            min_faan,
            limit,
            limit_faan,
            bonus_tiles: raw.bonus_tiles,
            // Present: no error was found.
            points: points.unwrap_or(PointsSpec::FullSpicy),
            points_table: points_table.into(),
            payment,
            money,
            table,
            patterns: Arc::new(patterns),
            limits_add: raw.limits_add.unwrap_or(false),
            limits_pay,
            exclusive,
        };
        let hash = canonical::hash(&rules);
        Ok(Ruleset::compile(rules, hash))
    }
}

/// A problem at `at`.
fn push(e: &mut Vec<DocError>, at: Vec<PathSeg>, message: String) {
    e.push(DocError::new(at, message));
}

/// A checked value, or `fallback` with the problem at `at` (the other rules
/// are still checked).
fn or<T>(e: &mut Vec<DocError>, at: Vec<PathSeg>, v: Checked<T>, fallback: T) -> T {
    v.unwrap_or_else(|m| {
        push(e, at, m);
        fallback
    })
}

/// A word of the document's: one of the enum's words (its serde names).
fn word<T: Copy + VariantNames>(w: &Word<T>) -> Checked<T> {
    match w {
        Word::Known(v) => Ok(*v),
        Word::Unknown(s) => Err(format!(
            "unknown rule {}: use {}",
            Quoted(s),
            T::VARIANTS.join(" or ")
        )),
    }
}

/// `[points]`: a curve or an explicit table.
fn points(e: &mut Vec<DocError>, p: RawPoints) -> Option<PointsSpec> {
    if p.extend_last.is_some() && p.table.is_none() {
        push(
            e,
            at!["points", "extend_last"],
            "applies to an explicit table only".into(),
        );
    }
    match (p.curve, p.table) {
        (Some(Word::Known(Curve::FullSpicy)), None) => Some(PointsSpec::FullSpicy),
        (Some(Word::Known(Curve::HalfSpicy)), None) => Some(PointsSpec::HalfSpicy),
        (None | Some(Word::Known(Curve::Table)), Some(t)) => {
            let mut v = Vec::with_capacity(t.len());
            for (i, x) in t.into_iter().enumerate() {
                match u64::try_from(x) {
                    Ok(b) => v.push(b),
                    Err(_) => push(
                        e,
                        at!["points", "table", i],
                        format!("base points must not be negative, got {x}"),
                    ),
                }
            }
            Some(if p.extend_last.unwrap_or(false) {
                PointsSpec::TableThenLast(v)
            } else {
                PointsSpec::Table(v)
            })
        }
        (Some(c), None) => {
            let c = match c {
                Word::Known(k) => <&str>::from(k).to_string(),
                Word::Unknown(s) => s,
            };
            push(
                e,
                at!["points", "curve"],
                format!(
                    "unknown curve {}: use full_spicy, half_spicy or a table",
                    Quoted(&c)
                ),
            );
            None
        }
        _ => {
            push(
                e,
                at!["points"],
                "give either curve (full_spicy, half_spicy) or table".into(),
            );
            None
        }
    }
}

/// One `[patterns.<key>]` table, its rules checked.
fn pattern_rule(e: &mut Vec<DocError>, key: &str, p: RawPattern) -> Option<PatternRule> {
    let id = match check::pattern_id(key) {
        Ok(id) => id,
        Err(m) => {
            push(e, at!["patterns", key], m);
            return None;
        }
    };
    let before = e.len();
    let mut conditions = Conditions::default();
    for (c, v) in p.conditions {
        let at = at!["patterns", key, c.key()];
        if !id.info().conditions.contains(&c) {
            push(e, at, format!("{} does not apply to {id}", c.key()));
            continue;
        }
        match v {
            Loose::Typed(b) => conditions.set(c, b),
            Loose::Other(v) => push(e, at, format!("must be true or false, got {}", Echo(v))),
        }
    }
    let p = match p.shape {
        Ok(shape) => shape,
        Err(err) => {
            e.push(err.at(key));
            return None;
        }
    };
    let at_faan = || at!["patterns", key, "faan"];
    let value = match (p.faan, p.limit.unwrap_or(false)) {
        (Loose::Other(serde_json::Value::String(w)), _) if w == "limit" => Value::Limit(None),
        (Loose::Typed(n), limit) => {
            let n = or(e, at_faan(), check::faan(n), 0);
            if limit {
                Value::Limit(Some(n))
            } else {
                Value::Faan(n)
            }
        }
        (Loose::Other(other), _) => {
            push(
                e,
                at_faan(),
                format!(
                    "{} is not a value: give a whole number of faan or \"limit\"",
                    Echo(other)
                ),
            );
            Value::Faan(0)
        }
    };
    let (contains, bad) = check::contains_list(&p.contains);
    for (i, m) in bad {
        push(e, at!["patterns", key, "contains", i], m);
    }
    (e.len() == before).then_some(PatternRule {
        id,
        guide_name: p.guide_name.map(Arc::from),
        guide_name_on_discard: p.guide_name_on_discard.map(Arc::from),
        value,
        contains,
        conditions,
        note: p.note.map(Arc::from),
    })
}

/// A ruleset document as serde reads it: every key typed, each value then
/// checked by its rule ([`Ruleset::from_raw`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRuleset {
    id: String,
    name: String,
    /// A translation ([`canonical::TRANSLATIONS`]).
    name_zh: Option<String>,
    version: i64,
    source: Vec<String>,
    summary: String,
    notes: Vec<String>,
    /// A translation ([`canonical::TRANSLATIONS`]).
    notes_zh: Option<Vec<String>>,
    min_faan: i64,
    min_faan_settings: Option<Vec<i64>>,
    limit: i64,
    limit_faan: Option<i64>,
    bonus_tiles: bool,
    points: RawPoints,
    payment: RawPayment,
    money: Option<RawMoney>,
    table: RawTable,
    limits_add: Option<bool>,
    limits_pay: Option<Word<LimitsPay>>,
    exclusive: Option<Vec<Vec<String>>>,
    patterns: BTreeMap<String, RawPattern>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    multiple_winners: Word<MultipleWinners>,
    dealer_multiplier: f64,
    stake: Option<f64>,
    liable_discard: Word<LiableDiscard>,
    dealer_keeps_on_win: bool,
    dealer_keeps_on_draw: bool,
    /// Optional (default `false`), so documents written before it still load.
    co_winners_pay: Option<bool>,
    /// Optional (default `minimum`), so documents written before it still load.
    false_win: Option<FalseWin>,
}

/// The words of `points.curve`.
#[derive(Clone, Copy, Deserialize, strum::IntoStaticStr, VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
enum Curve {
    FullSpicy,
    HalfSpicy,
    Table,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPoints {
    curve: Option<Word<Curve>>,
    table: Option<Vec<i64>>,
    extend_last: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPayment {
    discard: RawDiscard,
    self_draw: f64,
    robbing_kong: Word<RobbingKongPayment>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDiscard {
    discarder: f64,
    others: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMoney {
    usd_per_100_chips: f64,
    bonus_chips: Option<i64>,
}

/// A word as sent: one of the enum's (by its serde names), or another,
/// reported by the rule that reads it (not a shape error: the document's
/// other rules are still checked). Not a string is a shape error.
enum Word<T> {
    Known(T),
    Unknown(String),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Word<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
            s.as_str().into_deserializer();
        Ok(match T::deserialize(de) {
            Ok(v) => Word::Known(v),
            Err(_) => Word::Unknown(s),
        })
    }
}

/// A value of the expected type, or any other, kept for its rule to report.
#[derive(Deserialize)]
#[serde(untagged)]
enum Loose<T> {
    Typed(T),
    Other(serde_json::Value),
}

/// One pattern's table: its condition keys (those of the pattern table,
/// [`Condition`]), and the rest of its keys ([`PatternShape`]) or the shape
/// error among them (reported for this pattern alone).
struct RawPattern {
    conditions: Vec<(Condition, Loose<bool>)>,
    shape: Result<PatternShape, ShapeError>,
}

/// The keys of a pattern's table other than its conditions.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternShape {
    /// A whole number or `"limit"` (checked by [`pattern_rule`]).
    faan: Loose<i64>,
    limit: Option<bool>,
    guide_name: Option<String>,
    guide_name_on_discard: Option<String>,
    #[serde(default)]
    contains: Vec<String>,
    note: Option<String>,
}

/// A shape error inside one pattern's table.
struct ShapeError(serde_path_to_error::Error<serde_json::Error>);

impl ShapeError {
    fn at(self, key: &str) -> DocError {
        DocError::from_serde(self.0, &[PathSeg::from("patterns"), PathSeg::from(key)])
    }
}

impl<'de> Deserialize<'de> for RawPattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(PatternVisitor)
    }
}

struct PatternVisitor;

impl<'de> Visitor<'de> for PatternVisitor {
    type Value = RawPattern;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a pattern's table")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawPattern, A::Error> {
        let mut conditions = Vec::new();
        let mut rest = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match Condition::from_key(&key) {
                Some(c) => conditions.push((c, map.next_value()?)),
                None => {
                    rest.insert(key, map.next_value()?);
                }
            }
        }
        // The conditions in the pattern table's order, as they are checked.
        conditions.sort_by_key(|(c, _)| Condition::ALL.iter().position(|k| k == c));
        let shape =
            serde_path_to_error::deserialize(serde_json::Value::Object(rest)).map_err(ShapeError);
        Ok(RawPattern { conditions, shape })
    }
}
