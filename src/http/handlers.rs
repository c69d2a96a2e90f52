//! Request handlers: read and check the body, call the core, render the
//! answer. No scoring logic here.

use super::cache::key_hash;
use super::dto::{
    self, BatchRequest, BatchResponse, CompareRequest, CompareResponse, FalseWinRequest,
    FalseWinResponse, Health, HouseRulesDto, RulesetDetail, RulesetList, RulesetSummary,
    RulesetsDto, ScoreRequest, ScoreResponse,
};
use super::dto::{WaitsRequest, WaitsResponse};
use super::error::{ApiError, Problem};
use super::{render, AppState};
use crate::core::{evaluate, hand, settle, ContextSpec, HandSpec, HouseRules, Registry, Ruleset};
use actix_web::http::header;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::{HttpRequest, HttpResponse};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;
use std::task::Poll;

/// Header that says whether a score came from the cache.
pub const X_CACHE: &str = "x-cache";

/// Whether a score body came from the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheStatus {
    Hit,
    Miss,
}

impl CacheStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CacheStatus::Hit => "hit",
            CacheStatus::Miss => "miss",
        }
    }
}

// ------------------------------------------------------------ body reading

/// Checks the content type, reads at most `limit` bytes and deserialises.
async fn read_json<T: DeserializeOwned>(
    req: &HttpRequest,
    state: &AppState,
    payload: web::Payload,
    limit: usize,
) -> Result<T, ApiError> {
    let body = read_json_body(req, state, payload, limit).await?;
    parse_checked(state, &body)
}

/// Checks the content type and reads at most `limit` bytes (within the body timeout).
async fn read_json_body(
    req: &HttpRequest,
    state: &AppState,
    payload: web::Payload,
    limit: usize,
) -> Result<Bytes, ApiError> {
    check_json_content_type(req)?;
    let mut read = std::pin::pin!(read_body(req, payload, limit));
    // A small body has usually arrived with the headers, but actix calls the
    // handler before it hands the body to the payload, then polls it again
    // in the same pass: look without leaving a waker (which the hand-over
    // would fire for nothing), wait for that pass, and only then arm the
    // body timer (arming and dropping a timer cost every request about
    // 0.1 µs). See `body_wait`.
    let mut quiet = std::task::Context::from_waker(std::task::Waker::noop());
    if let Poll::Ready(body) = read.as_mut().poll(&mut quiet) {
        return body;
    }
    super::body_wait::second_poll().await;
    if let Poll::Ready(body) = std::future::poll_fn(|cx| Poll::Ready(read.as_mut().poll(cx))).await
    {
        return body;
    }
    actix_web::rt::time::timeout(state.limits.body_timeout, read)
        .await
        .map_err(|_| ApiError::RequestTimeout {
            limit_ms: state.limits.body_timeout.as_millis() as u64,
        })?
}

/// Reads and scores one `POST /v1/score` body (or batch item): the fast
/// reader for the plain shape, straight into the core's types, else serde
/// (which gives the same request, or the error with its pointer).
pub fn score_request_bytes(
    state: &AppState,
    body: &[u8],
) -> Result<(Bytes, CacheStatus), ApiError> {
    if state.limits.json_depth >= super::quick::DEPTH {
        if let Some(q) = super::quick::score_request(body) {
            return score_body(state, q.ruleset, "/ruleset", &None, &q.hand, &q.context);
        }
    }
    score_request_body(state, parse_checked(state, body)?)
}

/// Checks the nesting depth, then deserialises.
fn parse_checked<T: DeserializeOwned>(state: &AppState, body: &[u8]) -> Result<T, ApiError> {
    check_depth(body, state.limits.json_depth)?;
    parse_json(body)
}

