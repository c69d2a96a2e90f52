//! The HTTP layer: routes, body reading, problem answers, metrics, OpenAPI
//! and the documentation page. Thin: every endpoint hands its body to the
//! pipeline (`crate::service`).

pub mod body;
pub mod bounds;
pub mod docs;
pub mod examples;
pub mod meta;
pub mod metrics;
pub mod observe;
pub mod openapi;
pub mod problem;
pub mod scoring;
// Shared tables and groups, on `crate::tables`.
pub mod tables;
// The calculator page (`web/`).
pub mod calculator;
pub mod compress;
pub mod conn;
// The page with no signal: its service worker and manifest.
pub mod offline;
// The engine's package (`web/pkg/`): faan.js, its types and the module.
pub mod pkg;
pub mod streams;

use crate::api::ApiError;
use crate::service::Service;
use actix_web::http::Method;
use actix_web::{guard, web};
use metrics::Metrics;
use std::sync::Arc;

/// Body limits and the body timeout (the pipeline's own limits are in `service::Limits`).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Body limit of single requests, in bytes.
    pub body: usize,
    /// Body limit of batch and compare, in bytes.
    pub batch_body: usize,
    /// Body limit of the ledger, in bytes.
    pub ledger_body: usize,
    /// Time allowed to read a whole body once the headers are in.
    pub body_timeout: std::time::Duration,
}

/// Shared by every worker.
pub struct AppState {
    pub service: Service,
    pub metrics: Arc<Metrics>,
    pub limits: Limits,
    /// Bytes of bodies and answers held at once, across every worker.
    pub budget: bounds::ByteBudget,
    /// Where ledger, batch and compare run, off the async workers.
    pub pool: bounds::Pool,
    /// Set when shutdown has begun: /readyz answers 503 from then on.
    pub shutting_down: Arc<std::sync::atomic::AtomicBool>,
    /// `/healthz`'s answer, written at its first request: the rulesets do not
    /// change while the process runs, and a probe's path stays short.
    pub health: std::sync::OnceLock<actix_web::web::Bytes>,
}

/// A resource whose other methods answer 405 with a problem document; its
/// pattern is the route label of its metrics.
fn resource(
    path: &'static str,
    route: actix_web::Route,
    allowed: &'static str,
) -> actix_web::Resource {
    web::resource(path)
        .app_data(metrics::RouteLabel::new(path))
        .route(route)
        .default_service(web::to(move |req: actix_web::HttpRequest| async move {
            Err::<actix_web::HttpResponse, _>(problem::Refusal(ApiError::MethodNotAllowed {
                method: req.method().to_string(),
                allowed,
            }))
        }))
}

/// A route for GET that also answers HEAD (the same status and headers, no body).
pub(crate) fn get() -> actix_web::Route {
    web::route().guard(guard::fn_guard(|ctx| {
        matches!(ctx.head().method, Method::GET | Method::HEAD)
    }))
}

/// A route for POST. actix's own method guards (`web::post()`, `guard::Get()`)
/// record each method tried in the request's extensions for the `Allow` of
/// actix's 405, which [`resource`] writes itself: two allocations and a map
/// insert a guard, on every request (bench/load.md, "Method guards").
fn post() -> actix_web::Route {
    web::route().guard(guard::fn_guard(|ctx| ctx.head().method == Method::POST))
}

/// Every route of the API: its pattern, its handler's route, and the methods
/// its 405 names. actix tries the resources in this order, and each one
/// tried costs the request (bench/load.md): the most frequent requests
/// first (a score, then the probes), then the rest.
type RouteEntry = (&'static str, fn() -> actix_web::Route, &'static str);
const ROUTES: [RouteEntry; 18] = [
    ("/v1/score", || post().to(scoring::score), "POST"),
    ("/healthz", || get().to(meta::healthz), "GET, HEAD"),
    ("/readyz", || get().to(meta::readyz), "GET, HEAD"),
    (
        "/v1/score/batch",
        || post().to(scoring::score_batch),
        "POST",
    ),
    ("/v1/compare", || post().to(scoring::compare), "POST"),
    ("/v1/settle", || post().to(scoring::settle), "POST"),
    ("/v1/ledger", || post().to(scoring::ledger), "POST"),
    ("/v1/waits", || post().to(scoring::waits), "POST"),
    ("/v1/analyze", || post().to(scoring::analyze), "POST"),
    (
        "/v1/penalties/false-win",
        || post().to(scoring::false_win),
        "POST",
    ),
    (
        "/v1/patterns",
        || get().to(meta::list_patterns),
        "GET, HEAD",
    ),
    (
        "/v1/rulesets",
        || get().to(meta::list_rulesets),
        "GET, HEAD",
    ),
    // Before `{id}`, which would take these words for ids.
    (
        "/v1/rulesets/schema",
        || get().to(meta::ruleset_schema),
        "GET, HEAD",
    ),
    (
        "/v1/rulesets/validate",
        || post().to(meta::validate_ruleset),
        "POST",
    ),
    (
        "/v1/rulesets/{id}",
        || get().to(meta::get_ruleset),
        "GET, HEAD",
    ),
    (
        "/openapi.json",
        || get().to(openapi::openapi_json),
        "GET, HEAD",
    ),
    ("/docs", || get().to(meta::docs), "GET, HEAD"),
    ("/metrics", || get().to(meta::metrics), "GET, HEAD"),
];

/// The route label of a path that names a route as it is (no `{id}`), for
/// what is answered before routing; else `unmatched`.
pub fn route_label(path: &str) -> &'static str {
    ROUTES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map_or(metrics::UNMATCHED, |(p, _, _)| p)
}

/// The probes, which the admin listener serves alone.
pub const PROBES: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// Registers every route of the API.
pub fn configure(cfg: &mut web::ServiceConfig) {
    for (path, route, allowed) in ROUTES {
        cfg.service(resource(path, route(), allowed));
    }
    tables::configure(cfg);
    calculator::configure(cfg);
    pkg::configure(cfg);
    offline::configure(cfg);
}

/// Registers the probes only (the admin listener).
pub fn configure_probes(cfg: &mut web::ServiceConfig) {
    for (path, route, allowed) in ROUTES.into_iter().filter(|(p, _, _)| PROBES.contains(p)) {
        cfg.service(resource(path, route(), allowed));
    }
}

/// Compresses the files served as they are built (the page, `/docs`,
/// `/openapi.json`), once per process: at start-up, so no request pays it.
pub fn warm() {
    calculator::warm();
    offline::warm();
    docs::variants();
    openapi::variants();
}
