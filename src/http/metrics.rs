//! Prometheus metrics (`prometheus-client`, text format 0.0.4): requests by
//! route, method and status, a latency histogram by route, the score
//! cache's hits, misses, entries and bytes, and the log lines dropped.
//!
//! Every label value comes from a closed set, never from the client's text:
//! the route is the pattern of the resource that answered (a `&'static str`
//! attached to the resource, see [`RouteLabel`]) or `unmatched`, and the
//! method is one of [`KNOWN_METHODS`] or `other`. So the number of series is
//! bounded by the route table, whatever clients send, and building a label
//! set allocates nothing.

use actix_web::http::Method;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
pub const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// The route label of a request no resource matched (404s).
pub const UNMATCHED: &str = "unmatched";

/// The methods that keep their name as a label; any other token is `other`.
pub const KNOWN_METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
];

/// The label of any method not in [`KNOWN_METHODS`].
pub const OTHER_METHOD: &str = "other";

/// The route pattern a resource was registered with, kept as its app data so
/// the label is read back after routing without allocating (actix's
/// `match_pattern()` builds a `String` per call).
///
/// It also keeps the resource's own series once its first request has
/// resolved them: the latency histogram, and the counter of its usual
/// answer (the first method to get a 200). A request then counts itself
/// without hashing its labels into the family (two SipHash look-ups and
/// lock reads a request otherwise: bench/load.md).
#[derive(Debug)]
pub struct RouteLabel {
    pub route: &'static str,
    handles: OnceLock<Handles>,
}

#[derive(Debug)]
struct Handles {
    latency: Histogram,
    /// The counter of (route, `method`, 200).
    method: &'static str,
    ok: Counter,
}

impl RouteLabel {
    pub fn new(route: &'static str) -> Self {
        RouteLabel {
            route,
            handles: OnceLock::new(),
        }
    }
}

/// The method's label: its name when standard, else `other`.
pub fn method_label(method: &Method) -> &'static str {
    let m = method.as_str();
    KNOWN_METHODS
        .iter()
        .find(|k| **k == m)
        .copied()
        .unwrap_or(OTHER_METHOD)
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: &'static str,
    method: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: &'static str,
}

type LatencyFamily = Family<RouteLabels, Histogram, fn() -> Histogram>;

/// Process-wide metrics and their registry.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: LatencyFamily,
    cache_hits: Counter,
    cache_misses: Counter,
    cache_entries: Gauge<u64, AtomicU64>,
    cache_bytes: Gauge<u64, AtomicU64>,
    log_lines_dropped: Counter,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = LatencyFamily::new_with_constructor(|| Histogram::new(BUCKETS));
        let cache_hits = Counter::default();
        let cache_misses = Counter::default();
        let cache_entries = Gauge::<u64, AtomicU64>::default();
        let cache_bytes = Gauge::<u64, AtomicU64>::default();
        let log_lines_dropped = Counter::default();
        let mut registry = Registry::default();
        // Counters are registered without `_total`; the encoder appends it.
        registry.register(
            "faan_http_requests",
            "HTTP requests by route, method and status",
            requests.clone(),
        );
        registry.register(
            "faan_http_request_duration_seconds",
            "Request latency by route",
            latency.clone(),
        );
        registry.register("faan_cache_hits", "Score cache hits", cache_hits.clone());
        registry.register(
            "faan_cache_misses",
            "Score cache misses",
            cache_misses.clone(),
        );
        registry.register(
            "faan_cache_entries",
            "Score responses in the cache",
            cache_entries.clone(),
        );
        registry.register(
            "faan_cache_bytes",
            "Bytes the score cache counts against --cache-max-bytes",
            cache_bytes.clone(),
        );
        registry.register(
            "faan_log_lines_dropped",
            "Log lines dropped because the log writer's queue was full",
            log_lines_dropped.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            cache_hits,
            cache_misses,
            cache_entries,
            cache_bytes,
            log_lines_dropped,
        }
    }

    /// Records one finished request of a routed resource: through the
    /// handles it keeps when they fit, else as [`Metrics::observe`] (which
    /// resolves the handles at the resource's first 200).
    pub fn observe_at(
        &self,
        at: &RouteLabel,
        method: &'static str,
        status: u16,
        elapsed: Duration,
    ) {
        if let Some(h) = at.handles.get() {
            if status == 200 && h.method == method {
                h.ok.inc();
            } else {
                self.count(at.route, method, status);
            }
            h.latency.observe(elapsed.as_secs_f64());
            return;
        }
        self.observe(at.route, method, status, elapsed);
        if status == 200 {
            let _ = at.handles.set(Handles {
                latency: self
                    .latency
                    .get_or_create(&RouteLabels { route: at.route })
                    .clone(),
                method,
                ok: self
                    .requests
                    .get_or_create(&RequestLabels {
                        route: at.route,
                        method,
                        status,
                    })
                    .clone(),
            });
        }
    }

    fn count(&self, route: &'static str, method: &'static str, status: u16) {
        self.requests
            .get_or_create(&RequestLabels {
                route,
                method,
                status,
            })
            .inc();
    }

    /// Records one finished request (labels from the closed sets above).
    pub fn observe(
        &self,
        route: &'static str,
        method: &'static str,
        status: u16,
        elapsed: Duration,
    ) {
        self.count(route, method, status);
        self.latency
            .get_or_create(&RouteLabels { route })
            .observe(elapsed.as_secs_f64());
    }

    /// The Prometheus text exposition (format 0.0.4), with the cache's
    /// counts (kept by `service::Service`) and gauges as of now.
    pub fn render(&self, hits: u64, misses: u64, cache_entries: u64, cache_bytes: u64) -> String {
        // The service counts hits and misses; these counters only show its totals.
        self.cache_hits.inner().store(hits, Ordering::Relaxed);
        self.cache_misses.inner().store(misses, Ordering::Relaxed);
        self.cache_entries.set(cache_entries);
        self.cache_bytes.set(cache_bytes);
        // Counted by the log writer (`crate::logging::writer`).
        self.log_lines_dropped
            .inner()
            .store(crate::logging::dropped_lines(), Ordering::Relaxed);
        let mut s = String::with_capacity(4096);
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::prometheus_text::encode(&mut s, &self.registry);
        s
    }
}

