//! Rulesets as data.
//!
//! A ruleset is a TOML file in `rulesets/` (schema: `rulesets/README.md`),
//! embedded in the binary at build time and validated when loaded: an
//! unknown key or pattern id, a negative value or a missing field is a
//! [`LoadError`] naming the file and the key. [`HouseRules`] override a
//! ruleset for one evaluation (the "editable table" of
//! `hkma-faan-list-editable-table.txt`); [`Ruleset::with_house_rules`] checks
//! that the result still makes sense.

use super::decompose::Special;
use super::hand::FieldError;
use super::pattern::{Condition, Conditions, PatternId, PatternSet, OPTIONAL, PATTERN_COUNT};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// What a limit pattern is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Ordinary faan that stack with other lines.
    Faan(u32),
    /// A limit pattern: the total becomes this and nothing else is added.
    /// `None` means the ruleset's limit.
    Limit(Option<u32>),
}

/// One pattern as a ruleset scores it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternRule {
    pub id: PatternId,
    /// The guide's own wording, where it differs from the pattern's one
    /// English name ([`PatternId::name`]).
    pub guide_name: Option<String>,
    /// The guide's wording when won on a discard (sc-hk13's "Last Discard").
    pub guide_name_on_discard: Option<String>,
    pub value: Value,
    /// Lines this pattern contains or replaces: they are not scored beside it.
    pub contains: PatternSet,
    pub conditions: Conditions,
    /// Stacking note for the chart.
    pub note: Option<String>,
}

/// How base points grow with faan.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PointsSpec {
    /// 2^faan.
    FullSpicy,
    /// Doubling to 4 faan, then x1.5 and x4/3 in turn: 1, 2, 4, 8, 16, 24, 32, 48, ...
    HalfSpicy,
    /// Explicit base points by faan, from 0.
    Table(Vec<u64>),
    /// Explicit base points by faan, from 0; beyond its end every faan scores
    /// its last entry (six-systems' "10 and above: 128").
    TableThenLast(Vec<u64>),
}

impl PointsSpec {
    pub fn name(&self) -> &'static str {
        match self {
            PointsSpec::FullSpicy => "full_spicy",
            PointsSpec::HalfSpicy => "half_spicy",
            PointsSpec::Table(_) | PointsSpec::TableThenLast(_) => "table",
        }
    }

    /// Base points for 0..=limit faan, or why the spec cannot give them.
    pub fn table(&self, limit: u32) -> Result<Vec<u64>, PointsError> {
        (0..=limit)
            .map(|f| {
                let b = match self {
                    PointsSpec::FullSpicy => 1u64.checked_shl(f).unwrap_or(u64::MAX),
                    PointsSpec::HalfSpicy => half_spicy(f),
                    PointsSpec::Table(t) => *t.get(f as usize).ok_or(PointsError::Missing(f))?,
                    PointsSpec::TableThenLast(t) => *t
                        .get(f as usize)
                        .or(t.last())
                        .ok_or(PointsError::Missing(f))?,
                };
                if b > MAX_BASE_POINTS {
                    Err(PointsError::TooLarge(f))
                } else {
                    Ok(b)
                }
            })
            .collect()
    }
}

/// The largest base points a table may give (2^40): every settlement then
/// fits an `i64` with room to spare.
pub const MAX_BASE_POINTS: u64 = 1 << 40;

/// The largest payment multiplier, in eighths of the base points (64 x B).
pub const MAX_EIGHTHS: u32 = 64 * 8;

/// Why a points spec cannot give base points up to the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointsError {
    /// No entry for this faan.
    Missing(u32),
    /// The entry for this faan is above [`MAX_BASE_POINTS`].
    TooLarge(u32),
}

impl PointsError {
    /// A sentence for the user, given the limit in force.
    pub fn explain(self, limit: u32) -> String {
        match self {
            PointsError::Missing(f) => format!(
                "the points table has no entry for {f} faan: it must run from 0 to the limit ({limit})"
            ),
            PointsError::TooLarge(f) => format!(
                "base points at {f} faan exceed 2^40 ({MAX_BASE_POINTS}), the most a settlement supports: lower the limit or the table"
            ),
        }
    }
}

fn half_spicy(f: u32) -> u64 {
    if f <= 4 {
        1 << f
    } else {
        let k = f - 4;
        let base: u64 = if k % 2 == 1 { 24 } else { 16 };
        base.saturating_mul(1u64.checked_shl(k / 2).unwrap_or(u64::MAX))
    }
}

/// Who pays a win by robbing a kong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RobbingKongPayment {
    /// Paid as a discard, with the player who added the kong as the discarder.
    AsDiscard,
    /// The player who added the kong pays what all three would pay on a self-draw.
    AdderPaysAll,
}

/// A house rule for a discard win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiscardPayment {
    /// The discarder pays the ruleset's whole discard amount alone.
    DiscarderPaysAll,
    /// The discarder pays half of the ruleset's discard amount, the two others a quarter each.
    DiscarderPaysHalf,
    /// Each other player pays the base points and the discarder twice the base.
    DiscarderPaysDouble,
}

impl DiscardPayment {
    pub const fn name(self) -> &'static str {
        match self {
            DiscardPayment::DiscarderPaysAll => "discarder_pays_all",
            DiscardPayment::DiscarderPaysHalf => "discarder_pays_half",
            DiscardPayment::DiscarderPaysDouble => "discarder_pays_double",
        }
    }
}

/// Payment multipliers, in eighths of the base points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Payment {
    /// Discard win: what the discarder pays.
    pub discarder: u32,
    /// Discard win: what each of the two others pays.
    pub others: u32,
    /// Self-draw: what each of the three pays.
    pub self_draw: u32,
    pub robbing_kong: RobbingKongPayment,
}

