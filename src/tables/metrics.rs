//! The tables' metrics: tables and groups (counted in the store every 15 s),
//! event streams open, tables created, and each store call's latency and
//! errors by operation. Labels come from the closed set [`Op`]; no id or key
//! is ever a label.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::time::Duration;

/// A store operation (the `op` label).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Create,
    Read,
    Touch,
    Update,
    Delete,
    Sweep,
    Group,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Create => "create",
            Op::Read => "read",
            Op::Touch => "touch",
            Op::Update => "update",
            Op::Delete => "delete",
            Op::Sweep => "sweep",
            Op::Group => "group",
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OpLabel {
    op: &'static str,
}

/// Upper bounds of the store latency buckets, in seconds.
const BUCKETS: [f64; 10] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5,
];

pub struct TableMetrics {
    registry: Registry,
    tables: Gauge,
    groups: Gauge,
    streams: Gauge,
    created: Counter,
    latency: Family<OpLabel, Histogram>,
    errors: Family<OpLabel, Counter>,
}

impl Default for TableMetrics {
    fn default() -> Self {
        Self::new()
    }
}

impl TableMetrics {
    pub fn new() -> Self {
        let mut registry = Registry::default();
        let tables = Gauge::default();
        let groups = Gauge::default();
        let streams = Gauge::default();
        let created = Counter::default();
        let latency = Family::<OpLabel, Histogram>::new_with_constructor(|| {
            Histogram::new(BUCKETS.iter().copied())
        });
        let errors = Family::<OpLabel, Counter>::default();
        registry.register("faan_tables", "Shared tables in the store", tables.clone());
        registry.register("faan_groups", "Groups in the store", groups.clone());
        registry.register(
            "faan_event_streams",
            "Table event streams open on this instance",
            streams.clone(),
        );
        registry.register(
            "faan_tables_created",
            "Tables created by this instance",
            created.clone(),
        );
        registry.register(
            "faan_store_seconds",
            "Store call latency by operation",
            latency.clone(),
        );
        registry.register(
            "faan_store_errors",
            "Store calls that failed, by operation",
            errors.clone(),
        );
        // Every operation's series from the start, so a dashboard sees zeros.
        for op in [
            Op::Create,
            Op::Read,
            Op::Touch,
            Op::Update,
            Op::Delete,
            Op::Sweep,
            Op::Group,
        ] {
            let l = OpLabel { op: op.as_str() };
            let _ = errors.get_or_create(&l);
        }
        TableMetrics {
            registry,
            tables,
            groups,
            streams,
            created,
            latency,
            errors,
        }
    }

    pub fn observe(&self, op: Op, took: Duration, failed: bool) {
        let l = OpLabel { op: op.as_str() };
        self.latency.get_or_create(&l).observe(took.as_secs_f64());
        if failed {
            self.errors.get_or_create(&l).inc();
        }
    }

    pub fn set_counts(&self, tables: i64, groups: i64) {
        self.tables.set(tables);
        self.groups.set(groups);
    }

    pub fn created_table(&self) {
        self.created.inc();
    }

    /// The text exposition (format 0.0.4), appended to the server's.
    pub fn render(&self, streams: usize) -> String {
        self.streams.set(streams as i64);
        let mut s = String::with_capacity(2048);
        let _ = prometheus_client::encoding::prometheus_text::encode(&mut s, &self.registry);
        s
    }
}
