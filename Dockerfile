# faan: Hong Kong mahjong scoring as a service.
#   docker build -t faan .
#   docker run --rm -p 8080:8080 faan
# Configuration is by FAAN_* environment variables (README.md, "Configuration").

# ---- the engine as WebAssembly (web/pkg/build.sh's build): Debian's
# rustc-web builds wasm32's standard library from rust-web-src, lld-19 links.
FROM debian:bookworm-slim AS wasm
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates rustc-web cargo-web rust-web-src lld-19 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY rulesets rulesets
COPY engine engine
COPY wasm wasm
RUN RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19 \
    /usr/bin/cargo build --release --locked --manifest-path wasm/Cargo.toml \
    --target-dir target/wasm --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort

# ---- build
FROM rust:1-slim-bookworm AS builder
WORKDIR /src
ENV CARGO_PROFILE_RELEASE_STRIP=true
# Dependencies first, so that a source change does not rebuild them.
COPY Cargo.toml Cargo.lock build.rs ./
COPY engine/Cargo.toml engine/build.rs engine/
COPY rulesets rulesets
COPY benches benches
RUN mkdir -p src engine/src \
    && echo 'fn main() {}' > src/main.rs \
    && echo '' > src/lib.rs \
    && echo '' > engine/src/lib.rs \
    && cargo build --release --locked --bin faan \
    && rm -rf src engine/src
COPY engine/src engine/src
COPY src src
COPY web web
# The module the page scores with offline, embedded by build.rs.
COPY --from=wasm /src/target/wasm/wasm32-unknown-unknown/release/faan_wasm.wasm web/pkg/faan.wasm
# The API document's examples are compiled in (src/http/scoring.rs).
COPY openapi openapi
# Make sure the real sources are newer than the stub build.
RUN touch src/main.rs src/lib.rs engine/src/lib.rs \
    && cargo build --release --locked --bin faan

# ---- run
FROM debian:bookworm-slim
RUN groupadd --system --gid 10001 faan \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin faan
COPY --from=builder /src/target/release/faan /usr/local/bin/faan
# Shared tables' SQLite file, on a volume owned by the image's user (a
# deployment without tables sets FAAN_STORE=none).
RUN mkdir /data && chown 10001:10001 /data
VOLUME /data
# Numeric, so that a pod with runAsNonRoot can be verified (a name cannot).
USER 10001:10001
ENV FAAN_ADDR=0.0.0.0:8080 \
    FAAN_ADMIN_ADDR=0.0.0.0:9090 \
    FAAN_LOG_FORMAT=json \
    FAAN_STORE=sqlite:/data/tables.db
# 9090: /healthz, /readyz and /metrics on their own listener.
EXPOSE 8080 9090
# The binary probes its own /readyz, on the probes' listener: no curl in the image.
HEALTHCHECK --interval=15s --timeout=5s --start-period=5s --retries=3 \
    CMD ["faan", "healthcheck", "--addr", "127.0.0.1:9090"]
# SIGTERM: stop accepting, finish in-flight requests (FAAN_SHUTDOWN_TIMEOUT seconds), exit.
STOPSIGNAL SIGTERM
ENTRYPOINT ["faan"]
CMD ["serve"]
