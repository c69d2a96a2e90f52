//! Request and response bodies of the v1 API (`shared/api-contract.md`),
//! with their conversions to and from the core types. No scoring here.

use crate::core::decompose::{Form, Reading, Set, SetKind, WinPlace};
use crate::core::evaluate::{Score, ScoredReading};
use crate::core::pattern::PatternId;
use crate::core::ruleset::{Money, PatternRule, RobbingKongPayment, Value};
use crate::core::{
    ContextSpec, DiscardPayment, HandSpec, HouseRules, MeldKind, MeldSpec, PatternOverride,
    PointsSpec, Replacement, Ruleset, WinBy, Wind,
};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;
use utoipa::ToSchema;

// ------------------------------------------------------ objects only

/// serde's derived `Deserialize` for a struct also accepts a JSON array (the
/// fields by position), so `"house_rules": [1]` would read as `min_faan: 1`.
/// These helpers accept an object only; anything else is a 422 at its pointer.
pub mod object_only {
    use serde::de::{
        self, value::MapAccessDeserializer, Deserialize, Deserializer, MapAccess, SeqAccess,
        Visitor,
    };
    use std::fmt;
    use std::marker::PhantomData;

    struct Object<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for Object<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(MapAccessDeserializer::new(map))
        }
    }

    /// A struct, from an object only.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<T, D::Error> {
        d.deserialize_map(Object(PhantomData))
    }

    /// An optional struct: absent or `null` is `None`, an object is `Some`.
    pub fn option<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Option<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object or null")
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
                deserialize(d).map(Some)
            }
        }
        d.deserialize_option(V(PhantomData))
    }

    /// A list of structs, each from an object only.
    pub fn vec<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        struct Item<T>(T);
        impl<'de, T: Deserialize<'de>> Deserialize<'de> for Item<T> {
            fn deserialize<D2: Deserializer<'de>>(d: D2) -> Result<Self, D2::Error> {
                deserialize(d).map(Item)
            }
        }
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON array of objects")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(16));
                while let Some(Item(t)) = seq.next_element::<Item<T>>()? {
                    out.push(t);
                }
                Ok(out)
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

// ---------------------------------------------------------------- requests

/// POST /v1/score: a hand, the circumstances of the win and a ruleset.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest {
    /// Ruleset id (GET /v1/rulesets lists them).
    #[schema(example = "hkma")]
    pub ruleset: String,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub hand: HandDto,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: ContextDto,
    /// Overrides of the ruleset for this request only.
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

/// The tiles of the winning hand.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HandDto {
    /// The concealed tiles in MPSZ notation, winning tile included.
    #[schema(example = "234m567m22p")]
    pub tiles: String,
    /// Sets declared before the win.
    #[serde(default, deserialize_with = "object_only::vec")]
    pub melds: Vec<MeldDto>,
    /// The tile that completed the hand; one of `tiles`. Left out only for a flower win.
    #[serde(default)]
    #[schema(example = "2p")]
    pub winning_tile: Option<String>,
    /// Bonus tiles: `F1`..`F4` (flowers), `S1`..`S4` (seasons); the number is the seat.
    #[serde(default)]
    #[schema(example = json!(["F1", "S3"]))]
    pub flowers: Vec<String>,
}

/// A set declared before the win.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MeldDto {
    pub kind: MeldKindDto,
    /// The meld's tiles in MPSZ notation (`777z`, `1111s`).
    #[schema(example = "777z")]
    pub tiles: String,
    /// A kong declared from the hand (not claimed).
    #[serde(default)]
    pub concealed: bool,
    /// A kong promoted from an exposed pung.
    #[serde(default)]
    pub added: bool,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MeldKindDto {
    Chow,
    Pung,
    Kong,
}

/// A seat or a wind.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum WindDto {
    East,
    South,
    West,
    North,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum WinByDto {
    SelfDraw,
    Discard,
    RobbingKong,
}

/// Which replacement draw, if any, was the winning tile.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ReplacementDto {
    #[default]
    None,
    Kong,
    Flower,
}

