//! The shared tables' and groups' endpoints (api-contract.md, "Shared
//! tables: /v1/tables", "Groups"). Thin: a change is the stored ledger
//! request with one hand more or less, played by `service::Service::ledger`
//! on the blocking pool; the store is called through `tables::Live`, on the
//! store's own runtime.

pub mod events;
mod problem;

pub use problem::TableProblem;
use problem::{KeyProblems, NoTable, VersionProblems};

use super::body::read_json_body;
use super::problem::BodyProblems;
use super::AppState;
use crate::api::json::parse_checked;
use crate::api::tables::{
    GroupCreateRequest, GroupCreated, GroupDoc, TableCreateRequest, TableCreated, TableDoc,
};
use crate::api::{ApiError, LedgerHandDto, Problem};
use crate::store::{GroupRow, Refused, TableRow};
use crate::tables::{self, json, Failure, Live, Tables};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::web;
use actix_web::{guard, HttpRequest, HttpResponse};
use serde_json::{Map, Value};
use std::net::IpAddr;
use std::sync::Arc;

/// The longest title and group name, in characters.
pub const MAX_NAME: usize = 64;

type Answer = Result<HttpResponse, TableProblem>;

fn live(tables: &Tables) -> Result<Arc<Live>, TableProblem> {
    tables.live.clone().ok_or(TableProblem::Disabled)
}

/// The id of the path, if it could be one (anything else is no table).
fn path_id(req: &HttpRequest, missing: TableProblem) -> Result<String, TableProblem> {
    match req.match_info().get("id") {
        Some(id) if tables::is_token(id) => Ok(id.to_string()),
        _ => Err(missing),
    }
}

/// The client's address: the peer's, or with `--trust-forwarded-for` the
/// last hop of `X-Forwarded-For`.
fn client_addr(req: &HttpRequest, live: &Live) -> IpAddr {
    let peer = req
        .peer_addr()
        .map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip());
    if !live.args.trust_forwarded_for {
        return peer;
    }
    req.headers()
        .get_all("x-forwarded-for")
        .last()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|h| h.trim().parse().ok())
        .unwrap_or(peer)
}

/// The bearer key given, if any.
fn bearer(req: &HttpRequest) -> Option<&str> {
    let v = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, key) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| key.trim())
}

/// The key must be the stored one's.
fn authorize(req: &HttpRequest, stored: &str) -> Result<(), TableProblem> {
    match bearer(req) {
        None => Err(TableProblem::Unauthorized),
        Some(k) if tables::key_matches(k, stored) => Ok(()),
        Some(_) => Err(TableProblem::Forbidden),
    }
}

fn etag(version: i64) -> String {
    format!("\"v{version}\"")
}

/// `If-Match` must name the current version.
fn precondition(req: &HttpRequest, row: &TableRow) -> Result<(), TableProblem> {
    let Some(given) = req.headers().get(header::IF_MATCH) else {
        return Err(TableProblem::PreconditionRequired);
    };
    let want = etag(row.version);
    let matches = given
        .to_str()
        .is_ok_and(|v| v.split(',').any(|t| t.trim() == want));
    if matches {
        Ok(())
    } else {
        Err(TableProblem::Conflict(json::table(row)))
    }
}

fn table_answer(status: StatusCode, row: &TableRow, body: Vec<u8>) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        ))
        .insert_header((header::ETAG, etag(row.version)))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::VARY, "accept"))
        .body(body)
}

/// A name or title: a string of 1 to 64 characters.
fn name_at(v: &Value, pointer: &str) -> Result<String, ApiError> {
    match v.as_str() {
        Some(s) if (1..=MAX_NAME).contains(&s.chars().count()) => Ok(s.to_string()),
        _ => Err(ApiError::field(
            pointer,
            format!("expected a string of 1 to {MAX_NAME} characters"),
        )),
    }
}

