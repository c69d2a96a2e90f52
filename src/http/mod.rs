//! The HTTP layer: routes, request/response bodies, errors, cache, metrics,
//! OpenAPI and the documentation page. Thin: scoring is `crate::core`.

pub mod body_wait;
pub mod cache;
pub mod docs;
pub mod dto;
pub mod error;
pub mod handlers;
pub mod metrics;
pub mod openapi;
pub mod quick;
pub mod render;
pub mod sink;
// The calculator page (`web/`); named apart from `actix_web::web` used below.
#[path = "web.rs"]
pub mod webpage;

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
    /// Deepest JSON nesting accepted in a body.
    pub json_depth: usize,
    /// Time allowed to read a whole body once the headers are in.
    pub body_timeout: std::time::Duration,
}

/// Shared by every worker.
pub struct AppState {
    pub registry: Arc<Registry>,
    pub cache: ScoreCache,
    pub metrics: Arc<Metrics>,
    pub limits: Limits,
    /// Set when shutdown has begun: /readyz answers 503 from then on.
    pub shutting_down: Arc<std::sync::atomic::AtomicBool>,
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

/// A route for GET that also answers HEAD (the same status and headers, no body).
pub(crate) fn get() -> actix_web::Route {
    web::route().guard(actix_web::guard::Any(actix_web::guard::Get()).or(actix_web::guard::Head()))
}

/// Registers every route of the API.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let routes: [(&str, actix_web::Route, &'static str); 12] = [
        ("/v1/score", web::post().to(handlers::score), "POST"),
        (
            "/v1/score/batch",
            web::post().to(handlers::score_batch),
            "POST",
        ),
        ("/v1/compare", web::post().to(handlers::compare), "POST"),
        ("/v1/waits", web::post().to(handlers::waits), "POST"),
        (
            "/v1/penalties/false-win",
            web::post().to(handlers::false_win),
            "POST",
        ),
        (
            "/v1/rulesets",
            get().to(handlers::list_rulesets),
            "GET, HEAD",
        ),
        (
            "/v1/rulesets/{id}",
            get().to(handlers::get_ruleset),
            "GET, HEAD",
        ),
        (
            "/openapi.json",
            get().to(handlers::openapi_json),
            "GET, HEAD",
        ),
        ("/docs", get().to(handlers::docs), "GET, HEAD"),
        ("/healthz", get().to(handlers::healthz), "GET, HEAD"),
        ("/readyz", get().to(handlers::readyz), "GET, HEAD"),
        ("/metrics", get().to(handlers::metrics), "GET, HEAD"),
    ];
    for (path, route, allowed) in routes {
        cfg.service(resource(path, route, allowed));
    }
    webpage::configure(cfg);
}
