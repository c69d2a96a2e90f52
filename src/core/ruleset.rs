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
use super::pattern::{
    members, Condition, Conditions, PatternId, PatternSet, OPTIONAL, PATTERN_COUNT,
};
use super::pointer::Pointer;
pub use super::pointer::{escape_pointer, PathSeg};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt;

/// A document path: `at!["patterns", key, "contains", i]`.
macro_rules! at {
    ($($s:expr),* $(,)?) => { vec![$(PathSeg::from($s)),*] };
}

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

/// An enum of a ruleset key whose values are snake_case words: the type,
/// its `name` and its `FromStr`, from one list.
macro_rules! word_enum {
    ($(#[$m:meta])* pub enum $name:ident {
        $($(#[$vm:meta])* $variant:ident => $word:literal,)*
    }) => {
        $(#[$m])*
        pub enum $name { $($(#[$vm])* $variant,)* }

        impl $name {
            pub const fn name(self) -> &'static str {
                match self { $($name::$variant => $word,)* }
            }
        }

        impl std::str::FromStr for $name {
            type Err = ();
            fn from_str(s: &str) -> Result<Self, ()> {
                match s {
                    $($word => Ok($name::$variant),)*
                    _ => Err(()),
                }
            }
        }
    };
}

word_enum! {
    /// Who is paid when several players win on one discard (一炮多響).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum MultipleWinners {
        /// The discarder pays each winner as if that winner were alone.
        All => "all",
        /// 截糊: only the first winner in turn order after the discarder is paid.
        HeadBump => "head_bump",
    }
}

word_enum! {
    /// Who pays when the liable seat (包) discards the winning tile.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum LiableDiscard {
        /// The discard payment rule applies as on any discard.
        AsUsual => "as_usual",
        /// The liable discarder pays the whole hand alone.
        PaysAll => "pays_all",
    }
}

word_enum! {
    /// How a total above the limit pays under `limits_add` (`limits_pay`; a
    /// total above the limit arises only there). Hong Kong tables differ: the
    /// readings and their sources are in rulesets/README.md, "Limits that add".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum LimitsPay {
        /// Each whole limit of the total pays the limit's base points again and
        /// the faan left over pay their own (a double limit pays twice).
        #[default]
        PerLimit => "per_limit",
        /// The limit's base points at most, whatever the total (a double limit
        /// shows in the faan only).
        Once => "once",
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
    /// Under a discard payment where the other players pay too, one winner
    /// on a shared discard pays another's share (`false`, the default: a
    /// winner never pays in a hand it won; `rules-decisions.md`, "Third release").
    pub co_winners_pay: bool,
}

/// A loaded, validated ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruleset {
    pub id: String,
    pub name: String,
    /// The name in Traditional Chinese, for the Chinese page (none: a document gave none).
    pub name_zh: Option<String>,
    pub version: u32,
    pub source: Vec<String>,
    pub summary: String,
    pub notes: Vec<String>,
    /// A Traditional Chinese translation of `notes`, for the Chinese page
    /// (none: a document gave none; the English stays the source).
    pub notes_zh: Option<Vec<String>>,
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
    /// How a total above the limit (only under `limits_add`) pays.
    pub limits_pay: LimitsPay,
    /// Pairs of patterns that exclude each other: where both hold, only the
    /// higher scoring line is kept (the first of the pair on a tie).
    pub exclusive: Vec<(PatternId, PatternId)>,
    /// `ruleset_hash`: SHA-256 of [`Ruleset::to_document`]'s canonical
    /// bytes, set when validated (house rules keep it: it names the ruleset
    /// they were applied to).
    pub hash: [u8; 32],
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

    /// Base points at `faan`. Up to the limit, the points table's; above it
    /// (only under `limits_add`) as `limits_pay` says: `once`, the limit's;
    /// `per_limit`, the limit's for each whole limit plus the table's for the
    /// faan left over (wisteria-court: 21 faan = 2 x 128 + 2). `None` above
    /// [`MAX_BASE_POINTS`] (refused, never capped), so every settlement fits an `i64`.
    #[inline]
    pub fn base_points(&self, faan: u32) -> Option<u64> {
        if faan <= self.limit {
            Some(self.table_points(faan))
        } else {
            self.base_points_above_limit(faan)
        }
    }

    /// Base points at the minimum (never above the limit: validated), what
    /// a false win pays on.
    pub fn min_base_points(&self) -> u64 {
        self.table_points(self.min_faan)
    }

    /// The points table's row for `faan` (its last row beyond it).
    #[inline]
    fn table_points(&self, faan: u32) -> u64 {
        let i = (faan.min(self.limit) as usize).min(self.points_table.len().saturating_sub(1));
        self.points_table.get(i).copied().unwrap_or(0)
    }

    /// A total above the limit (only `limits_add` makes one), kept out of
    /// the path every hand takes.
    #[cold]
    #[inline(never)]
    fn base_points_above_limit(&self, faan: u32) -> Option<u64> {
        if !self.limits_add || self.limits_pay == LimitsPay::Once {
            return Some(self.table_points(faan));
        }
        let (whole, rest) = match (faan.checked_div(self.limit), faan.checked_rem(self.limit)) {
            (Some(w), Some(r)) => (w, r),
            _ => return Some(self.table_points(faan)),
        };
        let rest = if rest == 0 {
            0
        } else {
            self.table_points(rest)
        };
        self.table_points(self.limit)
            .checked_mul(u64::from(whole))
            .and_then(|b| b.checked_add(rest))
            .filter(|&b| b <= MAX_BASE_POINTS)
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

    /// Parses and validates one ruleset file: its TOML is read into the
    /// JSON value a ruleset document sent with a request is, then checked by
    /// [`Ruleset::from_document`] (one validation path for both).
    pub fn from_toml(file: &str, text: &str) -> Result<Ruleset, LoadError> {
        let err = |key: String, message: String| LoadError {
            file: file.to_string(),
            key,
            message,
        };
        let doc = toml_document(text).map_err(|m| err(String::new(), m))?;
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
        let mut errs = Vec::new();
        let e = &mut errs;
        let min_faan = nonneg(e, at!["min_faan"], raw.min_faan);
        let limit = match raw.limit {
            1..=64 => raw.limit as u32,
            v => {
                e.push(DocError::new(
                    at!["limit"],
                    format!("the limit must be from 1 to 64 faan, got {v}"),
                ));
                0
            }
        };
        let limit_faan = match raw.limit_faan {
            // Refused, not clamped: a limit pattern never scores above the limit.
            Some(v) if limit > 0 && v > i64::from(limit) => {
                e.push(DocError::new(
                    at!["limit_faan"],
                    format!("limit_faan ({v}) is above the limit ({limit} faan)"),
                ));
                limit
            }
            Some(v) => nonneg(e, at!["limit_faan"], v),
            None => limit,
        };
        let mut min_faan_settings = Vec::new();
        for (i, v) in raw
            .min_faan_settings
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            min_faan_settings.push(nonneg(e, at!["min_faan_settings", i], v));
        }
        if limit > 0 && min_faan > limit {
            e.push(DocError::new(
                at!["min_faan"],
                format!("minimum {min_faan} is above the limit {limit}"),
            ));
        }
        if raw.points.extend_last.is_some() && raw.points.table.is_none() {
            e.push(DocError::new(
                at!["points", "extend_last"],
                "applies to an explicit table only".into(),
            ));
        }
        let points = match (raw.points.curve.as_deref(), raw.points.table) {
            (Some("full_spicy"), None) => Some(PointsSpec::FullSpicy),
            (Some("half_spicy"), None) => Some(PointsSpec::HalfSpicy),
            (None | Some("table"), Some(t)) => {
                let mut v = Vec::with_capacity(t.len());
                for (i, x) in t.into_iter().enumerate() {
                    match u64::try_from(x) {
                        Ok(b) => v.push(b),
                        Err(_) => e.push(DocError::new(
                            at!["points", "table", i],
                            format!("base points must not be negative, got {x}"),
                        )),
                    }
                }
                Some(if raw.points.extend_last.unwrap_or(false) {
                    PointsSpec::TableThenLast(v)
                } else {
                    PointsSpec::Table(v)
                })
            }
            (Some(c), None) => {
                e.push(DocError::new(
                    at!["points", "curve"],
                    format!("unknown curve {c:?}: use full_spicy, half_spicy or a table"),
                ));
                None
            }
            _ => {
                e.push(DocError::new(
                    at!["points"],
                    "give either curve (full_spicy, half_spicy) or table".into(),
                ));
                None
            }
        };
        let mut points_table = Vec::new();
        if let (Some(p), true) = (&points, limit > 0) {
            match p.table(limit) {
                Ok(t) => points_table = t,
                Err(err) => {
                    let at = match p {
                        PointsSpec::Table(_) | PointsSpec::TableThenLast(_) => {
                            at!["points", "table"]
                        }
                        _ => at!["points"],
                    };
                    e.push(DocError::new(at, err.explain(limit)));
                }
            }
        }
        let eighths = |e: &mut Vec<DocError>, at: Vec<PathSeg>, v: f64| -> u32 {
            to_eighths(v, 0.0).unwrap_or_else(|| {
                e.push(DocError::new(
                    at,
                    format!("must be a multiple of 1/8 from 0 to 64, got {v}"),
                ));
                0
            })
        };
        let payment = Payment {
            discarder: eighths(
                e,
                at!["payment", "discard", "discarder"],
                raw.payment.discard.discarder,
            ),
            others: eighths(
                e,
                at!["payment", "discard", "others"],
                raw.payment.discard.others,
            ),
            self_draw: eighths(e, at!["payment", "self_draw"], raw.payment.self_draw),
            robbing_kong: match raw.payment.robbing_kong.as_str() {
                "as_discard" => RobbingKongPayment::AsDiscard,
                "adder_pays_all" => RobbingKongPayment::AdderPaysAll,
                other => {
                    e.push(DocError::new(
                        at!["payment", "robbing_kong"],
                        format!("unknown rule {other:?}: use as_discard or adder_pays_all"),
                    ));
                    RobbingKongPayment::AsDiscard
                }
            },
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
                bonus_chips: nonneg(e, at!["money", "bonus_chips"], m.bonus_chips.unwrap_or(0)),
            }
        });
        let t = &raw.table;
        let table = TableRules {
            multiple_winners: t.multiple_winners.parse().unwrap_or_else(|()| {
                e.push(DocError::new(
                    at!["table", "multiple_winners"],
                    format!(
                        "unknown rule {:?}: use all or head_bump",
                        t.multiple_winners
                    ),
                ));
                MultipleWinners::All
            }),
            dealer_multiplier: to_eighths(t.dealer_multiplier, 1.0).unwrap_or_else(|| {
                e.push(DocError::new(
                    at!["table", "dealer_multiplier"],
                    format!(
                        "must be a multiple of 1/8 from 1 to 64, got {}",
                        t.dealer_multiplier
                    ),
                ));
                8
            }),
            stake: t.stake.and_then(|v| {
                let s = Stake::from_number(v);
                if s.is_none() {
                    e.push(DocError::new(
                        at!["table", "stake"],
                        format!("must be above 0, at most 1000000, with at most six decimal places, got {v}"),
                    ));
                }
                s
            }),
            liable_discard: t.liable_discard.parse().unwrap_or_else(|()| {
                e.push(DocError::new(
                    at!["table", "liable_discard"],
                    format!(
                        "unknown rule {:?}: use as_usual or pays_all",
                        t.liable_discard
                    ),
                ));
                LiableDiscard::AsUsual
            }),
            dealer_keeps_on_win: t.dealer_keeps_on_win,
            dealer_keeps_on_draw: t.dealer_keeps_on_draw,
            co_winners_pay: t.co_winners_pay.unwrap_or(false),
        };
        let mut patterns = Vec::with_capacity(raw.patterns.len());
        for (key, table) in raw.patterns {
            if let Some(p) = pattern_rule(e, &key, table) {
                patterns.push(p);
            }
        }
        let version = nonneg(e, at!["version"], raw.version);
        if raw.id.is_empty()
            || raw.id.len() > 64
            || !raw
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            e.push(DocError::new(
                at!["id"],
                format!(
                    "{:?} is not a ruleset id (1 to 64 lower-case letters, digits and '-')",
                    raw.id
                ),
            ));
        }
        let limits_pay = match raw.limits_pay.as_deref().map(str::parse::<LimitsPay>) {
            None => LimitsPay::default(),
            Some(Ok(l)) => l,
            Some(Err(())) => {
                e.push(DocError::new(
                    at!["limits_pay"],
                    format!(
                        "unknown rule {:?}: use per_limit or once",
                        raw.limits_pay.as_deref().unwrap_or_default()
                    ),
                ));
                LimitsPay::default()
            }
        };
        let mut exclusive = Vec::new();
        for (i, pair) in raw.exclusive.unwrap_or_default().iter().enumerate() {
            let mut ids = Vec::with_capacity(2);
            for (j, p) in pair.iter().enumerate() {
                match p.parse::<PatternId>() {
                    Ok(id) => ids.push(id),
                    Err(()) => e.push(DocError::new(
                        at!["exclusive", i, j],
                        format!("unknown pattern id {p:?}"),
                    )),
                }
            }
            if ids.len() == pair.len() {
                match ids[..] {
                    [a, b] if a != b => exclusive.push((a, b)),
                    _ => e.push(DocError::new(
                        at!["exclusive", i],
                        "give two different pattern ids".into(),
                    )),
                }
            } else if pair.len() != 2 {
                e.push(DocError::new(
                    at!["exclusive", i],
                    "give two different pattern ids".into(),
                ));
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
        let mut r = Ruleset {
            id: raw.id,
            name: raw.name,
            name_zh: raw.name_zh,
            version,
            source: raw.source,
            summary: raw.summary,
            notes: raw.notes,
            notes_zh: raw.notes_zh,
            min_faan,
            min_faan_settings,
            limit,
            limit_faan,
            bonus_tiles: raw.bonus_tiles,
            // Present: no error was found.
            points: points.unwrap_or(PointsSpec::FullSpicy),
            points_table,
            payment,
            money,
            table,
            patterns,
            limits_add: raw.limits_add.unwrap_or(false),
            limits_pay,
            exclusive,
            hash: [0; 32],
            index: [ABSENT; PATTERN_COUNT],
            enabled: 0,
            limits: 0,
            conditions: Conditions::default(),
            line_faan: [0; PATTERN_COUNT],
            contains: [0; PATTERN_COUNT],
            special: Special::default(),
            extras: false,
        };
        r.reindex();
        r.hash = Sha256::digest(canonical_bytes(&hashed_document(&r))).into();
        Ok(r)
    }

    /// The ruleset as a ruleset document with every key written (defaults
    /// too): its canonical form. [`Ruleset::from_document`] reads it back to
    /// this same ruleset; `hash` is the SHA-256 of its canonical bytes
    /// ([`canonical_bytes`]; the definition is in `rulesets/README.md`).
    pub fn to_document(&self) -> serde_json::Value {
        use serde_json::{json, Map};
        let x = |eighths: u32| num(f64::from(eighths) / 8.0);
        let points = match &self.points {
            PointsSpec::FullSpicy => json!({"curve": "full_spicy"}),
            PointsSpec::HalfSpicy => json!({"curve": "half_spicy"}),
            PointsSpec::Table(t) => json!({"table": t}),
            PointsSpec::TableThenLast(t) => json!({"table": t, "extend_last": true}),
        };
        let mut table = json!({
            "multiple_winners": self.table.multiple_winners.name(),
            "dealer_multiplier": x(self.table.dealer_multiplier),
            "liable_discard": self.table.liable_discard.name(),
            "dealer_keeps_on_win": self.table.dealer_keeps_on_win,
            "dealer_keeps_on_draw": self.table.dealer_keeps_on_draw,
        });
        if let Some(s) = self.table.stake {
            table["stake"] = num(s.as_number());
        }
        // Written only when set, so every ruleset_hash from before it stays.
        if self.table.co_winners_pay {
            table["co_winners_pay"] = true.into();
        }
        let mut patterns = Map::new();
        for p in &self.patterns {
            let mut m = Map::new();
            match p.value {
                Value::Faan(n) => m.insert("faan".into(), n.into()),
                Value::Limit(None) => m.insert("faan".into(), "limit".into()),
                Value::Limit(Some(n)) => {
                    m.insert("limit".into(), true.into());
                    m.insert("faan".into(), n.into())
                }
            };
            let contains: Vec<&str> = members(p.contains).map(PatternId::as_str).collect();
            m.insert("contains".into(), contains.into());
            for &c in p.id.info().conditions {
                m.insert(c.key().into(), p.conditions.get(c).into());
            }
            for (k, v) in [
                ("guide_name", &p.guide_name),
                ("guide_name_on_discard", &p.guide_name_on_discard),
                ("note", &p.note),
            ] {
                if let Some(v) = v {
                    m.insert(k.into(), v.as_str().into());
                }
            }
            patterns.insert(p.id.as_str().into(), serde_json::Value::Object(m));
        }
        let mut doc = json!({
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "source": self.source,
            "summary": self.summary,
            "notes": self.notes,
            "min_faan": self.min_faan,
            "min_faan_settings": self.min_faan_settings,
            "limit": self.limit,
            "limit_faan": self.limit_faan,
            "bonus_tiles": self.bonus_tiles,
            "limits_add": self.limits_add,
            "exclusive": self.exclusive.iter().map(|(a, b)| [a.as_str(), b.as_str()]).collect::<Vec<_>>(),
            "points": points,
            "payment": {
                "discard": {"discarder": x(self.payment.discarder), "others": x(self.payment.others)},
                "self_draw": x(self.payment.self_draw),
                "robbing_kong": match self.payment.robbing_kong {
                    RobbingKongPayment::AsDiscard => "as_discard",
                    RobbingKongPayment::AdderPaysAll => "adder_pays_all",
                },
            },
            "table": table,
            "patterns": patterns,
        });
        // Written only when not the default (as `stake`): every built-in's
        // hash stays what it was.
        if self.limits_pay != LimitsPay::default() {
            doc["limits_pay"] = self.limits_pay.name().into();
        }
        if let Some(n) = &self.name_zh {
            doc["name_zh"] = n.as_str().into();
        }
        if let Some(n) = &self.notes_zh {
            doc["notes_zh"] = n.clone().into();
        }
        if let Some(m) = self.money {
            doc["money"] = json!({
                "usd_per_100_chips": num(f64::from(m.cents_per_100_chips) / 100.0),
                "bonus_chips": m.bonus_chips,
            });
        }
        doc
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
        if let Some(k) = house.co_winners_pay {
            t.co_winners_pay = k;
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
                PatternOverride::Faan(n) => match u32::try_from(n) {
                    Ok(v) => Value::Faan(v),
                    // Refused, not clamped: a line's faan is a u32.
                    Err(_) => {
                        errs.push(FieldError::new(
                            ptr,
                            format!("a pattern value is at most {} faan, got {n}", u32::MAX),
                        ));
                        continue;
                    }
                },
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
        if let Some(v) = house.limits_pay {
            r.limits_pay = v;
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
    pub co_winners_pay: Option<bool>,
    /// Condition key to value, set on every pattern of the ruleset it applies to.
    pub conditions: Vec<(String, bool)>,
    /// Pattern id to the ids it contains (replacing its own list), in request order.
    pub contains: Vec<(String, Vec<String>)>,
    /// Pairs of pattern ids that exclude each other (the higher line is kept).
    pub exclusive: Vec<Vec<String>>,
    pub limits_add: Option<bool>,
    pub limits_pay: Option<LimitsPay>,
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

/// A problem of a ruleset document, at its path in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocError {
    pub path: Pointer,
    pub message: String,
}

impl DocError {
    pub fn new(path: Vec<PathSeg>, message: String) -> Self {
        DocError {
            path: path.into(),
            message,
        }
    }

    /// The JSON pointer (RFC 6901) of the problem under `root` (`/ruleset`).
    pub fn pointer(&self, root: &str) -> String {
        self.path.clone().under(root).into()
    }

    /// The path as a ruleset file names a key: `patterns.all_chows.faan`, `exclusive[0]`.
    pub fn dotted(&self) -> String {
        self.path.dotted()
    }

    /// A shape error of serde (an unknown or missing key, a wrong type),
    /// at `prefix` + serde_path_to_error's path; a missing key is reported
    /// at the key itself.
    fn from_serde(e: serde_path_to_error::Error<serde_json::Error>, prefix: &[PathSeg]) -> Self {
        use serde_path_to_error::Segment;
        let mut path = prefix.to_vec();
        for seg in e.path().iter() {
            match seg {
                Segment::Seq { index } => path.push(PathSeg::Index(*index)),
                Segment::Map { key } => path.push(PathSeg::Key(key.clone())),
                Segment::Enum { variant } => path.push(PathSeg::Key(variant.clone())),
                Segment::Unknown => {}
            }
        }
        let message = e.into_inner().to_string();
        if let Some(name) = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next())
        {
            path.push(PathSeg::Key(name.to_string()));
        }
        DocError::new(path, message)
    }
}

impl fmt::Display for DocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.dotted(), self.message)
    }
}

