-- wrk script of the hot-lock scenario (tests/bench/hot_lock.php): after the run, one line
-- "NLB_JSON {...}" with the counts and the latency percentiles (µs) that wrk's own summary
-- rounds or leaves out (p90 and max exactly, errors by kind).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'NLB_JSON {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%d,"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency:percentile(99.9), latency.max))
end