/// The circumstances of the win.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextDto {
    pub win_by: WinByDto,
    pub seat_wind: WindDto,
    pub round_wind: WindDto,
    /// The seat that discarded (or added the robbed kong); required for `discard` and `robbing_kong`, rejected for `self_draw`.
    #[serde(default)]
    pub discarder: Option<WindDto>,
    #[serde(default)]
    pub replacement: ReplacementDto,
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
    pub liable: Option<WindDto>,
    /// The hand wins on its seven or eight bonus tiles.
    #[serde(default)]
    pub flower_win: bool,
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
    pub discard_payment: Option<DiscardPaymentDto>,
    /// Pattern id to faan (a number), `"limit"` (a limit pattern), or `null` (not scored), applied in order.
    #[serde(default)]
    #[schema(value_type = Object, example = json!({"small_four_winds": 6, "seven_pairs": null}))]
    pub patterns: PatternOverrides,
}

/// The points curve of a house rule: a curve name, or base points by faan from 0.
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

#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DiscardPaymentDto {
    DiscarderPaysAll,
    DiscarderPaysHalf,
    DiscarderPaysDouble,
}

/// Pattern overrides in request order; `null` (off) is kept apart from absent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternOverrides(pub Vec<(String, PatternOverride)>);

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
                while let Some(key) = map.next_key::<String>()? {
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
pub struct BatchRequest {
    /// Score requests; each is checked and scored on its own.
    #[schema(value_type = Vec<ScoreRequest>)]
    pub requests: Vec<serde_json::Value>,
}

/// POST /v1/compare: a score request with `rulesets` in place of `ruleset`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    /// A list of ruleset ids, or `"all"`.
    #[schema(example = json!(["hkma", "wisteria-court"]))]
    pub rulesets: RulesetsDto,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub hand: HandDto,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: ContextDto,
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

/// `"all"` or a list of ids.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum RulesetsDto {
    List(Vec<String>),
    Word(String),
}

/// POST /v1/penalties/false-win.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FalseWinRequest {
    #[schema(example = "hkma")]
    pub ruleset: String,
    /// The seat that declared a false win.
    pub offender: WindDto,
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

// ------------------------------------------------------- request → core

impl From<MeldKindDto> for MeldKind {
    fn from(k: MeldKindDto) -> Self {
        match k {
            MeldKindDto::Chow => MeldKind::Chow,
            MeldKindDto::Pung => MeldKind::Pung,
            MeldKindDto::Kong => MeldKind::Kong,
        }
    }
}

impl From<WindDto> for Wind {
    fn from(w: WindDto) -> Wind {
        match w {
            WindDto::East => Wind::East,
            WindDto::South => Wind::South,
            WindDto::West => Wind::West,
            WindDto::North => Wind::North,
        }
    }
}

impl From<Wind> for WindDto {
    fn from(w: Wind) -> WindDto {
        match w {
            Wind::East => WindDto::East,
            Wind::South => WindDto::South,
            Wind::West => WindDto::West,
            Wind::North => WindDto::North,
        }
    }
}

impl HandDto {
    /// The core's hand, taking the strings (no copies).
    pub fn into_core(self) -> HandSpec {
        HandSpec {
            melds: self
                .melds
                .into_iter()
                .map(|m| MeldSpec {
                    kind: m.kind.into(),
                    tiles: m.tiles,
                    concealed: m.concealed,
                    added: m.added,
                })
                .collect(),
            tiles: self.tiles,
            winning_tile: self.winning_tile,
            flowers: self.flowers,
        }
    }

    pub fn to_core(&self) -> HandSpec {
        HandSpec {
            tiles: self.tiles.clone(),
            melds: self
                .melds
                .iter()
                .map(|m| MeldSpec {
                    kind: m.kind.into(),
                    tiles: m.tiles.clone(),
                    concealed: m.concealed,
                    added: m.added,
                })
                .collect(),
            winning_tile: self.winning_tile.clone(),
            flowers: self.flowers.clone(),
        }
    }
}

impl ContextDto {
    pub fn to_core(&self) -> ContextSpec {
        ContextSpec {
            win_by: match self.win_by {
                WinByDto::SelfDraw => WinBy::SelfDraw,
                WinByDto::Discard => WinBy::Discard,
                WinByDto::RobbingKong => WinBy::RobbingKong,
            },
            seat_wind: self.seat_wind.into(),
            round_wind: self.round_wind.into(),
            discarder: self.discarder.map(Into::into),
            replacement: match self.replacement {
                ReplacementDto::None => Replacement::None,
                ReplacementDto::Kong => Replacement::Kong,
                ReplacementDto::Flower => Replacement::Flower,
            },
            double_kong: self.double_kong,
            last_tile: self.last_tile,
            heavenly: self.heavenly,
            earthly: self.earthly,
            liable: self.liable.map(Into::into),
            flower_win: self.flower_win,
        }
    }
}

