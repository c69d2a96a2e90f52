-- Soak mix for bench/soak.sh: cycles valid score requests from the corpus
-- and a list of invalid or odd requests (malformed JSON, wrong types, bad
-- tiles, unknown ruleset, deep nesting, oversized body, wrong content type,
-- wrong method, unknown path), plus batch, compare, waits and GETs.
-- Each thread stops after $SOAK_PER_THREAD responses; statuses are counted
-- by wrk_report.lua.
dofile("bench/wrk_report.lua")

local per_thread = tonumber(os.getenv("SOAK_PER_THREAD") or "100000")
local corpus = read_lines(os.getenv("FAAN_CORPUS") or "bench/corpus.jsonl")
local json = {["Content-Type"] = "application/json"}
local good = '{"ruleset":"wisteria-court","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},' ..
  '"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}'

local odd = {
  {"POST", "/v1/score", json, '{"ruleset": "hkma", "hand": {'},                                     -- truncated
  {"POST", "/v1/score", json, ''},                                                                   -- empty
  {"POST", "/v1/score", json, 'null'},
  {"POST", "/v1/score", json, '[1,2,3]'},
  {"POST", "/v1/score", json, good:gsub('"9p"', '"9z"')},                                          -- bad tile
  {"POST", "/v1/score", json, good:gsub('123456m', '111116m')},                                    -- five of a tile
  {"POST", "/v1/score", json, good:gsub('wisteria%-court', 'riichi')},                             -- unknown ruleset
  {"POST", "/v1/score", json, good:gsub('23455s', '23459s')},                                      -- not a winning hand
  {"POST", "/v1/score", json, good:gsub('"south"', '2', 1)},                                       -- wrong type
  {"POST", "/v1/score", json, good:gsub('}}$', '},"house_rules":{"min_faan":-1}}')},              -- negative house rule
  {"POST", "/v1/score", json, good:gsub('}}$', '},"bogus":1}')},                                   -- unknown field
  {"POST", "/v1/score", json, string.rep("[", 5000) .. string.rep("]", 5000)},                      -- deep nesting
  {"POST", "/v1/score", json, '{"ruleset":"hkma","hand":{"tiles":"' .. string.rep("1", 60000) .. '"}}'}, -- 60k digits
  {"POST", "/v1/score", json, '{"pad":"' .. string.rep("x", 70 * 1024) .. '"}'},                    -- over 64 KiB
  {"POST", "/v1/score", {["Content-Type"] = "text/plain"}, good},                                   -- wrong content type
  {"POST", "/v1/score", json, '\255\254\253'},                                                       -- not UTF-8
  {"GET", "/v1/score", {}, nil},                                                                      -- wrong method
  {"GET", "/no/such/path", {}, nil},
  {"GET", "/v1/rulesets/riichi", {}, nil},
  {"GET", "/healthz", {}, nil},
  {"GET", "/readyz", {}, nil},
  {"GET", "/v1/rulesets", {}, nil},
  {"POST", "/v1/score/batch", json, '{"requests":[' .. good .. ',' .. good:gsub('"9p"', '"9z"') .. ',{}]}'},
  {"POST", "/v1/compare", json, good:gsub('"ruleset":"wisteria%-court"', '"rulesets":"all"')},
  {"POST", "/v1/waits", json, '{"ruleset":"hkma","hand":{"tiles":"1112345678999m"},"context":{"seat_wind":"south","round_wind":"east"}}'},
}

local reqs = {}
local n = 0
local i = 0

function init(args)
  -- Two valid corpus requests for every odd one.
  local c = 1
  for k = 1, #odd do
    for _ = 1, 2 do
      table.insert(reqs, wrk.format("POST", "/v1/score", json, corpus[c]))
      c = c % #corpus + 1
    end
    local o = odd[k]
    table.insert(reqs, wrk.format(o[1], o[2], o[3], o[4]))
  end
  -- The rest of the corpus, so the cache keeps seeing new keys.
  while c < #corpus do
    table.insert(reqs, wrk.format("POST", "/v1/score", json, corpus[c]))
    c = c + 1
    if c % 2 == 0 then
      local o = odd[(c / 2) % #odd + 1]
      table.insert(reqs, wrk.format(o[1], o[2], o[3], o[4]))
    end
  end
end

function request()
  i = i % #reqs + 1
  return reqs[i]
end

-- Number the threads; each leaves a marker file in $SOAK_DONE_DIR when it
-- has its responses, and soak.sh then interrupts wrk (SIGINT makes wrk stop
-- early and still report).
local setup_report = setup
local next_id = 0
function setup(thread)
  setup_report(thread)
  next_id = next_id + 1
  thread:set("id", next_id)
end

local count_response = response
function response(status, headers, body)
  count_response(status, headers, body)
  n = n + 1
  if n == per_thread then
    local dir = os.getenv("SOAK_DONE_DIR")
    if dir then
      local f = io.open(dir .. "/thread-" .. tostring(id), "w")
      if f then f:write(n, "\n"); f:close() end
    end
    wrk.thread:stop()
  end
end
