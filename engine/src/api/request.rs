//! The score request (`POST /v1/score`, each batch item, compare) and its
//! house rules, with their conversions to the core's specs.

use super::common::{borrowed, object_only};
use super::document::RulesetRef;
use crate::core::ruleset::{FalseWin, LimitsPay, Number};
use crate::core::{
    ContextSpec, DiscardPayment, FieldError, HandSpec, HouseRuleFields, HouseRules, LiableDiscard,
    MeldKind, MeldSpec, MultipleWinners, PatternOverride, PointsSpec, Replacement, RobbedKong,
    WinBy, Wind,
};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;
use std::fmt;
use utoipa::ToSchema;

/// POST /v1/score: a hand, the circumstances of the win and a ruleset.
// Strings borrow from the body where they can (no copies on the way to the core).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest<'a> {
    /// A ruleset id (GET /v1/rulesets lists them) or a ruleset document.
    #[serde(borrow)]
    pub ruleset: RulesetRef<'a>,
    #[serde(borrow, deserialize_with = "object_only::deserialize")]
    pub hand: HandDto<'a>,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: ContextDto,
    /// Overrides of the ruleset for this request only.
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

/// The tiles of the winning hand.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HandDto<'a> {
    /// The concealed tiles, winning tile included: MPSZ (`234m567m22p`), Unicode mahjong tiles (U+1F000..U+1F021, `🀊🀋🀌`) or both mixed.
    #[serde(borrow)]
    #[schema(example = "234m567m22p", value_type = String)]
    pub tiles: Cow<'a, str>,
    /// Sets declared before the win.
    #[serde(borrow, default, deserialize_with = "object_only::vec")]
    pub melds: Vec<MeldDto<'a>>,
    /// The tile that completed the hand (MPSZ or one Unicode tile); one of `tiles`. Left out only for a flower win.
    #[serde(borrow, default, deserialize_with = "borrowed::option")]
    #[schema(example = "2p", value_type = Option<String>)]
    pub winning_tile: Option<Cow<'a, str>>,
    /// Bonus tiles: `F1`..`F4` (flowers), `S1`..`S4` (seasons), the number being the seat; or their Unicode tiles (U+1F022..U+1F029). At most eight, each once.
    #[serde(borrow, default, deserialize_with = "borrowed::vec")]
    #[schema(example = json!(["F1", "S3"]), value_type = Vec<String>, max_items = 8)]
    pub flowers: Vec<Cow<'a, str>>,
}

/// A set declared before the win.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MeldDto<'a> {
    pub kind: MeldKind,
    /// The meld's tiles: MPSZ (`777z`, `1111s`), Unicode tiles (`🀄🀄🀄`) or both.
    #[serde(borrow)]
    #[schema(example = "777z", value_type = String)]
    pub tiles: Cow<'a, str>,
    /// A kong declared from the hand (not claimed).
    #[serde(default)]
    pub concealed: bool,
    /// A kong promoted from an exposed pung.
    #[serde(default)]
    pub added: bool,
}

/// The circumstances of the win.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextDto {
    pub win_by: WinBy,
    pub seat_wind: Wind,
    pub round_wind: Wind,
    /// The seat that discarded (or added the robbed kong); required for `discard` and `robbing_kong`, rejected for `self_draw`.
    #[serde(default)]
    pub discarder: Option<Wind>,
    #[serde(default)]
    pub replacement: Replacement,
    /// Won on the replacement of a kong made from a kong replacement.
    #[serde(default)]
    pub double_kong: bool,
    /// Won on the last wall tile, or the discard after it.
    #[serde(default)]
    pub last_tile: bool,
    /// Blessing of heaven.
    #[serde(default)]
    pub heavenly: bool,
    /// Blessing of earth.
    #[serde(default)]
    pub earthly: bool,
    /// A seat that pays for everyone (包).
    #[serde(default)]
    pub liable: Option<Wind>,
    /// The hand wins on its seven or eight bonus tiles.
    #[serde(default)]
    pub flower_win: bool,
    /// Robbing a kong: `added` (a promoted pung, the default) or `concealed` (robbed only to complete thirteen orphans).
    #[serde(default)]
    pub robbed_kong: RobbedKong,
    /// The other three copies of the winning tile are in sight (絕章).
    #[serde(default)]
    pub last_of_its_kind: bool,
    /// A second replacement draw: the replacement before the winning one (`kong` or `flower` before a winning flower replacement; `flower` before a winning kong replacement, the flower replacement having completed the kong; `none` by default).
    #[serde(default)]
    pub first_replacement: Replacement,
    /// Won on a discard before drawing a tile of one's own (a non-dealer in the first go-around; 人和).
    #[serde(default)]
    pub first_go_around: bool,
}

