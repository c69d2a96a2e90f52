//! The HTTP layer: routes, request/response bodies, errors, cache, metrics,
//! OpenAPI and the documentation page. Thin: scoring is `crate::core`.

pub mod cache;
pub mod docs;
pub mod dto;
pub mod error;
pub mod handlers;
pub mod metrics;
pub mod openapi;

use crate::core::Registry;
use actix_web::web;
use cache::ScoreCache;
use error::ApiError;
use metrics::Metrics;
use std::sync::Arc;

/// Per-route limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Body limit of single requests, in bytes.
    pub body: usize,
    /// Body limit of batch and compare, in bytes.
    pub batch_body: usize,
    /// Most requests in one batch.
    pub batch: usize,
}

/// Shared by every worker.
pub struct AppState {
    pub registry: Arc<Registry>,
    pub cache: ScoreCache,
    pub metrics: Arc<Metrics>,
    pub limits: Limits,
}

/// A resource whose other methods answer 405 with a problem document.
fn resource(path: &str, route: actix_web::Route, allowed: &'static str) -> actix_web::Resource {
    web::resource(path).route(route).default_service(web::to(
        move |req: actix_web::HttpRequest| async move {
            Err::<actix_web::HttpResponse, _>(ApiError::MethodNotAllowed {
                method: req.method().to_string(),
                allowed,
            })
        },
    ))
}

/// Registers every route of the API.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource(
        "/v1/score",
        web::post().to(handlers::score),
        "POST",
    ))
    .service(resource(
        "/v1/score/batch",
        web::post().to(handlers::score_batch),
        "POST",
    ))
    .service(resource(
        "/v1/compare",
        web::post().to(handlers::compare),
        "POST",
    ))
    .service(resource(
        "/v1/rulesets",
        web::get().to(handlers::list_rulesets),
        "GET",
    ))
    .service(resource(
        "/v1/rulesets/{id}",
        web::get().to(handlers::get_ruleset),
        "GET",
    ))
    .service(resource(
        "/v1/penalties/false-win",
        web::post().to(handlers::false_win),
        "POST",
    ))
    .service(resource(
        "/openapi.json",
        web::get().to(handlers::openapi_json),
        "GET",
    ))
    .service(resource("/docs", web::get().to(handlers::docs), "GET"))
    .service(resource(
        "/healthz",
        web::get().to(handlers::healthz),
        "GET",
    ))
    .service(resource("/readyz", web::get().to(handlers::readyz), "GET"))
    .service(resource(
        "/metrics",
        web::get().to(handlers::metrics),
        "GET",
    ));
}
