//! `POST /v1/penalties/false-win`.

use super::common::{money_of, object_only, MoneyDto, Payments};
use super::request::HouseRulesDto;
use crate::core::{Ruleset, Wind};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
/// POST /v1/penalties/false-win.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FalseWinRequest<'a> {
    /// A ruleset id (GET /v1/rulesets lists them) or a ruleset document.
    #[serde(borrow)]
    pub ruleset: super::document::RulesetRef<'a>,
    /// The seat that declared a false win.
    pub offender: Wind,
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

/// POST /v1/penalties/false-win, 200.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct FalseWinResponse {
    pub ruleset: String,
    pub offender: Wind,
    /// The ruleset's minimum faan (after house rules).
    pub min_faan: u32,
    /// Base points at the minimum.
    pub base_points: u64,
    /// Signed points by seat: the offender pays each other player what that player would collect on a self-drawn win at the minimum.
    pub payments: Payments,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<MoneyDto>,
}

impl FalseWinResponse {
    /// `money_cents`: `settle::money` of the payments (its overflow is the caller's to refuse).
    pub fn new(
        ruleset_id: &str,
        r: &Ruleset,
        offender: Wind,
        payments: [i64; 4],
        money_cents: Option<[i64; 4]>,
    ) -> Self {
        FalseWinResponse {
            ruleset: ruleset_id.into(),
            offender,
            min_faan: r.min_faan(),
            base_points: r.min_base_points(),
            payments: payments.into(),
            money: money_of(r, money_cents),
        }
    }
}