/// Overrides of the ruleset for one request (the editable table).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HouseRulesDto {
    #[serde(default)]
    pub min_faan: Option<u32>,
    /// The faan cap.
    #[serde(default)]
    pub limit: Option<u32>,
    /// Are bonus tiles in play.
    #[serde(default)]
    pub flowers: Option<bool>,
    /// `full_spicy`, `half_spicy`, or base points by faan from 0 up to the limit.
    #[serde(default)]
    #[schema(example = "half_spicy")]
    pub points: Option<PointsDto>,
    #[serde(default)]
    pub discard_payment: Option<DiscardPayment>,
    /// Pattern id to faan (a number), `"limit"` (a limit pattern), or `null` (not scored), each id once; applied in id order, whatever the order of the keys.
    #[serde(default)]
    #[schema(value_type = Object, example = json!({"small_four_winds": 6, "seven_pairs": null}))]
    pub patterns: PatternOverrides,
    /// Several winners on one discard: `all` are paid, or `head_bump` (the first after the discarder).
    #[serde(default)]
    pub multiple_winners: Option<MultipleWinners>,
    /// Every payment between the dealer (East) and another seat is multiplied by it (at least 1, a multiple of 1/8).
    #[serde(default)]
    pub dealer_multiplier: Option<f64>,
    /// Money per point (above 0, at most a million, at most six decimal places as written: `1.0000004` is a 422); money is then whole cents.
    #[serde(default, deserialize_with = "exact_stake")]
    pub stake: Option<f64>,
    /// `pays_all`: a liable seat (包) that discards the winning tile pays the whole hand alone; `liable_pays`: the liable seat pays the whole hand in the discarder's place, whoever discards.
    #[serde(default)]
    pub liable_discard: Option<LiableDiscard>,
    /// A match: a winning dealer deals again.
    #[serde(default)]
    pub dealer_keeps_on_win: Option<bool>,
    /// A match: the dealer deals again after a draw.
    #[serde(default)]
    pub dealer_keeps_on_draw: Option<bool>,
    /// Several winners on one discard, under a payment where the other players pay too (classical): `true`, one winner pays another's share; `false` (the default), a winner never pays in a hand it won.
    #[serde(default)]
    pub co_winners_pay: Option<bool>,
    /// The false win's penalty: `"minimum"` (a self-drawn win at the minimum to each of the three), `"limit"` (a self-drawn limit hand to each, 賠三家滿糊), `{"faan": N}` (a self-drawn win of N faan to each) or `{"points": P}` (P points to each).
    #[serde(default)]
    #[schema(value_type = Option<FalseWinDto>)]
    pub false_win: Option<FalseWin>,
    /// Condition key to true or false (`rulesets/README.md`, "Conditions"), set on every pattern it applies to.
    #[serde(default, deserialize_with = "super::common::unique::map")]
    #[schema(example = json!({"four_as_two_pairs": true, "discard_only_in_pair": true}))]
    pub conditions: std::collections::BTreeMap<String, bool>,
    /// Pattern id to the ids it contains, replacing its own list (`{"seven_pairs": []}`: seven pairs stacks with the concealed hand). A chain that comes back to its start is a 422.
    #[serde(default, deserialize_with = "super::common::unique::map")]
    #[schema(example = json!({"seven_pairs": []}))]
    pub contains: std::collections::BTreeMap<String, Vec<String>>,
    /// Pairs of pattern ids that exclude each other: where both hold, only the higher scoring line is kept.
    #[serde(default)]
    #[schema(example = json!([["all_chows", "concealed_hand"]]))]
    pub exclusive: Vec<Vec<String>>,
    /// Limit patterns add to the other lines and the total has no cap.
    #[serde(default)]
    pub limits_add: Option<bool>,
    /// How a total above the limit pays (only under `limits_add`): `per_limit` (each whole limit pays the limit's base points, the faan left over their own) or `once` (the limit's base points at most).
    #[serde(default)]
    pub limits_pay: Option<LimitsPay>,
}

/// `stake` read from the digits of its JSON number (`core::ruleset::stake_decimal`),
/// refused at its pointer when they are not a whole number of millionths
/// (a double cannot hold that decision: `0.1000000000000000000001` reads as
/// 0.1); kept as the double nearest to the exact stake.
pub(super) fn exact_stake<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let raw = Box::<serde_json::value::RawValue>::deserialize(d)?;
    let text = raw.get();
    if text == "null" {
        return Ok(None);
    }
    if !text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        return Err(de::Error::custom(
            "invalid type: expected a number, the money per point",
        ));
    }
    crate::core::ruleset::stake_decimal(text)
        .map(|s| Some(s.as_number()))
        .map_err(de::Error::custom)
}

