//! The model: what a ruleset is made of, and [`Ruleset`], built only by
//! [`Ruleset::compile`] with the per-id tables scoring reads.

use super::super::decompose::Special;
use super::super::hand::FlowerWins;
use super::super::pattern::{
    Condition, Conditions, PatternId, PatternSet, OPTIONAL, PATTERN_COUNT,
};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use strum::{IntoStaticStr, VariantNames};

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
    /// English name ([`PatternId::name`]). The texts are shared (`Arc`): a
    /// house rule copies a ruleset's patterns without copying them.
    pub guide_name: Option<Arc<str>>,
    /// The guide's wording when won on a discard (sc-hk13's "Last Discard").
    pub guide_name_on_discard: Option<Arc<str>>,
    pub value: Value,
    /// Lines this pattern contains or replaces: they are not scored beside it.
    pub contains: PatternSet,
    pub conditions: Conditions,
    /// Stacking note for the chart.
    pub note: Option<Arc<str>>,
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
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum RobbingKongPayment {
    /// Paid as a discard, with the player who added the kong as the discarder.
    AsDiscard,
    /// The player who added the kong pays what all three would pay on a self-draw.
    AdderPaysAll,
}

/// A house rule for a discard win.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum DiscardPayment {
    /// The discarder pays the ruleset's whole discard amount alone.
    DiscarderPaysAll,
    /// The discarder pays half of the ruleset's discard amount, the two others a quarter each.
    DiscarderPaysHalf,
    /// Each other player pays the base points and the discarder twice the base.
    DiscarderPaysDouble,
}

named!(RobbingKongPayment, DiscardPayment);

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
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum MultipleWinners {
    /// The discarder pays each winner as if that winner were alone.
    All,
    /// 截糊: only the first winner in turn order after the discarder is paid.
    HeadBump,
}

/// Who pays a discard win (or a robbed kong) where a seat is liable (包).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum LiableDiscard {
    /// The discard payment rule applies as on any discard.
    AsUsual,
    /// The liable discarder pays the whole hand alone.
    PaysAll,
    /// The liable seat pays the whole hand alone, in the discarder's place
    /// whoever discarded (the discarder pays nothing).
    LiablePays,
}

/// How a total above the limit pays under `limits_add` (`limits_pay`; a
/// total above the limit arises only there). Hong Kong tables differ: the
/// readings and their sources are in rulesets/README.md, "Limits that add".
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    IntoStaticStr,
    VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum LimitsPay {
    /// Each whole limit of the total pays the limit's base points again and
    /// the faan left over pay their own (a double limit pays twice).
    #[default]
    PerLimit,
    /// The limit's base points at most, whatever the total (a double limit
    /// shows in the faan only).
    Once,
}