impl HouseRulesDto {
    pub fn to_core(&self) -> HouseRules {
        HouseRules {
            min_faan: self.min_faan,
            limit: self.limit,
            flowers: self.flowers,
            points: self.points.as_ref().map(|p| match p {
                PointsDto::Curve(CurveDto::FullSpicy) => PointsSpec::FullSpicy,
                PointsDto::Curve(CurveDto::HalfSpicy) => PointsSpec::HalfSpicy,
                PointsDto::Table(t) => PointsSpec::Table(t.clone()),
            }),
            discard_payment: self.discard_payment.map(|d| match d {
                DiscardPaymentDto::DiscarderPaysAll => DiscardPayment::DiscarderPaysAll,
                DiscardPaymentDto::DiscarderPaysHalf => DiscardPayment::DiscarderPaysHalf,
                DiscardPaymentDto::DiscarderPaysDouble => DiscardPayment::DiscarderPaysDouble,
            }),
            patterns: self.patterns.0.clone(),
        }
    }
}

/// House rules of an optional DTO (absent: none).
pub fn house_rules(dto: &Option<HouseRulesDto>) -> HouseRules {
    dto.as_ref().map(HouseRulesDto::to_core).unwrap_or_default()
}

// ---------------------------------------------------------------- responses

/// Signed points by seat; positive for the winner, summing to zero.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Payments {
    pub east: i64,
    pub south: i64,
    pub west: i64,
    pub north: i64,
}

impl From<[i64; 4]> for Payments {
    fn from(p: [i64; 4]) -> Self {
        Payments {
            east: p[0],
            south: p[1],
            west: p[2],
            north: p[3],
        }
    }
}

/// Signed amounts in US dollars by seat.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct MoneyPayments {
    pub east: f64,
    pub south: f64,
    pub west: f64,
    pub north: f64,
}

/// The payments in money, where the ruleset has a rate.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct MoneyDto {
    pub usd_per_100_chips: f64,
    /// Chips each paying player adds to every payment.
    pub bonus_chips: u32,
    /// Dollars by seat (absent on the false-win and ruleset endpoints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payments: Option<MoneyPayments>,
}

pub(crate) fn money_dto(m: Money, cents: Option<[i64; 4]>) -> MoneyDto {
    MoneyDto {
        usd_per_100_chips: f64::from(m.cents_per_100_chips) / 100.0,
        bonus_chips: m.bonus_chips,
        payments: cents.map(|c| MoneyPayments {
            east: c[0] as f64 / 100.0,
            south: c[1] as f64 / 100.0,
            west: c[2] as f64 / 100.0,
            north: c[3] as f64 / 100.0,
        }),
    }
}

/// One faan line.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[schema(example = json!({"pattern": "dragon_pung", "name": "Dragon pung", "faan": 1, "limit": false}))]
pub struct LineDto {
    /// Pattern id (contract list).
    pub pattern: String,
    /// The ruleset's name for it.
    pub name: String,
    pub faan: u32,
    /// A limit pattern: its faan is the total, nothing else is added.
    pub limit: bool,
}

/// One set of a reading, in detail.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct SetDto {
    /// MPSZ text: `234m`, `777z`, `1111s`.
    pub tiles: String,
    #[schema(value_type = String, example = "pung")]
    pub kind: String,
    /// Counts as concealed (in hand or a concealed kong, and not completed by a discard).
    pub concealed: bool,
    /// Declared before the win.
    pub declared: bool,
    /// Holds the winning tile in this reading.
    pub winning: bool,
}

/// One reading of the hand and its score.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Decomposition {
    /// `standard`, `seven_pairs`, `thirteen_orphans` or `flower_win`.
    #[schema(example = "standard")]
    pub form: String,
    /// The four sets of a standard reading (empty for the special forms).
    pub sets: Vec<String>,
    /// The pair as its tile twice (`22p`); the doubled tile for thirteen orphans; null for seven pairs and a flower win.
    pub pair: Option<String>,
    /// Seven pairs: the seven pairs (`11m`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<Vec<String>>,
    /// The sets in detail, in the order of `sets`.
    pub set_details: Vec<SetDto>,
    /// The winning tile completed the pair.
    pub winning_in_pair: bool,
    pub lines: Vec<LineDto>,
    pub raw_faan: u32,
    pub total_faan: u32,
    pub limit_hand: bool,
}

