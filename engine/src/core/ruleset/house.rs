//! House rules: a request's overrides of a ruleset, applied over it. The
//! result shares its base's text and (unless a house rule changes them)
//! its patterns, and is compiled anew (`Ruleset::compile`); each rule is
//! checked by the same function a document's is (`check`).

use super::super::hand::FieldError;
use super::super::pattern::{Condition, Conditions, PatternId, PatternSet};
use super::check;
use super::contains::{contains_cycle, contains_cycle_from, first_step};
use super::error::escape_pointer;
use super::model::{
    DiscardPayment, FalseWin, LiableDiscard, LimitsPay, MultipleWinners, PatternRule, PointsSpec,
    Ruleset, Stake, Value,
};
use crate::core::echo::Quoted;
use serde::{Serialize, Serializer};
use std::sync::Arc;

/// A request's overrides of a ruleset as sent (normalised: maps in key
/// order), before any check: what [`HouseRules`] is made from, and what it
/// shows ([`HouseRules::fields`]). It serializes as a request's
/// `house_rules` (the ledger's `in_force`): each rule set, in key order,
/// which is why the fields are declared in that order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct HouseRuleFields {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub co_winners_pay: Option<bool>,
    /// Condition key to value, set on every pattern of the ruleset it applies
    /// to (a request's in key order).
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "entries")]
    pub conditions: Vec<(String, bool)>,
    /// Pattern id to the ids it contains (replacing its own list), a
    /// request's in id order.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "entries")]
    pub contains: Vec<(String, Vec<String>)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealer_keeps_on_draw: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealer_keeps_on_win: Option<bool>,
    /// A multiple of 1/8 from 1 to 64.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealer_multiplier: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discard_payment: Option<DiscardPayment>,
    /// Pairs of pattern ids that exclude each other (the higher line is kept).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclusive: Vec<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub false_win: Option<FalseWin>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flowers: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub liable_discard: Option<LiableDiscard>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits_add: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits_pay: Option<LimitsPay>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_faan: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multiple_winners: Option<MultipleWinners>,
    /// Pattern overrides, applied in this order: a request's are in id
    /// order (`api::HouseRulesDto::to_fields`), so the order of its keys
    /// changes neither the ruleset nor `hand_hash`.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "entries")]
    pub patterns: Vec<(String, PatternOverride)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<PointsSpec>,
    /// Above 0, at most a million, six decimal places.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stake: Option<Number>,
}

/// Key-value pairs written as an object.
pub(super) fn entries<S: Serializer, T: Serialize>(
    list: &[(String, T)],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(list.iter().map(|(k, v)| (k, v)))
}

/// House rules whose every rule that needs no ruleset is checked (each by
/// its `check` function, at its `/house_rules/...` pointer) and kept parsed:
/// a limit, a multiplier, a stake, a false win's penalty, each pattern id,
/// value, condition key, `contains` list and exclusive pair. What depends
/// on the ruleset (a minimum it offers, its points at the limit,
/// `contains` of a pattern it scores, a chain that comes back) is checked
/// when they are applied, [`Ruleset::with_house_rules`]. Made only by
/// `TryFrom`.
#[derive(Clone, Debug, Default)]
pub struct HouseRules {
    fields: HouseRuleFields,
    parsed: Parsed,
}

/// House rules in the ruleset's own types, as `TryFrom` checked them.
#[derive(Clone, Debug, Default)]
struct Parsed {
    min_faan: Option<u32>,
    limit: Option<u32>,
    flowers: Option<bool>,
    points: Option<PointsSpec>,
    discard_payment: Option<DiscardPayment>,
    /// Each pattern's new value in id order; `None`: not scored.
    patterns: Vec<(PatternId, Option<Value>)>,
    multiple_winners: Option<MultipleWinners>,
    /// In eighths.
    dealer_multiplier: Option<u32>,
    stake: Option<Stake>,
    liable_discard: Option<LiableDiscard>,
    dealer_keeps_on_win: Option<bool>,
    dealer_keeps_on_draw: Option<bool>,
    co_winners_pay: Option<bool>,
    false_win: Option<FalseWin>,
    conditions: Vec<(Condition, bool)>,
    /// Each pattern's new list, with the id it was sent under (a cycle is
    /// reported at one of them).
    contains: Vec<(PatternId, PatternSet)>,
    exclusive: Vec<(PatternId, PatternId)>,
    limits_add: Option<bool>,
    limits_pay: Option<LimitsPay>,
}

