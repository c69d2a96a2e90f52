//! House rules: a request's overrides of a ruleset, applied over it. The
//! result shares its base's text and (unless a house rule changes them)
//! its patterns, and is compiled anew (`Ruleset::compile`); each rule is
//! checked by the same function a document's is (`check`).

use super::super::hand::FieldError;
use super::super::pattern::{Condition, Conditions, PatternId};
use super::check;
use super::contains::{contains_cycle, contains_cycle_from, first_step};
use super::error::escape_pointer;
use super::model::{
    DiscardPayment, FalseWin, LiableDiscard, LimitsPay, MultipleWinners, PatternRule, PointsSpec,
    Ruleset, Value,
};
use crate::core::echo::Quoted;
use std::sync::Arc;

/// A request's overrides of a ruleset as sent (normalised: maps in key
/// order), before any check: what [`HouseRules`] is made from, and what it
/// shows ([`HouseRules::fields`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HouseRuleFields {
    pub min_faan: Option<u32>,
    pub limit: Option<u32>,
    pub flowers: Option<bool>,
    pub points: Option<PointsSpec>,
    pub discard_payment: Option<DiscardPayment>,
    /// Pattern overrides, applied in this order: a request's are in id
    /// order (`api::HouseRulesDto::to_fields`), so the order of its keys
    /// changes neither the ruleset nor `hand_hash`.
    pub patterns: Vec<(String, PatternOverride)>,
    pub multiple_winners: Option<MultipleWinners>,
    /// A multiple of 1/8 from 1 to 64.
    pub dealer_multiplier: Option<Number>,
    /// Above 0, at most a million, six decimal places.
    pub stake: Option<Number>,
    pub liable_discard: Option<LiableDiscard>,
    pub dealer_keeps_on_win: Option<bool>,
    pub dealer_keeps_on_draw: Option<bool>,
    pub co_winners_pay: Option<bool>,
    pub false_win: Option<FalseWin>,
    /// Condition key to value, set on every pattern of the ruleset it applies
    /// to (a request's in key order).
    pub conditions: Vec<(String, bool)>,
    /// Pattern id to the ids it contains (replacing its own list), a
    /// request's in id order.
    pub contains: Vec<(String, Vec<String>)>,
    /// Pairs of pattern ids that exclude each other (the higher line is kept).
    pub exclusive: Vec<Vec<String>>,
    pub limits_add: Option<bool>,
    pub limits_pay: Option<LimitsPay>,
}