/// The ledger request (as stored), its answer and the night's summary, or
/// the ledger's problem: on the blocking pool.
async fn play(
    state: &web::Data<AppState>,
    request: Value,
) -> Result<(String, String, String), ApiError> {
    let s = state.clone();
    state
        .pool
        .run(move || {
            let bytes = serde_json::to_vec(&request).unwrap_or_default();
            let ledger = s.service.ledger(&bytes)?;
            let answer: Value = serde_json::from_slice(&ledger).unwrap_or_default();
            let summary = json::summary(&request, &answer);
            // Both are JSON written by serde or the ledger writer: UTF-8.
            Ok((
                String::from_utf8(bytes).unwrap_or_default(),
                String::from_utf8(ledger).unwrap_or_default(),
                summary,
            ))
        })
        .await
}

/// A JSON body within the path's limit and the depth limit, read into `T`;
/// the bytes are released as soon as it is parsed.
async fn read_json<T: serde::de::DeserializeOwned>(
    req: &HttpRequest,
    state: &AppState,
    payload: web::Payload,
) -> Result<T, ApiError> {
    let body = read_json_body(req, state, payload).await?;
    parse_checked(&body, state.service.limits().json_depth)
}

/// Create a shared table.
#[utoipa::path(
    post,
    path = "/v1/tables",
    tag = "tables",
    request_body(content = TableCreateRequest, content_type = "application/json"),
    responses(
        (status = 201, description = "The table, its id and its key (shown this once)", body = TableCreated,
            headers(("Location" = String, description = "/v1/tables/{id}"), ("ETag" = String, description = "\"v1\""))),
        BodyProblems,
        (status = 404, description = "Unknown ruleset (pointer `/ruleset`), or the server keeps no tables (`/problems/tables-disabled`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The group's key is wrong (`/problems/forbidden`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The ledger request breaks a rule (pointer into it), a bad `title` or `group`", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many new tables from this address this hour (`/problems/rate-limited`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub async fn create(
    state: web::Data<AppState>,
    tables: web::Data<Tables>,
    req: HttpRequest,
    payload: web::Payload,
) -> Answer {
    let live = live(&tables)?;
    live.rate_tables
        .take(client_addr(&req, &live))
        .map_err(TableProblem::RateLimited)?;
    let mut request: Map<String, Value> = read_json(&req, &state, payload).await?;
    let title = match request.remove("title") {
        None | Some(Value::Null) => None,
        Some(t) => Some(name_at(&t, "/title")?),
    };
    let group_id = match request.remove("group") {
        None | Some(Value::Null) => None,
        Some(g) => {
            let (Some(id), Some(key)) = (
                g.get("id").and_then(Value::as_str),
                g.get("key").and_then(Value::as_str),
            ) else {
                return Err(
                    ApiError::field("/group", "expected {\"id\", \"key\"} of a group").into(),
                );
            };
            let found = if tables::is_token(id) {
                live.group(id).await?
            } else {
                None
            };
            let Some(found) = found else {
                return Err(ApiError::field("/group/id", "no group has this id").into());
            };
            if !tables::key_matches(key, &found.key_hash) {
                return Err(TableProblem::Forbidden);
            }
            Some(found.id)
        }
    };
    request
        .entry("hands")
        .or_insert_with(|| Value::Array(vec![]));
    let (request, ledger, summary) = play(&state, Value::Object(request)).await?;
    let id = tables::random_token().map_err(|_| Failure::Random)?;
    let key = tables::random_token().map_err(|_| Failure::Random)?;
    let now = live.store.clock.now_ms();
    let row = TableRow {
        id: id.clone(),
        key_hash: tables::key_hash(&key),
        title,
        group_id,
        version: 1,
        created_at: now,
        updated_at: now,
        touched_at: now,
        request,
        ledger,
        summary,
    };
    match live.insert(row.clone()).await? {
        Ok(()) => {}
        Err(Refused::Full) => return Err(TableProblem::TablesFull),
        Err(Refused::GroupFull) => {
            return Err(ApiError::field(
                "/group/id",
                format!(
                    "a group holds at most {} nights",
                    crate::store::GROUP_NIGHTS
                ),
            )
            .into())
        }
    }
    let table = json::table(&row);
    let mut out = Vec::with_capacity(table.len() + 200);
    out.extend_from_slice(b"{\"id\":\"");
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(b"\",\"key\":\"");
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\",\"version\":1,\"view_path\":\"/t/");
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(b"\",\"score_path\":\"/t/");
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(b"#key=");
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\",\"table\":");
    out.extend_from_slice(&table);
    out.push(b'}');
    let mut res = table_answer(StatusCode::CREATED, &row, out);
    if let Ok(v) = HeaderValue::from_str(&format!("/v1/tables/{id}")) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    Ok(res)
}

async fn existing(live: &Live, id: &str) -> Result<TableRow, TableProblem> {
    live.read(id).await?.ok_or(TableProblem::NoSuchTable)
}

/// Read a shared table: its JSON, or with `Accept: text/csv` the night as
/// the ledger's CSV.
#[utoipa::path(
    get,
    path = "/v1/tables/{id}",
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    responses(
        (status = 200, description = "The table, with `ETag: \"v{version}\"`. With `Accept: text/csv`: the night as the ledger's CSV, tagged `\"v{version}.csv\"`", content(
            (TableDoc = "application/json"),
            (String = "text/csv"),
        )),
        (status = 304, description = "`If-None-Match` names the current version"),
        NoTable,
        (status = 503, description = "The store does not answer (`/problems/store-unavailable`), retry after `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn read(
    state: web::Data<AppState>,
    tables: web::Data<Tables>,
    req: HttpRequest,
) -> Answer {
    let live = live(&tables)?;
    let id = path_id(&req, TableProblem::NoSuchTable)?;
    let row = existing(&live, &id).await?;
    let csv = super::scoring::wants_csv(&req);
    // The CSV is another representation of the same version: its own tag.
    let tag = if csv {
        format!("\"v{}.csv\"", row.version)
    } else {
        etag(row.version)
    };
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    if fresh {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::VARY, "accept"))
            .finish());
    }
    if csv {
        let s = state.clone();
        let request = row.request.clone().into_bytes();
        let csv = state
            .pool
            .run(move || s.service.ledger_csv(&request))
            .await?;
        return Ok(HttpResponse::Ok()
            .insert_header((
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ))
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .insert_header((header::VARY, "accept"))
            .body(csv));
    }
    let body = json::table(&row);
    Ok(table_answer(StatusCode::OK, &row, body))
}