named!(MultipleWinners, LiableDiscard, LimitsPay);

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
    /// a million; `None` otherwise. The test is absolute: `v` must be the
    /// double nearest to a whole number of millionths (what a correctly
    /// rounded reader makes of `0.05` or `123.456789`; `1.0000004` is not).
    /// A JSON number's own text is read by [`Stake::from_decimal`] instead:
    /// there the digits decide, not the double.
    pub fn from_number(v: f64) -> Option<Stake> {
        let r = (v * Self::ONE as f64).round();
        // r is whole and below 2^53, so `r / 10^6` is the double nearest to
        // the decimal (IEEE division rounds correctly).
        (v > 0.0 && r >= 1.0 && r <= Self::MAX as f64 && r / Self::ONE as f64 == v)
            .then_some(Stake(r as u64))
    }

    /// A stake from the text of a JSON number (`0.05`, `5E-2`, `1.250`),
    /// decided on its digits: above 0, at most a million, and a whole
    /// number of millionths (`1.0000004` and `0.1000000000000000000001` are
    /// not, though a double cannot tell the second from 0.1); `None`
    /// otherwise, and for text that is not a JSON number.
    pub fn from_decimal(text: &str) -> Option<Stake> {
        let (mantissa, exp) = match text.find(['e', 'E']) {
            Some(i) => (&text[..i], Some(&text[i + 1..])),
            None => (text, None),
        };
        let (int, frac) = match mantissa.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (mantissa, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        // A stake is above 0: a sign is refused (and `-0` is 0).
        if !all_digits(int) || (int.len() > 1 && int.starts_with('0')) {
            return None;
        }
        if frac.is_some_and(|f| !all_digits(f)) {
            return None;
        }
        let mut scale: i64 = match exp {
            None => 0,
            Some(e) => {
                let (neg, digits) = match e.as_bytes().first() {
                    Some(b'-') => (true, &e[1..]),
                    Some(b'+') => (false, &e[1..]),
                    _ => (false, e),
                };
                if !all_digits(digits) {
                    return None;
                }
                let digits = digits.trim_start_matches('0');
                // Past a million either way: too large, or too many decimals
                // (a zero mantissa is refused below in any case).
                if digits.len() > 6 {
                    return None;
                }
                let n: i64 = digits.parse().unwrap_or(0);
                if neg {
                    -n
                } else {
                    n
                }
            }
        };
        let frac = frac.unwrap_or("");
        scale -= frac.len() as i64;
        // The value is `digits x 10^scale`, its digits without the zeros
        // that only place them.
        let joined = [int, frac].concat();
        let lead = joined.trim_start_matches('0');
        let digits = lead.trim_end_matches('0');
        scale += (lead.len() - digits.len()) as i64;
        if digits.is_empty() {
            return None;
        }
        // Millionths: `digits x 10^(scale + 6)`, whole only from a shift of 0.
        let shift = scale + 6;
        // At most 10^12 millionths: 13 digits.
        if shift < 0 || digits.len() as i64 + shift > 13 {
            return None;
        }
        let m = digits
            .parse::<u64>()
            .ok()?
            .checked_mul(10u64.checked_pow(shift as u32)?)?;
        (1..=Self::MAX).contains(&m).then_some(Stake(m))
    }

    /// The stake as a number (for display).
    pub fn as_number(self) -> f64 {
        self.0 as f64 / Self::ONE as f64
    }
}

/// The customs of a table beyond scoring one hand: several winners, the
/// dealer, the stake, a liable discarder and the rotation of the deal
/// (`docs/rules.md`, "Rounds and matches"). Each ruleset file gives
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
    /// winner never pays in a hand it won; `docs/rules.md`).
    pub co_winners_pay: bool,
    /// What a false win (詐糊) costs its offender.
    pub false_win: FalseWin,
}

/// The false win's penalty (`docs/api.md`, "The false win's penalty"):
/// the offender pays each of the other three.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum FalseWin {
    /// What that player would collect from a self-drawn win at the minimum.
    #[default]
    Minimum,
    /// What that player would collect from a self-drawn limit hand (賠三家滿糊).
    Limit,
    /// What that player would collect from a self-drawn win of this many faan
    /// (above the limit: the limit's).
    Faan(u32),
    /// This many points to each, flat.
    Points(u64),
}

impl FalseWin {
    /// The most points `Points` may name (a settlement's largest base points).
    pub const MAX_POINTS: u64 = MAX_BASE_POINTS;
    /// The most faan `Faan` may name.
    pub const MAX_FAAN: u32 = 255;
}

/// What a ruleset says of itself. House rules never change it, so a
/// ruleset with house rules shares its base's (one `Arc`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct About {
    pub(super) id: String,
    pub(super) name: String,
    /// The translations ([`super::canonical::TRANSLATIONS`]): not hashed.
    pub(super) name_zh: Option<String>,
    pub(super) version: u32,
    pub(super) source: Vec<String>,
    pub(super) summary: String,
    pub(super) notes: Vec<String>,
    /// A Traditional Chinese translation of `notes` (a translation: not hashed).
    pub(super) notes_zh: Option<Vec<String>>,
    /// The minimum settings the guide offers (empty: any).
    pub(super) min_faan_settings: Vec<u32>,
}

