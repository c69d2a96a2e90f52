//! A change of rules as sent, read into the core's [`HouseRuleChange`]
//! (the core merges it: [`HouseRuleFields::merged`]).
//!
//! [`HouseRuleFields::merged`]: crate::core::HouseRuleFields::merged

use super::super::problem::ProblemError;
use super::super::request::{exact_stake, PatternOverrides, PointsDto};
use crate::core::ruleset::{FalseWin, LimitsPay, Number};
use crate::core::{Change, DiscardPayment, HouseRuleChange, LiableDiscard, MultipleWinners};
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;

/// A change of rules: `HouseRulesDto`'s keys, in its order (serde's
/// refusal of an unknown key lists them so), each absent (kept), `null`
/// (the ruleset's own value again) or a value.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct HouseRuleChangeDto {
    #[serde(default)]
    min_faan: Change<u32>,
    #[serde(default)]
    limit: Change<u32>,
    #[serde(default)]
    flowers: Change<bool>,
    #[serde(default)]
    points: Change<PointsDto>,
    #[serde(default)]
    discard_payment: Change<DiscardPayment>,
    #[serde(default)]
    patterns: Change<PatternOverrides>,
    #[serde(default)]
    multiple_winners: Change<MultipleWinners>,
    #[serde(default)]
    dealer_multiplier: Change<f64>,
    #[serde(default, deserialize_with = "exact_stake_change")]
    stake: Change<f64>,
    #[serde(default)]
    liable_discard: Change<LiableDiscard>,
    #[serde(default)]
    dealer_keeps_on_win: Change<bool>,
    #[serde(default)]
    dealer_keeps_on_draw: Change<bool>,
    #[serde(default)]
    co_winners_pay: Change<bool>,
    #[serde(default)]
    false_win: Change<FalseWin>,
    #[serde(default)]
    conditions: Change<BTreeMap<String, bool>>,
    #[serde(default)]
    contains: Change<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    exclusive: Change<Vec<Vec<String>>>,
    #[serde(default)]
    limits_add: Change<bool>,
    #[serde(default)]
    limits_pay: Change<LimitsPay>,
}

/// `stake` as a request's (its digits checked); `null` resets it.
fn exact_stake_change<'de, D: Deserializer<'de>>(d: D) -> Result<Change<f64>, D::Error> {
    exact_stake(d).map(|s| s.map_or(Change::Reset, Change::Set))
}

impl HouseRuleChangeDto {
    /// The change in the core's types (maps in key order, as a request's
    /// house rules: `HouseRulesDto::to_fields`).
    fn into_core(self) -> HouseRuleChange {
        let HouseRuleChangeDto {
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
        } = self;
        HouseRuleChange {
            co_winners_pay,
            conditions: conditions.map(|m| m.into_iter().collect()),
            contains: contains.map(|m| m.into_iter().collect()),
            dealer_keeps_on_draw,
            dealer_keeps_on_win,
            dealer_multiplier: dealer_multiplier.map(Number),
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
            patterns: patterns.map(PatternOverrides::in_id_order),
            points: points.map(PointsDto::into_core),
            stake: stake.map(Number),
        }
    }
}

