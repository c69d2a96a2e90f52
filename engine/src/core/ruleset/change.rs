//! A change of house rules during a night, merged over the rules in force
//! ([`HouseRuleFields::merged`]), and how house rules are written: as a
//! request sends them, so that the rules in force read back as a request's.

use super::house::{entries, HouseRuleFields, Number, PatternOverride};
use super::model::{
    DiscardPayment, FalseWin, LiableDiscard, LimitsPay, MultipleWinners, PointsSpec,
};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// One house rule in a change: left as it is, reset (sent as `null`: the
/// ruleset's own value again), or set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Change<T> {
    #[default]
    Keep,
    Reset,
    Set(T),
}

impl<T> Change<T> {
    pub fn is_keep(&self) -> bool {
        matches!(self, Change::Keep)
    }

    /// The change of another type.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Change<U> {
        match self {
            Change::Keep => Change::Keep,
            Change::Reset => Change::Reset,
            Change::Set(v) => Change::Set(f(v)),
        }
    }
}

impl<T: Clone> Change<T> {
    /// A rule of one value after this change.
    fn over(&self, old: &Option<T>) -> Option<T> {
        match self {
            Change::Keep => old.clone(),
            Change::Reset => None,
            Change::Set(v) => Some(v.clone()),
        }
    }
}

impl<T: Clone> Change<Vec<T>> {
    /// A list replaced whole by this change.
    fn whole(&self, old: &[T]) -> Vec<T> {
        match self {
            Change::Keep => old.to_vec(),
            Change::Reset => Vec::new(),
            Change::Set(v) => v.clone(),
        }
    }
}

impl<V: Clone> Change<Vec<(String, V)>> {
    /// A map merged entry by entry: each entry sent replaces the one in
    /// force or is added; the result in key order, as a request's.
    fn entries_over(&self, old: &[(String, V)]) -> Vec<(String, V)> {
        match self {
            Change::Keep => old.to_vec(),
            Change::Reset => Vec::new(),
            Change::Set(new) => {
                let mut m: BTreeMap<&String, &V> = old.iter().map(|(k, v)| (k, v)).collect();
                m.extend(new.iter().map(|(k, v)| (k, v)));
                m.into_iter().map(|(k, v)| (k.clone(), v.clone())).collect()
            }
        }
    }
}

/// Written as sent: `null` for a reset (a kept rule is not written).
impl<T: Serialize> Serialize for Change<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Change::Set(v) => v.serialize(s),
            Change::Keep | Change::Reset => s.serialize_none(),
        }
    }
}

/// Read as sent: `null` resets, a value sets (an absent rule is kept:
/// `#[serde(default)]` where it is read).
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Change<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(d).map(|v| v.map_or(Change::Reset, Change::Set))
    }
}

/// A change of house rules as sent, each rule in the types of
/// [`HouseRuleFields`]. Written back as it was sent, in key order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct HouseRuleChange {
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub co_winners_pay: Change<bool>,
    /// Merged entry by entry.
    #[serde(
        skip_serializing_if = "Change::is_keep",
        serialize_with = "change_entries"
    )]
    pub conditions: Change<Vec<(String, bool)>>,
    /// Merged entry by entry.
    #[serde(
        skip_serializing_if = "Change::is_keep",
        serialize_with = "change_entries"
    )]
    pub contains: Change<Vec<(String, Vec<String>)>>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub dealer_keeps_on_draw: Change<bool>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub dealer_keeps_on_win: Change<bool>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub dealer_multiplier: Change<Number>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub discard_payment: Change<DiscardPayment>,
    /// Replaced whole.
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub exclusive: Change<Vec<Vec<String>>>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub false_win: Change<FalseWin>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub flowers: Change<bool>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub liable_discard: Change<LiableDiscard>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub limit: Change<u32>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub limits_add: Change<bool>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub limits_pay: Change<LimitsPay>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub min_faan: Change<u32>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub multiple_winners: Change<MultipleWinners>,
    /// Merged entry by entry (an entry's own `null` is "not scored").
    #[serde(
        skip_serializing_if = "Change::is_keep",
        serialize_with = "change_entries"
    )]
    pub patterns: Change<Vec<(String, PatternOverride)>>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub points: Change<PointsSpec>,
    #[serde(skip_serializing_if = "Change::is_keep")]
    pub stake: Change<Number>,
}

fn change_entries<S: Serializer, T: Serialize>(
    c: &Change<Vec<(String, T)>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match c {
        Change::Set(list) => entries(list, s),
        Change::Keep | Change::Reset => s.serialize_none(),
    }
}

/// A change of rules in a night as its answer shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleChange {
    /// The hand's index in the night.
    pub hand: usize,
    /// The change as sent (`None`: sent as `null`, or not at all).
    pub sent: Option<HouseRuleChange>,
    /// Every house rule in force after it.
    pub in_force: HouseRuleFields,
}

