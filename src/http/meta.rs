//! The rulesets, the OpenAPI document and documentation page, health,
//! readiness and metrics.

use super::scoring::json;
use super::AppState;
use crate::api::{ApiError, Health, Problem, RulesetDetail, RulesetList, RulesetSummary};
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
    let list = RulesetList {
        rulesets: state
            .service
            .registry()
            .all()
            .iter()
            .map(|r| RulesetSummary::from(r.as_ref()))
            .collect(),
    };
    json(to_json(&list))
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
        .service
        .registry()
        .get(id)
        .ok_or_else(|| ApiError::UnknownRuleset {
            id: id.to_string(),
            pointer: String::new(),
        })?;
    Ok(json(to_json(&RulesetDetail::from(r.as_ref()))))
}

/// The OpenAPI document of this API.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    responses((status = 200, description = "OpenAPI 3.1 document", content_type = "application/json", body = Object))
)]
pub async fn openapi_json() -> HttpResponse {
    json(super::openapi::cached())
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
    json(to_json(&Health {
        status: "ok".into(),
        rulesets: state.service.registry().all().len(),
    }))
}

/// Readiness: the rulesets are loaded and requests are served; 503 once shutdown has begun.
#[utoipa::path(get, path = "/readyz", tag = "meta", responses(
    (status = 200, description = "Ready", body = Health),
    (status = 503, description = "Shutting down (SIGTERM received): send no new work", body = Health),
))]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let rulesets = state.service.registry().all().len();
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
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    let cache = state.service.cache();
    let (hits, misses) = state.service.cache_counts();
    let text = state
        .metrics
        .render(hits, misses, cache.entries(), cache.weighted_bytes());
    HttpResponse::Ok()
        .content_type(super::metrics::CONTENT_TYPE)
        .body(text)
}

/// Any path that is not an endpoint.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound {
        path: req.path().chars().take(200).collect(),
    })
}