/// A ruleset file's TOML as the JSON value of a ruleset document.
pub fn toml_document(text: &str) -> Result<serde_json::Value, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| {
            text.get(..s.start)
                .map_or(1, |t| t.matches('\n').count() + 1)
        });
        let at = line.map_or(String::new(), |l| format!("line {l}: "));
        format!("{at}{}", e.message().trim())
    })?;
    serde_json::to_value(table).map_err(|e| e.to_string())
}

/// A ruleset document's JSON text as a value, refusing a key repeated in
/// any object at its path (`serde_json::Value` would keep the last one
/// silently). Any other failure is serde_json's message, at the document.
pub fn parse_document(bytes: &[u8]) -> Result<serde_json::Value, DocError> {
    use serde::de::DeserializeSeed;
    let mut repeated = None;
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let read = Unique(&mut repeated)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    read.map_err(|e| match repeated {
        // Gathered leaf first while the error unwound.
        Some(mut path) => {
            path.reverse();
            let key = match path.last() {
                Some(PathSeg::Key(k)) => k.clone(),
                _ => String::new(),
            };
            DocError::new(
                path,
                format!("duplicate key {key:?}: each key may appear once"),
            )
        }
        None => DocError::new(vec![], e.to_string()),
    })
}

/// A JSON value, its objects' keys each once; on a repeated key the path to
/// it is gathered into `.0` as the error unwinds (no path kept otherwise).
struct Unique<'p>(&'p mut Option<Vec<PathSeg>>);

