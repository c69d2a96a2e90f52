//! The score result: a borrowed view of the core's `Score` (tile texts
//! written on the stack). It is the schema (OpenAPI), what the CLI prints
//! from, and the oracle of `service::wire::render`, the production writer, which
//! writes exactly what serde makes of it (tested on every fixture).

use super::common::{money_of, MoneyDto, Payments};
use crate::core::decompose::{Form, Reading, Set, SetKind, WinPlace};
use crate::core::evaluate::{Score, ScoredReading};
use crate::core::hand::Context;
use crate::core::tile::Tile;
use crate::core::Ruleset;
use crate::core::Wind;
use serde::{Serialize, Serializer};
use utoipa::ToSchema;

/// SHA-256 of a canonical key (`hand_hash`).
pub type KeyHash = [u8; 32];

/// A hash written as 64 lowercase hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashHex(pub KeyHash);

impl Serialize for HashHex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 64];
        // 32 bytes always fit 64 digits.
        let _ = hex::encode_to_slice(self.0, &mut buf);
        s.serialize_str(std::str::from_utf8(&buf).unwrap_or_default())
    }
}

impl std::fmt::Display for HashHex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

/// A set's MPSZ text (`234m`, `777z`, `1111s`).
#[derive(Clone, Copy, Debug)]
pub struct SetText(pub Set);

impl Serialize for SetText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (buf, len) = self.0.text_bytes();
        s.serialize_str(std::str::from_utf8(&buf[..len]).unwrap_or_default())
    }
}

impl std::fmt::Display for SetText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (buf, len) = self.0.text_bytes();
        f.write_str(std::str::from_utf8(&buf[..len]).unwrap_or_default())
    }
}

/// A pair as its tile twice (`55p`).
#[derive(Clone, Copy, Debug)]
pub struct PairText(pub Tile);

impl PairText {
    fn bytes(self) -> [u8; 3] {
        let n = b'0' + self.0.number();
        [n, n, self.0.suit().letter() as u8]
    }
}

impl Serialize for PairText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(std::str::from_utf8(&self.bytes()).unwrap_or_default())
    }
}

impl std::fmt::Display for PairText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(std::str::from_utf8(&self.bytes()).unwrap_or_default())
    }
}

/// A tile's MPSZ text (`5p`).
#[derive(Clone, Copy, Debug)]
pub struct TileText(pub Tile);

impl Serialize for TileText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = [b'0' + self.0.number(), self.0.suit().letter() as u8];
        s.serialize_str(std::str::from_utf8(&t).unwrap_or_default())
    }
}

impl std::fmt::Display for TileText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// One faan line.
#[derive(Clone, Copy, Debug, Serialize, ToSchema, PartialEq, Eq)]
#[schema(example = json!({"pattern": "dragon_pung", "name": "Dragon pung", "name_zh": "三元牌", "faan": 1, "limit": false}))]
pub struct LineDto<'a> {
    /// Pattern id (contract list).
    pub pattern: &'static str,
    /// The pattern's one English name (the same in every ruleset).
    pub name: &'a str,
    /// Its Traditional Chinese name.
    pub name_zh: &'a str,
    pub faan: u32,
    /// A limit pattern: its faan is the total, nothing else is added.
    pub limit: bool,
}

/// One set of a reading, in detail.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct SetDto {
    /// MPSZ text: `234m`, `777z`, `1111s`.
    #[schema(value_type = String)]
    pub tiles: SetText,
    #[schema(value_type = String, example = "pung")]
    pub kind: &'static str,
    /// Counts as concealed (in hand or a concealed kong, and not completed by a discard).
    pub concealed: bool,
    /// Declared before the win.
    pub declared: bool,
    /// Holds the winning tile in this reading.
    pub winning: bool,
}

/// One reading of the hand and its score.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Decomposition<'a> {
    /// `standard`, `seven_pairs`, `thirteen_orphans` or `flower_win`.
    #[schema(example = "standard")]
    pub form: &'static str,
    /// The four sets of a standard reading (empty for the special forms).
    #[schema(value_type = Vec<String>)]
    pub sets: Vec<SetText>,
    /// The pair as its tile twice (`22p`); the doubled tile for thirteen orphans; null for seven pairs and a flower win.
    #[schema(value_type = Option<String>)]
    pub pair: Option<PairText>,
    /// Seven pairs: the seven pairs (`11m`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<String>>)]
    pub pairs: Option<Vec<PairText>>,
    /// Thirteen orphans: the twelve single tiles beside `pair`, in tile order (`1m`, `9m`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<String>>)]
    pub singles: Option<Vec<TileText>>,
    /// The sets in detail, in the order of `sets`.
    pub set_details: Vec<SetDto>,
    /// The winning tile completed the pair.
    pub winning_in_pair: bool,
    pub lines: Vec<LineDto<'a>>,
    pub raw_faan: u32,
    pub total_faan: u32,
    pub limit_hand: bool,
}