/// The score of a hand (POST /v1/score, 200).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct ScoreResponse {
    pub ruleset: String,
    /// SHA-256 (hex) of the canonical form of the ruleset, house rules, validated hand and context; the cache key.
    pub hand_hash: String,
    pub decompositions: Vec<Decomposition>,
    /// Index of the reading that counts.
    pub chosen: usize,
    /// The chosen reading's form.
    pub form: String,
    /// The chosen reading's lines.
    pub lines: Vec<LineDto>,
    pub raw_faan: u32,
    pub total_faan: u32,
    pub limit_hand: bool,
    /// The faan cap of the ruleset (after house rules).
    pub limit: u32,
    pub min_faan: u32,
    pub meets_minimum: bool,
    /// Faan short of the minimum (0 when met).
    pub missing_faan: u32,
    pub base_points: u64,
    /// The winner's seat.
    pub winner: WindDto,
    pub payments: Payments,
    /// Payments in money where the ruleset has a rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<MoneyDto>,
}

fn pair_text(t: impl fmt::Display) -> String {
    let s = t.to_string();
    // "5p" → "55p"
    let (n, suit) = s.split_at(s.len().saturating_sub(1));
    format!("{n}{n}{suit}")
}

fn kind_name(k: SetKind) -> &'static str {
    match k {
        SetKind::Chow => "chow",
        SetKind::Pung => "pung",
        SetKind::Kong => "kong",
    }
}

/// The lines of a reading with the ruleset's names.
pub fn lines_dto(ruleset: &Ruleset, sr: &ScoredReading, on_discard: bool) -> Vec<LineDto> {
    sr.lines
        .iter()
        .map(|l| LineDto {
            pattern: l.pattern.as_str().to_string(),
            name: pattern_name(ruleset, l.pattern, on_discard),
            faan: l.faan,
            limit: l.limit,
        })
        .collect()
}

fn pattern_name(ruleset: &Ruleset, id: PatternId, on_discard: bool) -> String {
    match ruleset.pattern(id) {
        Some(p) => match (&p.name_on_discard, on_discard) {
            (Some(n), true) => n.clone(),
            _ => p.name.clone(),
        },
        None => id.default_name().to_string(),
    }
}

fn set_dto(i: usize, s: &Set, win: WinPlace) -> SetDto {
    SetDto {
        tiles: s.text(),
        kind: kind_name(s.kind).into(),
        concealed: s.concealed,
        declared: s.declared,
        winning: win == WinPlace::Set(i as u8),
    }
}

fn decomposition(ruleset: &Ruleset, sr: &ScoredReading, on_discard: bool) -> Decomposition {
    let r: &Reading = &sr.reading;
    let sets = r.sets();
    Decomposition {
        form: r.form.name().into(),
        sets: sets.iter().map(Set::text).collect(),
        pair: match r.form {
            Form::Standard | Form::ThirteenOrphans => Some(pair_text(r.pair)),
            Form::SevenPairs | Form::FlowerWin => None,
        },
        pairs: (r.form == Form::SevenPairs)
            .then(|| r.pairs.iter().map(|&t| pair_text(t)).collect()),
        set_details: sets
            .iter()
            .enumerate()
            .map(|(i, s)| set_dto(i, s, r.win))
            .collect(),
        winning_in_pair: r.win == WinPlace::Pair,
        lines: lines_dto(ruleset, sr, on_discard),
        raw_faan: sr.raw_faan,
        total_faan: sr.total_faan,
        limit_hand: sr.limit_hand,
    }
}