impl Payment {
    /// The winner's takings on a discard, in eighths of the base.
    pub const fn discard_total(&self) -> u32 {
        self.discarder + 2 * self.others
    }

    /// Applies a discard house rule.
    pub fn with_discard(mut self, rule: DiscardPayment) -> Payment {
        let total = self.discard_total();
        let (d, o) = match rule {
            DiscardPayment::DiscarderPaysAll => (total, 0),
            DiscardPayment::DiscarderPaysHalf => (total / 2, total / 4),
            DiscardPayment::DiscarderPaysDouble => (16, 8),
        };
        self.discarder = d;
        self.others = o;
        self
    }
}

/// Chips to money, where the ruleset has a rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Money {
    /// US cents per chip times 100 (i.e. dollars per 100 chips, times 100).
    pub cents_per_100_chips: u32,
    /// Chips each paying player adds to every payment (MJB's per-hand bonus).
    pub bonus_chips: u32,
}

/// Who is paid when several players win on one discard (一炮多響).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MultipleWinners {
    /// The discarder pays each winner as if that winner were alone.
    All,
    /// 截糊: only the first winner in turn order after the discarder is paid.
    HeadBump,
}

impl MultipleWinners {
    pub const fn name(self) -> &'static str {
        match self {
            MultipleWinners::All => "all",
            MultipleWinners::HeadBump => "head_bump",
        }
    }
}

impl std::str::FromStr for MultipleWinners {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "all" => Ok(MultipleWinners::All),
            "head_bump" => Ok(MultipleWinners::HeadBump),
            _ => Err(()),
        }
    }
}

/// Who pays when the liable seat (包) discards the winning tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LiableDiscard {
    /// The discard payment rule applies as on any discard.
    AsUsual,
    /// The liable discarder pays the whole hand alone.
    PaysAll,
}

impl LiableDiscard {
    pub const fn name(self) -> &'static str {
        match self {
            LiableDiscard::AsUsual => "as_usual",
            LiableDiscard::PaysAll => "pays_all",
        }
    }
}

impl std::str::FromStr for LiableDiscard {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "as_usual" => Ok(LiableDiscard::AsUsual),
            "pays_all" => Ok(LiableDiscard::PaysAll),
            _ => Err(()),
        }
    }
}

/// Money per point, exactly: a whole number of millionths of the money unit
/// (a stake of 0.05 is `Stake(50_000)`). Amounts of money are whole cents,
/// each payment rounded half away from zero (`settle::money`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stake(pub u64);

impl Stake {
    /// Millionths per unit.
    pub const ONE: u64 = 1_000_000;
    /// The largest stake (a million per point): money then fits comfortably.
    pub const MAX: u64 = Self::ONE * Self::ONE;

    /// A stake from a number above 0 with at most six decimal places, up to
    /// a million; `None` otherwise.
    pub fn from_number(v: f64) -> Option<Stake> {
        let m = v * Self::ONE as f64;
        let r = m.round();
        // A decimal written with six places is within float error of a whole number of millionths.
        (v > 0.0 && r >= 1.0 && r <= Self::MAX as f64 && (m - r).abs() <= 1e-6 * r.max(1.0))
            .then_some(Stake(r as u64))
    }

    /// The stake as a number (for display).
    pub fn as_number(self) -> f64 {
        self.0 as f64 / Self::ONE as f64
    }
}

/// A multiplier in eighths (8 is x1), for a number that is a multiple of 1/8
/// from `min` to 64; `None` otherwise.
pub fn to_eighths(v: f64, min: f64) -> Option<u32> {
    let e = v * 8.0;
    (v >= min && e <= f64::from(MAX_EIGHTHS) && e.fract() == 0.0).then_some(e as u32)
}

/// The customs of a table beyond scoring one hand: several winners, the
/// dealer, the stake, a liable discarder and the rotation of the deal
/// (`rules-decisions.md`, "Rounds and matches"). Each ruleset file gives
/// its defaults in `[table]`; each is also a house rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableRules {
    pub multiple_winners: MultipleWinners,
    /// Every payment between the dealer (East) and another seat, in eighths (8 = x1).
    pub dealer_multiplier: u32,
    /// Money per point; `None`: the ruleset's own money rate, if any.
    pub stake: Option<Stake>,
    pub liable_discard: LiableDiscard,
    /// A winning dealer deals again (連莊).
    pub dealer_keeps_on_win: bool,
    /// The dealer deals again after a draw.
    pub dealer_keeps_on_draw: bool,
}

/// A loaded, validated ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruleset {
    pub id: String,
    pub name: String,
    pub version: u32,
    pub source: Vec<String>,
    pub summary: String,
    pub notes: Vec<String>,
    pub min_faan: u32,
    /// The minimum settings the guide offers (empty: any).
    pub min_faan_settings: Vec<u32>,
    pub limit: u32,
    /// What a limit pattern without its own value scores.
    pub limit_faan: u32,
    pub bonus_tiles: bool,
    pub points: PointsSpec,
    /// Base points for 0..=limit faan.
    pub points_table: Vec<u64>,
    pub payment: Payment,
    pub money: Option<Money>,
    pub table: TableRules,
    /// Scored patterns in contract order.
    pub patterns: Vec<PatternRule>,
    /// Limit patterns add to the other lines and the total has no cap
    /// (base points stop at the limit's).
    pub limits_add: bool,
    /// Pairs of patterns that exclude each other: where both hold, only the
    /// higher scoring line is kept (the first of the pair on a tie).
    pub exclusive: Vec<(PatternId, PatternId)>,
    index: [u8; PATTERN_COUNT],
    /// Derived at load: the scored patterns, the limit patterns among them,
    /// and every pattern's conditions merged (each condition belongs to one pattern).
    pub(crate) enabled: PatternSet,
    pub(crate) limits: PatternSet,
    pub(crate) conditions: Conditions,
    /// By id index: the faan one line of the pattern scores (a limit
    /// pattern's: its limit value), and the lines it contains (0 when absent).
    pub(crate) line_faan: [u32; PATTERN_COUNT],
    pub(crate) contains: [PatternSet; PATTERN_COUNT],
    /// The special forms the decomposer looks for (derived at load).
    pub(crate) special: Special,
    /// Something of issue 16 is in force: an optional pattern, a switch of
    /// `pattern::EXTRA_CONDITIONS`, `limits_add` or an `exclusive` pair.
    /// Without it (every built-in ruleset) scoring runs the copy of the
    /// recognisers and the evaluation that never looks at them.
    pub(crate) extras: bool,
}