/// The change of rules of hand `h` as sent (`None`: `null` or not sent),
/// typed; a key's type error points under `/hands/{h}/house_rules`.
pub(super) fn change_of(
    sent: Option<&serde_json::Value>,
    h: usize,
) -> Result<Option<HouseRuleChange>, ProblemError> {
    use serde_json::Value;
    let at = format!("/hands/{h}/house_rules");
    match sent {
        None | Some(Value::Null) => Ok(None),
        Some(change @ Value::Object(_)) => {
            serde_path_to_error::deserialize::<_, HouseRuleChangeDto>(change)
                .map(|dto| Some(dto.into_core()))
                .map_err(|e| {
                    let pointer = format!("{at}{}", crate::api::json::pointer_of(e.path()));
                    ProblemError::new(pointer, e.into_inner().to_string())
                })
        }
        Some(_) => Err(ProblemError::new(
            at,
            "a change of rules is an object of house rules",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::request::HouseRulesDto;
    use super::*;
    use crate::core::{HouseRuleFields, PatternOverride, PointsSpec};
    use serde_json::json;

    /// A change names a rule to set, a rule to reset (`null`), and a
    /// pattern turned off (its entry's own `null`).
    #[test]
    fn a_change_reads_set_reset_and_an_override_off() {
        let sent =
            json!({"stake": 2, "points": null, "patterns": {"seven_pairs": null, "all_pungs": 4}});
        let change = change_of(Some(&sent), 3)
            .expect("a good change")
            .expect("sent");
        assert_eq!(
            change,
            HouseRuleChange {
                stake: Change::Set(Number(2.0)),
                points: Change::Reset,
                patterns: Change::Set(vec![
                    ("all_pungs".into(), PatternOverride::Faan(4)),
                    ("seven_pairs".into(), PatternOverride::Off),
                ]),
                ..HouseRuleChange::default()
            }
        );
    }

    /// Every house rule, set: what a change's `Set` holds and what the
    /// rules in force hold. Written in full, so a new house rule must
    /// be added here.
    fn every_rule() -> HouseRuleFields {
        HouseRuleFields {
            co_winners_pay: Some(true),
            conditions: vec![("four_as_two_pairs".into(), true)],
            contains: vec![("seven_pairs".into(), vec![])],
            dealer_keeps_on_draw: Some(false),
            dealer_keeps_on_win: Some(false),
            dealer_multiplier: Some(Number(1.5)),
            discard_payment: Some(DiscardPayment::DiscarderPaysAll),
            exclusive: vec![vec!["all_chows".into(), "concealed_hand".into()]],
            false_win: Some(FalseWin::Limit),
            flowers: Some(false),
            liable_discard: Some(LiableDiscard::LiablePays),
            limit: Some(10),
            limits_add: Some(true),
            limits_pay: Some(LimitsPay::Once),
            min_faan: Some(1),
            multiple_winners: Some(MultipleWinners::HeadBump),
            patterns: vec![
                ("all_pungs".into(), PatternOverride::Limit),
                ("seven_pairs".into(), PatternOverride::Off),
            ],
            points: Some(PointsSpec::Table(vec![
                1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192,
            ])),
            stake: Some(Number(0.25)),
        }
    }

    /// The rules in force, every rule set, read back as a request's house
    /// rules to the same rules: each key is written under the name a
    /// request gives it, as a request writes its value.
    #[test]
    fn the_rules_in_force_read_back_as_a_request() {
        let rules = every_rule();
        let text = serde_json::to_string(&rules).unwrap();
        let dto: HouseRulesDto = serde_json::from_str(&text).expect(&text);
        assert_eq!(dto.to_fields(), rules, "{text}");
    }

    /// A change that sets every rule, and one that resets every rule,
    /// read back as sent: each key a change may name is a key of house
    /// rules, and merging the first over nothing gives every rule.
    #[test]
    fn a_change_of_every_rule_reads_back_as_sent() {
        let set = HouseRuleFields::default().merged(&every_change(false));
        assert_eq!(set, every_rule());
        for change in [every_change(false), every_change(true)] {
            let sent = serde_json::to_value(&change).unwrap();
            assert_eq!(change_of(Some(&sent), 0).unwrap(), Some(change), "{sent}");
        }
        assert_eq!(
            every_rule().merged(&every_change(true)),
            HouseRuleFields::default(),
            "every rule reset"
        );
    }

    /// [`every_rule`] as a change that sets each rule, or resets each.
    fn every_change(reset: bool) -> HouseRuleChange {
        fn one<T>(reset: bool, v: Option<T>) -> Change<T> {
            match v {
                Some(v) if !reset => Change::Set(v),
                _ => Change::Reset,
            }
        }
        fn list<T>(reset: bool, v: T) -> Change<T> {
            if reset {
                Change::Reset
            } else {
                Change::Set(v)
            }
        }
        let HouseRuleFields {
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
        } = every_rule();
        HouseRuleChange {
            co_winners_pay: one(reset, co_winners_pay),
            conditions: list(reset, conditions),
            contains: list(reset, contains),
            dealer_keeps_on_draw: one(reset, dealer_keeps_on_draw),
            dealer_keeps_on_win: one(reset, dealer_keeps_on_win),
            dealer_multiplier: one(reset, dealer_multiplier),
            discard_payment: one(reset, discard_payment),
            exclusive: list(reset, exclusive),
            false_win: one(reset, false_win),
            flowers: one(reset, flowers),
            liable_discard: one(reset, liable_discard),
            limit: one(reset, limit),
            limits_add: one(reset, limits_add),
            limits_pay: one(reset, limits_pay),
            min_faan: one(reset, min_faan),
            multiple_winners: one(reset, multiple_winners),
            patterns: list(reset, patterns),
            points: one(reset, points),
            stake: one(reset, stake),
        }
    }

    /// A change naming a rule that is none, even to reset it, is refused
    /// at its key.
    #[test]
    fn an_unknown_rule_is_refused_at_its_key() {
        let e = change_of(Some(&json!({"stak": null})), 1).expect_err("an unknown key");
        assert_eq!(e.pointer, "/hands/1/house_rules/stak");
    }
}
