#!/usr/bin/env bash
# The core's GoogleTest suite built with AddressSanitizer + UBSan (cmake -DNATIVELOCK_SANITIZE=ON,
# any finding aborts the test). Writes build/test-results/reliability/asan-core.json.
set -uo pipefail
cd "$(dirname "$0")/../../.."
root=$(pwd)
results="${NATIVELOCK_RELIABILITY_RESULTS:-$root/build/test-results/reliability}"
mkdir -p "$results"
log="$results/asan-core.log"
start=$(date +%s)
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
total=0; failed=1; failures='"the sanitizer build failed"'
if cmake -S . -B build/cmake-asan -DNATIVELOCK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >"$log" 2>&1 &&
    cmake --build build/cmake-asan -j"$(nproc)" >>"$log" 2>&1; then
    (cd build/cmake-asan && ctest --output-on-failure --timeout 120) >>"$log" 2>&1
    summary=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
    if [ -n "$summary" ]; then
        failed=$(echo "$summary" | sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/')
        total=$(echo "$summary" | sed -E 's/.* out of ([0-9]+).*/\1/')
        failures=$(sed -n '/The following tests FAILED/,$p' "$log" | grep -E '^\s+[0-9]+ - ' | sed -E 's/^\s+//; s/"/\x27/g; s/.*/"&"/' | paste -sd, -)
    else
        failures='"ctest did not finish (see asan-core.log)"'
    fi
fi
# Any sanitizer report counts, even in a test that otherwise passed.
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
    finding=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | sed -E 's/"/\x27/g' | cut -c1-200)
    failures="${failures:+$failures,}\"$finding\""
    [ "$failed" = 0 ] && failed=1
fi
elapsed=$(( $(date +%s) - start ))
result=passed; [ "$failed" != 0 ] && result=failed
printf '{"test": "asan-ubsan-core", "backend": "core", "tried": "core GoogleTest suite built with -fsanitize=address,undefined", "runs": %s, "result": "%s", "failures": [%s], "failure_count": %s, "measured": {}, "skipped": null, "seconds": %s, "variant": "%s"}\n' \
    "$total" "$result" "$failures" "$failed" "$elapsed" "${NATIVELOCK_RELIABILITY_VARIANT:-ci}" >"$results/asan-core.json"
if [ "$result" = passed ]; then
    echo "ok asan-ubsan-core: $total tests clean in ${elapsed}s"
else
    grep -E -B5 -A30 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|FAILED' "$log" | head -80
    echo "not ok asan-ubsan-core: $failed of $total"
    exit 1
fi
