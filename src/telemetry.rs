//! OpenTelemetry traces, opt-in. With `OTEL_EXPORTER_OTLP_ENDPOINT` (or
//! `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) set, the request spans and their
//! children go out over OTLP/HTTP (protobuf) to that collector, and an
//! incoming W3C `traceparent` continues the caller's trace. The other
//! standard variables (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`,
//! `OTEL_TRACES_SAMPLER[_ARG]`, `OTEL_EXPORTER_OTLP_[TRACES_]HEADERS`,
//! `..._TIMEOUT`, `OTEL_BSP_*`) are read by the OpenTelemetry SDK itself.
//!
//! Without the variable no layer is installed and [`traces_on`] is false, so
//! a request pays one relaxed atomic load for tracing it does not do.
//!
//! The exporter is the cargo feature `otel` (on by default). A build
//! without it has no OpenTelemetry at all: the variable is then an error at
//! start-up ([`otlp_provider`]), never ignored.

use std::sync::atomic::{AtomicBool, Ordering};

/// The service name when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` gives one.
pub const SERVICE_NAME: &str = "faan";

static TRACES_ON: AtomicBool = AtomicBool::new(false);

/// Whether spans are exported (set once by [`layer`]).
#[inline]
pub fn traces_on() -> bool {
    TRACES_ON.load(Ordering::Relaxed)
}

/// Whether the environment asks for traces: an OTLP endpoint is set, and
/// neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none`.
pub fn requested() -> bool {
    let set = |k: &str| std::env::var(k).is_ok_and(|v| !v.trim().is_empty());
    let is = |k: &str, v: &str| std::env::var(k).is_ok_and(|x| x.trim().eq_ignore_ascii_case(v));
    (set("OTEL_EXPORTER_OTLP_ENDPOINT") || set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
        && !is("OTEL_SDK_DISABLED", "true")
        && !is("OTEL_TRACES_EXPORTER", "none")
}

#[cfg(feature = "otel")]
pub use otlp::{continue_trace, layer, otlp_provider, resource, Provider};

#[cfg(not(feature = "otel"))]
pub use off::{layer, otlp_provider, Provider};

#[cfg(feature = "otel")]
mod otlp {
    use super::{SERVICE_NAME, TRACES_ON};
    use opentelemetry::propagation::Extractor;
    use opentelemetry::trace::TracerProvider as _;
    use opentelemetry_sdk::propagation::TraceContextPropagator;
    use opentelemetry_sdk::trace::SdkTracerProvider;
    use opentelemetry_sdk::Resource;
    use std::sync::atomic::Ordering;
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::registry::LookupSpan;
    use tracing_subscriber::Layer;

    /// What sends the spans (flushed at exit).
    pub type Provider = SdkTracerProvider;

    /// The tracer provider the `OTEL_*` variables describe: OTLP/HTTP protobuf,
    /// batched on the SDK's own thread (call this outside any async runtime: the
    /// exporter's blocking HTTP client starts its own).
    pub fn otlp_provider() -> Result<SdkTracerProvider, String> {
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .build()
            .map_err(|e| format!("OpenTelemetry exporter: {e}"))?;
        Ok(SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource())
            .build())
    }

    /// The SDK's resource (service name from the environment), named `faan` when the environment names nothing.
    pub fn resource() -> Resource {
        let r = Resource::builder().build();
        let named = r
            .get(&opentelemetry::Key::from_static_str("service.name"))
            .is_some_and(|v| !v.as_str().starts_with("unknown_service"));
        if named {
            r
        } else {
            Resource::builder().with_service_name(SERVICE_NAME).build()
        }
    }

    /// The layer that sends `faan`'s spans to `provider`, whatever the log
    /// level: the request span (info) and its steps (`parse`, `validate`,
    /// `score`, `render`: debug, so that without this layer they are disabled
    /// at their call sites and cost nothing). Installs the W3C trace-context
    /// propagator and turns [`traces_on`] on.
    pub fn layer<S>(provider: &SdkTracerProvider) -> impl Layer<S>
    where
        S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    {
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        TRACES_ON.store(true, Ordering::Relaxed);
        tracing_opentelemetry::layer()
            .with_tracer(provider.tracer(SERVICE_NAME))
            .with_location(false)
            .with_threads(false)
            .with_tracked_inactivity(false)
            // Only our spans: not the exporter's HTTP client's, nor actix's.
            .with_filter(Targets::new().with_target("faan", LevelFilter::DEBUG))
    }

    /// Makes `span` a child of the caller's span when the headers carry a valid
    /// W3C `traceparent` (call it only while [`traces_on`]).
    pub fn continue_trace(span: &tracing::Span, headers: &impl Extractor) {
        let parent = opentelemetry::global::get_text_map_propagator(|p| p.extract(headers));
        // Fails only when the span is disabled or already started: nothing to continue then.
        let _ = span.set_parent(parent);
    }
}

/// A build without the `otel` feature: no exporter, and the environment
/// that asks for one is refused at start-up.
#[cfg(not(feature = "otel"))]
mod off {
    /// No provider can exist in this build.
    #[derive(Debug)]
    pub enum Provider {}

    impl Provider {
        pub fn shutdown(&self) -> Result<(), String> {
            match *self {}
        }
    }

    /// The refusal: traces were asked for, and this build cannot send them.
    pub fn otlp_provider() -> Result<Provider, String> {
        Err("OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) asks for OpenTelemetry traces, and this faan was built without them (cargo feature `otel`): build it with the default features, or unset the variable (or set OTEL_SDK_DISABLED=true)".into())
    }

    pub fn layer(provider: &Provider) -> tracing_subscriber::layer::Identity {
        match *provider {}
    }
}
