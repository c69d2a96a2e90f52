//! `GET /v1/patterns`: the engine's pattern and condition tables
//! (`core::pattern::PATTERNS`, `OPTIONAL` and the `Condition` table), so a
//! client lists every pattern with its names, switches and house-rule
//! containment without hard-coding ids. Written from those tables only: no
//! second list.

use super::document::PatternIdSchema;
use crate::core::pattern::{members, Condition, PatternSet, OPTIONAL, PATTERNS};
use crate::core::WinBy;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One pattern the engine recognises.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct PatternInfoDto {
    /// The contract's id (a ruleset's `[patterns.<id>]`, a line's `pattern`).
    #[schema(value_type = PatternIdSchema, example = "fully_concealed")]
    pub id: String,
    /// The one English name (the same in every ruleset).
    #[schema(example = "Fully concealed hand")]
    pub name: String,
    /// The Traditional Chinese name.
    #[schema(example = "門前清自摸")]
    pub name_zh: String,
    /// The keys of the switches (`conditions`) that apply to it.
    #[schema(example = json!([]))]
    pub conditions: Vec<String>,
    /// What it contains (not scored beside it) when a house rule, or a
    /// document under `extends` without a `contains` of its own, adds it to
    /// a ruleset that does not score it. A ruleset that scores it has its own
    /// list (`GET /v1/rulesets/{id}`).
    #[schema(value_type = Vec<PatternIdSchema>, example = json!(["self_draw", "concealed_hand"]))]
    pub contains_when_added: Vec<String>,
    /// Off in every built-in ruleset (a pattern of other Hong Kong tables):
    /// scored only when a house rule or a document adds it.
    pub optional: bool,
    /// How many times a declared win may list it (a hand can hold three
    /// dragon pungs, two seat flowers, two sets of flowers; every other
    /// pattern once): above 1, it may repeat.
    #[schema(example = 1)]
    pub max_count: u8,
    /// The one `win_by` a hand holding it is won by (a replacement draw is
    /// self-drawn, the earthly hand on a discard), or null for any win; a
    /// client offers it for a declared win only on that one.
    #[schema(example = "self_draw")]
    pub only_on: Option<WinBy>,
    /// It counts bonus tiles (or their absence): it holds only where they are in play.
    pub bonus_tiles: bool,
}

/// One per-ruleset switch (`rulesets/README.md`, "Conditions").
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct ConditionInfoDto {
    /// The key in a ruleset's pattern entry and in `house_rules.conditions`.
    #[schema(example = "four_as_two_pairs")]
    pub key: String,
    /// Its value where a ruleset does not set it.
    pub default: bool,
    /// What `true` means.
    pub description: String,
    /// The patterns it applies to.
    #[schema(value_type = Vec<PatternIdSchema>, example = json!(["seven_pairs"]))]
    pub patterns: Vec<String>,
}

/// GET /v1/patterns: every pattern and every condition, in contract order.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct PatternTable {
    pub patterns: Vec<PatternInfoDto>,
    pub conditions: Vec<ConditionInfoDto>,
}

fn ids(set: PatternSet) -> Vec<String> {
    members(set).map(|id| id.as_str().into()).collect()
}

impl PatternTable {
    /// The engine's tables as the endpoint answers them.
    pub fn build() -> Self {
        let patterns = PATTERNS
            .iter()
            .map(|p| PatternInfoDto {
                id: p.key.into(),
                name: p.name.into(),
                name_zh: p.name_zh.into(),
                conditions: p.conditions.iter().map(|c| c.key().into()).collect(),
                contains_when_added: ids(p.house_contains),
                optional: OPTIONAL & p.id.bit() != 0,
                max_count: p.id.max_declared(),
                only_on: p.id.only_on(),
                bonus_tiles: p.id.needs_bonus_tiles(),
            })
            .collect();
        let conditions = Condition::ALL
            .iter()
            .map(|&c| ConditionInfoDto {
                key: c.key().into(),
                default: c.default_value(),
                description: c.doc().into(),
                patterns: PATTERNS
                    .iter()
                    .filter(|p| p.conditions.contains(&c))
                    .map(|p| p.key.into())
                    .collect(),
            })
            .collect();
        PatternTable {
            patterns,
            conditions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_condition_belongs_to_a_pattern_and_back() {
        let t = PatternTable::build();
        for c in &t.conditions {
            assert!(!c.patterns.is_empty(), "{}: no pattern", c.key);
            for id in &c.patterns {
                let p = t.patterns.iter().find(|p| &p.id == id).unwrap();
                assert!(p.conditions.contains(&c.key), "{id} lists {}", c.key);
            }
        }
        let all_pungs = t.conditions.iter().find(|c| c.key == "all_pungs").unwrap();
        assert_eq!(
            all_pungs.patterns,
            ["jade_dragon", "ruby_dragon", "pearl_dragon"],
            "all_pungs: the three colour dragons, in contract order"
        );
    }
}
