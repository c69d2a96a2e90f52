-- POST /v1/score cycling the corpus with an X-Faan-Key per request (a
-- table id, 50 tables), for deploy/loopback/cluster.sh's throughput runs.
-- Through nginx each key lands on one instance; straight at one instance
-- the header is ignored. Run from the repository root.
dofile("bench/wrk_report.lua")
local bodies = read_lines(os.getenv("FAAN_CORPUS") or "bench/corpus.jsonl")
local reqs = {}
local i = 0

function init(args)
  for k, b in ipairs(bodies) do
    reqs[k] = wrk.format("POST", "/v1/score", {
      ["Content-Type"] = "application/json",
      ["X-Faan-Key"] = "table-" .. (k % 50),
    }, b)
  end
end

function request()
  i = i + 1
  if i > #reqs then i = 1 end
  return reqs[i]
end
