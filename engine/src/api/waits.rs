//! `POST /v1/waits`.

use super::common::{object_only, Payments};
use super::request::{HandDto, HouseRulesDto};
use super::response::{lines_dto, LineDto};
use crate::core::evaluate::Score;
use crate::core::Wind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
/// POST /v1/waits: a hand one tile short (no `winning_tile`), and the seat.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitsRequest<'a> {
    /// A ruleset id (GET /v1/rulesets lists them) or a ruleset document.
    #[serde(borrow)]
    pub ruleset: super::document::RulesetRef<'a>,
    /// 13 tiles plus one per kong, without `winning_tile`.
    #[serde(borrow, deserialize_with = "object_only::deserialize")]
    pub hand: HandDto<'a>,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: WaitContextDto,
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

/// The circumstances that apply whatever the winning tile (no `win_by`, no `discarder`).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitContextDto {
    pub seat_wind: Wind,
    pub round_wind: Wind,
    /// The win would be on the last wall tile (or the discard after it).
    #[serde(default)]
    pub last_tile: bool,
}

impl WaitContextDto {
    pub fn to_core(&self) -> crate::core::waits::WaitContext {
        crate::core::waits::WaitContext {
            seat_wind: self.seat_wind,
            round_wind: self.round_wind,
            last_tile: self.last_tile,
        }
    }
}

/// The best evaluation of a win on one wait.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct WaitScore<'a> {
    pub lines: Vec<LineDto<'a>>,
    pub total_faan: u32,
    pub meets_minimum: bool,
    pub base_points: u64,
    pub payments: Payments,
}

/// One tile that completes the hand.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct WaitDto<'a> {
    #[schema(example = "5m")]
    pub tile: String,
    /// Copies not in the hand or its melds.
    pub unseen: u8,
    /// The win on a discard from the seat before the winner (null: not a win that way).
    pub discard: Option<WaitScore<'a>>,
    /// The win on a self-draw (null: not a win that way).
    pub self_draw: Option<WaitScore<'a>>,
}

/// POST /v1/waits, 200.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct WaitsResponse<'a> {
    pub ruleset: &'a str,
    /// Every wait, in tile order (empty: the hand is not waiting).
    pub waits: Vec<WaitDto<'a>>,
}

/// The waits as `POST /v1/waits` answers them (and `POST /v1/analyze`).
pub fn wait_dtos<'a>(waits: &[crate::core::waits::Wait]) -> Vec<WaitDto<'a>> {
    waits
        .iter()
        .map(|w| WaitDto {
            tile: w.tile.to_string(),
            unseen: w.unseen,
            discard: w.discard.as_ref().map(wait_score),
            self_draw: w.self_draw.as_ref().map(wait_score),
        })
        .collect()
}

pub(crate) fn wait_score<'a>(s: &Score) -> WaitScore<'a> {
    let best = s.best();
    WaitScore {
        lines: lines_dto(best),
        total_faan: best.total_faan,
        meets_minimum: s.meets_minimum,
        base_points: s.base_points,
        payments: s.payments.into(),
    }
}

impl<'a> WaitsResponse<'a> {
    pub fn new(ruleset_id: &'a str, waits: &[crate::core::waits::Wait]) -> Self {
        WaitsResponse {
            ruleset: ruleset_id,
            waits: wait_dtos(waits),
        }
    }
}
