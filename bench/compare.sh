#!/usr/bin/env bash
# Speed against the peers: faan's corpus timing, then hk-mahjong and the
# riichi `mahjong` calculator on the same hands (bench/peers.py).
#
#   bench/compare.sh                 # fresh venv, whole corpus, 5 repeats per peer hand
#   bench/compare.sh --repeats 3     # extra arguments go to peers.py
#   PEERS_REUSE_VENV=1 bench/compare.sh   # keep an existing target/peers-venv
#
# The venv is throwaway (target/peers-venv, under the git-ignored target/).
# Writes target/corpus-times.json (faan, per hand) and target/peers.json.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=target/peers-venv
if [[ -z "${PEERS_REUSE_VENV:-}" || ! -x "$VENV/bin/python" ]]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --disable-pip-version-check hk-mahjong mahjong
"$VENV/bin/pip" list --disable-pip-version-check 2>/dev/null | grep -Ei '^(hk-mahjong|mahjong) '
echo "python: $("$VENV/bin/python" --version)"

echo "== faan: per-hand corpus timing (release)"
FAAN_CORPUS_NO_CRITERION=1 FAAN_CORPUS_JSON=target/corpus-times.json \
    cargo bench --bench corpus

echo "== peers"
"$VENV/bin/python" bench/peers.py --ours target/corpus-times.json \
    --json target/peers.json "$@"
