#!/usr/bin/env bash
# Builds the engine as WebAssembly (wasm/) into web/pkg/faan.wasm and prints
# its size raw and compressed. The toolchain is Debian's rustc-web (its
# cargo builds the standard library for wasm32 from rust-web-src) and
# lld-19; they are installed here when missing and this runs as root.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The engine needs rustc 1.89 or newer: bookworm-security's rustc-web
# (1.96) is, bookworm's own (1.85) is not.
need=()
ver=$(/usr/bin/rustc --version 2>/dev/null | sed -n 's/^rustc 1\.\([0-9]*\).*/\1/p')
[ -x /usr/bin/cargo ] && [ "${ver:-0}" -ge 89 ] || need+=(rustc-web cargo-web rust-web-src)
[ -d /usr/lib/rustlib/src/rust/library ] || need+=(rust-web-src)
command -v wasm-ld-19 >/dev/null 2>&1 || need+=(lld-19)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "== installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing: ${need[*]} (apt-get install -y ${need[*]}, as root)" >&2
    exit 1
  fi
fi

start=$(date +%s)
# Debian's cargo and rustc by path (rustup's stay first on PATH for the
# rest); RUSTC_BOOTSTRAP for -Zbuild-std, the standard library built from
# source with panic=abort.
RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19 \
  /usr/bin/cargo build --release --locked --quiet \
  --manifest-path wasm/Cargo.toml --target-dir target/wasm \
  --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort
cp target/wasm/wasm32-unknown-unknown/release/faan_wasm.wasm web/pkg/faan.wasm
echo "built web/pkg/faan.wasm in $(( $(date +%s) - start )) s"

raw=$(stat -c %s web/pkg/faan.wasm)
gz=$(gzip -9 -c web/pkg/faan.wasm | wc -c)
if command -v brotli >/dev/null 2>&1; then
  br=$(brotli -q 11 -c web/pkg/faan.wasm | wc -c)
  echo "faan.wasm: $raw bytes raw, $gz gzip -9, $br brotli -q 11"
else
  br=
  echo "faan.wasm: $raw bytes raw, $gz gzip -9 (no brotli CLI here: gzip only)"
fi
# The budget is 600 KB brotli; gzip is larger than brotli, so a gzip
# figure within it is within it too.
budget=$((600 * 1000))
if [ "${br:-$gz}" -gt "$budget" ]; then
  echo "over the budget of $budget bytes compressed" >&2
  exit 1
fi