/// The schema of a false win's penalty (`core::ruleset::FalseWin`, read by its own serde).
pub struct FalseWinDto;

impl FalseWinDto {
    /// The schema as JSON (also a ruleset document's `table.false_win`).
    pub(crate) fn json() -> serde_json::Value {
        serde_json::json!({
            "description": "The false win's penalty: `minimum` (the offender pays each of the three what a self-drawn win at the minimum would pay that player), `limit` (a self-drawn limit hand, 賠三家滿糊), `{\"faan\": N}` (a self-drawn win of N faan, 0 to 255) or `{\"points\": P}` (P points to each, 1 to 2^40).",
            "oneOf": [
                {"type": "string", "enum": ["minimum", "limit"]},
                {"type": "object", "additionalProperties": false, "required": ["faan"],
                 "properties": {"faan": {"type": "integer", "minimum": 0, "maximum": 255}}},
                {"type": "object", "additionalProperties": false, "required": ["points"],
                 "properties": {"points": {"type": "integer", "minimum": 1, "maximum": 1_099_511_627_776u64}}}
            ],
            "example": "limit"
        })
    }
}

impl utoipa::PartialSchema for FalseWinDto {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        super::document::schema_of(Self::json())
    }
}

impl ToSchema for FalseWinDto {}

/// The points curve of a house rule: a curve name, or base points by faan from 0.
// Kept beside the core's `PointsSpec`: serde's untagged enum reads a unit
// variant from `null`, not from its word; and `TableThenLast` is no house rule.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum PointsDto {
    Curve(CurveDto),
    Table(Vec<u64>),
}

/// `full_spicy`: B = 2^faan; `half_spicy`: 1, 2, 4, 8, 16, then x1.5 and x4/3 in turn.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CurveDto {
    FullSpicy,
    HalfSpicy,
}

impl PointsDto {
    pub fn into_core(self) -> PointsSpec {
        match self {
            PointsDto::Curve(CurveDto::FullSpicy) => PointsSpec::FullSpicy,
            PointsDto::Curve(CurveDto::HalfSpicy) => PointsSpec::HalfSpicy,
            PointsDto::Table(t) => PointsSpec::Table(t),
        }
    }
}

/// Pattern overrides in request order; `null` (off) is kept apart from absent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternOverrides(pub Vec<(String, PatternOverride)>);

impl PatternOverrides {
    /// In id order, as `conditions` and `contains` (sorted maps): the key
    /// order of the request decides neither the answer (where an added
    /// pattern's line falls) nor `hand_hash`.
    pub fn in_id_order(self) -> Vec<(String, PatternOverride)> {
        let mut p = self.0;
        p.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        p
    }
}

impl<'de> Deserialize<'de> for PatternOverrides {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PatternOverrides;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of pattern id to a number, \"limit\" or null")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<PatternOverrides, A::Error> {
                let mut out = Vec::new();
                let mut seen = std::collections::HashSet::new();
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        map.next_value_seed(super::common::unique::Repeated(&key))?;
                    }
                    let v = map.next_value::<Option<OverrideValue>>()?;
                    let ov = match v {
                        None => PatternOverride::Off,
                        Some(OverrideValue(ov)) => ov,
                    };
                    out.push((key, ov));
                }
                Ok(PatternOverrides(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// A number or `"limit"`.
struct OverrideValue(PatternOverride);

impl<'de> Deserialize<'de> for OverrideValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = OverrideValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number of faan, \"limit\" or null")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<OverrideValue, E> {
                Ok(OverrideValue(PatternOverride::Faan(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<OverrideValue, E> {
                Ok(OverrideValue(PatternOverride::Faan(
                    i64::try_from(v).unwrap_or(i64::MAX),
                )))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OverrideValue, E> {
                if v == "limit" {
                    Ok(OverrideValue(PatternOverride::Limit))
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// POST /v1/score/batch.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest<'a> {
    /// Score requests; each is checked and scored on its own.
    #[serde(borrow)]
    #[schema(value_type = Vec<ScoreRequest>)]
    pub requests: Vec<&'a serde_json::value::RawValue>,
}

/// POST /v1/compare: a score request with `rulesets` in place of `ruleset`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest<'a> {
    /// A list of rulesets (ids or ruleset documents), or `"all"`.
    #[serde(borrow)]
    #[schema(example = json!(["hkma", "wisteria-court"]))]
    pub rulesets: RulesetsDto<'a>,
    #[serde(borrow, deserialize_with = "object_only::deserialize")]
    pub hand: HandDto<'a>,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: ContextDto,
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

/// `"all"` or a list of rulesets (ids or documents).
#[derive(Clone, Debug)]
pub enum RulesetsDto<'a> {
    List(Vec<RulesetRef<'a>>),
    Word(String),
    /// A list longer than [`MAX_COMPARE`]: how long (its entries are not kept).
    TooMany(usize),
}

/// The most rulesets one compare names (docs/api.md, "Bounds on what
/// one request may cost").
pub const MAX_COMPARE: usize = 32;

impl utoipa::PartialSchema for RulesetsDto<'_> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        super::document::schema_of(serde_json::json!({
            "description": "`\"all\"`, or a list of rulesets: ids or ruleset documents.",
            "oneOf": [
                {"type": "array", "items": {"$ref": "#/components/schemas/RulesetRef"}, "minItems": 1, "maxItems": MAX_COMPARE},
                {"type": "string", "enum": ["all"]}
            ]
        }))
    }
}

impl ToSchema for RulesetsDto<'_> {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::Schema>)>) {
        schemas.push((
            "RulesetRef".into(),
            <RulesetRef as utoipa::PartialSchema>::schema(),
        ));
        <RulesetRef as ToSchema>::schemas(schemas);
    }
}