impl<'de> serde::de::DeserializeSeed<'de> for Unique<'_> {
    type Value = serde_json::Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Unique<'_> {
    type Value = serde_json::Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        loop {
            match seq.next_element_seed(Unique(&mut *self.0)) {
                Ok(Some(v)) => out.push(v),
                Ok(None) => return Ok(out.into()),
                Err(e) => {
                    if let Some(path) = self.0 {
                        path.push(PathSeg::Index(out.len()));
                    }
                    return Err(e);
                }
            }
        }
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match map.next_value_seed(Unique(&mut *self.0)) {
                Ok(_) if out.contains_key(&key) => {
                    *self.0 = Some(vec![PathSeg::Key(key)]);
                    return Err(serde::de::Error::custom("duplicate key"));
                }
                Ok(v) => {
                    out.insert(key, v);
                }
                Err(e) => {
                    if let Some(path) = self.0 {
                        path.push(PathSeg::Key(key));
                    }
                    return Err(e);
                }
            }
        }
        Ok(out.into())
    }
}

/// The document `ruleset_hash` is taken of: the canonical document less
/// `name_zh` and `notes_zh`, translations of `name` and `notes` that change
/// no answer, so every built-in kept its hash when it gained them
/// (rulesets/README.md).
fn hashed_document(r: &Ruleset) -> serde_json::Value {
    let mut doc = r.to_document();
    if let Some(m) = doc.as_object_mut() {
        m.remove("name_zh");
        m.remove("notes_zh");
    }
    doc
}

