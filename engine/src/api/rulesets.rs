//! `GET /v1/rulesets` and `GET /v1/rulesets/{id}`: the charts.

use super::common::{money_of, MoneyDto};
use crate::core::ruleset::{FalseWin, LiableDiscard, LimitsPay, MultipleWinners, TableRules};
use crate::core::ruleset::{PatternRule, Value};
use crate::core::Ruleset;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
/// A ruleset in the list.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct RulesetSummary {
    #[schema(example = "wisteria-court")]
    pub id: String,
    pub name: String,
    /// The name in Traditional Chinese (`name` for a document that gives none).
    #[schema(example = "紫藤苑麻雀")]
    pub name_zh: String,
    pub version: u32,
    /// The guide file(s) it comes from.
    pub source: Vec<String>,
    pub summary: String,
    pub min_faan: u32,
    pub limit: u32,
    pub bonus_tiles: bool,
}

impl From<&Ruleset> for RulesetSummary {
    fn from(r: &Ruleset) -> Self {
        RulesetSummary {
            id: r.id().to_string(),
            name: r.name().to_string(),
            name_zh: r.name_zh().unwrap_or(r.name()).to_string(),
            version: r.version(),
            source: r.source().to_vec(),
            summary: r.summary().to_string(),
            min_faan: r.min_faan(),
            limit: r.limit(),
            bonus_tiles: r.bonus_tiles(),
        }
    }
}

/// GET /v1/rulesets.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct RulesetList {
    pub rulesets: Vec<RulesetSummary>,
}

/// A pattern as a ruleset scores it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct PatternDto {
    pub id: String,
    /// The pattern's one English name (the same in every ruleset).
    #[schema(example = "Last tile")]
    pub name: String,
    /// Its Traditional Chinese name.
    #[schema(example = "海底撈月")]
    pub name_zh: String,
    /// The ruleset's guide's own wording (`name` where the guide has none of its own).
    #[schema(example = "Last Draw")]
    pub guide_name: String,
    /// The guide's wording when the win was on a discard, where it differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "Last Discard")]
    pub guide_name_on_discard: Option<String>,
    /// Faan as a number, or `"limit"` for a limit pattern.
    #[schema(schema_with = pattern_value_schema, example = 3)]
    pub value: serde_json::Value,
    /// What the pattern scores: its faan, or the limit value of a limit pattern.
    pub faan: u32,
    pub limit: bool,
    /// Pattern ids this one contains or replaces (not scored beside it).
    pub contains: Vec<String>,
    /// The ruleset's switches for this pattern (only those that apply to it).
    #[schema(value_type = Object)]
    pub conditions: serde_json::Map<String, serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Schema of `PatternDto::value`: a non-negative integer or `"limit"`.
fn pattern_value_schema() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
    Schema::OneOf(
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0)),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some(["limit"])),
            )
            .description(Some(
                "Faan as a number, or `\"limit\"` for a limit pattern.",
            ))
            .build(),
    )
}

fn pattern_dto(r: &Ruleset, p: &PatternRule) -> PatternDto {
    let (value, faan, limit) = match p.value {
        Value::Faan(n) => (serde_json::Value::from(n), n, false),
        Value::Limit(v) => (serde_json::Value::from("limit"), r.limit_value(v), true),
    };
    // The switches that apply to this pattern, as the pattern table lists them.
    let conditions =
        p.id.info()
            .conditions
            .iter()
            .map(|&c| (c.key().to_string(), p.conditions.get(c).into()))
            .collect();
    PatternDto {
        id: p.id.as_str().into(),
        name: p.id.name().into(),
        name_zh: p.id.name_zh().into(),
        guide_name: p.guide_name.as_deref().unwrap_or(p.id.name()).into(),
        guide_name_on_discard: p.guide_name_on_discard.as_deref().map(str::to_string),
        value,
        faan,
        limit,
        contains: crate::core::pattern::members(p.contains)
            .map(|id| id.as_str().into())
            .collect(),
        conditions,
        note: p.note.as_deref().map(str::to_string),
    }
}

/// Base points by faan.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct PointsDtoOut {
    /// `full_spicy`, `half_spicy` or `table`.
    pub curve: String,
    /// Base points for 0, 1, ... faan up to the limit.
    pub table: Vec<u64>,
}

/// Who pays, in multiples of the base points B.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct PaymentDto {
    /// Discard win: the discarder pays this times B.
    pub discarder: f64,
    /// Discard win: each of the two others pays this times B.
    pub others: f64,
    /// Self-draw: each of the three others pays this times B.
    pub self_draw: f64,
    /// `as_discard` (paid as a discard by the player who added the kong) or `adder_pays_all`.
    pub robbing_kong: String,
}

