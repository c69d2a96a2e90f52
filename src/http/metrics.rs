//! Prometheus metrics, hand-rolled: requests by route, method and status, a
//! latency histogram by route, and the score cache's hits, misses and entries.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
pub const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

#[derive(Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

#[derive(Default)]
struct Inner {
    requests: BTreeMap<(String, String, u16), u64>,
    latency: BTreeMap<String, Histogram>,
}

/// Process-wide counters.
#[derive(Default)]
pub struct Metrics {
    inner: Mutex<Inner>,
}

impl Metrics {
    pub fn new() -> Self {
        Metrics::default()
    }

    /// Records one finished request.
    pub fn observe(&self, route: &str, method: &str, status: u16, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        *inner
            .requests
            .entry((route.to_string(), method.to_string(), status))
            .or_insert(0) += 1;
        let h = inner.latency.entry(route.to_string()).or_default();
        for (i, le) in BUCKETS.iter().enumerate() {
            if secs <= *le {
                h.counts[i] += 1;
            }
        }
        h.count += 1;
        h.sum += secs;
    }

    /// The Prometheus text exposition (format 0.0.4).
    pub fn render(&self, hits: u64, misses: u64, cache_entries: u64, cache_bytes: u64) -> String {
        let mut s = String::with_capacity(4096);
        let (requests, latency) = match self.inner.lock() {
            Ok(inner) => (inner.requests.clone(), inner.latency.clone()),
            Err(_) => (BTreeMap::new(), BTreeMap::new()),
        };
        s.push_str("# HELP faan_http_requests_total HTTP requests by route, method and status.\n");
        s.push_str("# TYPE faan_http_requests_total counter\n");
        for ((route, method, status), n) in &requests {
            let _ = writeln!(
                s,
                "faan_http_requests_total{{route=\"{}\",method=\"{}\",status=\"{status}\"}} {n}",
                escape(route),
                escape(method)
            );
        }
        s.push_str("# HELP faan_http_request_duration_seconds Request latency by route.\n");
        s.push_str("# TYPE faan_http_request_duration_seconds histogram\n");
        for (route, h) in &latency {
            let r = escape(route);
            for (i, le) in BUCKETS.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "faan_http_request_duration_seconds_bucket{{route=\"{r}\",le=\"{le}\"}} {}",
                    h.counts[i]
                );
            }
            let _ = writeln!(
                s,
                "faan_http_request_duration_seconds_bucket{{route=\"{r}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                s,
                "faan_http_request_duration_seconds_sum{{route=\"{r}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                s,
                "faan_http_request_duration_seconds_count{{route=\"{r}\"}} {}",
                h.count
            );
        }
        s.push_str("# HELP faan_cache_hits_total Score cache hits.\n# TYPE faan_cache_hits_total counter\n");
        let _ = writeln!(s, "faan_cache_hits_total {hits}");
        s.push_str("# HELP faan_cache_misses_total Score cache misses.\n# TYPE faan_cache_misses_total counter\n");
        let _ = writeln!(s, "faan_cache_misses_total {misses}");
        s.push_str("# HELP faan_cache_entries Score responses in the cache.\n# TYPE faan_cache_entries gauge\n");
        let _ = writeln!(s, "faan_cache_entries {cache_entries}");
        s.push_str("# HELP faan_cache_bytes Bytes the score cache counts against --cache-max-bytes.\n# TYPE faan_cache_bytes gauge\n");
        let _ = writeln!(s, "faan_cache_bytes {cache_bytes}");
        s
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