/// The defaults of a ruleset document sent without `extends`: only the
/// rules are required, not the descriptive keys.
pub const DOCUMENT_DEFAULTS: &[(&str, &str)] = &[
    ("id", "\"custom\""),
    ("name", "\"Custom ruleset\""),
    ("version", "1"),
    ("source", "[]"),
    ("summary", "\"\""),
    ("notes", "[]"),
];

/// A ruleset document sent with a request: with `"extends": "<id>"` it is
/// a JSON merge patch (RFC 7386) over that ruleset's document
/// ([`Ruleset::to_document`], found by `base`); without, the keys of
/// [`DOCUMENT_DEFAULTS`] may be left out. Then [`Ruleset::from_document`].
pub fn resolve_document(
    doc: serde_json::Value,
    base: impl FnOnce(&str) -> Option<serde_json::Value>,
) -> Result<Ruleset, Vec<DocError>> {
    let serde_json::Value::Object(mut patch) = doc else {
        return Err(vec![DocError::new(
            vec![],
            "a ruleset is an id (a string) or a ruleset document (an object)".into(),
        )]);
    };
    let full = match patch.remove("extends") {
        Some(serde_json::Value::String(id)) => match base(&id) {
            Some(mut b) => {
                // A new name without a Chinese one drops the base's: 香港麻雀協會
                // is not the name of a document that renamed HKMA's rules.
                if patch.contains_key("name") && !patch.contains_key("name_zh") {
                    patch.insert("name_zh".into(), serde_json::Value::Null);
                }
                // New notes without their translation drop the base's too.
                if patch.contains_key("notes") && !patch.contains_key("notes_zh") {
                    patch.insert("notes_zh".into(), serde_json::Value::Null);
                }
                house_contains_for_added(&b, &mut patch);
                json_patch::merge(&mut b, &serde_json::Value::Object(patch));
                b
            }
            None => {
                return Err(vec![DocError::new(
                    at!["extends"],
                    format!("no built-in ruleset {id:?} to extend; GET /v1/rulesets lists them"),
                )])
            }
        },
        Some(other) => {
            return Err(vec![DocError::new(
                at!["extends"],
                format!("extends names a built-in ruleset id (a string), got {other}"),
            )])
        }
        None => {
            for (k, v) in DOCUMENT_DEFAULTS {
                if !patch.contains_key(*k) {
                    patch.insert((*k).into(), serde_json::from_str(v).unwrap_or_default());
                }
            }
            serde_json::Value::Object(patch)
        }
    };
    Ruleset::from_document(&full)
}

