//! `POST /v1/analyze`: a hand before the win (docs/api.md, "Hand
//! analysis: POST /v1/analyze").

use super::common::object_only;
use super::request::{HandDto, HouseRulesDto};
use super::response::{lines_dto, LineDto};
use super::waits::{wait_dtos, WaitContextDto, WaitDto};
use crate::core::analysis::{Acceptance, Analysis, Analyzed, Discard};
use crate::core::chances::Chances;
use crate::core::shanten::Shanten;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use utoipa::ToSchema;

/// POST /v1/analyze: 13 tiles waiting for a draw, or 14 about to discard
/// (a declared meld counting as three, a kong too), no `winning_tile`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest<'a> {
    /// A ruleset id (GET /v1/rulesets lists them) or a ruleset document.
    #[serde(borrow)]
    pub ruleset: super::document::RulesetRef<'a>,
    #[serde(borrow, deserialize_with = "object_only::deserialize")]
    pub hand: HandDto<'a>,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: WaitContextDto,
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
    /// Tiles in sight elsewhere (discards, other players' melds).
    #[serde(borrow, default)]
    #[schema(example = "1z1z9s", value_type = Option<String>)]
    pub seen: Option<Cow<'a, str>>,
    /// The chance of being ready and of winning, and the points expected,
    /// within `draws` more draws.
    #[serde(default, deserialize_with = "object_only::option")]
    pub chances: Option<ChancesRequest>,
}

/// How far ahead to look.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChancesRequest {
    /// Draws the player will still make (1 to 30).
    #[schema(minimum = 1, maximum = 30, example = 12)]
    pub draws: u32,
    /// Whether wins on the three other players' discards count too.
    #[serde(default = "yes")]
    pub discards: bool,
    /// Whether the player may keep a draw that does not lower shanten and
    /// throw another tile instead (docs/analysis.md states the model).
    #[serde(default)]
    pub hand_changes: bool,
    /// Whether the player may also throw a tile that raises shanten by one.
    #[serde(default)]
    pub shanten_down: bool,
    /// With 14 tiles: whether the discards that raise shanten get chances
    /// too; `false` leaves their `chances` out, for a fraction of the work.
    #[serde(default = "yes")]
    pub every_discard: bool,
}

fn yes() -> bool {
    true
}

/// Shanten in each form (0 ready, −1 complete; null where the ruleset does
/// not score the form or the hand has melds).
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct ShantenDto {
    pub standard: i8,
    pub seven_pairs: Option<i8>,
    pub thirteen_orphans: Option<i8>,
    pub best: i8,
}

impl From<Shanten> for ShantenDto {
    fn from(s: Shanten) -> Self {
        ShantenDto {
            standard: s.standard,
            seven_pairs: s.seven_pairs,
            thirteen_orphans: s.thirteen_orphans,
            best: s.best,
        }
    }
}

/// A tile kind whose draw lowers the best shanten.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct AcceptedTile {
    #[schema(example = "6p")]
    pub tile: String,
    /// Copies not in the hand, its melds or `seen`.
    pub unseen: u8,
}

fn accepted(a: &Acceptance) -> Vec<AcceptedTile> {
    a.tiles
        .iter()
        .map(|&(t, unseen)| AcceptedTile {
            tile: t.to_string(),
            unseen,
        })
        .collect()
}

/// The chances of a hand within the draws asked for.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq)]
pub struct ChancesDto {
    /// `ready[t-1]`: the probability of having been ready within `t` draws.
    pub ready: Vec<f64>,
    /// `win[t-1]`: the probability of having won within `t` draws.
    pub win: Vec<f64>,
    /// Points the player expects to collect, in the ruleset's points.
    pub expected_points: f64,
}

impl From<&Chances> for ChancesDto {
    fn from(c: &Chances) -> Self {
        ChancesDto {
            ready: c.ready.clone(),
            win: c.win.clone(),
            expected_points: c.expected_points,
        }
    }
}

/// The hand after one discard.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq)]
pub struct DiscardDto<'a> {
    #[schema(example = "9s")]
    pub tile: String,
    pub shanten: i8,
    pub acceptance: Vec<AcceptedTile>,
    pub acceptance_count: u32,
    /// Where this discard leaves the hand ready: as `POST /v1/waits`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waits: Option<Vec<WaitDto<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chances: Option<ChancesDto>,
}

/// The score of declaring the 14 tiles now, by self-draw.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct CompleteDto<'a> {
    pub lines: Vec<LineDto<'a>>,
    pub total_faan: u32,
    pub meets_minimum: bool,
    pub base_points: u64,
}

/// POST /v1/analyze, 200.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq)]
pub struct AnalyzeResponse<'a> {
    pub ruleset: &'a str,
    pub shanten: ShantenDto,
    /// 13 tiles: the kinds whose draw lowers `shanten.best`, in tile order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acceptance: Option<Vec<AcceptedTile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acceptance_count: Option<u32>,
    /// 13 tiles, ready: as `POST /v1/waits` answers them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waits: Option<Vec<WaitDto<'a>>>,
    /// 14 tiles: one entry per distinct concealed kind, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discards: Option<Vec<DiscardDto<'a>>>,
    /// 14 tiles that already win: declaring them now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complete: Option<CompleteDto<'a>>,
    /// 13 tiles, where asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chances: Option<ChancesDto>,
}

impl<'a> AnalyzeResponse<'a> {
    /// The answer to `a`.
    pub fn new(ruleset_id: &'a str, a: &Analysis) -> Self {
        let mut out = AnalyzeResponse {
            ruleset: ruleset_id,
            shanten: a.shanten.into(),
            acceptance: None,
            acceptance_count: None,
            waits: None,
            discards: None,
            complete: None,
            chances: None,
        };
        match &a.analyzed {
            Analyzed::Drawing {
                acceptance,
                waits,
                chances,
            } => {
                out.acceptance = Some(accepted(acceptance));
                out.acceptance_count = Some(acceptance.count);
                out.waits = waits.as_deref().map(wait_dtos);
                out.chances = chances.as_ref().map(ChancesDto::from);
            }
            Analyzed::Discarding { discards, complete } => {
                let each = |d: &Discard| DiscardDto {
                    tile: d.tile.to_string(),
                    shanten: d.shanten,
                    acceptance: accepted(&d.acceptance),
                    acceptance_count: d.acceptance.count,
                    waits: d.waits.as_deref().map(wait_dtos),
                    chances: d.chances.as_ref().map(ChancesDto::from),
                };
                out.discards = Some(discards.iter().map(each).collect());
                out.complete = complete.as_ref().map(|s| CompleteDto {
                    lines: lines_dto(s.best()),
                    total_faan: s.best().total_faan,
                    meets_minimum: s.meets_minimum,
                    base_points: s.base_points,
                });
            }
        }
        out
    }
}