/// House rules whose every rule that needs no ruleset is checked (each by
/// its `check` function, at its `/house_rules/...` pointer): a limit, a
/// multiplier, a stake, a false win's penalty, each pattern id, value,
/// condition key, `contains` list and exclusive pair. What depends on the
/// ruleset (a minimum it offers, its points at the limit, `contains` of a
/// pattern it scores, a chain that comes back) is checked when they are
/// applied, [`Ruleset::with_house_rules`]. Made only by `TryFrom`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HouseRules {
    fields: HouseRuleFields,
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
        let p = |f: &str| format!("/house_rules/{f}");
        let HouseRuleFields {
            limit,
            dealer_multiplier,
            stake,
            false_win,
            patterns,
            conditions,
            contains,
            exclusive,
            // Free of checks of their own: the type holds them, or their
            // check needs the ruleset.
            min_faan: _,
            flowers: _,
            points: _,
            discard_payment: _,
            multiple_winners: _,
            liable_discard: _,
            dealer_keeps_on_win: _,
            dealer_keeps_on_draw: _,
            co_winners_pay: _,
            limits_add: _,
            limits_pay: _,
        } = &fields;
        if let Some(limit) = limit {
            if let Err(m) = check::limit(i64::from(*limit)) {
                errs.push(FieldError::new(p("limit"), m));
            }
        }
        if let Some(Number(v)) = dealer_multiplier {
            if let Err(m) = check::dealer_multiplier(*v) {
                errs.push(FieldError::new(p("dealer_multiplier"), m));
            }
        }
        if let Some(Number(v)) = stake {
            if let Err(m) = check::stake(*v) {
                errs.push(FieldError::new(p("stake"), m));
            }
        }
        if let Some(v) = false_win {
            if let Err(m) = check::false_win(*v) {
                errs.push(FieldError::new(p("false_win"), m));
            }
        }
        for (key, ov) in patterns {
            let ptr = format!("/house_rules/patterns/{}", escape_pointer(key));
            if let Err(m) = check::pattern_id(key) {
                errs.push(FieldError::new(ptr, m));
            } else if let PatternOverride::Faan(n) = ov {
                if let Err(m) = check::faan(*n) {
                    errs.push(FieldError::new(ptr, m));
                }
            }
        }
        for (key, _) in conditions {
            if Condition::from_key(key).is_none() {
                errs.push(unknown_condition(key));
            }
        }
        for (key, list) in contains {
            let ptr = format!("/house_rules/contains/{}", escape_pointer(key));
            let pid = match check::pattern_id(key) {
                Ok(pid) => pid,
                Err(m) => {
                    errs.push(FieldError::new(ptr, m));
                    continue;
                }
            };
            for (i, m) in check::contains_list(list).1 {
                errs.push(FieldError::new(format!("{ptr}/{i}"), m));
            }
            for (i, _) in list.iter().enumerate().filter(|(_, c)| **c == pid.as_str()) {
                errs.push(self_contained(&ptr, i, pid));
            }
        }
        for (i, pair) in exclusive.iter().enumerate() {
            if let Err(problems) = check::exclusive_pair(pair) {
                errs.extend(problems.into_iter().map(|e| exclusive_error(i, e)));
            }
        }
        if errs.is_empty() {
            Ok(HouseRules { fields })
        } else {
            Err(errs)
        }
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
    /// This ruleset with `house` applied, or every reason it cannot be.
    pub fn with_house_rules(&self, house: &HouseRules) -> Result<Ruleset, Vec<FieldError>> {
        let house = &house.fields;
        // Copies the numbers; the text and the patterns are shared (`Arc`).
        let mut r = self.rules().clone();
        let mut errs = Vec::new();
        let p = |f: &str| format!("/house_rules/{f}");
        if let Some(limit) = house.limit {
            match check::limit(i64::from(limit)) {
                Ok(l) => {
                    r.limit = l;
                    r.limit_faan = l;
                }
                Err(m) => errs.push(FieldError::new(p("limit"), m)),
            }
        }
        if let Some(min) = house.min_faan {
            if let Err(m) = check::min_setting(min, &r.about.min_faan_settings, &r.about.id) {
                errs.push(FieldError::new(p("min_faan"), m));
            }
            r.min_faan = min;
        }
        if let Err(m) = check::min_within_limit(r.min_faan, r.limit) {
            let field = if house.min_faan.is_some() {
                "min_faan"
            } else {
                "limit"
            };
            errs.push(FieldError::new(p(field), m));
        }
        if let Some(f) = house.flowers {
            r.bonus_tiles = f;
        }
        if let Some(points) = &house.points {
            r.points = points.clone();
        }
        // The base's table holds for its own limit and points.
        if house.limit.is_some() || house.points.is_some() {
            match check::points_table(&r.points, r.limit) {
                Ok(t) => r.points_table = t.into(),
                Err(m) => {
                    let field = if house.points.is_some() {
                        "points"
                    } else {
                        "limit"
                    };
                    errs.push(FieldError::new(p(field), m));
                }
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
            match check::dealer_multiplier(v) {
                Ok(e) => t.dealer_multiplier = e,
                Err(m) => errs.push(FieldError::new(p("dealer_multiplier"), m)),
            }
        }
        if let Some(Number(v)) = house.stake {
            match check::stake(v) {
                Ok(s) => t.stake = Some(s),
                Err(m) => errs.push(FieldError::new(p("stake"), m)),
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
        if let Some(v) = house.false_win {
            match check::false_win(v) {
                Ok(v) => t.false_win = v,
                Err(m) => errs.push(FieldError::new(p("false_win"), m)),
            }
        }
        if !house.patterns.is_empty() || !house.conditions.is_empty() || !house.contains.is_empty()
        {
            patterns(Arc::make_mut(&mut r.patterns), house, self.id(), &mut errs);
        }
        if let Some(v) = house.limits_add {
            r.limits_add = v;
        }
        if let Some(v) = house.limits_pay {
            r.limits_pay = v;
        }
        for (i, pair) in house.exclusive.iter().enumerate() {
            match check::exclusive_pair(pair) {
                Ok(pair) => r.exclusive.push(pair),
                Err(problems) => errs.extend(problems.into_iter().map(|e| exclusive_error(i, e))),
            }
        }
        if errs.is_empty() {
            Ok(Ruleset::compile(r, self.hash()))
        } else {
            Err(errs)
        }
    }
}

/// The house rules of patterns (`patterns`, `conditions`, `contains`) over
/// `r`'s patterns, a ruleset `id` scores.
fn patterns(
    r: &mut Vec<PatternRule>,
    house: &HouseRuleFields,
    id: &str,
    errs: &mut Vec<FieldError>,
) {
    for (key, ov) in &house.patterns {
        let ptr = format!("/house_rules/patterns/{}", escape_pointer(key));
        let pid = match check::pattern_id(key) {
            Ok(pid) => pid,
            Err(m) => {
                errs.push(FieldError::new(ptr, m));
                continue;
            }
        };
        let existing = r.iter().position(|x| x.id == pid);
        let value = match *ov {
            PatternOverride::Off => {
                if let Some(i) = existing {
                    r.remove(i);
                }
                continue;
            }
            PatternOverride::Limit => Value::Limit(None),
            PatternOverride::Faan(n) => match check::faan(n) {
                Ok(v) => Value::Faan(v),
                Err(m) => {
                    errs.push(FieldError::new(ptr, m));
                    continue;
                }
            },
        };
        match existing {
            Some(i) => r[i].value = value,
            None => r.push(PatternRule {
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
    for (key, value) in &house.conditions {
        let Some(c) = Condition::from_key(key) else {
            errs.push(unknown_condition(key));
            continue;
        };
        // A condition belongs to its patterns: set it on each this ruleset
        // scores (after house rules added theirs).
        for p in r.iter_mut() {
            if p.id.info().conditions.contains(&c) {
                p.conditions.set(c, *value);
            }
        }
    }
    for (key, list) in &house.contains {
        let ptr = format!("/house_rules/contains/{}", escape_pointer(key));
        let pid = match check::pattern_id(key) {
            Ok(pid) => pid,
            Err(m) => {
                errs.push(FieldError::new(ptr, m));
                continue;
            }
        };
        let (mut set, bad) = check::contains_list(list);
        for (i, m) in bad {
            errs.push(FieldError::new(format!("{ptr}/{i}"), m));
        }
        // Listing itself is the request's own one-step loop: said at the entry.
        for (i, _) in list.iter().enumerate().filter(|(_, c)| **c == pid.as_str()) {
            errs.push(self_contained(&ptr, i, pid));
            set &= !pid.bit();
        }
        match r.iter_mut().find(|p| p.id == pid) {
            Some(p) => p.contains = set,
            None => errs.push(FieldError::new(
                ptr,
                format!("{id} does not score {pid}: add it in house_rules.patterns first"),
            )),
        }
    }
    if !house.contains.is_empty() {
        if let Some((cid, via)) = contains_cycle(r) {
            // Point at a pattern the request rewrote that lies on the chain.
            let on_chain = |k: &String| {
                k.parse::<PatternId>()
                    .is_ok_and(|k| contains_cycle_from(r, k))
            };
            let at = house.contains.iter().map(|(k, _)| k).find(|k| on_chain(k));
            let (cid, via) = match at.and_then(|k| k.parse::<PatternId>().ok()) {
                Some(k) => (k, first_step(r, k).unwrap_or(via)),
                None => (cid, via),
            };
            errs.push(FieldError::new(
                format!("/house_rules/contains/{cid}"),
                format!("{cid} would contain itself through {via}: a chain of contains must not come back to where it starts"),
            ));
        }
    }
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