/// Under `extends`, a pattern the base does not score, added without a
/// `contains` key, contains what the pattern table's `house_contains` says:
/// the same pattern added by `house_rules.patterns` then scores the same
/// (the lead's reading, rulesets/README.md "Ruleset documents"). An explicit
/// `contains` (even `[]`) is kept. Anything malformed is left for
/// [`Ruleset::from_document`] to report at its path.
fn house_contains_for_added(
    base: &serde_json::Value,
    patch: &mut serde_json::Map<String, serde_json::Value>,
) {
    let Some(serde_json::Value::Object(added)) = patch.get_mut("patterns") else {
        return;
    };
    let scored = base.get("patterns").and_then(|p| p.as_object());
    for (key, table) in added.iter_mut() {
        let serde_json::Value::Object(t) = table else {
            continue;
        };
        if t.contains_key("contains") || scored.is_some_and(|s| s.contains_key(key)) {
            continue;
        }
        let Ok(id) = key.parse::<PatternId>() else {
            continue;
        };
        let ids: Vec<serde_json::Value> = members(id.info().house_contains)
            .map(|q| q.as_str().into())
            .collect();
        t.insert("contains".into(), ids.into());
    }
}

/// The canonical bytes of a ruleset document: serde_json's compact writer,
/// object keys in byte order (serde_json's map without `preserve_order`).
pub fn canonical_bytes(doc: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(doc).unwrap_or_default()
}

