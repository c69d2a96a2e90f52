//! `POST /v1/settle`: one to three winners on one discard or robbed kong
//! (`docs/api.md`, "Several winners on one discard"). Each winner is a
//! score request's `hand` and `context`; each result is the one score
//! serializer's answer ([`ScoreResponse`]) with `paid` beside it.

use super::common::{borrowed, object_only, MoneyDto, Payments};
use super::document::PatternIdSchema;
use super::request::{ContextDto, HandDto, HouseRulesDto};
use super::response::{HashHex, LineDto, ScoreResponse};
use crate::core::hand::{FieldError, HandRule};
use crate::core::winners::{DeclaredSpec, WinnerSpec};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
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

/// One winner: a hand and its context, exactly as POST /v1/score takes them, or what the table declared in place of the hand.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WinnerDto<'a> {
    /// The tiles (exactly one of `hand` and `declared`).
    #[serde(borrow, default, deserialize_with = "object_only::option")]
    pub hand: Option<HandDto<'a>>,
    /// What the table counted, in place of the tiles; its context then takes `win_by`, `seat_wind`, `round_wind`, `discarder` and `liable` only.
    #[serde(borrow, default, deserialize_with = "object_only::option")]
    pub declared: Option<DeclaredDto<'a>>,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: ContextDto,
}

impl WinnerDto<'_> {
    /// The core's winner spec, its strings borrowed from this DTO; `at` is
    /// where the winner is (`/winners/0`), for a winner with both or neither
    /// of `hand` and `declared`.
    pub fn to_core(&self, at: &str) -> Result<WinnerSpec<&str>, Box<FieldError>> {
        Ok(WinnerSpec {
            claim: super::ledger::claim(self.hand.as_ref(), self.declared.as_ref(), at)?,
            context: self.context.to_core(),
        })
    }
}

/// A win entered without tiles: exactly one of `faan`, `limit` and `patterns`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclaredDto<'a> {
    /// The faan the table counted (0 to 255); below the minimum it cannot be declared, above the limit it is paid at the limit.
    #[serde(default)]
    pub faan: Option<u8>,
    /// `true`: a limit hand.
    #[serde(default)]
    pub limit: Option<bool>,
    /// Pattern ids (GET /v1/patterns), each counted at the ruleset's value; a pattern with `max_count` above 1 may repeat that often.
    #[serde(borrow, default, deserialize_with = "borrowed::option_vec")]
    #[schema(value_type = Option<Vec<PatternIdSchema>>, example = json!(["mixed_one_suit", "dragon_pung", "dragon_pung"]))]
    pub patterns: Option<Vec<Cow<'a, str>>>,
}

impl DeclaredDto<'_> {
    /// The core's declared win; `at` is the winner's pointer.
    pub fn to_core(&self, at: &str) -> Result<DeclaredSpec<&str>, Box<FieldError>> {
        match (self.faan, self.limit, &self.patterns) {
            (Some(n), None, None) => Ok(DeclaredSpec::Faan(n.into())),
            (None, Some(true), None) => Ok(DeclaredSpec::Limit),
            (None, None, Some(p)) => Ok(DeclaredSpec::Patterns(p.iter().map(|x| &**x).collect())),
            _ => Err(Box::new(FieldError::rule(
                format!("{at}/declared"),
                HandRule::DeclaredOneOf,
            ))),
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
    /// `tiles`: scored from its hand.
    #[schema(schema_with = source_tiles)]
    pub source: &'static str,
}

// `source` tells the two results apart, so that exactly one of `SettledOut`'s
// schemas matches each.
fn source_tiles() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    super::document::schema_of(serde_json::json!({
        "type": "string", "enum": ["tiles"], "description": "`tiles`: scored from its hand."
    }))
}

fn source_declared() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    super::document::schema_of(serde_json::json!({
        "type": "string", "enum": ["declared"], "description": "`declared`: declared without tiles."
    }))
}

/// One winner of a settlement: scored from its tiles, or declared without them.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum SettledOut<'a> {
    Tiles(SettledResult<'a>),
    Declared(DeclaredResult<'a>),
}

/// A declared winner's result: a score result without tiles (no readings, no `hand_hash`), its lines those a scored hand would have for the declared patterns.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct DeclaredResult<'a> {
    pub ruleset: &'a str,
    #[schema(value_type = String)]
    pub ruleset_hash: HashHex,
    /// The faan declared, as sent (`declared.faan`); `total_faan` is what is paid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_faan: Option<u32>,
    pub lines: Vec<LineDto<'a>>,
    pub raw_faan: u32,
    pub total_faan: u32,
    pub limit_hand: bool,
    pub limit: u32,
    pub min_faan: u32,
    pub meets_minimum: bool,
    pub missing_faan: u32,
    pub base_points: u64,
    pub winner: crate::core::Wind,
    pub payments: Payments,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<MoneyDto>,
    pub paid: bool,
    /// `declared`.
    #[schema(schema_with = source_declared)]
    pub source: &'static str,
}

/// POST /v1/settle, 200.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SettleResponse<'a> {
    pub ruleset: &'a str,
    /// One per winner, in request order; each one's own `payments` (paid or not).
    pub results: Vec<SettledOut<'a>>,
    /// The payments of the paid winners summed, by seat (they sum to zero).
    pub payments: Payments,
    /// The money of the paid winners summed, where there is a stake or a chip rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<MoneyDto>,
}

impl<'a> DeclaredResult<'a> {
    /// The result of the declared winner `w` under `ruleset` (house rules applied).
    pub fn new(
        ruleset_id: &'a str,
        ruleset: &crate::core::Ruleset,
        w: &crate::core::winners::WinnerResult,
    ) -> Self {
        let best = w.score.best();
        DeclaredResult {
            ruleset: ruleset_id,
            ruleset_hash: HashHex(ruleset.hash()),
            declared_faan: w.source.declared_faan(),
            lines: super::response::lines_dto(best),
            raw_faan: best.raw_faan,
            total_faan: best.total_faan,
            limit_hand: best.limit_hand,
            limit: ruleset.limit(),
            min_faan: w.score.min_faan,
            meets_minimum: w.score.meets_minimum,
            missing_faan: w.score.missing_faan,
            base_points: w.score.base_points,
            winner: w.context.seat_wind,
            payments: w.score.payments.into(),
            money: super::common::money_of(ruleset, w.score.money_cents),
            paid: w.paid,
            source: w.source.name(),
        }
    }
}