// Equal and hashed by what was sent: what is parsed follows from it.
impl PartialEq for HouseRules {
    fn eq(&self, other: &Self) -> bool {
        self.fields == other.fields
    }
}

impl Eq for HouseRules {}

impl std::hash::Hash for HouseRules {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.fields.hash(h);
    }
}

impl HouseRules {
    /// The rules as sent (read only: the cache key and the ledger's
    /// `in_force` are written from them).
    pub fn fields(&self) -> &HouseRuleFields {
        &self.fields
    }

    /// No rule set: the ruleset as it is.
    pub fn is_empty(&self) -> bool {
        self.fields == HouseRuleFields::default()
    }
}

impl TryFrom<HouseRuleFields> for HouseRules {
    type Error = Vec<FieldError>;

    fn try_from(fields: HouseRuleFields) -> Result<Self, Self::Error> {
        let mut errs = Vec::new();
        let HouseRuleFields {
            min_faan,
            limit,
            flowers,
            points,
            discard_payment,
            patterns,
            multiple_winners,
            dealer_multiplier,
            stake,
            liable_discard,
            dealer_keeps_on_win,
            dealer_keeps_on_draw,
            co_winners_pay,
            false_win,
            conditions,
            contains,
            exclusive,
            limits_add,
            limits_pay,
        } = &fields;
        let e = &mut errs;
        let limit = limit.and_then(|v| checked(e, "limit", check::limit(i64::from(v))));
        let dealer_multiplier = dealer_multiplier
            .and_then(|Number(v)| checked(e, "dealer_multiplier", check::dealer_multiplier(v)));
        let stake = stake.and_then(|Number(v)| checked(e, "stake", check::stake(v)));
        let false_win = false_win.and_then(|v| checked(e, "false_win", check::false_win(v)));
        let mut parsed_patterns = Vec::with_capacity(patterns.len());
        for (key, ov) in patterns {
            let ptr = format!("/house_rules/patterns/{}", escape_pointer(key));
            let value = check::pattern_id(key).and_then(|pid| match *ov {
                PatternOverride::Off => Ok((pid, None)),
                PatternOverride::Limit => Ok((pid, Some(Value::Limit(None)))),
                PatternOverride::Faan(n) => check::faan(n).map(|v| (pid, Some(Value::Faan(v)))),
            });
            match value {
                Ok(v) => parsed_patterns.push(v),
                Err(m) => errs.push(FieldError::new(ptr, m)),
            }
        }
        let mut parsed_conditions = Vec::with_capacity(conditions.len());
        for (key, value) in conditions {
            match Condition::from_key(key) {
                Some(c) => parsed_conditions.push((c, *value)),
                None => errs.push(unknown_condition(key)),
            }
        }
        let mut parsed_contains = Vec::with_capacity(contains.len());
        for (key, list) in contains {
            let ptr = format!("/house_rules/contains/{}", escape_pointer(key));
            let pid = match check::pattern_id(key) {
                Ok(pid) => pid,
                Err(m) => {
                    errs.push(FieldError::new(ptr, m));
                    continue;
                }
            };
            let (set, bad) = check::contains_list(list);
            for (i, m) in bad {
                errs.push(FieldError::new(format!("{ptr}/{i}"), m));
            }
            // Listing itself is the request's own one-step loop: said at the entry.
            for (i, _) in list.iter().enumerate().filter(|(_, c)| **c == pid.as_str()) {
                errs.push(self_contained(&ptr, i, pid));
            }
            parsed_contains.push((pid, set));
        }
        let mut parsed_exclusive = Vec::with_capacity(exclusive.len());
        for (i, pair) in exclusive.iter().enumerate() {
            match check::exclusive_pair(pair) {
                Ok(pair) => parsed_exclusive.push(pair),
                Err(problems) => errs.extend(problems.into_iter().map(|e| exclusive_error(i, e))),
            }
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        let parsed = Parsed {
            min_faan: *min_faan,
            limit,
            flowers: *flowers,
            points: points.clone(),
            discard_payment: *discard_payment,
            patterns: parsed_patterns,
            multiple_winners: *multiple_winners,
            dealer_multiplier,
            stake,
            liable_discard: *liable_discard,
            dealer_keeps_on_win: *dealer_keeps_on_win,
            dealer_keeps_on_draw: *dealer_keeps_on_draw,
            co_winners_pay: *co_winners_pay,
            false_win,
            conditions: parsed_conditions,
            contains: parsed_contains,
            exclusive: parsed_exclusive,
            limits_add: *limits_add,
            limits_pay: *limits_pay,
        };
        Ok(HouseRules { fields, parsed })
    }
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

/// A house override of one pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternOverride {
    Faan(i64),
    /// Make it a limit pattern at the ruleset's limit.
    Limit,
    /// Do not score it.
    Off,
}

impl Ruleset {
    /// This ruleset with `house` applied, or every reason it cannot be
    /// (only what depends on this ruleset: `TryFrom` checked the rest).
    pub fn with_house_rules(&self, house: &HouseRules) -> Result<Ruleset, Vec<FieldError>> {
        let Parsed {
            min_faan,
            limit,
            flowers,
            points,
            discard_payment,
            patterns,
            multiple_winners,
            dealer_multiplier,
            stake,
            liable_discard,
            dealer_keeps_on_win,
            dealer_keeps_on_draw,
            co_winners_pay,
            false_win,
            conditions,
            contains,
            exclusive,
            limits_add,
            limits_pay,
        } = &house.parsed;
        // Copies the numbers; the text and the patterns are shared (`Arc`).
        let mut r = self.rules().clone();
        let mut errs = Vec::new();
        let p = |f: &str| format!("/house_rules/{f}");
        if let Some(l) = *limit {
            r.limit = l;
            r.limit_faan = l;
        }
        if let Some(min) = *min_faan {
            if let Err(m) = check::min_setting(min, &r.about.min_faan_settings, &r.about.id) {
                errs.push(FieldError::new(p("min_faan"), m));
            }
            r.min_faan = min;
        }
        if let Err(m) = check::min_within_limit(r.min_faan, r.limit) {
            let field = if min_faan.is_some() {
                "min_faan"
            } else {
                "limit"
            };
            errs.push(FieldError::new(p(field), m));
        }
        if let Some(f) = *flowers {
            r.bonus_tiles = f;
        }
        if let Some(points) = points {
            r.points = points.clone();
        }
        // The base's table holds for its own limit and points.
        if limit.is_some() || points.is_some() {
            match check::points_table(&r.points, r.limit) {
                Ok(t) => r.points_table = t.into(),
                Err(m) => {
                    let field = if points.is_some() { "points" } else { "limit" };
                    errs.push(FieldError::new(p(field), m));
                }
            }
        }
        if let Some(d) = *discard_payment {
            r.payment = r.payment.with_discard(d);
        }
        let t = &mut r.table;
        if let Some(m) = *multiple_winners {
            t.multiple_winners = m;
        }
        if let Some(e) = *dealer_multiplier {
            t.dealer_multiplier = e;
        }
        if let Some(s) = *stake {
            t.stake = Some(s);
        }
        if let Some(l) = *liable_discard {
            t.liable_discard = l;
        }
        if let Some(k) = *dealer_keeps_on_win {
            t.dealer_keeps_on_win = k;
        }
        if let Some(k) = *dealer_keeps_on_draw {
            t.dealer_keeps_on_draw = k;
        }
        if let Some(k) = *co_winners_pay {
            t.co_winners_pay = k;
        }
        if let Some(v) = *false_win {
            t.false_win = v;
        }
        if !patterns.is_empty() || !conditions.is_empty() || !contains.is_empty() {
            let r = Arc::make_mut(&mut r.patterns);
            set_patterns(r, patterns, conditions);
            set_contains(r, contains, self.id(), &mut errs);
        }
        if let Some(v) = *limits_add {
            r.limits_add = v;
        }
        if let Some(v) = *limits_pay {
            r.limits_pay = v;
        }
        r.exclusive.extend_from_slice(exclusive);
        if errs.is_empty() {
            Ok(Ruleset::compile(r, self.hash()))
        } else {
            Err(errs)
        }
    }
}

/// The house rules of patterns' values (`patterns`) and `conditions` over
/// `r`'s patterns.
fn set_patterns(
    r: &mut Vec<PatternRule>,
    patterns: &[(PatternId, Option<Value>)],
    conditions: &[(Condition, bool)],
) {
    for &(pid, value) in patterns {
        let existing = r.iter().position(|x| x.id == pid);
        match (existing, value) {
            (Some(i), None) => {
                r.remove(i);
            }
            (None, None) => {}
            (Some(i), Some(value)) => r[i].value = value,
            (None, Some(value)) => r.push(PatternRule {
                id: pid,
                guide_name: None,
                guide_name_on_discard: None,
                value,
                contains: pid.info().house_contains,
                conditions: Conditions::default(),
                note: Some("added by a house rule".into()),
            }),
        }
    }
    for &(c, value) in conditions {
        // A condition belongs to its patterns: set it on each this ruleset
        // scores (after house rules added theirs).
        for p in r.iter_mut() {
            if p.id.info().conditions.contains(&c) {
                p.conditions.set(c, value);
            }
        }
    }
}

/// The house rules of `contains` over `r`'s patterns, a ruleset `id`
/// scores: each of a pattern it scores, and no chain that comes back.
fn set_contains(
    r: &mut [PatternRule],
    contains: &[(PatternId, PatternSet)],
    id: &str,
    errs: &mut Vec<FieldError>,
) {
    for &(pid, set) in contains {
        match r.iter_mut().find(|p| p.id == pid) {
            Some(p) => p.contains = set,
            None => errs.push(FieldError::new(
                format!("/house_rules/contains/{}", escape_pointer(pid.as_str())),
                format!("{id} does not score {pid}: add it in house_rules.patterns first"),
            )),
        }
    }
    if contains.is_empty() {
        return;
    }
    if let Some((cid, via)) = contains_cycle(r) {
        // Point at a pattern the request rewrote that lies on the chain.
        let at = contains
            .iter()
            .map(|(k, _)| *k)
            .find(|k| contains_cycle_from(r, *k));
        let (cid, via) = match at {
            Some(k) => (k, first_step(r, k).unwrap_or(via)),
            None => (cid, via),
        };
        errs.push(FieldError::new(
            format!("/house_rules/contains/{cid}"),
            format!("{cid} would contain itself through {via}: a chain of contains must not come back to where it starts"),
        ));
    }
}

/// A rule's checked value, or `None` with its refusal at `/house_rules/{field}`.
fn checked<T>(errs: &mut Vec<FieldError>, field: &str, r: Result<T, String>) -> Option<T> {
    r.map_err(|m| errs.push(FieldError::new(format!("/house_rules/{field}"), m)))
        .ok()
}

fn unknown_condition(key: &str) -> FieldError {
    let known: Vec<&str> = Condition::ALL.iter().map(|c| c.key()).collect();
    FieldError::new(
        format!("/house_rules/conditions/{}", escape_pointer(key)),
        format!(
            "unknown condition {}; known: {}",
            Quoted(key),
            known.join(", ")
        ),
    )
}

/// Listing itself is the request's own one-step loop: said at the entry.
fn self_contained(ptr: &str, i: usize, pid: PatternId) -> FieldError {
    FieldError::new(format!("{ptr}/{i}"), format!("{pid} cannot contain itself"))
}

fn exclusive_error(i: usize, e: check::PairError) -> FieldError {
    let at = match e.at {
        None => format!("/house_rules/exclusive/{i}"),
        Some(j) => format!("/house_rules/exclusive/{i}/{j}"),
    };
    FieldError::new(at, e.message)
}

/// Checks and applies house rules as sent: what a request's go through
/// (`HouseRules::try_from`, then [`Ruleset::with_house_rules`]), for the
/// tests that write them as the core's fields.
#[cfg(test)]
pub(crate) trait WithHouse {
    fn with_house(&self, fields: &HouseRuleFields) -> Result<Ruleset, Vec<FieldError>>;
}

#[cfg(test)]
impl WithHouse for Ruleset {
    fn with_house(&self, fields: &HouseRuleFields) -> Result<Ruleset, Vec<FieldError>> {
        HouseRules::try_from(fields.clone()).and_then(|h| self.with_house_rules(&h))
    }
}