/// A number as the canonical document writes it: whole numbers as integers.
fn num(v: f64) -> serde_json::Value {
    if v.fract() == 0.0 && v.abs() < 9e15 {
        (v as i64).into()
    } else {
        v.into()
    }
}

fn nonneg(e: &mut Vec<DocError>, at: Vec<PathSeg>, v: i64) -> u32 {
    u32::try_from(v).unwrap_or_else(|_| {
        e.push(DocError::new(
            at,
            format!("must be a whole number from 0, got {v}"),
        ));
        0
    })
}

/// One `[patterns.<key>]` table: its condition keys (read from the pattern
/// table, [`Condition`]), then the rest as a [`RawPattern`].
fn pattern_rule(
    e: &mut Vec<DocError>,
    key: &str,
    mut table: serde_json::Map<String, serde_json::Value>,
) -> Option<PatternRule> {
    let Ok(id) = key.parse::<PatternId>() else {
        e.push(DocError::new(
            at!["patterns", key],
            format!("unknown pattern id {key:?}"),
        ));
        return None;
    };
    let before = e.len();
    let mut conditions = Conditions::default();
    for &c in Condition::ALL {
        let Some(v) = table.remove(c.key()) else {
            continue;
        };
        let at = at!["patterns", key, c.key()];
        if !id.info().conditions.contains(&c) {
            e.push(DocError::new(
                at,
                format!("{} does not apply to {id}", c.key()),
            ));
            continue;
        }
        match v.as_bool() {
            Some(b) => conditions.set(c, b),
            None => e.push(DocError::new(at, format!("must be true or false, got {v}"))),
        }
    }
    let p: RawPattern = match serde_path_to_error::deserialize(serde_json::Value::Object(table)) {
        Ok(p) => p,
        Err(err) => {
            e.push(DocError::from_serde(
                err,
                &[PathSeg::from("patterns"), PathSeg::from(key)],
            ));
            return None;
        }
    };
    let at_faan = || at!["patterns", key, "faan"];
    let value = match (&p.faan, p.limit.unwrap_or(false)) {
        (serde_json::Value::String(w), _) if w == "limit" => Value::Limit(None),
        (serde_json::Value::Number(n), limit) if n.as_i64().is_some() => {
            let n = nonneg(e, at_faan(), n.as_i64().unwrap_or(0));
            if limit {
                Value::Limit(Some(n))
            } else {
                Value::Faan(n)
            }
        }
        (other, _) => {
            e.push(DocError::new(
                at_faan(),
                format!("{other} is not a value: give a whole number of faan or \"limit\""),
            ));
            Value::Faan(0)
        }
    };
    let mut contains = 0;
    for (i, c) in p.contains.iter().enumerate() {
        match c.parse::<PatternId>() {
            Ok(cid) => contains |= cid.bit(),
            Err(()) => e.push(DocError::new(
                at!["patterns", key, "contains", i],
                format!("unknown pattern id {c:?}"),
            )),
        }
    }
    (e.len() == before).then_some(PatternRule {
        id,
        guide_name: p.guide_name,
        guide_name_on_discard: p.guide_name_on_discard,
        value,
        contains,
        conditions,
        note: p.note,
    })
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
    name_zh: Option<String>,
    version: i64,
    source: Vec<String>,
    summary: String,
    notes: Vec<String>,
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
    limits_pay: Option<String>,
    exclusive: Option<Vec<Vec<String>>>,
    /// Each pattern's table: its condition keys are read first (see [`Condition`]), the rest is a [`RawPattern`].
    patterns: BTreeMap<String, serde_json::Map<String, serde_json::Value>>,
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
    /// Optional (default `false`), so documents written before it still load.
    co_winners_pay: Option<bool>,
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
#[serde(deny_unknown_fields)]
struct RawPattern {
    /// A whole number or `"limit"` (checked by [`pattern_rule`]).
    faan: serde_json::Value,
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
            co_winners_pay: Some(true),
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
                co_winners_pay: true,
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
                "patterns.all_chows.name: unknown field `name`",
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
                "exclusive[0][1]: unknown pattern id",
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

    /// Every built-in ruleset written as its canonical document reads back
    /// to itself (hash included), and the document's keys are in byte order.
    #[test]
    fn documents_round_trip() {
        let reg = crate::core::Registry::builtin().unwrap();
        for r in reg.all() {
            let doc = r.to_document();
            let back = Ruleset::from_document(&doc).unwrap_or_else(|e| panic!("{}: {e:?}", r.id));
            assert_eq!(&back, r.as_ref(), "{}: round trip", r.id);
            let text = String::from_utf8(canonical_bytes(&doc)).unwrap();
            assert!(
                text.starts_with("{\"bonus_tiles\":"),
                "{}: keys sorted: {text:.40}",
                r.id
            );
        }
        let hashes: std::collections::HashSet<[u8; 32]> =
            reg.all().iter().map(|r| r.hash).collect();
        assert_eq!(hashes.len(), reg.all().len(), "one hash per built-in");
    }

    fn resolve(doc: serde_json::Value) -> Result<Ruleset, Vec<DocError>> {
        let reg = crate::core::Registry::builtin().unwrap();
        resolve_document(doc, |id| reg.get(id).map(|r| r.to_document()))
    }

    #[test]
    fn extends_merges_over_the_built_in_document() {
        let reg = crate::core::Registry::builtin().unwrap();
        let hkma = reg.get("hkma").unwrap();
        let same = resolve(serde_json::json!({"extends": "hkma"})).unwrap();
        assert_eq!(&same, hkma.as_ref(), "case: extends alone is the built-in");
        let r = resolve(serde_json::json!({"extends": "hkma", "id": "hkma-simples",
            "patterns": {"all_simples": {"faan": 1}, "seven_pairs": null, "all_chows": {"faan": 2}},
            "min_faan": 1}))
        .unwrap();
        assert_eq!(r.id, "hkma-simples", "case: id replaced");
        assert_eq!(r.min_faan, 1, "case: min_faan replaced");
        assert_eq!(
            r.pattern(PatternId::AllSimples).map(|p| p.value),
            Some(Value::Faan(1)),
            "case: a pattern added"
        );
        assert_eq!(
            r.pattern(PatternId::AllChows)
                .map(|p| (p.value, p.note.is_some())),
            Some((Value::Faan(2), true)),
            "case: one key of a pattern changed, its note kept"
        );
        assert!(
            hkma.pattern(PatternId::SevenPairs).is_none()
                && r.pattern(PatternId::SevenPairs).is_none(),
            "case: null removes"
        );
        assert_ne!(r.hash, hkma.hash, "case: another ruleset, another hash");
        // Without extends: the descriptive keys take their defaults.
        let mut doc = hkma.to_document();
        for k in ["id", "name", "version", "source", "summary", "notes"] {
            doc.as_object_mut().unwrap().remove(k);
        }
        let custom = resolve(doc).unwrap();
        assert_eq!(
            (custom.id.as_str(), custom.name.as_str(), custom.version),
            ("custom", "Custom ruleset", 1),
            "case: defaults"
        );
        assert_eq!(custom.patterns, hkma.patterns, "case: the same rules");
    }

    /// Base points above the limit (only under `limits_add`), worked by hand
    /// on wisteria-court (half-spicy, limit 10: B(1) 2, B(5) 24, B(9) 96,
    /// B(10) 128). `per_limit`: each whole limit pays the limit's points, the
    /// faan left over their own; `once`: the limit's. Bounded by
    /// `MAX_BASE_POINTS` (full-spicy at a limit of 40: B(40) is 2^40 already).
    #[test]
    fn a_total_above_the_limit_pays_as_limits_pay_says() {
        let reg = crate::core::Registry::builtin().unwrap();
        let wisteria = reg.get("wisteria-court").unwrap();
        let with = |pay: Option<LimitsPay>| {
            wisteria
                .with_house_rules(&HouseRules {
                    limits_add: Some(true),
                    limits_pay: pay,
                    ..HouseRules::default()
                })
                .unwrap()
        };
        let (per, once) = (with(None), with(Some(LimitsPay::Once)));
        assert_eq!(per.limits_pay, LimitsPay::PerLimit, "case: the default");
        // (faan, per_limit, once)
        let cases: &[(u32, u64, u64)] = &[
            (9, 96, 96),            // below the limit: the table
            (10, 128, 128),         // exactly one limit
            (11, 128 + 2, 128),     // a limit plus 1 faan
            (19, 128 + 96, 128),    // a limit plus 9 faan
            (20, 2 * 128, 128),     // a double limit
            (21, 2 * 128 + 2, 128), // a double limit plus 1 faan
            (30, 3 * 128, 128),     // three limits
            // 4294967295 = 429496729 limits + 5 faan
            (u32::MAX, 429_496_729 * 128 + 24, 128),
        ];
        for &(faan, want_per, want_once) in cases {
            assert_eq!(
                per.base_points(faan),
                Some(want_per),
                "case: {faan} faan per_limit"
            );
            assert_eq!(
                once.base_points(faan),
                Some(want_once),
                "case: {faan} faan once"
            );
        }
        let top = wisteria
            .with_house_rules(&HouseRules {
                limit: Some(40),
                points: Some(PointsSpec::FullSpicy),
                limits_add: Some(true),
                ..HouseRules::default()
            })
            .unwrap();
        assert_eq!(
            top.base_points(40),
            Some(MAX_BASE_POINTS),
            "case: 2^40 at 40"
        );
        assert_eq!(
            (top.base_points(80), top.base_points(u32::MAX)),
            (None, None),
            "case: two limits of 2^40 and more are refused, not capped at 2^40"
        );
        assert_eq!(
            wisteria.base_points(21),
            Some(128),
            "case: without limits_add no total passes the limit; a stray one pays the limit's"
        );
        let doc = once.to_document();
        assert_eq!(doc["limits_pay"], "once", "case: once is written");
        assert!(
            per.to_document().get("limits_pay").is_none(),
            "case: the default is not written (every built-in's hash unchanged)"
        );
        let back = Ruleset::from_document(&doc).unwrap();
        assert_eq!(back.limits_pay, LimitsPay::Once, "case: read back");
        let mut bad = doc.clone();
        bad["limits_pay"] = "twice".into();
        let errs = Ruleset::from_document(&bad).unwrap_err();
        assert_eq!(
            errs.iter()
                .map(|e| e.pointer("/ruleset"))
                .collect::<Vec<_>>(),
            ["/ruleset/limits_pay"],
            "case: an unknown rule at its key"
        );
    }

    /// A pattern added under `extends` without `contains` takes the pattern
    /// table's house-rule containment (fully_concealed: concealed_hand and
    /// self_draw), as `house_rules.patterns` gives it; an explicit `contains`
    /// wins, a pattern the base scores keeps its own, a full document lists
    /// its own.
    #[test]
    fn a_pattern_added_under_extends_contains_as_a_house_rule() {
        let reg = crate::core::Registry::builtin().unwrap();
        let hkma = reg.get("hkma").unwrap();
        let contains = |r: &Ruleset, id: PatternId| r.pattern(id).map(|p| p.contains);
        let house = hkma
            .with_house_rules(&HouseRules {
                patterns: vec![("fully_concealed".into(), PatternOverride::Faan(3))],
                ..HouseRules::default()
            })
            .unwrap();
        let want = PatternId::ConcealedHand.bit() | PatternId::SelfDraw.bit();
        assert_eq!(
            contains(&house, PatternId::FullyConcealed),
            Some(want),
            "case: house rule"
        );
        let ext = resolve(serde_json::json!({"extends": "hkma",
            "patterns": {"fully_concealed": {"faan": 3}, "all_chows": {"faan": 2}}}))
        .unwrap();
        assert_eq!(
            contains(&ext, PatternId::FullyConcealed),
            Some(want),
            "case: added under extends without contains"
        );
        assert_eq!(
            contains(&ext, PatternId::AllChows),
            contains(hkma, PatternId::AllChows),
            "case: a pattern the base scores keeps its own contains"
        );
        let doc = ext.to_document();
        assert_eq!(
            doc["patterns"]["fully_concealed"]["contains"],
            serde_json::json!(["self_draw", "concealed_hand"]),
            "case: the canonical document shows it (engine order)"
        );
        let explicit = resolve(serde_json::json!({"extends": "hkma",
            "patterns": {"fully_concealed": {"faan": 3, "contains": []}}}))
        .unwrap();
        assert_eq!(
            contains(&explicit, PatternId::FullyConcealed),
            Some(0),
            "case: explicit contains [] wins"
        );
        assert_ne!(explicit.hash, ext.hash, "case: two rulesets, two hashes");
        let mut full = hkma.to_document();
        full["patterns"]["fully_concealed"] = serde_json::json!({"faan": 3});
        let full = resolve(full).unwrap();
        assert_eq!(
            contains(&full, PatternId::FullyConcealed),
            Some(0),
            "case: a full document contains only what it lists"
        );
    }

    /// Broken documents: each problem at its path (every problem of a document
    /// whose shape is right).
    #[test]
    fn broken_documents_say_where() {
        let cases: Vec<(serde_json::Value, Vec<&str>)> = vec![
            (
                serde_json::json!({"extends": "riichi"}),
                vec!["/ruleset/extends"],
            ),
            (serde_json::json!({"extends": 3}), vec!["/ruleset/extends"]),
            (
                serde_json::json!({"extends": "hkma", "colour": "red"}),
                vec!["/ruleset/colour"],
            ),
            (
                serde_json::json!({"extends": "hkma", "patterns": {"all_simples": {"faan": -1}}}),
                vec!["/ruleset/patterns/all_simples/faan"],
            ),
            (
                serde_json::json!({"extends": "hkma", "patterns": {"all_simples": {"faan": 1.5}}}),
                vec!["/ruleset/patterns/all_simples/faan"],
            ),
            (
                serde_json::json!({"extends": "hkma", "patterns": {"ping_wu": {"faan": 1}}}),
                vec!["/ruleset/patterns/ping_wu"],
            ),
            (
                serde_json::json!({"extends": "hkma", "patterns": {"all_simples": {}}}),
                vec!["/ruleset/patterns/all_simples/faan"],
            ),
            (
                serde_json::json!({"extends": "hkma", "patterns": {"all_chows": {"pure_only": true}}}),
                vec!["/ruleset/patterns/all_chows/pure_only"],
            ),
            (
                serde_json::json!({"extends": "hkma", "limit": 20, "min_faan": 30}),
                vec!["/ruleset/min_faan"],
            ),
            (
                serde_json::json!({"extends": "hkma", "points": {"curve": null, "table": [1, 2, 4]}}),
                vec!["/ruleset/points/table"],
            ),
            (
                serde_json::json!({"extends": "hkma", "id": "My Table"}),
                vec!["/ruleset/id"],
            ),
            (
                serde_json::json!({"extends": "hkma", "exclusive": [["all_chows"]]}),
                vec!["/ruleset/exclusive/0"],
            ),
            (
                serde_json::json!({"extends": "hkma", "exclusive": [["all_chows", "ping_wu"]]}),
                vec!["/ruleset/exclusive/0/1"],
            ),
            (
                serde_json::json!({"extends": "hkma", "limit": "ten"}),
                vec!["/ruleset/limit"],
            ),
            (
                serde_json::json!({"extends": "hkma", "patterns": {"seven_pairs": {"faan": 3, "contains": ["concealed_hand"]}, "concealed_hand": {"contains": ["seven_pairs"]}}}),
                vec!["/ruleset/patterns/concealed_hand/contains"],
            ),
            (
                serde_json::json!({"extends": "hkma", "patterns": {"all_chows": {"contains": ["self_draw", "ping"]}}, "table": {"liable_discard": "never"}, "version": -1}),
                vec![
                    "/ruleset/table/liable_discard",
                    "/ruleset/patterns/all_chows/contains/1",
                    "/ruleset/version",
                ],
            ),
            (serde_json::json!({"min_faan": 0}), vec!["/ruleset/limit"]),
            (serde_json::json!([1]), vec!["/ruleset"]),
        ];
        for (doc, want) in cases {
            let errs = resolve(doc.clone()).expect_err(&doc.to_string());
            let mut got: Vec<String> = errs.iter().map(|e| e.pointer("/ruleset")).collect();
            let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{doc}: {errs:?}");
        }
    }
}
