-- Shared by the bench/*.lua wrk scripts: count statuses per thread and
-- print one machine-readable RESULT line (throughput, latency percentiles
-- in microseconds, statuses, socket errors) when the run is done.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

status_counts = {}

function response(status, headers, body)
  status_counts[status] = (status_counts[status] or 0) + 1
end

function done(summary, latency, requests)
  local codes = {}
  for _, t in ipairs(threads) do
    local c = t:get("status_counts")
    if c then
      for k, v in pairs(c) do codes[k] = (codes[k] or 0) + v end
    end
  end
  local parts, s5xx, s2xx = {}, 0, 0
  for k, v in pairs(codes) do
    table.insert(parts, k .. ":" .. v)
    if k >= 500 then s5xx = s5xx + v end
    if k >= 200 and k < 300 then s2xx = s2xx + v end
  end
  table.sort(parts)
  local e = summary.errors
  local secs = summary.duration / 1e6
  io.write(string.format(
    "RESULT requests=%d secs=%.3f rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d " ..
    "s2xx=%d s5xx=%d connect_err=%d read_err=%d write_err=%d timeout_err=%d status_err=%d codes=%s\n",
    summary.requests, secs, summary.requests / secs,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    s2xx, s5xx, e.connect, e.read, e.write, e.timeout, e.status, table.concat(parts, ",")))
end

-- Lines of a file (JSON bodies, one per line), skipping blank ones.
function read_lines(path, limit)
  local out = {}
  local f = assert(io.open(path, "r"), "cannot open " .. path)
  for line in f:lines() do
    if #line > 0 then table.insert(out, line) end
    if limit and #out >= limit then break end
  end
  f:close()
  return out
end