/// The rules of a ruleset, each checked (`check`): what [`Ruleset::compile`]
/// builds a ruleset from. A document's are read by `document`; house rules
/// start from their base's (`Ruleset::rules`), which shares its text and
/// patterns until a house rule changes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rules {
    pub(super) about: Arc<About>,
    pub(super) min_faan: u32,
    pub(super) limit: u32,
    /// What a limit pattern without its own value scores.
    pub(super) limit_faan: u32,
    pub(super) bonus_tiles: bool,
    pub(super) points: PointsSpec,
    /// Base points for 0..=limit faan (`check::points_table`).
    pub(super) points_table: Arc<[u64]>,
    pub(super) payment: Payment,
    pub(super) money: Option<Money>,
    pub(super) table: TableRules,
    /// Scored patterns (in contract order once compiled).
    pub(super) patterns: Arc<Vec<PatternRule>>,
    pub(super) limits_add: bool,
    pub(super) limits_pay: LimitsPay,
    pub(super) exclusive: Vec<(PatternId, PatternId)>,
}

/// What scoring reads of a ruleset by id index, derived from its rules by
/// [`Ruleset::compile`] and by nothing else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tables {
    index: [u8; PATTERN_COUNT],
    /// The scored patterns, the limit patterns among them, and every
    /// pattern's conditions merged (each condition belongs to one pattern).
    pub(crate) enabled: PatternSet,
    pub(crate) limits: PatternSet,
    pub(crate) conditions: Conditions,
    /// By id index: the faan one line of the pattern scores (a limit
    /// pattern's: its limit value), and the lines it contains (0 when absent).
    pub(crate) line_faan: [u32; PATTERN_COUNT],
    pub(crate) contains: [PatternSet; PATTERN_COUNT],
    /// The special forms the decomposer looks for.
    pub(crate) special: Special,
    /// An optional rule is in force: an optional pattern, a switch of
    /// `pattern::OPTIONAL_CONDITIONS`, `limits_add` or an `exclusive` pair.
    /// Without it (every built-in ruleset) scoring runs the copy of the
    /// recognisers and the evaluation that never looks at them.
    pub(crate) optional_rules: bool,
}

const ABSENT: u8 = u8::MAX;

/// A loaded, validated ruleset: its rules and the tables compiled from
/// them, which nothing can change apart (no field is public; a ruleset
/// with house rules is compiled anew, `Ruleset::with_house_rules`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruleset {
    rules: Rules,
    /// `ruleset_hash`: SHA-256 of [`Ruleset::to_document`]'s canonical
    /// bytes (house rules keep their base's: it names the ruleset they were
    /// applied to).
    hash: [u8; 32],
    tables: Tables,
}

