#!/usr/bin/env bash
# Instructions per `Service::ledger` call on the 1,000-hand bench night,
# counted by callgrind: deterministic, so an A/B holds on this shared
# machine where criterion's wall time does not (bench/ledger.md). Runs the
# `service` bench binary in criterion's profile mode under valgrind, counting
# only inside `Service::ledger`, and prints instructions per call with the
# inclusive cost of each of its callees (reading, playing, writing, dropping).
#
#   bench/ledger_instructions.sh              # this tree (builds the bench)
#   BIN=/tmp/old/service-xxxx bench/ledger_instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
if [ -z "${BIN:-}" ]; then
  BIN=$(cargo bench --bench service --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "service" and m.get("executable"):
        print(m["executable"])')
fi
OUT=${OUT:-target/instructions}
mkdir -p "$OUT"
valgrind --tool=callgrind --callgrind-out-file="$OUT/ledger.out" \
  --toggle-collect='faan::service::Service::ledger' \
  "$BIN" --bench --profile-time 1 'ledger_1000_hands$' >"$OUT/ledger.log" 2>&1
python3 - "$OUT/ledger.out" <<'PY'
import re, subprocess, sys
out = sys.argv[1]
calls, total = 0, 0
names, lines, prev = {}, open(out).read().splitlines(), None
for i, l in enumerate(lines):
    m = re.match(r'cfn=\((\d+)\)(?: (.*))?', l)
    if m:
        if m.group(2):
            names[m.group(1)] = m.group(2)
        if names.get(m.group(1)) == 'faan::service::Service::ledger':
            calls += int(lines[i + 1].split()[0][len('calls='):])
    if l.startswith('totals:') or l.startswith('summary:'):
        total = int(l.split()[1])
print(f'Service::ledger: {calls} calls, {total // calls:,} instructions per call')
tree = subprocess.run(['callgrind_annotate', '--tree=calling', '--inclusive=yes', out],
                      capture_output=True, text=True).stdout.splitlines()
start = next(i for i, l in enumerate(tree) if '*' in l and 'Service::ledger [' in l)
for l in tree[start + 1:]:
    if not l.strip():
        break
    m = re.match(r'\s*([\d,]+) .*>\s+\S*?:(.*?) \((\d[\d,]*)x\)', l)
    if m:
        cost = int(m.group(1).replace(',', ''))
        if cost // calls >= 20000:
            print(f'  {cost // calls:>12,}  {m.group(2)[:110]}')
PY
