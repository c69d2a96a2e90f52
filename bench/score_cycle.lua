-- POST /v1/score cycling the corpus (bench/corpus.jsonl, or $FAAN_CORPUS):
-- with --cache-size 0 every request is a miss.
dofile("bench/wrk_report.lua")
local bodies = read_lines(os.getenv("FAAN_CORPUS") or "bench/corpus.jsonl")
local reqs = {}
local i = 0

-- Format the requests once per thread (wrk.format needs the thread's host).
function init(args)
  for k, b in ipairs(bodies) do
    reqs[k] = wrk.format("POST", "/v1/score", {["Content-Type"] = "application/json"}, b)
  end
end

function request()
  i = i + 1
  if i > #reqs then i = 1 end
  return reqs[i]
end