/// The score of a hand (POST /v1/score, 200).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ScoreResponse<'a> {
    /// The ruleset's id (a document's own `id`).
    pub ruleset: &'a str,
    /// SHA-256 (hex) of the ruleset's canonical document, after `extends` and before house rules (`rulesets/README.md`, "Inline rulesets").
    #[schema(value_type = String)]
    pub ruleset_hash: HashHex,
    /// SHA-256 (hex) of the canonical form of the ruleset, house rules, validated hand and context; the cache key.
    #[schema(value_type = String)]
    pub hand_hash: HashHex,
    pub decompositions: Vec<Decomposition<'a>>,
    /// Index of the reading that counts.
    pub chosen: usize,
    /// The chosen reading's form.
    pub form: &'static str,
    /// The chosen reading's lines.
    pub lines: Vec<LineDto<'a>>,
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
    pub winner: Wind,
    pub payments: Payments,
    /// Payments in money: at the stake (house rule or `[table]` default) under any ruleset, or at the ruleset's own chip rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub money: Option<MoneyDto>,
}

fn kind_name(k: SetKind) -> &'static str {
    match k {
        SetKind::Chow => "chow",
        SetKind::Pung => "pung",
        SetKind::Kong => "kong",
    }
}

/// The lines of a reading, each with its pattern's names (the pattern table's, by id).
pub fn lines_dto<'a>(sr: &ScoredReading) -> Vec<LineDto<'a>> {
    sr.lines
        .iter()
        .map(|l| LineDto {
            pattern: l.pattern.as_str(),
            name: l.pattern.name(),
            name_zh: l.pattern.name_zh(),
            faan: l.faan,
            limit: l.limit,
        })
        .collect()
}

fn decomposition<'a>(sr: &ScoredReading) -> Decomposition<'a> {
    let r: &Reading = &sr.reading;
    let sets = r.sets();
    Decomposition {
        form: r.form.name(),
        sets: sets.iter().copied().map(SetText).collect(),
        pair: match r.form {
            Form::Standard | Form::ThirteenOrphans => Some(PairText(r.pair)),
            Form::SevenPairs | Form::FlowerWin => None,
        },
        pairs: (r.form == Form::SevenPairs).then(|| r.pairs.iter().map(|&t| PairText(t)).collect()),
        singles: (r.form == Form::ThirteenOrphans).then(|| r.singles().map(TileText).collect()),
        set_details: sets
            .iter()
            .enumerate()
            .map(|(i, s)| SetDto {
                tiles: SetText(*s),
                kind: kind_name(s.kind),
                concealed: s.concealed,
                declared: s.declared,
                winning: r.win == WinPlace::Set(i as u8),
            })
            .collect(),
        winning_in_pair: r.win == WinPlace::Pair,
        lines: lines_dto(sr),
        raw_faan: sr.raw_faan,
        total_faan: sr.total_faan,
        limit_hand: sr.limit_hand,
    }
}

impl<'a> ScoreResponse<'a> {
    /// The result for `score` under `ruleset` (house rules applied), requested as `ruleset_id`.
    pub fn new(
        ruleset_id: &'a str,
        ruleset: &'a Ruleset,
        ctx: &Context,
        score: &Score,
        hand_hash: KeyHash,
    ) -> Self {
        let decompositions: Vec<Decomposition<'a>> =
            score.readings.iter().map(decomposition).collect();
        let chosen = score.chosen.min(decompositions.len().saturating_sub(1));
        let best = decompositions.get(chosen);
        ScoreResponse {
            ruleset: ruleset_id,
            ruleset_hash: HashHex(ruleset.hash()),
            hand_hash: HashHex(hand_hash),
            chosen,
            form: best.map_or("", |d| d.form),
            lines: best.map(|d| d.lines.clone()).unwrap_or_default(),
            raw_faan: best.map_or(0, |d| d.raw_faan),
            total_faan: best.map_or(0, |d| d.total_faan),
            limit_hand: best.is_some_and(|d| d.limit_hand),
            decompositions,
            limit: ruleset.limit(),
            min_faan: score.min_faan,
            meets_minimum: score.meets_minimum,
            missing_faan: score.missing_faan,
            base_points: score.base_points,
            winner: ctx.seat_wind,
            payments: score.payments.into(),
            money: money_of(ruleset, score.money_cents),
        }
    }
}

/// POST /v1/score/batch, 200: one item per request, in order.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct BatchResponse {
    /// Each item is a score result or a problem document (it has `type` and `status`).
    #[schema(value_type = Vec<Object>)]
    pub results: Vec<serde_json::Value>,
}

/// POST /v1/compare, 200.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CompareResponse {
    /// Ruleset id to a score result or a problem document.
    #[schema(value_type = Object)]
    pub results: serde_json::Map<String, serde_json::Value>,
}