/// GET /v1/rulesets/{id}: the whole chart.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct RulesetDetail {
    pub id: String,
    pub name: String,
    /// The name in Traditional Chinese (`name` for a document that gives none).
    pub name_zh: String,
    pub version: u32,
    pub source: Vec<String>,
    pub summary: String,
    /// Every interpretation made where the guide is silent or ambiguous.
    pub notes: Vec<String>,
    /// The notes in Traditional Chinese (a translation; absent where the ruleset gives none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes_zh: Option<Vec<String>>,
    pub min_faan: u32,
    /// The minimum settings a house rule may choose (empty: any).
    pub min_faan_settings: Vec<u32>,
    pub limit: u32,
    /// What a limit pattern scores.
    pub limit_faan: u32,
    pub bonus_tiles: bool,
    /// Limit patterns add to the other lines and the total has no cap.
    pub limits_add: bool,
    /// How a total above the limit pays (only under `limits_add`).
    pub limits_pay: LimitsPay,
    /// Pairs of patterns that exclude each other: where both hold, only the higher scoring line is kept (the first of the pair on a tie); `[]` when none.
    #[schema(example = json!([["all_chows", "concealed_hand"]]))]
    pub exclusive: Vec<[String; 2]>,
    pub points: PointsDtoOut,
    pub payment: PaymentDto,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<MoneyDto>,
    /// The table's customs (`[table]`): the defaults of the house rules of the same names.
    pub table: TableDto,
    pub patterns: Vec<PatternDto>,
    /// SHA-256 (hex) of the ruleset's canonical document, before house rules: the `ruleset_hash` of its score results.
    pub ruleset_hash: String,
}

/// A ruleset's `[table]` defaults (each is also a house rule).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct TableDto {
    pub multiple_winners: MultipleWinners,
    /// Every payment between the dealer (East) and another seat is multiplied by it.
    #[schema(example = 1.0)]
    pub dealer_multiplier: f64,
    /// Money per point; absent: none (the ruleset's own chip rate, if any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stake: Option<f64>,
    pub liable_discard: LiableDiscard,
    /// A match: a winning dealer deals again.
    pub dealer_keeps_on_win: bool,
    /// A match: the dealer deals again after a draw.
    pub dealer_keeps_on_draw: bool,
    /// Several winners on one discard, under a payment where the other players pay too: one winner pays another's share (`false`: a winner never pays in a hand it won).
    pub co_winners_pay: bool,
    /// The false win's penalty (`minimum`, `limit`, `{"faan": N}` or `{"points": P}`).
    #[schema(value_type = super::request::FalseWinDto)]
    pub false_win: FalseWin,
}

impl From<&TableRules> for TableDto {
    fn from(t: &TableRules) -> Self {
        TableDto {
            multiple_winners: t.multiple_winners,
            dealer_multiplier: f64::from(t.dealer_multiplier) / 8.0,
            stake: t.stake.map(|s| s.as_number()),
            liable_discard: t.liable_discard,
            dealer_keeps_on_win: t.dealer_keeps_on_win,
            dealer_keeps_on_draw: t.dealer_keeps_on_draw,
            co_winners_pay: t.co_winners_pay,
            false_win: t.false_win,
        }
    }
}

impl From<&Ruleset> for RulesetDetail {
    fn from(r: &Ruleset) -> Self {
        let x = |e: u32| f64::from(e) / 8.0;
        RulesetDetail {
            id: r.id().to_string(),
            name: r.name().to_string(),
            name_zh: r.name_zh().unwrap_or(r.name()).to_string(),
            version: r.version(),
            source: r.source().to_vec(),
            summary: r.summary().to_string(),
            notes: r.notes().to_vec(),
            notes_zh: r.notes_zh().map(<[String]>::to_vec),
            min_faan: r.min_faan(),
            min_faan_settings: r.min_faan_settings().to_vec(),
            limit: r.limit(),
            limit_faan: r.limit_faan(),
            bonus_tiles: r.bonus_tiles(),
            limits_add: r.limits_add(),
            limits_pay: r.limits_pay(),
            exclusive: r
                .exclusive()
                .iter()
                .map(|(a, b)| [a.as_str().to_string(), b.as_str().to_string()])
                .collect(),
            points: PointsDtoOut {
                curve: r.points().name().into(),
                table: r.points_table().to_vec(),
            },
            payment: PaymentDto {
                discarder: x(r.payment().discarder),
                others: x(r.payment().others),
                self_draw: x(r.payment().self_draw),
                robbing_kong: r.payment().robbing_kong.name().into(),
            },
            money: money_of(r, None),
            table: TableDto::from(r.table()),
            patterns: r.patterns().iter().map(|p| pattern_dto(r, p)).collect(),
            ruleset_hash: hex::encode(r.hash()),
        }
    }
}