impl HouseRuleFields {
    /// These rules after `change`. Written from every field of both by
    /// name, so a new house rule does not compile until it says how a
    /// change merges it.
    pub fn merged(&self, change: &HouseRuleChange) -> HouseRuleFields {
        let HouseRuleChange {
            co_winners_pay,
            conditions,
            contains,
            dealer_keeps_on_draw,
            dealer_keeps_on_win,
            dealer_multiplier,
            discard_payment,
            exclusive,
            false_win,
            flowers,
            liable_discard,
            limit,
            limits_add,
            limits_pay,
            min_faan,
            multiple_winners,
            patterns,
            points,
            stake,
        } = change;
        HouseRuleFields {
            co_winners_pay: co_winners_pay.over(&self.co_winners_pay),
            conditions: conditions.entries_over(&self.conditions),
            contains: contains.entries_over(&self.contains),
            dealer_keeps_on_draw: dealer_keeps_on_draw.over(&self.dealer_keeps_on_draw),
            dealer_keeps_on_win: dealer_keeps_on_win.over(&self.dealer_keeps_on_win),
            dealer_multiplier: dealer_multiplier.over(&self.dealer_multiplier),
            discard_payment: discard_payment.over(&self.discard_payment),
            exclusive: exclusive.whole(&self.exclusive),
            false_win: false_win.over(&self.false_win),
            flowers: flowers.over(&self.flowers),
            liable_discard: liable_discard.over(&self.liable_discard),
            limit: limit.over(&self.limit),
            limits_add: limits_add.over(&self.limits_add),
            limits_pay: limits_pay.over(&self.limits_pay),
            min_faan: min_faan.over(&self.min_faan),
            multiple_winners: multiple_winners.over(&self.multiple_winners),
            patterns: patterns.entries_over(&self.patterns),
            points: points.over(&self.points),
            stake: stake.over(&self.stake),
        }
    }
}

/// A whole number as an integer (as a client sends it, and as the
/// canonical document writes numbers), any other as a double.
impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.fract() == 0.0 && v.abs() < 9e15 {
            s.serialize_i64(v as i64)
        } else {
            s.serialize_f64(v)
        }
    }
}

/// A number of faan, `"limit"`, or `null` (not scored).
impl Serialize for PatternOverride {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PatternOverride::Faan(n) => s.serialize_i64(*n),
            PatternOverride::Limit => s.serialize_str("limit"),
            PatternOverride::Off => s.serialize_none(),
        }
    }
}

/// A curve by its name, a table as its base points.
impl Serialize for PointsSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PointsSpec::Table(t) | PointsSpec::TableThenLast(t) => t.serialize(s),
            other => s.serialize_str(other.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns(list: &[(&str, PatternOverride)]) -> Vec<(String, PatternOverride)> {
        list.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    /// A night at a stake of 0.5 with seven pairs off and all pungs at 4;
    /// the change sets the stake to 1, resets the points, sets all pungs
    /// to 5 and adds half flush at 4: the stake replaced, the points gone,
    /// the patterns merged entry by entry in id order.
    #[test]
    fn a_change_merges_rule_by_rule_and_patterns_entry_by_entry() {
        let night = HouseRuleFields {
            stake: Some(Number(0.5)),
            points: Some(PointsSpec::FullSpicy),
            patterns: patterns(&[
                ("all_pungs", PatternOverride::Faan(4)),
                ("seven_pairs", PatternOverride::Off),
            ]),
            exclusive: vec![vec!["all_chows".into(), "concealed_hand".into()]],
            ..HouseRuleFields::default()
        };
        let change = HouseRuleChange {
            stake: Change::Set(Number(1.0)),
            points: Change::Reset,
            patterns: Change::Set(patterns(&[
                ("half_flush", PatternOverride::Faan(4)),
                ("all_pungs", PatternOverride::Faan(5)),
            ])),
            ..HouseRuleChange::default()
        };
        let merged = night.merged(&change);
        assert_eq!(
            merged,
            HouseRuleFields {
                stake: Some(Number(1.0)),
                points: None,
                patterns: patterns(&[
                    ("all_pungs", PatternOverride::Faan(5)),
                    ("half_flush", PatternOverride::Faan(4)),
                    ("seven_pairs", PatternOverride::Off),
                ]),
                exclusive: night.exclusive.clone(),
                ..HouseRuleFields::default()
            }
        );
        assert_eq!(
            night.merged(&HouseRuleChange::default()),
            night,
            "no change"
        );
    }

    /// The rules in force and a change are written as a request sends them:
    /// keys in order, whole numbers as integers, an override off as `null`,
    /// a reset as `null`.
    #[test]
    fn rules_are_written_as_a_request_sends_them() {
        let rules = HouseRuleFields {
            stake: Some(Number(2.0)),
            dealer_multiplier: Some(Number(1.5)),
            points: Some(PointsSpec::Table(vec![1, 2, 4])),
            patterns: patterns(&[
                ("all_pungs", PatternOverride::Limit),
                ("seven_pairs", PatternOverride::Off),
            ]),
            false_win: Some(FalseWin::Faan(5)),
            ..HouseRuleFields::default()
        };
        assert_eq!(
            serde_json::to_string(&rules).unwrap(),
            r#"{"dealer_multiplier":1.5,"false_win":{"faan":5},"patterns":{"all_pungs":"limit","seven_pairs":null},"points":[1,2,4],"stake":2}"#
        );
        let change = HouseRuleChange {
            stake: Change::Reset,
            points: Change::Set(PointsSpec::HalfSpicy),
            ..HouseRuleChange::default()
        };
        assert_eq!(
            serde_json::to_string(&change).unwrap(),
            r#"{"points":"half_spicy","stake":null}"#
        );
    }
}