const ABSENT: u8 = u8::MAX;

impl Ruleset {
    /// The rule for `id`, if this ruleset scores it.
    pub fn pattern(&self, id: PatternId) -> Option<&PatternRule> {
        match self.index[id.index()] {
            ABSENT => None,
            i => self.patterns.get(i as usize),
        }
    }

    /// Something of issue 16 is in force (an optional pattern, a switch of
    /// `pattern::EXTRA_CONDITIONS`, `limits_add`, an `exclusive` pair): no
    /// built-in ruleset has one, and scoring under those never tests them.
    pub fn uses_extras(&self) -> bool {
        self.extras
    }

    /// What a limit pattern of value `v` scores here.
    pub fn limit_value(&self, v: Option<u32>) -> u32 {
        v.unwrap_or(self.limit_faan).min(self.limit)
    }

    /// Base points at `faan` (capped at the limit).
    pub fn base_points(&self, faan: u32) -> u64 {
        let i = (faan.min(self.limit) as usize).min(self.points_table.len().saturating_sub(1));
        self.points_table.get(i).copied().unwrap_or(0)
    }

    fn reindex(&mut self) {
        self.patterns.sort_by_key(|p| p.id);
        self.index = [ABSENT; PATTERN_COUNT];
        self.enabled = 0;
        self.limits = 0;
        self.line_faan = [0; PATTERN_COUNT];
        self.contains = [0; PATTERN_COUNT];
        let mut c = Conditions::default();
        for (i, p) in self.patterns.iter().enumerate() {
            self.index[p.id.index()] = i as u8;
            self.line_faan[p.id.index()] = match p.value {
                Value::Faan(v) => v,
                Value::Limit(v) => self.limit_value(v),
            };
            self.contains[p.id.index()] = p.contains;
            self.enabled |= p.id.bit();
            if matches!(p.value, Value::Limit(_)) {
                self.limits |= p.id.bit();
            }
            for &k in p.id.info().conditions {
                c.set(k, p.conditions.get(k));
            }
        }
        self.conditions = c;
        self.special = Special {
            seven_pairs: self.enabled & PatternId::SevenPairs.bit() != 0,
            four_as_two_pairs: c.get(Condition::FourAsTwoPairs),
            thirteen_sided_only: c.get(Condition::ThirteenSidedOnly),
            thirteen_orphans: self.enabled & PatternId::ThirteenOrphans.bit() != 0,
            flower_win: self.bonus_tiles
                && self.enabled & (PatternId::SevenFlowers.bit() | PatternId::EightFlowers.bit())
                    != 0,
        };
        self.extras = self.enabled & OPTIONAL != 0
            || c.any_extra()
            || self.limits_add
            || !self.exclusive.is_empty();
    }