/// The `Content-Type` of [`Metrics::render`]'s text.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_labels_are_a_closed_set() {
        for (method, label) in [
            (Method::GET, "GET"),
            (Method::PATCH, "PATCH"),
            (Method::from_bytes(b"M123X1").unwrap(), "other"),
            (Method::from_bytes(b"get").unwrap(), "other"),
        ] {
            assert_eq!(method_label(&method), label, "method {method}");
        }
    }

    #[test]
    fn exposition_has_the_documented_names() {
        let m = Metrics::new();
        m.observe("/v1/score", "POST", 200, Duration::from_micros(700));
        let text = m.render(1, 0, 3, 4096);
        for line in [
            "faan_http_requests_total{route=\"/v1/score\",method=\"POST\",status=\"200\"} 1",
            "faan_http_request_duration_seconds_bucket{route=\"/v1/score\",le=\"0.0005\"} 0",
            "faan_http_request_duration_seconds_bucket{route=\"/v1/score\",le=\"0.001\"} 1",
            "faan_http_request_duration_seconds_bucket{route=\"/v1/score\",le=\"+Inf\"} 1",
            "faan_http_request_duration_seconds_count{route=\"/v1/score\"} 1",
            "faan_cache_hits_total 1",
            "faan_cache_misses_total 0",
            "faan_cache_entries 3",
            "faan_cache_bytes 4096",
            "faan_log_lines_dropped_total 0",
            "# TYPE faan_http_requests_total counter",
            "# TYPE faan_http_request_duration_seconds histogram",
            "# TYPE faan_cache_entries gauge",
        ] {
            assert!(text.lines().any(|l| l == line), "line {line:?} in\n{text}");
        }
    }

    #[test]
    fn a_resources_kept_handles_count_as_the_family_does() {
        let m = Metrics::new();
        let at = RouteLabel::new("/v1/score");
        // A 422 first (no handles yet), then three 200s (the first resolves
        // them), a 422 and a HEAD beside them (through the family).
        m.observe_at(&at, "POST", 422, Duration::from_micros(300));
        for _ in 0..3 {
            m.observe_at(&at, "POST", 200, Duration::from_micros(700));
        }
        m.observe_at(&at, "POST", 422, Duration::from_micros(300));
        m.observe_at(&at, "HEAD", 200, Duration::from_micros(300));
        let text = m.render(0, 0, 0, 0);
        for line in [
            "faan_http_requests_total{route=\"/v1/score\",method=\"POST\",status=\"200\"} 3",
            "faan_http_requests_total{route=\"/v1/score\",method=\"POST\",status=\"422\"} 2",
            "faan_http_requests_total{route=\"/v1/score\",method=\"HEAD\",status=\"200\"} 1",
            "faan_http_request_duration_seconds_count{route=\"/v1/score\"} 6",
            "faan_http_request_duration_seconds_bucket{route=\"/v1/score\",le=\"0.0005\"} 3",
        ] {
            assert!(text.lines().any(|l| l == line), "line {line:?} in\n{text}");
        }
    }
}
