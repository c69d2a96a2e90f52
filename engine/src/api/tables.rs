//! The shared tables' and groups' bodies: what their handlers read and
//! write, and their OpenAPI schemas. A table's request and answer are kept
//! as the JSON the ledger reads and writes (`RawValue`), so they pass
//! through untouched; their schemas are the ledger's.

use super::common::Amount;
use super::ledger::{LedgerHandDto, LedgerRequest, LedgerResponse};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

/// `POST /v1/tables`: a ledger request (its `hands` may be empty or left
/// out) with a title and the group it belongs to. Each part of the ledger
/// request is kept as sent (the ledger reads it), which is why this is
/// read as raw parts and not as a `LedgerRequest`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableCreateRequest<'a> {
    #[serde(borrow)]
    #[schema(value_type = super::document::RulesetRef)]
    pub ruleset: &'a RawValue,
    #[serde(borrow, default)]
    #[schema(value_type = Option<super::request::HouseRulesDto>)]
    pub house_rules: Option<&'a RawValue>,
    #[serde(borrow)]
    #[schema(value_type = Vec<String>)]
    pub players: &'a RawValue,
    #[serde(borrow, default)]
    #[schema(value_type = Option<super::ledger::LedgerStartDto>)]
    pub start: Option<&'a RawValue>,
    /// The hands so far (default none).
    #[serde(borrow, default)]
    #[schema(value_type = Option<Vec<LedgerHandDto>>)]
    pub hands: Option<Vec<&'a RawValue>>,
    /// 1 to 64 characters.
    #[schema(min_length = 1, max_length = 64)]
    pub title: Option<String>,
    /// The group this night belongs to, with its key.
    pub group: Option<GroupRef>,
}

/// A group named by its id and key.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GroupRef {
    pub id: String,
    pub key: String,
}

/// A shared table: the ledger request as stored and its answer.
#[derive(Serialize, ToSchema)]
pub struct TableDoc<'a> {
    /// 128 random bits, base64url.
    pub id: &'a str,
    pub title: Option<&'a str>,
    /// The changes ever made (an undo moves it on too); the `ETag` is `"v{version}"`.
    pub version: i64,
    /// RFC 3339, UTC.
    pub created_at: String,
    pub updated_at: String,
    #[schema(value_type = LedgerRequest)]
    pub request: &'a RawValue,
    #[schema(value_type = LedgerResponse)]
    pub ledger: &'a RawValue,
}

/// `POST /v1/tables`' answer: the key is shown this once.
#[derive(Serialize, ToSchema)]
pub struct TableCreated<'a> {
    pub id: &'a str,
    /// The right to change the table: `Authorization: Bearer {key}`.
    pub key: &'a str,
    pub version: i64,
    /// `/t/{id}`: the viewer's page.
    pub view_path: String,
    /// `/t/{id}#key={key}`: the scorer's page.
    pub score_path: String,
    pub table: TableDoc<'a>,
}

/// A hand added to a table: the `hand` event's data, and the answer to an
/// append with `Prefer: return=minimal`. Applied to the `TABLE` of the
/// version before: `request.hands` gains `request`, `ledger.hands` gains
/// `hand`, the rest of `ledger` becomes `ledger`, and `version` and
/// `updated_at` are these.
#[derive(Serialize, ToSchema)]
pub struct HandChange<'a> {
    pub version: i64,
    pub updated_at: String,
    /// The hand as the table's request now holds it.
    #[schema(value_type = LedgerHandDto)]
    pub request: &'a RawValue,
    /// The ledger's new row (the last of `ledger.hands`).
    #[schema(value_type = Object)]
    pub hand: &'a RawValue,
    /// The ledger's answer without its `hands`.
    #[schema(value_type = Object)]
    pub ledger: &'a RawValue,
}

/// The last hand taken back: the `undo` event's data, and the answer to an
/// undo with `Prefer: return=minimal`. Applied to the `TABLE` of the
/// version before: `request.hands` and `ledger.hands` keep their first
/// `hands`, the rest of `ledger` becomes `ledger`.
#[derive(Serialize, ToSchema)]
pub struct UndoChange<'a> {
    pub version: i64,
    pub updated_at: String,
    /// The hands left.
    pub hands: i64,
    /// The ledger's answer without its `hands`.
    #[schema(value_type = Object)]
    pub ledger: &'a RawValue,
}

/// A 412: the problem, with the current table.
#[derive(Serialize, ToSchema)]
pub struct TableConflict<'a> {
    #[serde(rename = "type")]
    pub type_: &'static str,
    pub title: &'static str,
    pub status: u16,
    pub detail: &'static str,
    pub table: TableDoc<'a>,
}

/// `POST /v1/groups`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GroupCreateRequest {
    /// 1 to 64 characters.
    #[schema(min_length = 1, max_length = 64)]
    pub name: String,
}

/// `POST /v1/groups`' answer: the key is shown this once.
#[derive(Serialize, ToSchema)]
pub struct GroupCreated<'a> {
    pub id: &'a str,
    pub key: &'a str,
    /// `/g/{id}`: the group's page.
    pub view_path: String,
}

/// A group's nights, newest first, and its statistics summed over them.
#[derive(Serialize, ToSchema)]
pub struct GroupDoc<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub nights: Vec<NightDoc<'a>>,
    pub stats: Vec<GroupStatsDoc>,
}

/// One night of a group.
#[derive(Serialize, ToSchema)]
pub struct NightDoc<'a> {
    /// The table's id.
    pub id: &'a str,
    pub title: Option<&'a str>,
    pub created_at: String,
    pub players: &'a [String; 4],
    /// Hands played.
    pub hands: usize,
    /// Each player's balance in points.
    #[schema(value_type = std::collections::BTreeMap<String, i64>)]
    pub balances: super::ledger::ByPlayer<'a, i64>,
}

/// A player's statistics over every night they sat in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, ToSchema)]
pub struct GroupStatsDoc {
    pub player: String,
    /// How many nights this player sat in.
    pub nights: u32,
    pub hands_won: u32,
    pub self_draws: u32,
    pub wins_on_discard: u32,
    pub dealt_in: u32,
    pub false_wins: u32,
    /// The balance in points, summed.
    pub points: i64,
    /// The largest paid win over the nights (the first of equals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub biggest: Option<GroupBiggestDoc>,
    /// Money summed over the nights with a stake.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub money: Option<Amount>,
}

/// A player's largest win in a group: the night, the hand and its faan.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct GroupBiggestDoc {
    /// The table's id.
    pub table: String,
    /// The hand's index in that night.
    pub hand: usize,
    pub faan: u32,
}
