//! The shared tables' and groups' bodies, for the OpenAPI document. The
//! endpoints write their JSON from the stored rows (`tables::json`) and read
//! their requests as the ledger's, so these types describe, and the spec
//! test and schemathesis check that the answers match them.

use super::ledger::{LedgerRequest, LedgerResponse, StatsDto};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// `POST /v1/tables`: a ledger request (its `hands` may be empty or left
/// out) with a title and the group it belongs to.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct TableCreateRequest<'a> {
    #[schema(inline)]
    #[serde(flatten)]
    pub ledger: LedgerRequest<'a>,
    /// 1 to 64 characters.
    #[schema(min_length = 1, max_length = 64)]
    pub title: Option<String>,
    /// The group this night belongs to, with its key.
    pub group: Option<GroupRef>,
}

/// A group named by its id and key.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct GroupRef {
    pub id: String,
    pub key: String,
}

/// A shared table: the ledger request as stored and its answer.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct TableDoc<'a> {
    /// 128 random bits, base64url.
    pub id: String,
    pub title: Option<String>,
    /// The changes ever made (an undo moves it on too); the `ETag` is `"v{version}"`.
    pub version: i64,
    /// RFC 3339, UTC.
    pub created_at: String,
    pub updated_at: String,
    pub request: LedgerRequest<'a>,
    pub ledger: LedgerResponse<'a>,
}

/// `POST /v1/tables`' answer: the key is shown this once.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct TableCreated<'a> {
    pub id: String,
    /// The right to change the table: `Authorization: Bearer {key}`.
    pub key: String,
    pub version: i64,
    /// `/t/{id}`: the viewer's page.
    pub view_path: String,
    /// `/t/{id}#key={key}`: the scorer's page.
    pub score_path: String,
    pub table: TableDoc<'a>,
}

/// A 412: the problem, with the current table.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct TableConflict<'a> {
    #[serde(rename = "type")]
    pub type_: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    pub table: TableDoc<'a>,
}

/// `POST /v1/groups`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct GroupCreateRequest {
    /// 1 to 64 characters.
    #[schema(min_length = 1, max_length = 64)]
    pub name: String,
}

/// `POST /v1/groups`' answer: the key is shown this once.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct GroupCreated {
    pub id: String,
    pub key: String,
    /// `/g/{id}`: the group's page.
    pub view_path: String,
}

/// A group's nights, newest first, and its statistics summed over them.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct GroupDoc<'a> {
    pub id: String,
    pub name: String,
    pub nights: Vec<NightDoc>,
    pub stats: Vec<GroupStatsDoc<'a>>,
}

/// One night of a group.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct NightDoc {
    /// The table's id.
    pub id: String,
    pub title: Option<String>,
    pub created_at: String,
    pub players: Vec<String>,
    /// Hands played.
    pub hands: u32,
    /// Each player's balance in points.
    pub balances: BTreeMap<String, i64>,
}

/// A player's statistics over every night they sat in.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct GroupStatsDoc<'a> {
    #[serde(flatten)]
    pub night: StatsDto<'a>,
    /// How many nights this player sat in.
    pub nights: u32,
}
