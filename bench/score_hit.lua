-- POST /v1/score with the same body every time (a cache hit after the first).
dofile("bench/wrk_report.lua")
wrk.method = "POST"
wrk.path = "/v1/score"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("FAAN_HIT_BODY") or
  '{"ruleset":"wisteria-court","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},' ..
  '"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}'
