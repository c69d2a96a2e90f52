//! A change of rules merged over the rules in force, key by key.

use super::super::problem::ProblemError;
use super::super::request::HouseRulesDto;
use crate::core::HouseRuleFields;

/// Merges a change of rules (`sent`, hand `h`) into the rules in force
/// `night`, key by key: a key replaces the one in force, `null` removes it
/// (the ruleset's own value again), and the maps `patterns`, `conditions`
/// and `contains` merge entry by entry. Answers the merged rules, typed;
/// the key's type errors point under `/hands/{h}/house_rules`.
pub(super) fn merge_change(
    night: &mut serde_json::Map<String, serde_json::Value>,
    sent: &serde_json::Value,
    h: usize,
) -> Result<HouseRuleFields, ProblemError> {
    use serde_json::Value;
    let at = format!("/hands/{h}/house_rules");
    let change = match sent {
        Value::Object(m) => m,
        Value::Null => &serde_json::Map::new(),
        _ => {
            return Err(ProblemError::new(
                at,
                "a change of rules is an object of house rules",
            ))
        }
    };
    // The change alone, typed (its nulls are removals, not values).
    let set: serde_json::Map<String, Value> = change
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let set = Value::Object(set);
    if let Err(e) = serde_path_to_error::deserialize::<_, HouseRulesDto>(&set) {
        let pointer = format!("{at}{}", crate::api::json::pointer_of(e.path()));
        return Err(ProblemError::new(pointer, e.into_inner().to_string()));
    }
    // Unknown keys set to null are refused as the typed read refuses others.
    if let Some(k) = change
        .keys()
        .find(|k| !HOUSE_RULE_KEYS.contains(&k.as_str()))
    {
        return Err(ProblemError::new(
            format!("{at}/{}", crate::core::ruleset::escape_pointer(k)),
            format!("unknown house rule {k:?}"),
        ));
    }
    for (k, v) in change {
        match (night.get_mut(k), v) {
            (_, Value::Null) => {
                night.remove(k);
            }
            (Some(Value::Object(old)), Value::Object(new))
                if matches!(k.as_str(), "patterns" | "conditions" | "contains") =>
            {
                for (id, x) in new {
                    // A later override of one pattern replaces the earlier, in request order.
                    old.remove(id);
                    old.insert(id.clone(), x.clone());
                }
            }
            _ => {
                night.insert(k.clone(), v.clone());
            }
        }
    }
    let merged: HouseRulesDto = serde_json::from_value(Value::Object(night.clone()))
        .map_err(|e| ProblemError::new(at, e.to_string()))?;
    Ok(merged.to_fields())
}

/// Every key of `house_rules` (`HouseRulesDto`).
const HOUSE_RULE_KEYS: &[&str] = &[
    "min_faan",
    "limit",
    "flowers",
    "points",
    "discard_payment",
    "patterns",
    "multiple_winners",
    "dealer_multiplier",
    "stake",
    "liable_discard",
    "dealer_keeps_on_win",
    "dealer_keeps_on_draw",
    "co_winners_pay",
    "false_win",
    "conditions",
    "contains",
    "exclusive",
    "limits_add",
    "limits_pay",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys a change of rules may name are exactly `HouseRulesDto`'s
    /// fields: serde's refusal of an unknown key lists them.
    #[test]
    fn the_house_rule_keys_are_the_dtos_fields() {
        let err = serde_json::from_value::<HouseRulesDto>(serde_json::json!({"no_such_rule": 1}))
            .expect_err("an unknown key");
        let text = err.to_string();
        let listed: Vec<&str> = text
            .split("expected one of ")
            .nth(1)
            .expect("the fields listed")
            .split(", ")
            .map(|k| k.trim_matches('`'))
            .collect();
        assert_eq!(listed, HOUSE_RULE_KEYS, "{text}");
    }
}
