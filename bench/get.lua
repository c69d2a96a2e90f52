-- GET the URL's path (e.g. /healthz); statuses and percentiles via wrk_report.
dofile("bench/wrk_report.lua")
wrk.method = "GET"
