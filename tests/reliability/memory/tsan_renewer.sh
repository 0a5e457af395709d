#!/usr/bin/env bash
# The extension's threads under ThreadSanitizer: the core's renewer tests (the auto-renewal
# thread itself, and its Redis and MySQL renewals against the real servers) and Filelock's queue
# tests (the waiting thread kept from wait to wait) built with -fsanitize=thread
# (cmake -DNATIVELOCK_TSAN=ON); any race report fails. die_after_fork=0: the tests fork after
# threads have started, as PHP processes do (TSan then checks the parents; it reports no races
# in such a child). Writes
# build/test-results/reliability/tsan-renewer.json.
set -uo pipefail
cd "$(dirname "$0")/../../.."
root=$(pwd)
results="${NATIVELOCK_RELIABILITY_RESULTS:-$root/build/test-results/reliability}"
mkdir -p "$results"
log="$results/tsan-renewer.log"
start=$(date +%s)
# die_after_fork=0: one test forks while the thread runs, to check the child has none of it.
export TSAN_OPTIONS="halt_on_error=1 die_after_fork=0 second_deadlock_stack=1"
filter='Renewer*:RedisRenewal*:MysqlRenewal*:LocalQueue.*:FileLockQueue*'
total=0; failed=1; failures='"the ThreadSanitizer build failed"'
if cmake -S . -B build/cmake-tsan -DNATIVELOCK_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$log" 2>&1 &&
    cmake --build build/cmake-tsan -j"$(nproc)" --target nativelock_core_tests >>"$log" 2>&1; then
    build/cmake-tsan/nativelock_core_tests --gtest_filter="$filter" \
        --gtest_output=json:"$results/tsan-renewer.gtest.json" >>"$log" 2>&1
    rc=$?
    total=$(grep -cE '^\[       OK \]|^\[  FAILED  \] [A-Za-z]+\.[A-Za-z]+ \(' "$log")
    failed=$(grep -cE '^\[  FAILED  \] [A-Za-z]+\.[A-Za-z]+ \(' "$log")
    failures=$(grep -E '^\[  FAILED  \] [A-Za-z]+\.[A-Za-z]+ \(' "$log" | sed -E 's/^\[  FAILED  \] //; s/ \(.*//; s/.*/"&"/' | paste -sd, -)
    if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then failed=1; failures="\"exit code $rc\""; fi
    [ "$total" = 0 ] && { failed=1; failures='"no test ran"'; }
fi
if grep -q 'WARNING: ThreadSanitizer' "$log"; then
    finding=$(grep -m1 -A3 'WARNING: ThreadSanitizer' "$log" | tr '\n' ' ' | sed -E 's/"/\x27/g' | cut -c1-200)
    failures="${failures:+$failures,}\"$finding\""
    [ "$failed" = 0 ] && failed=1
fi
elapsed=$(( $(date +%s) - start ))
result=passed; [ "$failed" != 0 ] && result=failed
printf '{"test": "tsan-renewer", "backend": "core", "tried": "renewer thread tests (fake, Redis and MySQL renewals, fork) and Filelock queue tests (the kept waiting thread) built with -fsanitize=thread", "runs": %s, "result": "%s", "failures": [%s], "failure_count": %s, "measured": {}, "skipped": null, "seconds": %s, "variant": "%s"}\n' \
    "$total" "$result" "$failures" "$failed" "$elapsed" "${NATIVELOCK_RELIABILITY_VARIANT:-ci}" >"$results/tsan-renewer.json"
if [ "$result" = passed ]; then
    echo "ok tsan-renewer: $total tests, no race reported, in ${elapsed}s"
else
    grep -E -B5 -A30 'WARNING: ThreadSanitizer|FAILED' "$log" | head -80
    echo "not ok tsan-renewer: $failed of $total"
    exit 1
fi