    /// Parses and validates one ruleset file.
    pub fn from_toml(file: &str, text: &str) -> Result<Ruleset, LoadError> {
        let err = |key: &str, message: String| LoadError {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        let raw: RawRuleset = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| {
                text.get(..s.start)
                    .map_or(1, |t| t.matches('\n').count() + 1)
            });
            let at = line.map_or(String::new(), |l| format!("line {l}: "));
            err("", format!("{at}{}", e.message().trim()))
        })?;
        let nonneg = |key: &str, v: i64| -> Result<u32, LoadError> {
            u32::try_from(v)
                .map_err(|_| err(key, format!("must be a whole number from 0, got {v}")))
        };
        let min_faan = nonneg("min_faan", raw.min_faan)?;
        let limit = nonneg("limit", raw.limit)?;
        let limit_faan = match raw.limit_faan {
            Some(v) => nonneg("limit_faan", v)?,
            None => limit,
        };
        let mut min_faan_settings = Vec::new();
        for v in raw.min_faan_settings.unwrap_or_default() {
            min_faan_settings.push(nonneg("min_faan_settings", v)?);
        }
        if min_faan > limit {
            return Err(err(
                "min_faan",
                format!("minimum {min_faan} is above the limit {limit}"),
            ));
        }
        if raw.points.extend_last.is_some() && raw.points.table.is_none() {
            return Err(err(
                "points.extend_last",
                "applies to an explicit table only".into(),
            ));
        }
        let points = match (raw.points.curve.as_deref(), raw.points.table) {
            (Some("full_spicy"), None) => PointsSpec::FullSpicy,
            (Some("half_spicy"), None) => PointsSpec::HalfSpicy,
            (None | Some("table"), Some(t)) => {
                let mut v = Vec::with_capacity(t.len());
                for x in t {
                    v.push(u64::try_from(x).map_err(|_| {
                        err(
                            "points.table",
                            format!("base points must not be negative, got {x}"),
                        )
                    })?);
                }
                if raw.points.extend_last.unwrap_or(false) {
                    PointsSpec::TableThenLast(v)
                } else {
                    PointsSpec::Table(v)
                }
            }
            (Some(c), None) => {
                return Err(err(
                    "points.curve",
                    format!("unknown curve {c:?}: use full_spicy, half_spicy or a table"),
                ))
            }
            _ => {
                return Err(err(
                    "points",
                    "give either curve (full_spicy, half_spicy) or table".into(),
                ))
            }
        };
        let points_table = points
            .table(limit)
            .map_err(|e| err("points", e.explain(limit)))?;
        let eighths = |key: &str, v: f64| -> Result<u32, LoadError> {
            to_eighths(v, 0.0).ok_or_else(|| {
                err(
                    key,
                    format!("must be a multiple of 1/8 from 0 to 64, got {v}"),
                )
            })
        };
        let payment = Payment {
            discarder: eighths("payment.discard.discarder", raw.payment.discard.discarder)?,
            others: eighths("payment.discard.others", raw.payment.discard.others)?,
            self_draw: eighths("payment.self_draw", raw.payment.self_draw)?,
            robbing_kong: match raw.payment.robbing_kong.as_str() {
                "as_discard" => RobbingKongPayment::AsDiscard,
                "adder_pays_all" => RobbingKongPayment::AdderPaysAll,
                other => {
                    return Err(err(
                        "payment.robbing_kong",
                        format!("unknown rule {other:?}: use as_discard or adder_pays_all"),
                    ))
                }
            },
        };
        let money = match raw.money {
            None => None,
            Some(m) => {
                let cents = m.usd_per_100_chips * 100.0;
                if !(0.0..=1e9).contains(&cents) || cents.fract() != 0.0 {
                    return Err(err(
                        "money.usd_per_100_chips",
                        format!(
                            "must be a non-negative amount in cents, got {}",
                            m.usd_per_100_chips
                        ),
                    ));
                }
                Some(Money {
                    cents_per_100_chips: cents as u32,
                    bonus_chips: nonneg("money.bonus_chips", m.bonus_chips.unwrap_or(0))?,
                })
            }
        };
        let t = &raw.table;
        let table = TableRules {
            multiple_winners: t.multiple_winners.parse().map_err(|()| {
                err(
                    "table.multiple_winners",
                    format!(
                        "unknown rule {:?}: use all or head_bump",
                        t.multiple_winners
                    ),
                )
            })?,
            dealer_multiplier: to_eighths(t.dealer_multiplier, 1.0).ok_or_else(|| {
                err(
                    "table.dealer_multiplier",
                    format!(
                        "must be a multiple of 1/8 from 1 to 64, got {}",
                        t.dealer_multiplier
                    ),
                )
            })?,
            stake: match t.stake {
                None => None,
                Some(v) => Some(Stake::from_number(v).ok_or_else(|| {
                    err(
                        "table.stake",
                        format!("must be above 0, at most 1000000, with at most six decimal places, got {v}"),
                    )
                })?),
            },
            liable_discard: t.liable_discard.parse().map_err(|()| {
                err(
                    "table.liable_discard",
                    format!(
                        "unknown rule {:?}: use as_usual or pays_all",
                        t.liable_discard
                    ),
                )
            })?,
            dealer_keeps_on_win: t.dealer_keeps_on_win,
            dealer_keeps_on_draw: t.dealer_keeps_on_draw,
        };
        let mut patterns = Vec::with_capacity(raw.patterns.len());
        for (key, mut table) in raw.patterns {
            let k = format!("patterns.{key}");
            let id: PatternId = key
                .parse()
                .map_err(|_| err(&k, format!("unknown pattern id {key:?}")))?;
            // Condition keys come from the pattern table; the rest is RawPattern's.
            let mut conditions = Conditions::default();
            for &c in Condition::ALL {
                let Some(v) = table.remove(c.key()) else {
                    continue;
                };
                let ck = format!("{k}.{}", c.key());
                if !id.info().conditions.contains(&c) {
                    return Err(err(&ck, format!("{} does not apply to {id}", c.key())));
                }
                let v = v.as_bool().ok_or_else(|| {
                    err(
                        &ck,
                        format!("must be true or false, got a {}", v.type_str()),
                    )
                })?;
                conditions.set(c, v);
            }
            let p: RawPattern = toml::Value::Table(table)
                .try_into()
                .map_err(|e: toml::de::Error| err(&k, e.message().trim().to_string()))?;
            let value = match (&p.faan, p.limit.unwrap_or(false)) {
                (FaanValue::Word(w), _) if w == "limit" => Value::Limit(None),
                (FaanValue::Word(w), _) => {
                    return Err(err(
                        &format!("{k}.faan"),
                        format!("{w:?} is not a value: give a number or \"limit\""),
                    ))
                }
                (FaanValue::Number(n), false) => Value::Faan(nonneg(&format!("{k}.faan"), *n)?),
                (FaanValue::Number(n), true) => {
                    Value::Limit(Some(nonneg(&format!("{k}.faan"), *n)?))
                }
            };
            let mut contains = 0;
            for c in &p.contains {
                let cid: PatternId = c.parse().map_err(|_| {
                    err(
                        &format!("{k}.contains"),
                        format!("unknown pattern id {c:?}"),
                    )
                })?;
                contains |= cid.bit();
            }
            patterns.push(PatternRule {
                id,
                guide_name: p.guide_name,
                guide_name_on_discard: p.guide_name_on_discard,
                value,
                contains,
                conditions,
                note: p.note,
            });
        }
        let version = nonneg("version", raw.version)?;
        let mut r = Ruleset {
            id: raw.id,
            name: raw.name,
            version,
            source: raw.source,
            summary: raw.summary,
            notes: raw.notes,
            min_faan,
            min_faan_settings,
            limit,
            limit_faan,
            bonus_tiles: raw.bonus_tiles,
            points,
            points_table,
            payment,
            money,
            table,
            patterns,
            limits_add: raw.limits_add.unwrap_or(false),
            exclusive: Vec::new(),
            index: [ABSENT; PATTERN_COUNT],
            enabled: 0,
            limits: 0,
            conditions: Conditions::default(),
            line_faan: [0; PATTERN_COUNT],
            contains: [0; PATTERN_COUNT],
            special: Special::default(),
            extras: false,
        };
        if r.id.is_empty()
            || !r
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(err(
                "id",
                format!(
                    "{:?} is not a ruleset id (lower-case letters, digits and '-')",
                    r.id
                ),
            ));
        }
        for (i, pair) in raw.exclusive.unwrap_or_default().iter().enumerate() {
            let k = format!("exclusive[{i}]");
            let ids = pair
                .iter()
                .map(|p| {
                    p.parse::<PatternId>()
                        .map_err(|_| err(&k, format!("unknown pattern id {p:?}")))
                })
                .collect::<Result<Vec<_>, _>>()?;
            match ids[..] {
                [a, b] if a != b => r.exclusive.push((a, b)),
                _ => return Err(err(&k, "give two different pattern ids".into())),
            }
        }
        if let Some((id, _)) = contains_cycle(&r.patterns) {
            return Err(err(
                &format!("patterns.{id}.contains"),
                format!("{id} contains itself through a chain of contains"),
            ));
        }
        r.reindex();
        Ok(r)
    }

    /// This ruleset with `house` applied, or every reason it cannot be.
    pub fn with_house_rules(&self, house: &HouseRules) -> Result<Ruleset, Vec<FieldError>> {
        let mut r = self.clone();
        let mut errs = Vec::new();
        let p = |f: &str| format!("/house_rules/{f}");
        if let Some(limit) = house.limit {
            if limit == 0 || limit > 64 {
                errs.push(FieldError::new(
                    p("limit"),
                    format!("limit must be from 1 to 64 faan, got {limit}"),
                ));
            } else {
                r.limit = limit;
                r.limit_faan = limit;
            }
        }
        if let Some(min) = house.min_faan {
            if !self.min_faan_settings.is_empty() && !self.min_faan_settings.contains(&min) {
                let opts: Vec<String> = self.min_faan_settings.iter().map(u32::to_string).collect();
                errs.push(FieldError::new(
                    p("min_faan"),
                    format!(
                        "{} offers minimum settings {} only, not {min}",
                        self.id,
                        opts.join(", ")
                    ),
                ));
            }
            r.min_faan = min;
        }
        if r.min_faan > r.limit {
            let field = if house.min_faan.is_some() {
                "min_faan"
            } else {
                "limit"
            };
            errs.push(FieldError::new(
                p(field),
                format!(
                    "the minimum ({} faan) is above the limit ({} faan)",
                    r.min_faan, r.limit
                ),
            ));
        }
        if let Some(f) = house.flowers {
            r.bonus_tiles = f;
        }
        if let Some(points) = &house.points {
            r.points = points.clone();
        }
        match r.points.table(r.limit) {
            Ok(t) => r.points_table = t,
            Err(e) => {
                let field = if house.points.is_some() {
                    "points"
                } else {
                    "limit"
                };
                errs.push(FieldError::new(p(field), e.explain(r.limit)));
            }
        }
        if let Some(d) = house.discard_payment {
            r.payment = r.payment.with_discard(d);
        }
        let t = &mut r.table;
        if let Some(m) = house.multiple_winners {
            t.multiple_winners = m;
        }
        if let Some(Number(v)) = house.dealer_multiplier {
            match to_eighths(v, 1.0) {
                Some(e) => t.dealer_multiplier = e,
                None => errs.push(FieldError::new(
                    p("dealer_multiplier"),
                    format!(
                        "the dealer multiplier must be a multiple of 1/8 from 1 to 64, got {v}"
                    ),
                )),
            }
        }
        if let Some(Number(v)) = house.stake {
            match Stake::from_number(v) {
                Some(s) => t.stake = Some(s),
                None => errs.push(FieldError::new(
                    p("stake"),
                    format!("the stake (money per point) must be above 0 and at most 1000000, with at most six decimal places, got {v}"),
                )),
            }
        }
        if let Some(l) = house.liable_discard {
            t.liable_discard = l;
        }
        if let Some(k) = house.dealer_keeps_on_win {
            t.dealer_keeps_on_win = k;
        }
        if let Some(k) = house.dealer_keeps_on_draw {
            t.dealer_keeps_on_draw = k;
        }
        for (key, ov) in &house.patterns {
            let ptr = format!("/house_rules/patterns/{}", escape_pointer(key));
            let Ok(id) = key.parse::<PatternId>() else {
                errs.push(FieldError::new(ptr, format!("unknown pattern id {key:?}")));
                continue;
            };
            let existing = r.patterns.iter().position(|x| x.id == id);
            let value = match *ov {
                PatternOverride::Off => {
                    if let Some(i) = existing {
                        r.patterns.remove(i);
                    }
                    continue;
                }
                PatternOverride::Limit => Value::Limit(None),
                PatternOverride::Faan(n) if n < 0 => {
                    errs.push(FieldError::new(
                        ptr,
                        format!("a pattern value must not be negative, got {n}"),
                    ));
                    continue;
                }
                PatternOverride::Faan(n) => Value::Faan(n.min(u32::MAX as i64) as u32),
            };
            match existing {
                Some(i) => r.patterns[i].value = value,
                None => r.patterns.push(PatternRule {
                    id,
                    guide_name: None,
                    guide_name_on_discard: None,
                    value,
                    contains: id.info().house_contains,
                    conditions: Conditions::default(),
                    note: Some("added by a house rule".into()),
                }),
            }
        }
        if let Some(v) = house.limits_add {
            r.limits_add = v;
        }
        for (key, value) in &house.conditions {
            let ptr = format!("/house_rules/conditions/{}", escape_pointer(key));
            let Some(c) = Condition::from_key(key) else {
                let known: Vec<&str> = Condition::ALL.iter().map(|c| c.key()).collect();
                errs.push(FieldError::new(
                    ptr,
                    format!("unknown condition {key:?}; known: {}", known.join(", ")),
                ));
                continue;
            };
            // A condition belongs to its patterns: set it on each this ruleset
            // scores (after house rules added theirs).
            for p in r.patterns.iter_mut() {
                if p.id.info().conditions.contains(&c) {
                    p.conditions.set(c, *value);
                }
            }
        }
        for (key, list) in &house.contains {
            let ptr = format!("/house_rules/contains/{}", escape_pointer(key));
            let Ok(id) = key.parse::<PatternId>() else {
                errs.push(FieldError::new(ptr, format!("unknown pattern id {key:?}")));
                continue;
            };
            let mut set = 0;
            for (i, c) in list.iter().enumerate() {
                match c.parse::<PatternId>() {
                    Ok(cid) if cid == id => errs.push(FieldError::new(
                        format!("{ptr}/{i}"),
                        format!("{id} cannot contain itself"),
                    )),
                    Ok(cid) => set |= cid.bit(),
                    Err(()) => errs.push(FieldError::new(
                        format!("{ptr}/{i}"),
                        format!("unknown pattern id {c:?}"),
                    )),
                }
            }
            match r.patterns.iter_mut().find(|p| p.id == id) {
                Some(p) => p.contains = set,
                None => errs.push(FieldError::new(
                    ptr,
                    format!(
                        "{} does not score {id}: add it in house_rules.patterns first",
                        self.id
                    ),
                )),
            }
        }
        if !house.contains.is_empty() {
            if let Some((id, via)) = contains_cycle(&r.patterns) {
                // Point at a pattern the request rewrote that lies on the chain.
                let on_chain = |k: &String| {
                    k.parse::<PatternId>()
                        .is_ok_and(|k| contains_cycle_from(&r.patterns, k))
                };
                let at = house.contains.iter().map(|(k, _)| k).find(|k| on_chain(k));
                let (id, via) = match at.and_then(|k| k.parse::<PatternId>().ok()) {
                    Some(k) => (k, first_step(&r.patterns, k).unwrap_or(via)),
                    None => (id, via),
                };
                errs.push(FieldError::new(
                    format!("/house_rules/contains/{id}"),
                    format!("{id} would contain itself through {via}: a chain of contains must not come back to where it starts"),
                ));
            }
        }
        for (i, pair) in house.exclusive.iter().enumerate() {
            let ptr = format!("/house_rules/exclusive/{i}");
            if pair.len() != 2 {
                errs.push(FieldError::new(
                    ptr,
                    format!("give two pattern ids, got {}", pair.len()),
                ));
                continue;
            }
            let mut ids = [PatternId::ChickenHand; 2];
            let mut ok = true;
            for (j, p) in pair.iter().enumerate() {
                match p.parse::<PatternId>() {
                    Ok(id) => ids[j] = id,
                    Err(()) => {
                        ok = false;
                        errs.push(FieldError::new(
                            format!("{ptr}/{j}"),
                            format!("unknown pattern id {p:?}"),
                        ));
                    }
                }
            }
            if ok && ids[0] == ids[1] {
                errs.push(FieldError::new(
                    ptr,
                    format!("{} cannot exclude itself: give two different ids", ids[0]),
                ));
            } else if ok {
                r.exclusive.push((ids[0], ids[1]));
            }
        }
        if errs.is_empty() {
            r.reindex();
            Ok(r)
        } else {
            Err(errs)
        }
    }
}

