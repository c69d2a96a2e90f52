//! The shared tables' and groups' endpoints (docs/tables.md). Thin: a
//! request is read into its typed form at the edge (`tables::night`), the
//! one [`Keyed`] extractor gives a change its table, key check and
//! `If-Match`, a change plays one hand (`tables::night`; a whole night, at
//! creation, on the blocking pool), and the store is called through
//! `tables::Live`, on the store's own runtime.

pub mod events;
mod problem;

pub use crate::service::wire::render::Lang;
use problem::TableProblem;
use problem::{KeyProblems, NoTable, VersionProblems};

use super::body::read_json_body;
use super::problem::BodyProblems;
use super::AppState;
use crate::api::json::parse_checked;
use crate::api::tables::{
    GroupCreateRequest, GroupCreated, GroupDoc, HandChange, TableCreateRequest, TableCreated,
    TableDoc, UndoChange,
};
use crate::api::{ApiError, LedgerHandDto, Problem};
use crate::store::{GroupRow, HandRow, Refused, TableRow};
use crate::tables::night::{self, CreateTable, NewHand};
use crate::tables::{self, json, Failure, Live, Tables};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::web;
use actix_web::{guard, FromRequest, HttpRequest, HttpResponse};
use serde_json::value::RawValue;
use std::future::Future;
use std::marker::PhantomData;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;

pub use night::MAX_NAME;

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

/// Whether `If-Match` names the current version (`None`: none given).
fn if_match(req: &HttpRequest, row: &TableRow) -> Option<bool> {
    let given = req.headers().get(header::IF_MATCH)?;
    let want = etag(row.version);
    Some(
        given
            .to_str()
            .is_ok_and(|v| v.split(',').any(|t| t.trim() == want)),
    )
}

/// The precondition of a change: what a [`Keyed`] checks besides the key.
pub trait Precondition {
    /// `If-Match` must name the current version.
    const VERSIONED: bool;
}

/// A change made from a version (`If-Match`).
pub struct Versioned;
impl Precondition for Versioned {
    const VERSIONED: bool = true;
}

/// A change of the table whatever its version (deleting it).
pub struct AnyVersion;
impl Precondition for AnyVersion {
    const VERSIONED: bool = false;
}

/// A table a change may be made to: it exists, the request holds its key
/// and, for a [`Versioned`] change, names its version. The one place these
/// checks are made, in this order.
pub struct Keyed<P> {
    pub live: Arc<Live>,
    pub row: TableRow,
    _p: PhantomData<P>,
}

impl<P: Precondition + 'static> FromRequest for Keyed<P> {
    type Error = TableProblem;
    type Future = Pin<Box<dyn Future<Output = Result<Self, TableProblem>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let tables = req
                .app_data::<web::Data<Tables>>()
                .ok_or(TableProblem::Disabled)?;
            let live = live(tables)?;
            let id = path_id(&req, TableProblem::NoSuchTable)?;
            let row = existing(&live, &id).await?;
            authorize(&req, &row.key_hash)?;
            if P::VERSIONED {
                match if_match(&req, &row) {
                    None => return Err(TableProblem::PreconditionRequired),
                    Some(false) => return Err(conflict(&live, &id).await),
                    Some(true) => {}
                }
            }
            Ok(Keyed {
                live,
                row,
                _p: PhantomData,
            })
        })
    }
}

/// The 412 of a table that moved on: with the current table, or the 404
/// of one that is gone.
async fn conflict(live: &Live, id: &str) -> TableProblem {
    match live.whole(id).await {
        Ok(Some((row, hands))) => TableProblem::Conflict(json::table(&row, &hands)),
        Ok(None) => TableProblem::NoSuchTable,
        Err(f) => f.into(),
    }
}

fn answer(status: StatusCode, version: i64, body: Vec<u8>) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        ))
        .insert_header((header::ETAG, etag(version)))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::VARY, "accept, accept-language"))
        .body(body)
}

