-- POST /v1/score with distinct requests, to fill the response cache to its
-- byte bound (deploy/README.md, "Memory"): each corpus request under 45
-- house-rule variants (limit 5..13, min_faan 0..4), about 110,000 distinct
-- cache keys. Run from the repository root:
--   wrk -t1 -c8 -d60s -s deploy/loopback/cache_fill.lua http://127.0.0.1:PORT/v1/score
dofile("bench/wrk_report.lua")
local bodies = read_lines(os.getenv("FAAN_CORPUS") or "bench/corpus.jsonl")
local i = 0

function request()
  local n = #bodies
  local b = bodies[(i % n) + 1]
  local v = math.floor(i / n) % 45
  i = i + 1
  local rules = string.format('{"house_rules":{"limit":%d,"min_faan":%d},', 5 + v % 9, math.floor(v / 9))
  return wrk.format("POST", "/v1/score", {["Content-Type"] = "application/json"}, rules .. string.sub(b, 2))
end