impl ScoreResponse {
    /// The response for `score` under `ruleset` (house rules applied), requested as `ruleset_id`.
    pub fn new(
        ruleset_id: &str,
        ruleset: &Ruleset,
        ctx: &ContextSpec,
        score: &Score,
        hand_hash: String,
    ) -> Self {
        let on_discard = ctx.win_by == WinBy::Discard;
        let decompositions: Vec<Decomposition> = score
            .readings
            .iter()
            .map(|sr| decomposition(ruleset, sr, on_discard))
            .collect();
        let chosen = score.chosen.min(decompositions.len().saturating_sub(1));
        let best = decompositions.get(chosen);
        ScoreResponse {
            ruleset: ruleset_id.to_string(),
            hand_hash,
            chosen,
            form: best.map(|d| d.form.clone()).unwrap_or_default(),
            lines: best.map(|d| d.lines.clone()).unwrap_or_default(),
            raw_faan: best.map_or(0, |d| d.raw_faan),
            total_faan: best.map_or(0, |d| d.total_faan),
            limit_hand: best.is_some_and(|d| d.limit_hand),
            decompositions,
            limit: ruleset.limit,
            min_faan: score.min_faan,
            meets_minimum: score.meets_minimum,
            missing_faan: score.missing_faan,
            base_points: score.base_points,
            winner: ctx.seat_wind.into(),
            payments: score.payments.into(),
            money: ruleset.money.map(|m| money_dto(m, score.money_cents)),
        }
    }
}

/// A ruleset in the list.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct RulesetSummary {
    #[schema(example = "wisteria-court")]
    pub id: String,
    pub name: String,
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
            id: r.id.clone(),
            name: r.name.clone(),
            version: r.version,
            source: r.source.clone(),
            summary: r.summary.clone(),
            min_faan: r.min_faan,
            limit: r.limit,
            bonus_tiles: r.bonus_tiles,
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
    pub name: String,
    /// The name shown when the win was on a discard, where it differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_on_discard: Option<String>,
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
    use PatternId as P;
    let (value, faan, limit) = match p.value {
        Value::Faan(n) => (serde_json::Value::from(n), n, false),
        Value::Limit(v) => (serde_json::Value::from("limit"), r.limit_value(v), true),
    };
    let c = &p.conditions;
    let mut conditions = serde_json::Map::new();
    let mut put = |k: &str, v: bool| {
        conditions.insert(k.into(), v.into());
    };
    match p.id {
        P::AllChows => put("pair_may_be_value_tile", c.pair_may_be_value_tile),
        P::ConcealedHand => {
            put("allow_concealed_kong", c.allow_concealed_kong);
            put("only_without_flowers", c.only_without_flowers);
        }
        P::ReplacementTile => put("on_flower_replacement", c.on_flower_replacement),
        P::LastTile => put("on_discard", c.on_discard),
        P::FourConcealedPungs => put("self_draw_only", c.self_draw_only),
        P::JadeDragon | P::RubyDragon | P::PearlDragon => put("all_pungs", c.all_pungs),
        _ => {}
    }
    PatternDto {
        id: p.id.as_str().into(),
        name: p.name.clone(),
        name_on_discard: p.name_on_discard.clone(),
        value,
        faan,
        limit,
        contains: PatternId::ALL
            .iter()
            .filter(|id| p.contains & id.bit() != 0)
            .map(|id| id.as_str().into())
            .collect(),
        conditions,
        note: p.note.clone(),
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
    pub version: u32,
    pub source: Vec<String>,
    pub summary: String,
    /// Every interpretation made where the guide is silent or ambiguous.
    pub notes: Vec<String>,
    pub min_faan: u32,
    /// The minimum settings a house rule may choose (empty: any).
    pub min_faan_settings: Vec<u32>,
    pub limit: u32,
    /// What a limit pattern scores.
    pub limit_faan: u32,
    pub bonus_tiles: bool,
    pub points: PointsDtoOut,
    pub payment: PaymentDto,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<MoneyDto>,
    pub patterns: Vec<PatternDto>,
}

impl From<&Ruleset> for RulesetDetail {
    fn from(r: &Ruleset) -> Self {
        let x = |e: u32| f64::from(e) / 8.0;
        RulesetDetail {
            id: r.id.clone(),
            name: r.name.clone(),
            version: r.version,
            source: r.source.clone(),
            summary: r.summary.clone(),
            notes: r.notes.clone(),
            min_faan: r.min_faan,
            min_faan_settings: r.min_faan_settings.clone(),
            limit: r.limit,
            limit_faan: r.limit_faan,
            bonus_tiles: r.bonus_tiles,
            points: PointsDtoOut {
                curve: r.points.name().into(),
                table: r.points_table.clone(),
            },
            payment: PaymentDto {
                discarder: x(r.payment.discarder),
                others: x(r.payment.others),
                self_draw: x(r.payment.self_draw),
                robbing_kong: match r.payment.robbing_kong {
                    RobbingKongPayment::AsDiscard => "as_discard".into(),
                    RobbingKongPayment::AdderPaysAll => "adder_pays_all".into(),
                },
            },
            money: r.money.map(|m| money_dto(m, None)),
            patterns: r.patterns.iter().map(|p| pattern_dto(r, p)).collect(),
        }
    }
}

