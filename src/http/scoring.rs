//! The scoring endpoints: read the body, hand it to the pipeline
//! (`crate::service`), answer its bytes. No scoring logic here.

use super::body::read_json_body;
use super::bounds::{Held, HeldBody};
use super::examples::{example, pub_rules};
use super::problem::{BodyProblems, RulesetProblem};
use super::AppState;
use crate::api::{
    AnalyzeRequest, AnalyzeResponse, ApiError, BatchRequest, BatchResponse, CompareRequest,
    CompareResponse, FalseWinRequest, FalseWinResponse, LedgerRequest, LedgerResponse, Problem,
    ScoreRequest, ScoreResponse, SettleRequest, SettleResponse, WaitsRequest, WaitsResponse,
};
use crate::http::problem::Refusal;
use crate::service::wire::render::Lang;
use crate::service::Service;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};

/// Runs `work` on the blocking pool (heavy work: batch, compare, ledger,
/// analysis), where the body is dropped once answered, and answers its bytes.
async fn on_pool(
    state: &web::Data<AppState>,
    body: super::body::Body,
    work: fn(&Service, &[u8]) -> Result<Vec<u8>, ApiError>,
) -> Result<HttpResponse, Refusal> {
    let s = state.clone();
    let out = state.pool.run(move || work(&s.service, &body)).await?;
    answer(state, out)
}

/// Header that says whether a score came from the cache.
pub const X_CACHE: &str = "x-cache";

/// A `200 application/json` answer whose bytes are held against the shared
/// budget until they are written out (a 503 when it is full).
pub fn answer(state: &AppState, body: impl Into<Bytes>) -> Result<HttpResponse, Refusal> {
    let body = body.into();
    let mut held = Held::none();
    state.budget.take(&mut held, body.len())?;
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        ))
        .body(HeldBody::new(body, held)))
}