/// Rejects JSON nested deeper than `max` arrays and objects (a 400), in one
/// pass over the bytes and before any parsing; strings are skipped.
pub fn check_depth(bytes: &[u8], max: usize) -> Result<(), ApiError> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return Err(ApiError::MalformedJson {
                        detail: format!("the JSON is nested deeper than {max} levels"),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn check_json_content_type(req: &HttpRequest) -> Result<(), ApiError> {
    let Some(ct) = req.headers().get(header::CONTENT_TYPE) else {
        return Err(ApiError::UnsupportedMediaType { got: None });
    };
    if ct.as_bytes() == b"application/json" {
        return Ok(());
    }
    let ct = ct.to_str().unwrap_or("");
    let essence = ct.split(';').next().unwrap_or("").trim().as_bytes();
    let starts = |p: &[u8]| essence.len() >= p.len() && essence[..p.len()].eq_ignore_ascii_case(p);
    let ends = |p: &[u8]| {
        essence.len() >= p.len() && essence[essence.len() - p.len()..].eq_ignore_ascii_case(p)
    };
    let ok = essence.eq_ignore_ascii_case(b"application/json")
        || (starts(b"application/") && ends(b"+json"));
    if ok {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType {
            got: Some(ct.chars().take(100).collect()),
        })
    }
}

async fn read_body(
    req: &HttpRequest,
    mut payload: web::Payload,
    limit: usize,
) -> Result<Bytes, ApiError> {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(ApiError::PayloadTooLarge { limit });
    }
    let Some(first) = payload.next().await else {
        return Ok(Bytes::new());
    };
    let first = first.map_err(|e| ApiError::MalformedJson {
        detail: format!("could not read the body: {e}"),
    })?;
    if first.len() > limit {
        return Err(ApiError::PayloadTooLarge { limit });
    }
    if declared == Some(first.len()) {
        // The whole body in one chunk: no copy.
        return Ok(first);
    }
    let mut body = BytesMut::with_capacity(declared.unwrap_or(1024).min(limit));
    body.extend_from_slice(&first);
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| ApiError::MalformedJson {
            detail: format!("could not read the body: {e}"),
        })?;
        if body.len() + chunk.len() > limit {
            return Err(ApiError::PayloadTooLarge { limit });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}

/// Deserialises JSON; syntax errors are 400, schema errors 422 with a pointer.
///
/// The common case (a valid body) takes serde_json's plain path; only a body
/// that fails is parsed again with path tracking, to point at the field.
pub fn parse_json<'a, T: serde::Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, ApiError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{')
        && serde_json::from_slice::<serde_json::Value>(bytes).is_ok()
    {
        return Err(not_an_object());
    }
    if let Ok(value) = serde_json::from_slice::<T>(bytes) {
        return Ok(value);
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // serde_json reports a non-string where an enum is expected as a
        // syntax error ("expected value"); when the body is valid JSON it is
        // a schema error (422) at the path reached.
        if e.inner().classify() == serde_json::error::Category::Syntax
            && e.inner().to_string().starts_with("expected value")
            && serde_json::from_slice::<serde_json::Value>(bytes).is_ok()
        {
            let pointer = pointer_of(e.path());
            return ApiError::field(
                pointer,
                "invalid type: expected a string, one of the documented values",
            );
        }
        path_error(e)
    })?;
    de.end().map_err(|e| ApiError::MalformedJson {
        detail: e.to_string(),
    })?;
    Ok(value)
}

/// `POST /v1/score/batch` as read: each item is the raw text of a score
/// request ([`BatchRequest`] is its schema).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct BatchBody<'a> {
    #[serde(borrow)]
    requests: Vec<&'a serde_json::value::RawValue>,
}

/// A request body (or batch item) that is valid JSON but not an object.
fn not_an_object() -> ApiError {
    ApiError::field("", "invalid type: expected a JSON object")
}

/// The JSON pointer of a serde path.
fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            Segment::Map { key } => pointer.push_str(&format!("/{}", escape_pointer(key))),
            Segment::Enum { variant } => pointer.push_str(&format!("/{}", escape_pointer(variant))),
            Segment::Unknown => {}
        }
    }
    pointer
}

fn path_error(e: serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let mut pointer = pointer_of(e.path());
    let inner = e.into_inner();
    match inner.classify() {
        serde_json::error::Category::Data => {
            let full = inner.to_string();
            let message = match full.rfind(" at line ") {
                Some(i) if inner.line() > 0 => full[..i].to_string(),
                _ => full,
            };
            // Missing and unknown fields are reported at their object: point at the field itself.
            for prefix in ["missing field `", "unknown field `"] {
                if let Some(rest) = message.strip_prefix(prefix) {
                    if let Some(name) = rest.split('`').next() {
                        let tail = format!("/{}", escape_pointer(name));
                        if !pointer.ends_with(&tail) {
                            pointer.push_str(&tail);
                        }
                    }
                }
            }
            ApiError::field(pointer, message)
        }
        _ => ApiError::MalformedJson {
            detail: inner.to_string(),
        },
    }
}