/// A change to a table's hands: checks the key and the version, plays the
/// changed request, and stores it if the version has still not moved.
async fn change(
    state: web::Data<AppState>,
    live: Arc<Live>,
    id: String,
    row: TableRow,
    edit: impl FnOnce(&mut Vec<Value>) -> Result<(), ApiError>,
) -> Answer {
    let mut request: Value = serde_json::from_str(&row.request).unwrap_or_default();
    let Some(hands) = request.get_mut("hands").and_then(Value::as_array_mut) else {
        return Err(TableProblem::Store);
    };
    edit(hands)?;
    let (request, ledger, summary) = play(&state, request).await?;
    match live.update(&row, request, ledger, summary).await? {
        Some(new) => Ok(table_answer(StatusCode::OK, &new, json::table(&new))),
        // The version moved meanwhile, or the table is gone.
        None => match live.read(&id).await? {
            Some(current) => Err(TableProblem::Conflict(json::table(&current))),
            None => Err(TableProblem::NoSuchTable),
        },
    }
}

/// Append a hand to a table.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/hands",
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    request_body(content = LedgerHandDto, description = "One ledger hand: a win, a draw, a false win or a change of rules", content_type = "application/json"),
    responses(
        (status = 200, description = "The new table, with its `ETag`", body = TableDoc),
        BodyProblems,
        KeyProblems,
        NoTable,
        VersionProblems,
        (status = 422, description = "The hand breaks a rule (pointer `/hands/N/...`, the index it would have had); nothing is stored", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn append(
    state: web::Data<AppState>,
    tables: web::Data<Tables>,
    req: HttpRequest,
    payload: web::Payload,
) -> Answer {
    let live = live(&tables)?;
    let id = path_id(&req, TableProblem::NoSuchTable)?;
    let row = existing(&live, &id).await?;
    authorize(&req, &row.key_hash)?;
    precondition(&req, &row)?;
    let hand: Value = read_json(&req, &state, payload).await?;
    change(state, live, id, row, move |hands| {
        hands.push(hand);
        Ok(())
    })
    .await
}

/// Take back a table's last hand.
#[utoipa::path(
    delete,
    path = "/v1/tables/{id}/hands/last",
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    responses(
        (status = 200, description = "The new table (one more version), with its `ETag`", body = TableDoc),
        KeyProblems,
        NoTable,
        VersionProblems,
        (status = 422, description = "The table has no hand to take back (pointer `/hands`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store does not answer (`/problems/store-unavailable`), retry after `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn undo(
    state: web::Data<AppState>,
    tables: web::Data<Tables>,
    req: HttpRequest,
) -> Answer {
    let live = live(&tables)?;
    let id = path_id(&req, TableProblem::NoSuchTable)?;
    let row = existing(&live, &id).await?;
    authorize(&req, &row.key_hash)?;
    precondition(&req, &row)?;
    change(state, live, id, row, |hands| {
        hands
            .pop()
            .map(|_| ())
            .ok_or_else(|| ApiError::field("/hands", "the table has no hand to take back"))
    })
    .await
}

/// Delete a shared table.
#[utoipa::path(
    delete,
    path = "/v1/tables/{id}",
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    responses(
        (status = 204, description = "The table is gone"),
        KeyProblems,
        NoTable,
        (status = 503, description = "The store does not answer (`/problems/store-unavailable`), retry after `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn delete(tables: web::Data<Tables>, req: HttpRequest) -> Answer {
    let live = live(&tables)?;
    let id = path_id(&req, TableProblem::NoSuchTable)?;
    let row = existing(&live, &id).await?;
    authorize(&req, &row.key_hash)?;
    if !live.delete(&id).await? {
        return Err(TableProblem::NoSuchTable);
    }
    Ok(HttpResponse::NoContent().finish())
}

/// Create a group.
#[utoipa::path(
    post,
    path = "/v1/groups",
    tag = "tables",
    request_body(content = GroupCreateRequest, content_type = "application/json"),
    responses(
        (status = 201, description = "The group, its id and its key (shown this once)", body = GroupCreated),
        BodyProblems,
        (status = 404, description = "The server keeps no tables (`/problems/tables-disabled`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A bad `name` (1 to 64 characters)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many new groups from this address this hour (`/problems/rate-limited`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn create_group(
    state: web::Data<AppState>,
    tables: web::Data<Tables>,
    req: HttpRequest,
    payload: web::Payload,
) -> Answer {
    let live = live(&tables)?;
    live.rate_groups
        .take(client_addr(&req, &live))
        .map_err(TableProblem::RateLimited)?;
    let mut request: Map<String, Value> = read_json(&req, &state, payload).await?;
    let name = match request.remove("name") {
        Some(n) => name_at(&n, "/name")?,
        None => return Err(ApiError::field("/name", "missing field `name`").into()),
    };
    if let Some(k) = request.keys().next() {
        return Err(
            ApiError::field(format!("/{k}"), "unknown field; a group has only `name`").into(),
        );
    }
    let id = tables::random_token().map_err(|_| Failure::Random)?;
    let key = tables::random_token().map_err(|_| Failure::Random)?;
    let row = GroupRow {
        id: id.clone(),
        key_hash: tables::key_hash(&key),
        name,
        created_at: live.store.clock.now_ms(),
    };
    if live.insert_group(row).await?.is_err() {
        return Err(TableProblem::GroupsFull);
    }
    let body = serde_json::json!({"id": id, "key": key, "view_path": format!("/g/{id}")});
    let mut res = HttpResponse::Created();
    res.insert_header((header::CONTENT_TYPE, "application/json"));
    res.insert_header((header::LOCATION, format!("/v1/groups/{id}")));
    Ok(res.body(body.to_string()))
}

/// Read a group: its nights and statistics.
#[utoipa::path(
    get,
    path = "/v1/groups/{id}",
    tag = "tables",
    params(("id" = String, Path, description = "The group's id")),
    responses(
        (status = 200, description = "The group's nights, newest first, and each player's statistics summed over them", body = GroupDoc),
        (status = 404, description = "No group has this id (`/problems/no-such-group`), or the server keeps no tables (`/problems/tables-disabled`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store does not answer (`/problems/store-unavailable`), retry after `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn read_group(tables: web::Data<Tables>, req: HttpRequest) -> Answer {
    let live = live(&tables)?;
    let id = path_id(&req, TableProblem::NoSuchGroup)?;
    let group = live.group(&id).await?.ok_or(TableProblem::NoSuchGroup)?;
    let nights = live.nights(&id).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "application/json"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(json::group(&group, &nights)))
}

/// Delete a group (not its tables).
#[utoipa::path(
    delete,
    path = "/v1/groups/{id}",
    tag = "tables",
    params(("id" = String, Path, description = "The group's id")),
    responses(
        (status = 204, description = "The group is gone; its tables stay"),
        (status = 401, description = "No key (`/problems/unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A key that is not this group's (`/problems/forbidden`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No group has this id, or the server keeps no tables", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store does not answer (`/problems/store-unavailable`), retry after `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn delete_group(tables: web::Data<Tables>, req: HttpRequest) -> Answer {
    let live = live(&tables)?;
    let id = path_id(&req, TableProblem::NoSuchGroup)?;
    let group = live.group(&id).await?.ok_or(TableProblem::NoSuchGroup)?;
    authorize(&req, &group.key_hash)?;
    live.delete_group(&id).await?;
    Ok(HttpResponse::NoContent().finish())
}

fn method(m: Method) -> actix_web::Route {
    web::route().guard(guard::fn_guard(move |ctx| ctx.head().method == m))
}

/// A resource of several methods; any other is a 405 problem.
fn resource(
    path: &'static str,
    routes: Vec<actix_web::Route>,
    allowed: &'static str,
) -> actix_web::Resource {
    let mut r = web::resource(path).app_data(super::metrics::RouteLabel::new(path));
    for route in routes {
        r = r.route(route);
    }
    r.default_service(web::to(move |req: HttpRequest| async move {
        Err::<HttpResponse, _>(ApiError::MethodNotAllowed {
            method: req.method().to_string(),
            allowed,
        })
    }))
}

/// The tables' and groups' routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource(
        "/v1/tables",
        vec![method(Method::POST).to(create)],
        "POST",
    ));
    cfg.service(resource(
        "/v1/tables/{id}",
        vec![super::get().to(read), method(Method::DELETE).to(delete)],
        "GET, HEAD, DELETE",
    ));
    cfg.service(resource(
        "/v1/tables/{id}/hands",
        vec![method(Method::POST).to(append)],
        "POST",
    ));
    cfg.service(resource(
        "/v1/tables/{id}/hands/last",
        vec![method(Method::DELETE).to(undo)],
        "DELETE",
    ));
    cfg.service(resource(
        "/v1/tables/{id}/events",
        vec![method(Method::GET).to(events::events)],
        "GET",
    ));
    cfg.service(resource(
        "/v1/groups",
        vec![method(Method::POST).to(create_group)],
        "POST",
    ));
    cfg.service(resource(
        "/v1/groups/{id}",
        vec![
            super::get().to(read_group),
            method(Method::DELETE).to(delete_group),
        ],
        "GET, HEAD, DELETE",
    ));
}
