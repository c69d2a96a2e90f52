#!/usr/bin/env bash
# Renders each overlay with `kubectl kustomize` and validates the output
# offline: `kubernetes-validate --strict` (the Kubernetes OpenAPI schemas,
# unknown fields rejected) against each Kubernetes version below, then
# deploy/k8s/check.py (what the schemas cannot say: probes, the drain
# arithmetic, FAAN_WORKERS tied to the CPU limit, memory covering the cache,
# the security context, the routing annotation).
#
#   deploy/k8s/validate.sh
#
# kubernetes-validate (PyPI, pinned) goes into a virtualenv in target/. A
# missing kubectl or python3 fails the step.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The oldest release the manifests promise to work on (the kubectl here is
# 1.32) and the newest the pinned validator ships schemas for.
K8S_VERSIONS=${K8S_VERSIONS:-"1.32.0 1.37.0"}
KV_VERSION=1.37.0
VENV=target/k8s-venv

command -v kubectl >/dev/null || { echo "validate.sh: kubectl is missing" >&2; exit 1; }
command -v python3 >/dev/null || { echo "validate.sh: python3 is missing" >&2; exit 1; }
if ! "$VENV/bin/kubernetes-validate" --version 2>/dev/null | grep -qF "$KV_VERSION"; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "kubernetes-validate==$KV_VERSION"
fi
"$VENV/bin/kubernetes-validate" --version | grep -qF "$KV_VERSION"

OUT=target/k8s-rendered
mkdir -p "$OUT"
for overlay in production dev tables; do
  kubectl kustomize "deploy/k8s/overlays/$overlay" > "$OUT/$overlay.yaml"
  for v in $K8S_VERSIONS; do
    "$VENV/bin/kubernetes-validate" --strict --quiet -k "$v" "$OUT/$overlay.yaml"
    echo "validate.sh: $overlay: every resource valid (strict) for Kubernetes $v"
  done
done
"$VENV/bin/python" deploy/k8s/check.py --dockerfile Dockerfile \
  --production "$OUT/production.yaml" --dev "$OUT/dev.yaml" \
  --tables "$OUT/tables.yaml"