fn escape_pointer(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

// ----------------------------------------------------------------- scoring

/// Most tile digits in `hand.tiles` and most melds: far above any real hand
/// (18 tiles, 4 melds), low enough that no tile count can overflow later.
pub const MAX_TILE_DIGITS: usize = 32;
pub const MAX_MELDS: usize = 4;

/// Rejects hands of impossible size before the core sees them.
pub fn check_hand_size<S: AsRef<str>>(hand: &HandSpec<S>) -> Result<(), ApiError> {
    let digits = hand
        .tiles
        .as_ref()
        .bytes()
        .filter(u8::is_ascii_digit)
        .count();
    if digits > MAX_TILE_DIGITS {
        return Err(ApiError::field(
            "/hand/tiles",
            format!("{digits} tiles listed; a hand holds at most 18 (14 plus one per kong)"),
        ));
    }
    if hand.melds.len() > MAX_MELDS {
        return Err(ApiError::field(
            "/hand/melds",
            format!(
                "{} melds listed; a hand has at most {MAX_MELDS}",
                hand.melds.len()
            ),
        ));
    }
    Ok(())
}

/// A ruleset looked up by id, with a request's house rules applied.
pub struct Resolved<'a> {
    /// The ruleset as built in (its id and version key the cache).
    pub base: &'a Arc<Ruleset>,
    pub house: HouseRules,
    /// The ruleset in force: `base`, or a copy with the house rules applied.
    pub ruleset: Cow<'a, Ruleset>,
}

/// Looks up `id` (a 404 pointing at `pointer` when unknown) and applies the house rules (422s).
pub fn resolve<'a>(
    registry: &'a Registry,
    id: &str,
    pointer: &str,
    house: &Option<HouseRulesDto>,
) -> Result<Resolved<'a>, ApiError> {
    let base = registry.get(id).ok_or_else(|| ApiError::UnknownRuleset {
        id: id.to_string(),
        pointer: pointer.into(),
    })?;
    let house = dto::house_rules(house);
    let ruleset = if house.is_empty() {
        Cow::Borrowed(base.as_ref())
    } else {
        Cow::Owned(base.with_house_rules(&house)?)
    };
    Ok(Resolved {
        base,
        house,
        ruleset,
    })
}

/// [`score_body`] for a whole score request (the ruleset error points at `/ruleset`).
pub fn score_request_body(
    state: &AppState,
    r: ScoreRequest,
) -> Result<(Bytes, CacheStatus), ApiError> {
    score_body(
        state,
        &r.ruleset,
        "/ruleset",
        &r.house_rules,
        &r.hand.into_core(),
        &r.context.to_core(),
    )
}

/// Validates, looks up the cache and scores one hand; returns the response body.
pub fn score_body<S: AsRef<str>>(
    state: &AppState,
    ruleset_id: &str,
    ruleset_pointer: &str,
    house: &Option<HouseRulesDto>,
    hand_spec: &HandSpec<S>,
    ctx_spec: &ContextSpec,
) -> Result<(Bytes, CacheStatus), ApiError> {
    let Resolved {
        base,
        house,
        ruleset,
    } = resolve(&state.registry, ruleset_id, ruleset_pointer, house)?;
    check_hand_size(hand_spec)?;
    let (hand, ctx) = hand::validate(hand_spec, ctx_spec, evaluate::allowances(&ruleset))?;
    let key = key_hash(base, &house, &hand, &ctx);
    if let Some(body) = state.cache.get(&key) {
        state.metrics.hit();
        return Ok((body, CacheStatus::Hit));
    }
    state.metrics.miss();
    let score = evaluate::score_hand(&ruleset, &hand, &ctx)?;
    let body = Bytes::from(render::score_json(ruleset_id, &ruleset, &ctx, &score, &key));
    state.cache.insert(key, body.clone());
    Ok((body, CacheStatus::Miss))
}

