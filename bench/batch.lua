-- POST /v1/score/batch of the first 100 corpus requests (same body every time).
dofile("bench/wrk_report.lua")
local n = tonumber(os.getenv("FAAN_BATCH_N") or "100")
local items = read_lines(os.getenv("FAAN_CORPUS") or "bench/corpus.jsonl", n)
wrk.method = "POST"
wrk.path = "/v1/score/batch"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"requests":[' .. table.concat(items, ",") .. ']}'