/// POST /v1/penalties/false-win, 200.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct FalseWinResponse {
    pub ruleset: String,
    pub offender: WindDto,
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
    pub fn new(ruleset_id: &str, r: &Ruleset, offender: Wind, payments: [i64; 4]) -> Self {
        FalseWinResponse {
            ruleset: ruleset_id.into(),
            offender: offender.into(),
            min_faan: r.min_faan,
            base_points: r.base_points(r.min_faan),
            payments: payments.into(),
            money: r
                .money
                .map(|m| money_dto(m, crate::core::settle::money(r, &payments))),
        }
    }
}

/// POST /v1/score/batch, 200: one item per request, in order.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct BatchResponse {
    /// Each item is a score result or a problem document (it has `type` and `status`).
    #[schema(value_type = Vec<Object>)]
    pub results: Vec<serde_json::Value>,
}

/// POST /v1/compare, 200.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct CompareResponse {
    /// Ruleset id to a score result or a problem document.
    #[schema(value_type = Object)]
    pub results: serde_json::Map<String, serde_json::Value>,
}

/// GET /healthz and /readyz.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: String,
    /// Rulesets loaded.
    pub rulesets: usize,
}

/// POST /v1/waits: a hand one tile short (no `winning_tile`), and the seat.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitsRequest {
    #[schema(example = "hkma")]
    pub ruleset: String,
    /// 13 tiles plus one per kong, without `winning_tile`.
    #[serde(deserialize_with = "object_only::deserialize")]
    pub hand: HandDto,
    #[serde(deserialize_with = "object_only::deserialize")]
    pub context: WaitContextDto,
    #[serde(default, deserialize_with = "object_only::option")]
    pub house_rules: Option<HouseRulesDto>,
}

/// The circumstances that apply whatever the winning tile (no `win_by`, no `discarder`).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitContextDto {
    pub seat_wind: WindDto,
    pub round_wind: WindDto,
    /// The win would be on the last wall tile (or the discard after it).
    #[serde(default)]
    pub last_tile: bool,
}

impl WaitContextDto {
    pub fn to_core(&self) -> crate::core::waits::WaitContext {
        crate::core::waits::WaitContext {
            seat_wind: self.seat_wind.into(),
            round_wind: self.round_wind.into(),
            last_tile: self.last_tile,
        }
    }
}

/// The best evaluation of a win on one wait.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct WaitScore {
    pub lines: Vec<LineDto>,
    pub total_faan: u32,
    pub meets_minimum: bool,
    pub base_points: u64,
    pub payments: Payments,
}

/// One tile that completes the hand.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct WaitDto {
    #[schema(example = "5m")]
    pub tile: String,
    /// Copies not in the hand or its melds.
    pub unseen: u8,
    /// The win on a discard from the seat before the winner (null: not a win that way).
    pub discard: Option<WaitScore>,
    /// The win on a self-draw (null: not a win that way).
    pub self_draw: Option<WaitScore>,
}

/// POST /v1/waits, 200.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
pub struct WaitsResponse {
    pub ruleset: String,
    /// Every wait, in tile order (empty: the hand is not waiting).
    pub waits: Vec<WaitDto>,
}

fn wait_score(ruleset: &Ruleset, s: &Score, on_discard: bool) -> WaitScore {
    let best = s.best();
    WaitScore {
        lines: lines_dto(ruleset, best, on_discard),
        total_faan: best.total_faan,
        meets_minimum: s.meets_minimum,
        base_points: s.base_points,
        payments: s.payments.into(),
    }
}

impl WaitsResponse {
    pub fn new(ruleset_id: &str, ruleset: &Ruleset, waits: &[crate::core::waits::Wait]) -> Self {
        WaitsResponse {
            ruleset: ruleset_id.into(),
            waits: waits
                .iter()
                .map(|w| WaitDto {
                    tile: w.tile.to_string(),
                    unseen: w.unseen,
                    discard: w.discard.as_ref().map(|s| wait_score(ruleset, s, true)),
                    self_draw: w.self_draw.as_ref().map(|s| wait_score(ruleset, s, false)),
                })
                .collect(),
        }
    }
}