impl Ruleset {
    /// The one way to build a ruleset: `rules` (every rule already checked)
    /// with the tables derived from them.
    pub(super) fn compile(mut rules: Rules, hash: [u8; 32]) -> Ruleset {
        if !rules.patterns.is_sorted_by_key(|p| p.id) {
            Arc::make_mut(&mut rules.patterns).sort_by_key(|p| p.id);
        }
        let mut t = Tables {
            index: [ABSENT; PATTERN_COUNT],
            enabled: 0,
            limits: 0,
            conditions: Conditions::default(),
            line_faan: [0; PATTERN_COUNT],
            contains: [0; PATTERN_COUNT],
            special: Special::default(),
            optional_rules: false,
        };
        let mut c = Conditions::default();
        for (i, p) in rules.patterns.iter().enumerate() {
            let at = p.id.index();
            t.index[at] = i as u8;
            t.line_faan[at] = match p.value {
                Value::Faan(v) => v,
                Value::Limit(v) => limit_value(&rules, v),
            };
            t.contains[at] = p.contains;
            t.enabled |= p.id.bit();
            if matches!(p.value, Value::Limit(_)) {
                t.limits |= p.id.bit();
            }
            for &k in p.id.info().conditions {
                c.set(k, p.conditions.get(k));
            }
        }
        t.conditions = c;
        t.special = Special {
            seven_pairs: t.enabled & PatternId::SevenPairs.bit() != 0,
            four_as_two_pairs: c.get(Condition::FourAsTwoPairs),
            thirteen_sided_only: c.get(Condition::ThirteenSidedOnly),
            thirteen_orphans: t.enabled & PatternId::ThirteenOrphans.bit() != 0,
            flower_wins: flower_wins(&rules),
        };
        t.optional_rules = t.enabled & OPTIONAL != 0
            || c.any_extra()
            || rules.limits_add
            || !rules.exclusive.is_empty();
        Ruleset {
            rules,
            hash,
            tables: t,
        }
    }

    /// The rules this ruleset was compiled from (house rules start from them).
    pub(super) fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The compiled tables scoring reads.
    #[inline]
    pub(crate) fn tables(&self) -> &Tables {
        &self.tables
    }

    pub fn id(&self) -> &str {
        &self.rules.about.id
    }
    pub fn name(&self) -> &str {
        &self.rules.about.name
    }
    /// The name in Traditional Chinese, for the Chinese page (none: a document gave none).
    pub fn name_zh(&self) -> Option<&str> {
        self.rules.about.name_zh.as_deref()
    }
    pub fn version(&self) -> u32 {
        self.rules.about.version
    }
    pub fn source(&self) -> &[String] {
        &self.rules.about.source
    }
    pub fn summary(&self) -> &str {
        &self.rules.about.summary
    }
    pub fn notes(&self) -> &[String] {
        &self.rules.about.notes
    }
    /// The notes in Traditional Chinese, for the Chinese page (none: a
    /// document gave none; the English stays the source).
    pub fn notes_zh(&self) -> Option<&[String]> {
        self.rules.about.notes_zh.as_deref()
    }
    /// The minimum settings the guide offers (empty: any).
    pub fn min_faan_settings(&self) -> &[u32] {
        &self.rules.about.min_faan_settings
    }
    pub fn min_faan(&self) -> u32 {
        self.rules.min_faan
    }
    #[inline]
    pub fn limit(&self) -> u32 {
        self.rules.limit
    }
    /// What a limit pattern without its own value scores.
    pub fn limit_faan(&self) -> u32 {
        self.rules.limit_faan
    }
    pub fn bonus_tiles(&self) -> bool {
        self.rules.bonus_tiles
    }
    pub fn points(&self) -> &PointsSpec {
        &self.rules.points
    }
    /// Base points for 0..=limit faan.
    pub fn points_table(&self) -> &[u64] {
        &self.rules.points_table
    }
    #[inline]
    pub fn payment(&self) -> &Payment {
        &self.rules.payment
    }
    pub fn money(&self) -> Option<Money> {
        self.rules.money
    }
    #[inline]
    pub fn table(&self) -> &TableRules {
        &self.rules.table
    }
    /// Scored patterns in contract order.
    pub fn patterns(&self) -> &[PatternRule] {
        &self.rules.patterns
    }
    /// Limit patterns add to the other lines and the total has no cap
    /// (base points stop at the limit's).
    pub fn limits_add(&self) -> bool {
        self.rules.limits_add
    }
    /// How a total above the limit (only under `limits_add`) pays.
    pub fn limits_pay(&self) -> LimitsPay {
        self.rules.limits_pay
    }
    /// Pairs of patterns that exclude each other: where both hold, only the
    /// higher scoring line is kept (the first of the pair on a tie).
    pub fn exclusive(&self) -> &[(PatternId, PatternId)] {
        &self.rules.exclusive
    }
    /// `ruleset_hash`: SHA-256 of the canonical document (before house rules).
    pub fn hash(&self) -> [u8; 32] {
        self.hash
    }

