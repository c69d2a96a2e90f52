//! `POST /v1/settle`: one to three winners on one discard or robbed kong
//! (`docs/api.md`, "Several winners on one discard"). Each winner is a
//! score request's `hand` and `context`; each result is the one score
//! serializer's answer ([`ScoreResponse`]) with `paid` beside it.

use super::common::{object_only, MoneyDto, Payments};
use super::request::{ContextDto, HandDto, HouseRulesDto};
use super::response::ScoreResponse;
use crate::core::winners::WinnerSpec;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// POST /v1/settle: the winners of one discard under one ruleset.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettleRequest<'a> {
    /// A ruleset id (GET /v1/rulesets lists them) or a ruleset document.
    #[serde(borrow)]
    pub ruleset: super::document::RulesetRef<'a>,
    /// One to three winners, each as in POST /v1/score. Two or more share one discard (or robbed kong): the same `win_by`, `discarder`, `round_wind` and winning tile, on different seats.
    #[serde(borrow, deserialize_with = "object_only::vec")]
    pub winners: Vec<WinnerDto<'a>>,
    /// Overrides of the ruleset for this request only (`multiple_winners`: `all` or `head_bump`).
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

/// One winner: a hand and its context, exactly as POST /v1/score takes them.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WinnerDto<'a> {
    #[serde(borrow, deserialize_with = "object_only::deserialize")]
    pub hand: HandDto<'a>,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: ContextDto,
}

impl WinnerDto<'_> {
    /// The core's winner spec, its strings borrowed from this DTO.
    pub fn to_core(&self) -> WinnerSpec<&str> {
        WinnerSpec {
            hand: self.hand.to_core(),
            context: self.context.to_core(),
        }
    }
}

/// One winner's result: its score, as POST /v1/score answers it, and whether it is paid.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SettledResult<'a> {
    #[serde(flatten)]
    pub score: ScoreResponse<'a>,
    /// The discarder pays this winner: the hand meets the minimum and, under `head_bump`, it is the first winner in turn order after the discarder.
    pub paid: bool,
}

/// POST /v1/settle, 200.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SettleResponse<'a> {
    pub ruleset: &'a str,
    /// One per winner, in request order; each one's own `payments` (paid or not).
    pub results: Vec<SettledResult<'a>>,
    /// The payments of the paid winners summed, by seat (they sum to zero).
    pub payments: Payments,
    /// The money of the paid winners summed, where there is a stake or a chip rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<MoneyDto>,
}