/// A `200 application/json` answer (a long one handed to actix in slices:
/// [`super::compress::sliced`]).
pub fn json(body: impl Into<Bytes>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        ))
        .body(super::compress::sliced(body.into()))
}

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
                    "house_rules": {"min_faan": 0, "patterns": {"small_four_winds": 6}}}))),
            ("inline_ruleset" = (
                summary = "A whole ruleset sent with the request (pub rules): all chows, self-draw, concealed hand, all simples: 4 faan; each pays 32",
                value = json!({"ruleset": pub_rules(),
                    "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
                    "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}))),
            ("extends" = (
                summary = "HKMA with all simples at 1 faan (extends): all chows, self-draw, concealed hand, all simples: 4 faan",
                value = json!({"ruleset": {"extends": "hkma", "id": "hkma-simples", "patterns": {"all_simples": {"faan": 1}}},
                    "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
                    "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})))
        )
    ),
    responses(
        (status = 200, description = "The score (the example is the answer to the `wisteria_quiet_hand` request)", body = ScoreResponse,
            headers(("X-Cache" = String, description = "`hit` when the body came from the cache, else `miss`")),
            example = json!(example(include_str!("../../openapi/examples/score-200.json")))),
        BodyProblems,
        RulesetProblem,
        (status = 422, description = "The request breaks a rule (`/problems/invalid-request`, with a pointer per error) or the tiles are not a winning hand (`/problems/not-a-winning-hand`)",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn score(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let request = read_json_body(&req, &state, payload).await?;
    let (body, status) = state.service.score_body(&request)?;
    drop(request);
    let mut res = answer(&state, body)?;
    res.headers_mut().insert(
        HeaderName::from_static(X_CACHE),
        HeaderValue::from_static(status.as_str()),
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
        BodyProblems,
        (status = 422, description = "Not a batch (`/problems/invalid-request`) or more requests than allowed (`/problems/batch-too-large`, 1000 by default)",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn score_batch(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let body = read_json_body(&req, &state, payload).await?;
    on_pool(&state, body, Service::batch).await
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
        BodyProblems,
        (status = 422, description = "The request breaks the schema (e.g. `rulesets` neither a list nor \"all\")", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn compare(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let body = read_json_body(&req, &state, payload).await?;
    on_pool(&state, body, Service::compare).await
}

/// Several winners on one discard (一炮多響).
///
/// One to three winners of one discard or robbed kong, each a score
/// request's `hand` and `context`. Each is scored as POST /v1/score scores
/// it (`results`, in request order, each with `paid`); `payments` sums the
/// paid winners. Under house rule `multiple_winners: head_bump` (截糊) only
/// the first winner in turn order after the discarder is paid. With one
/// winner, `results[0]` and `payments` are what POST /v1/score answers.
#[utoipa::path(
    post,
    path = "/v1/settle",
    tag = "scoring",
    request_body(
        content = SettleRequest,
        content_type = "application/json",
        examples(
            ("head_bump" = (
                summary = "HKMA, head bump: East discards 5p to West (all pungs, 3 faan) and South (mixed one suit and a dragon pung, 4 faan); South is first after East and alone is paid (East pays 64)",
                value = json!(example(include_str!("../../openapi/examples/settle-request-head-bump.json"))))),
        )
    ),
    responses(
        (status = 200, description = "Each winner's score with `paid`, and the summed payments (the example answers the `head_bump` request)", body = SettleResponse,
            example = json!(example(include_str!("../../openapi/examples/settle-200.json")))),
        BodyProblems,
        RulesetProblem,
        (status = 422, description = "The request breaks a rule, each error with a pointer (winners who disagree: `/winners/1/context/discarder`; a repeated seat: `/winners/1/context/seat_wind`), or a winner's tiles are not a winning hand (`/problems/not-a-winning-hand` at `/winners/{i}/hand/tiles`)",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn settle(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let body = read_json_body(&req, &state, payload).await?;
    let out = state.service.settle(&body)?;
    drop(body);
    answer(&state, out)
}

/// A whole match, stateless (找數).
///
/// Four players and every hand so far: wins (one to three winners, their
/// contexts naming players), draws and false wins. Answers each hand's round
/// wind, dealer, seats, winners, deltas and running balances; the next deal;
/// the final balances, standings and the fewest transfers that settle up.
/// A bad hand fails the whole ledger with a pointer into it.
#[utoipa::path(
    post,
    path = "/v1/ledger",
    tag = "scoring",
    request_body(
        content = LedgerRequest,
        content_type = "application/json",
        examples(
            ("four_hands" = (
                summary = "HKMA: Ben self-draws all pungs (4 faan, 32 each), a draw (Ben keeps the deal), Cat wins all pungs on Dan's discard (3 faan, Dan pays 64), Dan's false win",
                value = json!(example(include_str!("../../openapi/examples/ledger-request-four-hands.json"))))),
        )
    ),
    responses(
        (status = 200, description = "The match hand by hand, the next deal, balances, standings, transfers and each player's statistics (the example answers the `four_hands` request). With `Accept: text/csv`: the night as CSV (UTF-8 with a byte order mark, RFC 4180): a header row, one row per hand (hand, round, dealer, result, winners, faan, each player's points and, where there is money, money), a last row of totals.", content(
            (LedgerResponse = "application/json", example = json!(example(include_str!("../../openapi/examples/ledger-200.json")))),
            (String = "text/csv"),
        )),
        BodyProblems,
        RulesetProblem,
        (status = 422, description = "A hand or the players break a rule (pointer into the request: `/players/3`, `/hands/3/winners/0/hand/tiles`, `/hands/16` after the match is complete, `/hands` over the hand limit, 2,000 by default), or a winner's tiles are not a winning hand",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn ledger(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let body = read_json_body(&req, &state, payload).await?;
    if !wants_csv(&req) {
        return on_pool(&state, body, Service::ledger).await;
    }
    let s = state.clone();
    let lang = csv_lang(&req);
    let out = state
        .pool
        .run(move || s.service.ledger_csv(&body, lang))
        .await?;
    let mut answer = answer(&state, out)?;
    answer.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    Ok(answer)
}

/// The language of a CSV: `Accept-Language`'s, read once here.
pub(super) fn csv_lang(req: &HttpRequest) -> Lang {
    Lang::from_accept_language(
        req.headers()
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    )
}

/// The client asks for CSV: `text/csv` is among the media ranges of `Accept`.
pub(super) fn wants_csv(req: &HttpRequest) -> bool {
    req.headers()
        .get_all(header::ACCEPT)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|m| {
            m.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("text/csv"))
        })
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
        BodyProblems,
        RulesetProblem,
        (status = 422, description = "The request breaks a rule (e.g. a winning tile given, or the wrong number of tiles)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn waits(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let body = read_json_body(&req, &state, payload).await?;
    let out = state.service.waits(&body)?;
    drop(body);
    answer(&state, out)
}

/// A hand before the win: shanten, acceptance and each discard.
///
/// With 13 tiles: how far from ready (向聽), the tiles whose draw helps
/// (有效牌) and, when ready, the waits as `POST /v1/waits` answers them.
/// With 14: every discard (打邊隻), best first, and the score of declaring
/// the hand now when it already wins. With `chances`: the probability of
/// having been ready and of having won within each number of draws, and the
/// points expected, under the ruleset's minimum (README, "Hand analysis").
#[utoipa::path(
    post,
    path = "/v1/analyze",
    tag = "scoring",
    request_body(
        content = AnalyzeRequest,
        content_type = "application/json",
        examples(
            ("hkma_which_discard" = (
                summary = "HKMA, 14 tiles: which tile to discard, 12 draws left, the others' discards counted",
                value = json!({"ruleset": "hkma", "house_rules": {"min_faan": 3},
                    "hand": {"tiles": "123m456m78p55s1z2z2z9s", "melds": [], "flowers": ["F2"]},
                    "context": {"seat_wind": "south", "round_wind": "east"},
                    "seen": "1z1z9s", "chances": {"draws": 12, "discards": true}}))),
            ("hkma_nine_gates_waits" = (
                summary = "HKMA, 13 tiles: nine gates, ready on nine tiles",
                value = json!({"ruleset": "hkma",
                    "hand": {"tiles": "1112345678999m"},
                    "context": {"seat_wind": "south", "round_wind": "east"}}))),
        )
    ),
    responses(
        (status = 200, description = "Shanten, acceptance or discards, and the chances where asked for", body = AnalyzeResponse),
        BodyProblems,
        RulesetProblem,
        (status = 422, description = "The request breaks a rule (e.g. 12 or 15 tiles, a winning tile given, five of a tile in sight, draws out of 1 to 30, chances of a hand too far from ready)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn analyze(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let body = read_json_body(&req, &state, payload).await?;
    on_pool(&state, body, Service::analyze).await
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
        BodyProblems,
        RulesetProblem,
        (status = 422, description = "The request breaks a rule", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn false_win(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let body = read_json_body(&req, &state, payload).await?;
    let out = state.service.false_win(&body)?;
    drop(body);
    answer(&state, out)
}
