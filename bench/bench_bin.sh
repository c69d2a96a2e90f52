#!/usr/bin/env bash
# Builds benches/NAME.rs without running it and prints its executable's path:
# what the *_instructions.sh scripts run under callgrind.
#
#   bench/bench_bin.sh score
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench "$1" --no-run --message-format=json 2>/dev/null \
  | NAME="$1" python3 -c 'import json, os, sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == os.environ["NAME"] and m.get("executable"):
        print(m["executable"])'