/// `Prefer: return=minimal` (RFC 7240): answer a change with the change.
fn minimal(req: &HttpRequest) -> bool {
    req.headers()
        .get_all("prefer")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim().eq_ignore_ascii_case("return=minimal"))
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
    let body = read_json_body(&req, &state, payload).await?;
    let create = CreateTable::try_from(parse_checked::<TableCreateRequest<'_>>(
        &body,
        state.service.limits().json_depth,
    )?)?;
    drop(body);
    let group_id = match &create.group {
        None => None,
        Some(g) => {
            let found = if tables::is_token(&g.id) {
                live.group(&g.id).await?
            } else {
                None
            };
            let Some(found) = found else {
                return Err(ApiError::field("/group/id", "no group has this id").into());
            };
            if !tables::key_matches(&g.key, &found.key_hash) {
                return Err(TableProblem::Forbidden);
            }
            Some(found.id)
        }
    };
    let s = state.clone();
    let CreateTable {
        title,
        night: night_json,
        hands,
        ..
    } = create;
    let (played, night_json, requests) = state
        .pool
        .run(move || {
            let played = night::play_night(&s.service, &night_json, &hands)?;
            Ok((played, night_json, hands))
        })
        .await?;
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
        night: night_json,
        ledger: played.head.ledger,
        summary: played.head.summary,
        state: Some(played.head.state),
        hands: played.hands.len() as i64,
    };
    let pairs: Vec<(String, String)> = requests
        .into_iter()
        .zip(&played.hands)
        .map(|(r, h)| (r, h.answer.clone()))
        .collect();
    match live.insert(row.clone(), played.hands).await? {
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
    let (request, ledger) = json::joined(&row, &pairs);
    let (request, ledger) = (raw(request)?, raw(ledger)?);
    let body = json::to_vec(&TableCreated {
        id: &id,
        key: &key,
        version: 1,
        view_path: format!("/t/{id}"),
        score_path: format!("/t/{id}#key={key}"),
        table: json::table_doc(&row, &request, &ledger),
    });
    let mut res = answer(StatusCode::CREATED, row.version, body);
    if let Ok(v) = HeaderValue::from_str(&format!("/v1/tables/{id}")) {
        res.headers_mut().insert(header::LOCATION, v);
    }
    Ok(res)
}

/// JSON this server made, as a raw value (a 503 if it is not: the store
/// gave back something else).
fn raw(json: String) -> Result<Box<RawValue>, TableProblem> {
    RawValue::from_string(json).map_err(|_| TableProblem::Store)
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
    let lang = super::scoring::csv_lang(&req);
    // The CSV is another representation of the same version: its own tag.
    // Each language's CSV is its own representation.
    let csv_tag = |version| match lang {
        Lang::En => format!("\"v{version}.csv\""),
        Lang::Zh => format!("\"v{version}.zh.csv\""),
    };
    let tag = if csv {
        csv_tag(row.version)
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
            .insert_header((header::VARY, "accept, accept-language"))
            .finish());
    }
    let (row, hands) = live.whole(&id).await?.ok_or(TableProblem::NoSuchTable)?;
    let s = state.clone();
    if csv {
        let tag = csv_tag(row.version);
        let csv = state
            .pool
            .run(move || {
                s.service
                    .ledger_csv(json::joined(&row, &hands).0.as_bytes(), lang)
            })
            .await?;
        return Ok(HttpResponse::Ok()
            .insert_header((
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ))
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .insert_header((header::VARY, "accept, accept-language"))
            .body(csv));
    }
    table_answer(&state, row, hands).await
}

/// Commits a change played onto the table `t`: the answer (the change with
/// `Prefer: return=minimal`, else the new `TABLE`), or the 412 of a table
/// that moved on meanwhile, or the 404 of one that is gone.
async fn commit<P>(
    state: &AppState,
    req: &HttpRequest,
    t: &Keyed<P>,
    head: night::Head,
    hand: Option<HandRow>,
) -> Answer {
    let Some((new, change)) = t.live.change(&t.row, head, hand).await? else {
        return Err(conflict(&t.live, &t.row.id).await);
    };
    if minimal(req) {
        let mut res = answer(StatusCode::OK, new.version, change);
        res.headers_mut().insert(
            header::HeaderName::from_static("preference-applied"),
            HeaderValue::from_static("return=minimal"),
        );
        return Ok(res);
    }
    let (row, hands) = t
        .live
        .whole(&new.id)
        .await?
        .ok_or(TableProblem::NoSuchTable)?;
    table_answer(state, row, hands).await
}