/// Does `id` contain itself through a chain of `contains`?
fn contains_cycle_from(patterns: &[PatternRule], id: PatternId) -> bool {
    closure(patterns).1[id.index()] & id.bit() != 0
}

/// The pattern `id`'s chain back to itself leaves it by.
fn first_step(patterns: &[PatternRule], id: PatternId) -> Option<PatternId> {
    let (direct, reach) = closure(patterns);
    PatternId::ALL
        .iter()
        .copied()
        .find(|q| direct[id.index()] & q.bit() != 0 && reach[q.index()] & id.bit() != 0)
}

/// A pattern that contains itself through a chain of `contains`, and the
/// pattern the chain leaves it by; `None` when there is none.
fn contains_cycle(patterns: &[PatternRule]) -> Option<(PatternId, PatternId)> {
    let (direct, reach) = closure(patterns);
    patterns.iter().find_map(|p| {
        let i = p.id.index();
        (reach[i] & p.id.bit() != 0).then(|| {
            let via = PatternId::ALL
                .iter()
                .copied()
                .find(|q| direct[i] & q.bit() != 0 && reach[q.index()] & p.id.bit() != 0)
                .unwrap_or(p.id);
            (p.id, via)
        })
    })
}

/// Each pattern's own `contains` and everything reached through them.
fn closure(patterns: &[PatternRule]) -> ([PatternSet; PATTERN_COUNT], [PatternSet; PATTERN_COUNT]) {
    let mut direct = [0 as PatternSet; PATTERN_COUNT];
    for p in patterns {
        direct[p.id.index()] = p.contains;
    }
    // Transitive closure by repeated widening (47 ids: a few rounds at most).
    let mut reach = direct;
    loop {
        let mut changed = false;
        for i in 0..PATTERN_COUNT {
            let mut r = reach[i];
            for (j, d) in reach.iter().enumerate() {
                if r & (1 << j) != 0 {
                    r |= d;
                }
            }
            changed |= r != reach[i];
            reach[i] = r;
        }
        if !changed {
            break;
        }
    }
    (direct, reach)
}