    /// The rule for `id`, if this ruleset scores it.
    pub fn pattern(&self, id: PatternId) -> Option<&PatternRule> {
        match self.tables.index[id.index()] {
            ABSENT => None,
            i => self.rules.patterns.get(i as usize),
        }
    }

    /// An optional rule is in force (an optional pattern, a switch of
    /// `pattern::OPTIONAL_CONDITIONS`, `limits_add`, an `exclusive` pair): no
    /// built-in ruleset has one, and scoring under those never tests them.
    pub fn uses_optional_rules(&self) -> bool {
        self.tables.optional_rules
    }

    /// What a limit pattern of value `v` scores here.
    pub fn limit_value(&self, v: Option<u32>) -> u32 {
        limit_value(&self.rules, v)
    }

    /// Base points at `faan`. Up to the limit, the points table's; above it
    /// (only under `limits_add`) as `limits_pay` says: `once`, the limit's;
    /// `per_limit`, the limit's for each whole limit plus the table's for the
    /// faan left over (wisteria-court: 21 faan = 2 x 128 + 2). `None` above
    /// [`MAX_BASE_POINTS`] (refused, never capped), so every settlement fits an `i64`.
    #[inline]
    pub fn base_points(&self, faan: u32) -> Option<u64> {
        if faan <= self.rules.limit {
            Some(self.table_points(faan))
        } else {
            self.base_points_above_limit(faan)
        }
    }

    /// Base points at the minimum (never above the limit: validated), what
    /// a false win pays on.
    pub fn min_base_points(&self) -> u64 {
        self.table_points(self.rules.min_faan)
    }

    /// The points table's row for `faan` (its last row beyond it).
    #[inline]
    fn table_points(&self, faan: u32) -> u64 {
        let t = &self.rules.points_table;
        let i = (faan.min(self.rules.limit) as usize).min(t.len().saturating_sub(1));
        t.get(i).copied().unwrap_or(0)
    }

    /// A total above the limit (only `limits_add` makes one), kept out of
    /// the path every hand takes.
    #[cold]
    #[inline(never)]
    fn base_points_above_limit(&self, faan: u32) -> Option<u64> {
        let limit = self.rules.limit;
        if !self.rules.limits_add || self.rules.limits_pay == LimitsPay::Once {
            return Some(self.table_points(faan));
        }
        let (whole, rest) = match (faan.checked_div(limit), faan.checked_rem(limit)) {
            (Some(w), Some(r)) => (w, r),
            _ => return Some(self.table_points(faan)),
        };
        let rest = if rest == 0 {
            0
        } else {
            self.table_points(rest)
        };
        self.table_points(limit)
            .checked_mul(u64::from(whole))
            .and_then(|b| b.checked_add(rest))
            .filter(|&b| b <= MAX_BASE_POINTS)
    }
}

/// What a limit pattern of value `v` scores under `rules`.
fn limit_value(rules: &Rules, v: Option<u32>) -> u32 {
    v.unwrap_or(rules.limit_faan).min(rules.limit)
}

/// The flower wins `rules` scores, each with its own pattern's `scores_the_draw`.
fn flower_wins(rules: &Rules) -> FlowerWins {
    let on = |id: PatternId| {
        let p = rules.patterns.iter().find(|p| p.id == id);
        (
            rules.bonus_tiles && p.is_some(),
            p.is_some_and(|p| p.conditions.get(Condition::ScoresTheDraw)),
        )
    };
    let (seven, seven_scores_the_draw) = on(PatternId::SevenFlowers);
    let (eight, eight_scores_the_draw) = on(PatternId::EightFlowers);
    FlowerWins {
        seven,
        eight,
        seven_scores_the_draw,
        eight_scores_the_draw,
    }
}