// By hand: an untagged enum buffers its input, and a document stays the
// request's own bytes (`RawValue`), which only serde_json's reader gives.
impl<'de: 'a, 'a> Deserialize<'de> for RulesetsDto<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = RulesetsDto<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of ruleset ids or documents, or \"all\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(RulesetsDto::Word(v.to_string()))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut list = Vec::new();
                while let Some(r) = seq.next_element::<RulesetRef<'a>>()? {
                    list.push(r);
                    if list.len() > MAX_COMPARE {
                        // Past the cap the rest is only counted.
                        let mut n = list.len();
                        while seq.next_element::<de::IgnoredAny>()?.is_some() {
                            n += 1;
                        }
                        return Ok(RulesetsDto::TooMany(n));
                    }
                }
                Ok(RulesetsDto::List(list))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl HandDto<'_> {
    /// The core's hand spec, its strings borrowed from this DTO.
    pub fn to_core(&self) -> HandSpec<&str> {
        HandSpec {
            tiles: &self.tiles,
            melds: self
                .melds
                .iter()
                .map(|m| MeldSpec {
                    kind: m.kind,
                    tiles: &*m.tiles,
                    concealed: m.concealed,
                    added: m.added,
                })
                .collect(),
            winning_tile: self.winning_tile.as_deref(),
            flowers: self.flowers.iter().map(|f| &**f).collect(),
        }
    }
}

impl ContextDto {
    pub fn to_core(&self) -> ContextSpec {
        ContextSpec {
            win_by: self.win_by,
            seat_wind: self.seat_wind,
            round_wind: self.round_wind,
            discarder: self.discarder,
            replacement: self.replacement,
            double_kong: self.double_kong,
            last_tile: self.last_tile,
            heavenly: self.heavenly,
            earthly: self.earthly,
            liable: self.liable,
            flower_win: self.flower_win,
            robbed_kong: self.robbed_kong,
            last_of_its_kind: self.last_of_its_kind,
            first_replacement: self.first_replacement,
            first_go_around: self.first_go_around,
        }
    }
}

impl HouseRulesDto {
    /// The rules as sent, in the core's types (maps in key order). Written
    /// from every field by name, so a new field does not compile until the
    /// core holds it.
    pub fn to_fields(&self) -> HouseRuleFields {
        let HouseRulesDto {
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
        HouseRuleFields {
            min_faan: *min_faan,
            limit: *limit,
            flowers: *flowers,
            points: points.clone().map(PointsDto::into_core),
            discard_payment: *discard_payment,
            patterns: patterns.clone().in_id_order(),
            multiple_winners: *multiple_winners,
            dealer_multiplier: dealer_multiplier.map(Number),
            stake: stake.map(Number),
            liable_discard: *liable_discard,
            dealer_keeps_on_win: *dealer_keeps_on_win,
            dealer_keeps_on_draw: *dealer_keeps_on_draw,
            co_winners_pay: *co_winners_pay,
            false_win: *false_win,
            conditions: conditions.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            contains: contains
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            exclusive: exclusive.clone(),
            limits_add: *limits_add,
            limits_pay: *limits_pay,
        }
    }
}

/// The checked house rules of a request (each refusal at its
/// `/house_rules/...` pointer).
impl TryFrom<&HouseRulesDto> for HouseRules {
    type Error = Vec<FieldError>;

    fn try_from(dto: &HouseRulesDto) -> Result<Self, Self::Error> {
        HouseRules::try_from(dto.to_fields())
    }
}

/// House rules of an optional DTO (absent: none), checked.
pub fn house_rules(dto: &Option<HouseRulesDto>) -> Result<HouseRules, Vec<FieldError>> {
    match dto {
        None => Ok(HouseRules::default()),
        Some(dto) => HouseRules::try_from(dto),
    }
}