/// One reference token of a JSON pointer (RFC 6901): `~` and `/` escaped.
pub fn escape_pointer(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// Per-request overrides of a ruleset.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HouseRules {
    pub min_faan: Option<u32>,
    pub limit: Option<u32>,
    pub flowers: Option<bool>,
    pub points: Option<PointsSpec>,
    pub discard_payment: Option<DiscardPayment>,
    /// Pattern overrides in request order.
    pub patterns: Vec<(String, PatternOverride)>,
    pub multiple_winners: Option<MultipleWinners>,
    /// As sent; checked (a multiple of 1/8 from 1 to 64) by [`Ruleset::with_house_rules`].
    pub dealer_multiplier: Option<Number>,
    /// As sent; checked (above 0, six decimal places) by [`Ruleset::with_house_rules`].
    pub stake: Option<Number>,
    pub liable_discard: Option<LiableDiscard>,
    pub dealer_keeps_on_win: Option<bool>,
    pub dealer_keeps_on_draw: Option<bool>,
    /// Condition key to value, set on every pattern of the ruleset it applies to.
    pub conditions: Vec<(String, bool)>,
    /// Pattern id to the ids it contains (replacing its own list), in request order.
    pub contains: Vec<(String, Vec<String>)>,
    /// Pairs of pattern ids that exclude each other (the higher line is kept).
    pub exclusive: Vec<Vec<String>>,
    pub limits_add: Option<bool>,
}