/// A 200 with the `TABLE` of a head and its hands, joined on the blocking
/// pool (a long night is a megabyte).
async fn table_answer(state: &AppState, row: TableRow, hands: Vec<(String, String)>) -> Answer {
    let version = row.version;
    let body = state
        .pool
        .run(move || Ok(json::table(&row, &hands)))
        .await?;
    Ok(answer(StatusCode::OK, version, body))
}

/// Append a hand to a table.
#[utoipa::path(
    post,
    path = "/v1/tables/{id}/hands",
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    request_body(content = LedgerHandDto, description = "One ledger hand: a win, a draw, a false win or a change of rules", content_type = "application/json"),
    responses(
        (status = 200, description = "The new table, with its `ETag`; with `Prefer: return=minimal`, the change (`HandChange`, the `hand` event's data) and `Preference-Applied: return=minimal`", content(
            (TableDoc = "application/json"),
            (HandChange = "application/json"),
        )),
        BodyProblems,
        KeyProblems,
        NoTable,
        VersionProblems,
        (status = 422, description = "The hand breaks a rule (pointer `/hands/N/...`, the index it would have had); nothing is stored", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn append(
    state: web::Data<AppState>,
    t: Keyed<Versioned>,
    req: HttpRequest,
    payload: web::Payload,
) -> Answer {
    let body = read_json_body(&req, &state, payload).await?;
    let raw: &RawValue = parse_checked(&body, state.service.limits().json_depth)?;
    let hand = NewHand(night::compact(raw.get()));
    drop(body);
    // One hand costs about what a score does, whatever the night's length,
    // so it is played here as a score is, never queued behind the pool's
    // long work (bench/tables.md, "Heavy neighbours").
    let played = night::play_hand(&state.service, &t.row, &hand)?;
    commit(&state, &req, &t, played.head, Some(played.hand)).await
}

/// Take back a table's last hand.
#[utoipa::path(
    delete,
    path = "/v1/tables/{id}/hands/last",
    tag = "tables",
    params(("id" = String, Path, description = "The table's id")),
    responses(
        (status = 200, description = "The new table (one more version), with its `ETag`; with `Prefer: return=minimal`, the change (`UndoChange`, the `undo` event's data)", content(
            (TableDoc = "application/json"),
            (UndoChange = "application/json"),
        )),
        KeyProblems,
        NoTable,
        VersionProblems,
        (status = 422, description = "The table has no hand to take back (pointer `/hands`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store does not answer (`/problems/store-unavailable`), retry after `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn undo(state: web::Data<AppState>, t: Keyed<Versioned>, req: HttpRequest) -> Answer {
    if t.row.hands == 0 {
        return Err(ApiError::field("/hands", "the table has no hand to take back").into());
    }
    // The night before the last hand: the state kept with the one before.
    let before = match t.row.hands - 2 {
        idx if idx >= 0 => Some(
            t.live
                .hand_state(&t.row.id, idx)
                .await?
                .ok_or(TableProblem::Store)?,
        ),
        _ => None,
    };
    // A summary from a kept state: lighter than a hand (see `append`).
    let head = night::play_undo(&state.service, &t.row, before.as_deref())?;
    commit(&state, &req, &t, head, None).await
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
pub async fn delete(t: Keyed<AnyVersion>) -> Answer {
    if !t.live.delete(&t.row.id).await? {
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
    let request: GroupCreateRequest = read_json(&req, &state, payload).await?;
    let name = request.name;
    if !(1..=MAX_NAME).contains(&name.chars().count()) {
        return Err(ApiError::field(
            "/name",
            format!("expected a string of 1 to {MAX_NAME} characters"),
        )
        .into());
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
    let body = json::to_vec(&GroupCreated {
        id: &id,
        key: &key,
        view_path: format!("/g/{id}"),
    });
    let mut res = HttpResponse::Created();
    res.insert_header((header::CONTENT_TYPE, "application/json"));
    res.insert_header((header::LOCATION, format!("/v1/groups/{id}")));
    Ok(res.body(body))
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
        Err::<HttpResponse, _>(crate::http::problem::Refusal(ApiError::MethodNotAllowed {
            method: req.method().to_string(),
            allowed,
        }))
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