/// `Content-Type: application/json` from a static value (a `&str` is
/// checked and copied into a new allocation for every response).
fn json_content_type() -> (header::HeaderName, header::HeaderValue) {
    (
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    )
}

fn json_bytes(body: Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(json_content_type())
        .body(body)
}

fn problem_bytes(e: &ApiError) -> Vec<u8> {
    serde_json::to_vec(&e.problem()).unwrap_or_else(|_| b"{}".to_vec())
}

// ---------------------------------------------------------------- handlers

/// Score one hand.
///
/// Validates the hand and context under the ruleset (with any house rules),
/// reads it every way it can be read, and answers every reading with its
/// faan lines, the chosen one, the base points and who pays whom. Answers
/// from the cache when the same hand (in any tile order) was scored before.
#[utoipa::path(
    post,
    path = "/v1/score",
    tag = "scoring",
    request_body(
        content = ScoreRequest,
        content_type = "application/json",
        examples(
            ("wisteria_plain_hand" = (
                summary = "Wisteria Court: a plain hand (0 faan; discarder pays 2, others 1, winner +4)",
                value = json!({"ruleset": "wisteria-court",
                    "hand": {"tiles": "567m34599p888s", "melds": [{"kind": "chow", "tiles": "234m"}], "winning_tile": "5p", "flowers": ["F1"]},
                    "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"}}))),
            ("wisteria_quiet_hand" = (
                summary = "Wisteria Court: a quiet hand (all chows, concealed, no flowers, self-draw: 4 faan; each pays 32)",
                value = json!({"ruleset": "wisteria-court",
                    "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
                    "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}))),
            ("wisteria_strong_hand" = (
                summary = "Wisteria Court: a strong hand (all pungs 3, dragon pung 1, seat wind 1: 5 faan; discarder 48, others 24)",
                value = json!({"ruleset": "wisteria-court",
                    "hand": {"tiles": "88s", "melds": [{"kind": "pung", "tiles": "777z"}, {"kind": "pung", "tiles": "222z"}, {"kind": "pung", "tiles": "333m"}, {"kind": "pung", "tiles": "666p"}], "winning_tile": "8s", "flowers": ["F1"]},
                    "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"}}))),
            ("hkma_one_suit_with_honours" = (
                summary = "HKMA: one suit with honours 3, red dragon pung 1, self-draw 1: 5 faan; each pays 48",
                value = json!({"ruleset": "hkma",
                    "hand": {"tiles": "234m567m345m99m", "melds": [{"kind": "pung", "tiles": "777z"}], "winning_tile": "9m"},
                    "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}))),
            ("hkma_small_three_dragons" = (
                summary = "HKMA: small three dragons on a discard: 8 faan; the discarder pays 256",
                value = json!({"ruleset": "hkma",
                    "hand": {"tiles": "222m888p77z", "melds": [{"kind": "pung", "tiles": "555z"}, {"kind": "pung", "tiles": "666z"}], "winning_tile": "8p"},
                    "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"}}))),
            ("house_rules" = (
                summary = "House rules: minimum 0 and small four winds at 6",
                value = json!({"ruleset": "hkma",
                    "hand": {"tiles": "234m567m22p", "melds": [{"kind": "pung", "tiles": "777z"}, {"kind": "kong", "tiles": "1111s", "concealed": true}], "winning_tile": "2p"},
                    "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"},
                    "house_rules": {"min_faan": 0, "patterns": {"small_four_winds": 6}}})))
        )
    ),
    responses(
        (status = 200, description = "The score (the example is the answer to the `wisteria_quiet_hand` request)", body = ScoreResponse,
            headers(("X-Cache" = String, description = "`hit` when the body came from the cache, else `miss`")),
            example = json!({"ruleset": "wisteria-court", "hand_hash": "4e3ace6cdd3b8c65edd07044a10528eb4b4dea9dff1fc12da98dfb71ece69b51", "decompositions": [{"form": "standard", "sets": ["123m", "456m", "789p", "234s"], "pair": "55s", "set_details": [{"tiles": "123m", "kind": "chow", "concealed": true, "declared": false, "winning": false}, {"tiles": "456m", "kind": "chow", "concealed": true, "declared": false, "winning": false}, {"tiles": "789p", "kind": "chow", "concealed": true, "declared": false, "winning": true}, {"tiles": "234s", "kind": "chow", "concealed": true, "declared": false, "winning": false}], "winning_in_pair": false, "lines": [{"pattern": "all_chows", "name": "All chows", "faan": 1, "limit": false}, {"pattern": "self_draw", "name": "Self-drawn win", "faan": 1, "limit": false}, {"pattern": "concealed_hand", "name": "Concealed hand", "faan": 1, "limit": false}, {"pattern": "no_flowers", "name": "No flowers", "faan": 1, "limit": false}], "raw_faan": 4, "total_faan": 4, "limit_hand": false}], "chosen": 0, "form": "standard", "lines": [{"pattern": "all_chows", "name": "All chows", "faan": 1, "limit": false}, {"pattern": "self_draw", "name": "Self-drawn win", "faan": 1, "limit": false}, {"pattern": "concealed_hand", "name": "Concealed hand", "faan": 1, "limit": false}, {"pattern": "no_flowers", "name": "No flowers", "faan": 1, "limit": false}], "raw_faan": 4, "total_faan": 4, "limit_hand": false, "limit": 10, "min_faan": 0, "meets_minimum": true, "missing_faan": 0, "base_points": 16, "winner": "south", "payments": {"east": -32, "south": 96, "west": -32, "north": -32}})),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown ruleset (pointer `/ruleset`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit (64 KiB by default)", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body timeout (10 s by default)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Content-Type is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The request breaks a rule (`/problems/invalid-request`, with a pointer per error) or the tiles are not a winning hand (`/problems/not-a-winning-hand`)",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn score(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let request = read_json_body(&req, &state, payload, state.limits.body).await?;
    // The same bytes as a recent request: its body, unparsed.
    let (body, status) = match state.cache.get_by_request(&request) {
        Some(body) => {
            state.metrics.hit();
            (body, CacheStatus::Hit)
        }
        None => {
            let (body, status) = score_request_bytes(&state, &request)?;
            state.cache.remember_request(&request, &body);
            (body, status)
        }
    };
    let mut res = json_bytes(body);
    res.headers_mut().insert(
        header::HeaderName::from_static(X_CACHE),
        header::HeaderValue::from_static(status.as_str()),
    );
    Ok(res)
}

/// Score many hands.
///
/// Each item of `requests` is a score request, checked and scored on its
/// own (with the cache). `results` holds, in the same order, a score result
/// or a problem document; problem pointers are relative to the item.
#[utoipa::path(
    post,
    path = "/v1/score/batch",
    tag = "scoring",
    request_body(
        content = BatchRequest,
        content_type = "application/json",
        example = json!({"requests": [
            {"ruleset": "wisteria-court",
             "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
             "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}},
            {"ruleset": "no-such-ruleset",
             "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
             "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}
        ]})
    ),
    responses(
        (status = 200, description = "One result or problem per request, in order", body = BatchResponse),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit (1 MiB by default)", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body timeout (10 s by default)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Content-Type is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not a batch (`/problems/invalid-request`) or more requests than allowed (`/problems/batch-too-large`, 1000 by default)",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn score_batch(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let body = read_json_body(&req, &state, payload, state.limits.batch_body).await?;
    check_depth(&body, state.limits.json_depth)?;
    // Items stay raw JSON text: each is then read as a `POST /v1/score` body
    // (the fast reader, the cache's front), not through a `Value` tree.
    let batch: BatchBody<'_> = parse_json(&body)?;
    if batch.requests.len() > state.limits.batch {
        return Err(ApiError::BatchTooLarge {
            got: batch.requests.len(),
            max: state.limits.batch,
        });
    }
    let mut out = Vec::with_capacity(64 + batch.requests.len() * 1024);
    out.extend_from_slice(b"{\"results\":[");
    for (i, item) in batch.requests.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let item = item.get().as_bytes();
        let result = match state.cache.get_by_request(item) {
            Some(body) => {
                state.metrics.hit();
                Ok(body)
            }
            None => score_request_bytes(&state, item).map(|(body, _)| {
                state.cache.remember_request(item, &body);
                body
            }),
        };
        match result {
            Ok(body) => out.extend_from_slice(&body),
            Err(e) => out.extend_from_slice(&problem_bytes(&e)),
        }
    }
    out.extend_from_slice(b"]}");
    Ok(HttpResponse::Ok()
        .insert_header(json_content_type())
        .body(out))
}

/// Score one hand under several rulesets.
///
/// `rulesets` is a list of ids or `"all"`. `results` maps each id to its
/// score result or problem document (an unknown id is a 404 problem with
/// pointer `/rulesets/<index>`).
#[utoipa::path(
    post,
    path = "/v1/compare",
    tag = "scoring",
    request_body(
        content = CompareRequest,
        content_type = "application/json",
        example = json!({"rulesets": "all",
            "hand": {"tiles": "222m888p77z", "melds": [{"kind": "pung", "tiles": "555z"}, {"kind": "pung", "tiles": "666z"}], "winning_tile": "8p"},
            "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west"}})
    ),
    responses(
        (status = 200, description = "Ruleset id to result or problem", body = CompareResponse),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit (1 MiB by default)", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body timeout (10 s by default)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Content-Type is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The request breaks the schema (e.g. `rulesets` neither a list nor \"all\")", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn compare(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let r: CompareRequest = read_json(&req, &state, payload, state.limits.batch_body).await?;
    let ids: Vec<(String, String)> = match &r.rulesets {
        RulesetsDto::Word(w) if w == "all" => state
            .registry
            .ids()
            .map(|id| (id.to_string(), "/rulesets".into()))
            .collect(),
        RulesetsDto::Word(w) => {
            return Err(ApiError::field(
                "/rulesets",
                format!("expected a list of ruleset ids or \"all\", got {w:?}"),
            ))
        }
        RulesetsDto::List(list) if list.is_empty() => {
            return Err(ApiError::field(
                "/rulesets",
                "give at least one ruleset id, or \"all\"",
            ))
        }
        RulesetsDto::List(list) => {
            let mut seen = Vec::with_capacity(list.len());
            for (i, id) in list.iter().enumerate() {
                if !seen.iter().any(|(s, _): &(String, String)| s == id) {
                    seen.push((id.clone(), format!("/rulesets/{i}")));
                }
            }
            seen
        }
    };
    let (hand, context) = (r.hand.to_core(), r.context.to_core());
    let mut out = Vec::with_capacity(64 + ids.len() * 1024);
    out.extend_from_slice(b"{\"results\":{");
    for (i, (id, pointer)) in ids.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&serde_json::to_vec(id).unwrap_or_else(|_| b"\"\"".to_vec()));
        out.push(b':');
        match score_body(&state, id, pointer, &r.house_rules, &hand, &context) {
            Ok((body, _)) => out.extend_from_slice(&body),
            Err(e) => out.extend_from_slice(&problem_bytes(&e)),
        }
    }
    out.extend_from_slice(b"}}");
    Ok(HttpResponse::Ok()
        .insert_header(json_content_type())
        .body(out))
}

/// Every tile that completes a hand one tile short.
///
/// For each wait: how many copies are unseen, and the best evaluation of a
/// win on it by discard (from the seat before the winner) and by self-draw.
#[utoipa::path(
    post,
    path = "/v1/waits",
    tag = "scoring",
    request_body(
        content = WaitsRequest,
        content_type = "application/json",
        example = json!({"ruleset": "hkma",
            "hand": {"tiles": "1112345678999m"},
            "context": {"seat_wind": "south", "round_wind": "east"}})
    ),
    responses(
        (status = 200, description = "The waits in tile order", body = WaitsResponse),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown ruleset (pointer `/ruleset`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body timeout (10 s by default)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Content-Type is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The request breaks a rule (e.g. a winning tile given, or the wrong number of tiles)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn waits(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let r: WaitsRequest = read_json(&req, &state, payload, state.limits.body).await?;
    let ruleset = resolve(&state.registry, &r.ruleset, "/ruleset", &r.house_rules)?.ruleset;
    let hand = r.hand.to_core();
    check_hand_size(&hand)?;
    let found = crate::core::waits::waits(&ruleset, &hand, &r.context.to_core())?;
    Ok(HttpResponse::Ok().json(WaitsResponse::new(&r.ruleset, &ruleset, &found)))
}

/// List the rulesets.
#[utoipa::path(
    get,
    path = "/v1/rulesets",
    tag = "rulesets",
    responses((status = 200, description = "Every ruleset, in a stable order", body = RulesetList))
)]
pub async fn list_rulesets(state: web::Data<AppState>) -> HttpResponse {
    let list = RulesetList {
        rulesets: state
            .registry
            .all()
            .iter()
            .map(|r| RulesetSummary::from(r.as_ref()))
            .collect(),
    };
    HttpResponse::Ok().json(list)
}

/// One ruleset's whole chart.
///
/// Patterns with their values and combination rules, the minimum and its
/// settings, the limit, base points from 0 faan to the limit, payment rules
/// as multiples of the base, money, and the interpretation notes.
#[utoipa::path(
    get,
    path = "/v1/rulesets/{id}",
    tag = "rulesets",
    params(("id" = String, Path, description = "Ruleset id", example = "wisteria-court")),
    responses(
        (status = 200, description = "The ruleset", body = RulesetDetail),
        (status = 404, description = "Unknown ruleset", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn get_ruleset(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = req.match_info().get("id").unwrap_or("");
    let r = state
        .registry
        .get(id)
        .ok_or_else(|| ApiError::UnknownRuleset {
            id: id.to_string(),
            pointer: String::new(),
        })?;
    Ok(HttpResponse::Ok().json(RulesetDetail::from(r.as_ref())))
}

/// The false-win penalty (詐糊).
///
/// The offender pays each of the other three players what that player would
/// collect on a self-drawn win at the ruleset's minimum faan.
#[utoipa::path(
    post,
    path = "/v1/penalties/false-win",
    tag = "scoring",
    request_body(
        content = FalseWinRequest,
        content_type = "application/json",
        example = json!({"ruleset": "wisteria-court", "offender": "north", "house_rules": {"min_faan": 3}})
    ),
    responses(
        (status = 200, description = "The penalty", body = FalseWinResponse),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "Unknown ruleset (pointer `/ruleset`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body timeout (10 s by default)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Content-Type is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The request breaks a rule", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn false_win(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let r: FalseWinRequest = read_json(&req, &state, payload, state.limits.body).await?;
    let ruleset = resolve(&state.registry, &r.ruleset, "/ruleset", &r.house_rules)?.ruleset;
    let offender = r.offender.into();
    let payments = settle::false_win(&ruleset, offender);
    Ok(HttpResponse::Ok().json(FalseWinResponse::new(
        &r.ruleset, &ruleset, offender, payments,
    )))
}

/// The OpenAPI document of this API.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    responses((status = 200, description = "OpenAPI 3.1 document", content_type = "application/json", body = Object))
)]
pub async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(json_content_type())
        .body(super::openapi::cached())
}

/// API documentation page (works offline; reads /openapi.json).
#[utoipa::path(
    get,
    path = "/docs",
    tag = "meta",
    responses((status = 200, description = "HTML page", content_type = "text/html", body = String))
)]
pub async fn docs() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(super::docs::PAGE)
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "meta", responses((status = 200, description = "Alive", body = Health)))]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".into(),
        rulesets: state.registry.all().len(),
    })
}

/// Readiness: the rulesets are loaded and requests are served; 503 once shutdown has begun.
#[utoipa::path(get, path = "/readyz", tag = "meta", responses(
    (status = 200, description = "Ready", body = Health),
    (status = 503, description = "Shutting down (SIGTERM received): send no new work", body = Health),
))]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let rulesets = state.registry.all().len();
    if state
        .shutting_down
        .load(std::sync::atomic::Ordering::Relaxed)
    {
        return HttpResponse::ServiceUnavailable().json(Health {
            status: "shutting_down".into(),
            rulesets,
        });
    }
    HttpResponse::Ok().json(Health {
        status: "ready".into(),
        rulesets,
    })
}

/// Prometheus metrics (text format 0.0.4).
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "meta",
    responses((status = 200, description = "Requests by route and status, latency histogram, cache hits, misses and entries",
        content_type = "text/plain; version=0.0.4", body = String))
)]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    let text = state
        .metrics
        .render(state.cache.entries(), state.cache.weighted_bytes());
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(text)
}

/// Any path that is not an endpoint.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound {
        path: req.path().chars().take(200).collect(),
    })
}