/// A number as a client sent it, compared and hashed by its bits (house
/// rules are a cache key, and JSON numbers are never NaN).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(pub f64);

impl Eq for Number {}

impl std::hash::Hash for Number {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.to_bits().hash(h);
    }
}

impl HouseRules {
    pub fn is_empty(&self) -> bool {
        *self == HouseRules::default()
    }
}

/// A house override of one pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternOverride {
    Faan(i64),
    /// Make it a limit pattern at the ruleset's limit.
    Limit,
    /// Do not score it.
    Off,
}

/// A ruleset file that could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub key: String,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.key, self.message)
        }
    }
}

impl std::error::Error for LoadError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleset {
    id: String,
    name: String,
    version: i64,
    source: Vec<String>,
    summary: String,
    notes: Vec<String>,
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
    exclusive: Option<Vec<Vec<String>>>,
    /// Each pattern's table: its condition keys are read first (see [`Condition`]), the rest is a [`RawPattern`].
    patterns: BTreeMap<String, toml::Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    multiple_winners: String,
    dealer_multiplier: f64,
    stake: Option<f64>,
    liable_discard: String,
    dealer_keeps_on_win: bool,
    dealer_keeps_on_draw: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPoints {
    curve: Option<String>,
    table: Option<Vec<i64>>,
    extend_last: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPayment {
    discard: RawDiscard,
    self_draw: f64,
    robbing_kong: String,
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

#[derive(Deserialize)]
#[serde(untagged)]
enum FaanValue {
    Number(i64),
    Word(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPattern {
    faan: FaanValue,
    limit: Option<bool>,
    guide_name: Option<String>,
    guide_name_on_discard: Option<String>,
    #[serde(default)]
    contains: Vec<String>,
    note: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves() {
        assert_eq!(
            PointsSpec::HalfSpicy.table(13).unwrap(),
            vec![1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]
        );
        assert_eq!(
            PointsSpec::FullSpicy.table(4).unwrap(),
            vec![1, 2, 4, 8, 16]
        );
        assert_eq!(
            PointsSpec::Table(vec![1, 2]).table(3),
            Err(PointsError::Missing(2))
        );
        assert_eq!(
            PointsSpec::FullSpicy.table(63),
            Err(PointsError::TooLarge(41))
        );
        assert_eq!(
            PointsSpec::TableThenLast(vec![0, 8]).table(3).unwrap(),
            vec![0, 8, 8, 8]
        );
    }

    #[test]
    fn house_rules_that_make_no_sense_say_why() {
        let reg = crate::core::Registry::builtin().unwrap();
        let hkma = reg.get("hkma").unwrap();
        // (house rules, pointer, words the message must contain)
        let cases: Vec<(HouseRules, &str, &str)> = vec![
            (
                HouseRules {
                    min_faan: Some(11),
                    ..Default::default()
                },
                "/house_rules/min_faan",
                "above the limit",
            ),
            (
                HouseRules {
                    limit: Some(2),
                    ..Default::default()
                },
                "/house_rules/limit",
                "above the limit",
            ),
            (
                HouseRules {
                    points: Some(PointsSpec::Table(vec![1, 2, 4])),
                    ..Default::default()
                },
                "/house_rules/points",
                "no entry for 3 faan",
            ),
            (
                HouseRules {
                    patterns: vec![("seven_sisters".into(), PatternOverride::Faan(4))],
                    ..Default::default()
                },
                "/house_rules/patterns/seven_sisters",
                "unknown pattern id",
            ),
            (
                HouseRules {
                    patterns: vec![("all_chows".into(), PatternOverride::Faan(-1))],
                    ..Default::default()
                },
                "/house_rules/patterns/all_chows",
                "negative",
            ),
            (
                HouseRules {
                    limit: Some(0),
                    ..Default::default()
                },
                "/house_rules/limit",
                "from 1 to 64",
            ),
            (
                HouseRules {
                    dealer_multiplier: Some(Number(0.5)),
                    ..Default::default()
                },
                "/house_rules/dealer_multiplier",
                "from 1 to 64",
            ),
            (
                HouseRules {
                    dealer_multiplier: Some(Number(1.1)),
                    ..Default::default()
                },
                "/house_rules/dealer_multiplier",
                "multiple of 1/8",
            ),
            (
                HouseRules {
                    stake: Some(Number(0.0)),
                    ..Default::default()
                },
                "/house_rules/stake",
                "above 0",
            ),
            (
                HouseRules {
                    stake: Some(Number(0.123_456_7)),
                    ..Default::default()
                },
                "/house_rules/stake",
                "six decimal places",
            ),
        ];
        for (house, pointer, words) in cases {
            let errs = hkma
                .with_house_rules(&house)
                .expect_err(&format!("{house:?} must be rejected"));
            assert!(
                errs.iter()
                    .any(|e| e.pointer == pointer && e.message.contains(words)),
                "{house:?}: want {pointer} saying {words:?}, got {errs:?}"
            );
        }
        // A sensible override applies: seven pairs added at 4 contains the concealed hand.
        let house = HouseRules {
            patterns: vec![("seven_pairs".into(), PatternOverride::Faan(4))],
            ..Default::default()
        };
        let r = hkma.with_house_rules(&house).unwrap();
        let p = r.pattern(PatternId::SevenPairs).expect("seven pairs added");
        assert_eq!(
            (p.value, p.contains),
            (Value::Faan(4), PatternId::ConcealedHand.bit())
        );
        // Switching a pattern off removes it.
        let house = HouseRules {
            patterns: vec![("all_chows".into(), PatternOverride::Off)],
            ..Default::default()
        };
        assert!(hkma
            .with_house_rules(&house)
            .unwrap()
            .pattern(PatternId::AllChows)
            .is_none());
    }

    #[test]
    fn stakes_are_exact_millionths() {
        // (as sent, millionths per point or None)
        let cases: &[(f64, Option<u64>)] = &[
            (0.05, Some(50_000)),
            (0.1, Some(100_000)),
            (0.333, Some(333_000)),
            (1.0, Some(1_000_000)),
            (0.000_001, Some(1)),
            (1_000_000.0, Some(Stake::MAX)),
            (0.000_000_5, None),
            (0.0, None),
            (-1.0, None),
            (1_000_000.5, None),
            (f64::NAN, None),
        ];
        for &(v, want) in cases {
            assert_eq!(Stake::from_number(v).map(|s| s.0), want, "stake {v}");
        }
    }

    #[test]
    fn table_rules_apply_as_house_rules() {
        let reg = crate::core::Registry::builtin().unwrap();
        let w = reg.get("wisteria-court").unwrap();
        assert_eq!(
            (w.table.dealer_keeps_on_win, w.table.dealer_keeps_on_draw),
            (false, false),
            "wisteria-court passes the deal after every hand"
        );
        let house = HouseRules {
            multiple_winners: Some(MultipleWinners::HeadBump),
            dealer_multiplier: Some(Number(1.5)),
            stake: Some(Number(0.25)),
            liable_discard: Some(LiableDiscard::PaysAll),
            dealer_keeps_on_win: Some(true),
            ..Default::default()
        };
        let t = w.with_house_rules(&house).unwrap().table;
        assert_eq!(
            t,
            TableRules {
                multiple_winners: MultipleWinners::HeadBump,
                dealer_multiplier: 12,
                stake: Some(Stake(250_000)),
                liable_discard: LiableDiscard::PaysAll,
                dealer_keeps_on_win: true,
                dealer_keeps_on_draw: false,
            },
            "house rules over wisteria-court's table"
        );
    }

    #[test]
    fn load_errors_name_the_file_and_key() {
        let good = crate::core::registry::BUILTIN
            .iter()
            .find(|(n, _)| *n == "hkma.toml")
            .unwrap()
            .1;
        let cases: &[(&str, &str, &str)] = &[
            (
                "[patterns.all_chows]",
                "[patterns.all_chowz]",
                "patterns.all_chowz",
            ),
            ("min_faan = 3", "min_faan = -3", "min_faan"),
            ("limit = 10", "limit = 10\nfoo = 1", "unknown field"),
            (
                "allow_concealed_kong = false",
                "all_pungs = true",
                "patterns.concealed_hand.all_pungs",
            ),
            (
                "robbing_kong = \"adder_pays_all\"",
                "robbing_kong = \"nobody\"",
                "payment.robbing_kong",
            ),
            (
                "allow_concealed_kong = false",
                "allow_concealed_kong = 1",
                "patterns.concealed_hand.allow_concealed_kong: must be true or false",
            ),
            // Names live in the pattern table: a ruleset sets only its guide's wording.
            (
                "[patterns.all_chows]",
                "[patterns.all_chows]\nname = \"Ping wu\"",
                "patterns.all_chows: unknown field `name`",
            ),
            (
                "multiple_winners = \"all\"",
                "multiple_winners = \"most\"",
                "table.multiple_winners",
            ),
            (
                "dealer_multiplier = 1",
                "dealer_multiplier = 0",
                "table.dealer_multiplier",
            ),
            (
                "liable_discard = \"as_usual\"",
                "liable_discard = \"sometimes\"",
                "table.liable_discard",
            ),
            (
                "dealer_keeps_on_draw = true",
                "stake = -1\ndealer_keeps_on_draw = true",
                "table.stake",
            ),
            ("dealer_keeps_on_win = true\n", "", "dealer_keeps_on_win"),
            // A contains loop (here of one step: the concealed hand containing itself).
            (
                "allow_concealed_kong = false",
                "allow_concealed_kong = false\ncontains = [\"concealed_hand\"]",
                "patterns.concealed_hand.contains: concealed_hand contains itself through a chain",
            ),
            (
                "bonus_tiles = false",
                "bonus_tiles = false\nexclusive = [[\"all_chows\", \"ping_wu\"]]",
                "exclusive[0]: unknown pattern id",
            ),
            (
                "bonus_tiles = false",
                "bonus_tiles = false\nexclusive = [[\"all_chows\"]]",
                "exclusive[0]: give two different pattern ids",
            ),
            (
                "guide_name = \"Great three dragons\"",
                "guide_name = \"Great three dragons\"\npure_only = true",
                "pure_only does not apply to big_three_dragons",
            ),
        ];
        for (from, to, want) in cases {
            let text = good.replacen(from, &to.replace("\\n", "\n"), 1);
            let err = Ruleset::from_toml("hkma.toml", &text).expect_err(to);
            let shown = err.to_string();
            assert!(
                shown.starts_with("hkma.toml") && shown.contains(want),
                "{from} -> {to}: {shown}"
            );
        }
    }
}
