//! The rulesets, the OpenAPI document and documentation page, health,
//! readiness and metrics.

use super::body::read_json_body;
use super::examples::{pub_rules, pub_rules_chart};
use super::problem::{BodyProblems, RulesetProblem};
use super::scoring::json;
use super::AppState;
use crate::api::{
    ApiError, Health, PatternTable, Problem, RulesetDetail, RulesetList, ValidateRequest,
};
use crate::http::problem::Refusal;
use crate::service::to_json;
use actix_web::{web, HttpRequest, HttpResponse};

/// List the rulesets.
#[utoipa::path(
    get,
    path = "/v1/rulesets",
    tag = "rulesets",
    responses((status = 200, description = "Every ruleset, in a stable order", body = RulesetList))
)]
pub async fn list_rulesets(state: web::Data<AppState>) -> HttpResponse {
    json(state.service.rulesets())
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
) -> Result<HttpResponse, Refusal> {
    let id = req.match_info().get("id").unwrap_or("");
    Ok(json(state.service.ruleset_chart(id)?))
}

/// Every pattern and condition the engine knows.
///
/// The pattern table in contract order: each pattern's id, English and
/// Chinese names, the keys of its switches, what it contains when a house
/// rule (or a document under `extends` without a `contains`) adds it, and
/// whether it is optional (off in every built-in ruleset); then every
/// condition with its default, its meaning and its patterns. A ruleset's
/// own values are in `GET /v1/rulesets/{id}`.
#[utoipa::path(
    get,
    path = "/v1/patterns",
    tag = "rulesets",
    responses((status = 200, description = "The pattern and condition tables", body = PatternTable))
)]
pub async fn list_patterns(state: web::Data<AppState>) -> HttpResponse {
    json(state.service.patterns())
}

/// The ruleset document's JSON Schema.
///
/// What `ruleset` may be instead of an id: a whole ruleset in JSON with the
/// keys of the ruleset files, or `"extends": "<id>"` and only what changes
/// (a JSON merge patch, RFC 7386). The same schema is the `RulesetDocument`
/// component of this API's OpenAPI document (pattern ids there by `$ref`
/// to `PatternId`, here under `$defs`).
#[utoipa::path(
    get,
    path = "/v1/rulesets/schema",
    tag = "rulesets",
    responses((status = 200, description = "JSON Schema (2020-12) of a ruleset document", content_type = "application/json", body = serde_json::Value))
)]
pub async fn ruleset_schema(state: web::Data<AppState>) -> HttpResponse {
    json(state.service.ruleset_schema())
}

/// Check a ruleset document (and house rules).
///
/// Resolves `ruleset` (an id or a document, `extends` applied) and applies
/// `house_rules` as a score request would; answers the resolved chart (the
/// shape of `GET /v1/rulesets/{id}`, with `ruleset_hash`) or a 422 with
/// every problem, each pointing under `/ruleset/...` or `/house_rules/...`.
#[utoipa::path(
    post,
    path = "/v1/rulesets/validate",
    tag = "rulesets",
    request_body(
        content = ValidateRequest,
        content_type = "application/json",
        examples(
            ("pub_rules" = (
                summary = "A whole ruleset: five patterns, full-spicy points",
                value = json!({"ruleset": pub_rules()}))),
            ("extends" = (
                summary = "HKMA with all simples at 1 faan and seven pairs at 4",
                value = json!({"ruleset": {"extends": "hkma", "id": "hkma-simples", "patterns": {"all_simples": {"faan": 1}, "seven_pairs": {"faan": 4, "contains": ["concealed_hand"]}}}}))),
            ("house_rules" = (
                summary = "A built-in ruleset with house rules",
                value = json!({"ruleset": "hkma", "house_rules": {"min_faan": 1, "patterns": {"all_simples": 1}}})))
        )
    ),
    responses(
        (status = 200, description = "The resolved chart (the example answers the `pub_rules` request)", body = RulesetDetail,
            example = json!(pub_rules_chart())),
        BodyProblems,
        RulesetProblem,
        (status = 422, description = "Every problem of the document (`/ruleset/...`: an unknown key or pattern id, a bad value, an unknown `extends`, a contains loop, a document over `--ruleset-bytes`) or of the house rules (`/house_rules/...`)",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn validate_ruleset(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Refusal> {
    let body = read_json_body(&req, &state, payload).await?;
    let out = state.service.validate(&body)?;
    drop(body);
    super::scoring::answer(&state, out)
}

/// API documentation page (works offline; reads /openapi.json).
#[utoipa::path(
    get,
    path = "/docs",
    tag = "meta",
    responses((status = 200, description = "HTML page", content_type = "text/html", body = String))
)]
pub async fn docs(req: HttpRequest) -> HttpResponse {
    super::docs::variants().respond(&req, "text/html; charset=utf-8")
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "meta", responses((status = 200, description = "Alive", body = Health)))]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    let body = state.health.get_or_init(|| {
        to_json(&Health {
            status: "ok".into(),
            rulesets: state.service.registry().all().len(),
        })
        .into()
    });
    json(body.clone())
}

/// Readiness: the rulesets are loaded and requests are served; 503 once shutdown has begun.
#[utoipa::path(get, path = "/readyz", tag = "meta", responses(
    (status = 200, description = "Ready", body = Health),
    (status = 503, description = "Shutting down (SIGTERM received): send no new work", body = Health),
))]
pub async fn readyz(state: web::Data<AppState>, req: actix_web::HttpRequest) -> HttpResponse {
    let rulesets = state.service.registry().all().len();
    let tables = req.app_data::<web::Data<crate::tables::Tables>>();
    // Lost (the file or database is not the one opened) needs a restart;
    // unreachable passes by itself.
    let store_lost = tables.is_some_and(|t| t.live.as_ref().is_some_and(|l| l.store.lost()));
    if store_lost || tables.is_some_and(|t| !t.ready()) {
        let status = if store_lost {
            "store_lost"
        } else {
            "store_unreachable"
        };
        return HttpResponse::ServiceUnavailable().json(Health {
            status: status.into(),
            rulesets,
        });
    }
    if state
        .shutting_down
        .load(std::sync::atomic::Ordering::Relaxed)
    {
        return HttpResponse::ServiceUnavailable().json(Health {
            status: "shutting_down".into(),
            rulesets,
        });
    }
    json(to_json(&Health {
        status: "ready".into(),
        rulesets,
    }))
}

/// Prometheus metrics (text format 0.0.4).
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "meta",
    responses((status = 200, description = "Requests by route and status, latency histogram, cache hits, misses and entries",
        content_type = "text/plain; version=0.0.4", body = String))
)]
pub async fn metrics(state: web::Data<AppState>, req: actix_web::HttpRequest) -> HttpResponse {
    let cache = state.service.cache();
    let (hits, misses) = state.service.cache_counts();
    let mut text = state
        .metrics
        .render(hits, misses, cache.entries(), cache.weighted_bytes());
    if let Some(t) = req.app_data::<web::Data<crate::tables::Tables>>() {
        text.push_str(&t.render_metrics());
    }
    HttpResponse::Ok()
        .content_type(super::metrics::CONTENT_TYPE)
        .body(text)
}

/// Any path that is not an endpoint.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, Refusal> {
    Err(Refusal(ApiError::NotFound {
        path: req.path().chars().take(200).collect(),
    }))
}
