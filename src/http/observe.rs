//! Per-request observation: the request span (`tracing-actix-web` with a
//! root span of our own), `X-Request-Id`, the request metrics and the
//! "request done" log line.
//!
//! Order in the app: `TracingLogger<RootSpan>` outermost (it makes the span
//! and a `RequestId`), then [`observe`] inside it, so the metrics and the log
//! line are recorded within the span.

use super::metrics::{method_label, RouteLabel, UNMATCHED};
use super::AppState;
use crate::logging::clip;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use actix_web::{web, Error, HttpMessage, HttpRequest};
use std::future::Future;
use std::time::Instant;
use tracing::field::Empty;
use tracing::Span;
use tracing_actix_web::{RequestId, RootSpanBuilder};

/// Header carrying the request id (taken from the request or generated).
pub const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The client's request id when it is reasonable: 1 to 128 visible ASCII characters.
fn given_request_id(headers: &HeaderMap) -> Option<&HeaderValue> {
    headers.get(X_REQUEST_ID).filter(|v| {
        let b = v.as_bytes();
        !b.is_empty() && b.len() <= 128 && b.iter().all(u8::is_ascii_graphic)
    })
}

/// Request headers as OpenTelemetry's propagator reads them.
#[cfg(feature = "otel")]
struct Headers<'a>(&'a HeaderMap);

#[cfg(feature = "otel")]
impl opentelemetry::propagation::Extractor for Headers<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(|k| k.as_str()).collect()
    }
}

/// The route label of a request that has been routed.
fn route_of(req: &HttpRequest) -> &'static str {
    req.app_data::<RouteLabel>().map_or(UNMATCHED, |r| r.route)
}

/// The request id as the span shows it: the client's, else the generated one.
struct ShownId<'a>(Option<&'a str>, Option<RequestId>);

impl std::fmt::Display for ShownId<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.0, self.1) {
            (Some(given), _) => f.write_str(given),
            (None, Some(generated)) => generated.fmt(f),
            (None, None) => Ok(()),
        }
    }
}

/// The request span: the method (closed set, as the metrics use), the path
/// and the request id. Field names follow OpenTelemetry's HTTP conventions;
/// the route, the status and the `otel.*` fields are recorded only while
/// traces go out (the log line "request done" has route and status, and each
/// record costs the log layer a reformatting of the span's fields).
///
/// At `info` the span exists only while traces go out; otherwise it is at
/// `debug`, for the steps' spans below it (`parse`, `validate`, ...). The
/// log line "request done" carries the method, path and request id itself,
/// so at the default level a request writes each field once and makes no
/// span for the log layer to store, enter, exit and close (much of what the
/// line cost: bench/load.md, "Where logging's cost went").
pub struct RootSpan;

impl RootSpanBuilder for RootSpan {
    fn on_request_start(req: &ServiceRequest) -> Span {
        let given = given_request_id(req.headers()).and_then(|v| v.to_str().ok());
        let generated = match given {
            Some(_) => None,
            None => req.extensions().get::<RequestId>().copied(),
        };
        if !crate::telemetry::traces_on() {
            return tracing::debug_span!(
                "HTTP request",
                http.request.method = %method_label(req.method()),
                url.path = %clip(req.path()),
                request_id = %ShownId(given, generated),
            );
        }
        let span = tracing::info_span!(
            "HTTP request",
            http.request.method = %method_label(req.method()),
            url.path = %clip(req.path()),
            request_id = %ShownId(given, generated),
            http.route = Empty,
            http.response.status_code = Empty,
            otel.kind = Empty,
            otel.name = Empty,
            otel.status_code = Empty,
        );
        {
            // OpenTelemetry fixes a span's name and kind when it starts, before
            // routing: the pattern from matching the path (a String, so only here).
            let route = req.match_pattern();
            let route = route.as_deref().unwrap_or(UNMATCHED);
            span.record(
                "otel.name",
                format!("{} {route}", method_label(req.method())),
            );
            span.record("otel.kind", "server");
            #[cfg(feature = "otel")]
            crate::telemetry::continue_trace(&span, &Headers(req.headers()));
        }
        span
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, Error>) {
        if !crate::telemetry::traces_on() || span.is_disabled() {
            return;
        }
        let (status, route) = match outcome {
            Ok(res) => (res.status(), route_of(res.request())),
            Err(e) => (e.as_response_error().status_code(), UNMATCHED),
        };
        span.record("http.route", route);
        span.record("http.response.status_code", i64::from(status.as_u16()));
        // OpenTelemetry: a 4xx is the client's error, not the server's.
        if status.is_server_error() {
            span.record("otel.status_code", "ERROR");
        }
    }
}

/// Records the request's metrics and log line and sets `X-Request-Id` on the
/// answer (the client's when reasonable, else the generated `RequestId`).
pub fn observe<S, B>(
    req: ServiceRequest,
    srv: &S,
) -> impl Future<Output = Result<ServiceResponse<B>, Error>> + 'static
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error>,
    S::Future: 'static,
{
    let start = Instant::now();
    let method = method_label(req.method());
    let id = match given_request_id(req.headers()) {
        // A header value read from the request: cloning it copies no bytes.
        Some(v) => Some(v.clone()),
        None => req
            .extensions()
            .get::<RequestId>()
            .and_then(|r| HeaderValue::from_str(r.hyphenated().encode_lower(&mut [0u8; 36])).ok()),
    };
    let fut = srv.call(req);
    async move {
        let mut res = fut.await?;
        let route = route_of(res.request());
        let status = res.status().as_u16();
        let elapsed = start.elapsed();
        if let Some(state) = res.request().app_data::<web::Data<AppState>>() {
            match res.request().app_data::<RouteLabel>() {
                Some(at) => state.metrics.observe_at(at, method, status, elapsed),
                None => state.metrics.observe(route, method, status, elapsed),
            }
        }
        // The request's own fields first, as the span's context showed them;
        // as strings (quoted in the text), which the log layer writes without
        // `core::fmt`. The path is the client's, so cut (`clip`); the id is
        // at most 128 characters (`given_request_id`) or generated.
        tracing::info!(
            http.request.method = method,
            url.path = &*clip(res.request().path()),
            request_id = id
                .as_ref()
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default(),
            status,
            route,
            latency_us = elapsed.as_micros() as u64,
            "request done"
        );
        if let Some(id) = id {
            res.headers_mut().insert(X_REQUEST_ID, id);
        }
        Ok(res)
    }
}

/// Counts and logs a request actix answers before routing it: a body refused
/// by its `Content-Length` before `100 Continue` (the app never sees it).
pub fn refused(state: &AppState, req: &actix_http::Request, status: u16) {
    let method = method_label(req.method());
    let path = req.path();
    let route = super::route_label(path);
    state
        .metrics
        .observe(route, method, status, std::time::Duration::ZERO);
    let id = given_request_id(req.headers())
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    tracing::info!(
        http.request.method = method,
        url.path = &*clip(path),
        request_id = id,
        status,
        route,
        latency_us = 0u64,
        "request done"
    );
}
