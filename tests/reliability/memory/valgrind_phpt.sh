#!/usr/bin/env bash
# The whole phpt suite under valgrind memcheck (run-tests.php -m, USE_ZEND_ALLOC=0): zero
# errors and zero definite leaks. Valgrind wraps only the test process: child PHP processes
# the tests spawn run natively (they are what the test observes, not what is checked).
# Writes build/test-results/reliability/valgrind-phpt.json.
set -uo pipefail
cd "$(dirname "$0")/../../.."
root=$(pwd)
results="${NATIVELOCK_RELIABILITY_RESULTS:-$root/build/test-results/reliability}"
mkdir -p "$results"
log="$results/valgrind-phpt.log"
start=$(date +%s)
export PATH="$root/tests/reliability/memory/valgrind-wrapper:$PATH"
export VALGRIND_OPTS="--trace-children-skip=*/php* --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite --error-exitcode=0"
# pcre.jit=0: PCRE's JIT code reads 16 bytes at a time past the end of a subject by design,
# which memcheck reports (with ??? frames) whenever a subject ends near the end of its block
# (tests that scan /proc/locks, whose lines grew with the queue's presence byte).
NO_INTERACTION=1 USE_ZEND_ALLOC=0 make test TESTS="-m -q -j$(nproc) --show-mem -d pcre.jit=0 tests/phpt" >"$log" 2>&1
field() { grep -E "^Tests $1 *:" "$log" | head -1 | sed -E 's/^[^:]*: *([0-9]+).*/\1/'; }
total=$(grep -E '^Number of tests *:' "$log" | head -1 | sed -E 's/^[^:]*: *([0-9]+).*/\1/')
passed=$(field passed); failed=$(field failed); leaked=$(field leaked); skipped=$(field skipped)
elapsed=$(( $(date +%s) - start ))
failures=$(sed -n '/^FAILED TEST SUMMARY/,/^=====/p; /^LEAKED TEST SUMMARY/,/^=====/p' "$log" | grep -E '\[tests/' | sed -E 's/"/\x27/g; s/.*/"&"/' | paste -sd, -)
if [ -z "$total" ]; then
    tail -30 "$log"
    failures='"run-tests.php did not finish (see valgrind-phpt.log)"'; total=0; failed=1
fi
bad=$(( ${failed:-0} + ${leaked:-0} ))
# The step must be able to fail: a test that leaks 100 bytes on purpose has to be caught.
selfcheck="$results/valgrind-selfcheck"
rm -rf "$selfcheck" && mkdir -p "$selfcheck" && cp tests/reliability/memory/selfcheck/*.phpt "$selfcheck/"
NO_INTERACTION=1 USE_ZEND_ALLOC=0 make test TESTS="-m -q $selfcheck" >"$selfcheck/run.log" 2>&1
if ! grep -qE '^Tests leaked *: *1 ' "$selfcheck/run.log"; then
    failures="${failures:+$failures,}\"the deliberate leak in tests/reliability/memory/selfcheck was not reported\""
    bad=$((bad + 1))
fi
[ "${CI:-}" = true ] && bad=$(( bad + ${skipped:-0} ))
result=passed; [ "$bad" != 0 ] && result=failed
printf '{"test": "valgrind-phpt", "backend": "all", "tried": "every tests/phpt test under valgrind memcheck (USE_ZEND_ALLOC=0), errors and definite leaks", "runs": %s, "result": "%s", "failures": [%s], "failure_count": %s, "measured": {"passed": %s, "failed": %s, "leaked": %s, "skipped": %s}, "skipped": null, "seconds": %s, "variant": "%s"}\n' \
    "$total" "$result" "$failures" "$bad" "${passed:-0}" "${failed:-0}" "${leaked:-0}" "${skipped:-0}" "$elapsed" "${NATIVELOCK_RELIABILITY_VARIANT:-ci}" >"$results/valgrind-phpt.json"
if [ "$result" = passed ]; then
    echo "ok valgrind-phpt: $total tests clean in ${elapsed}s"
else
    sed -n '/^FAILED TEST SUMMARY/,/^=====/p; /^LEAKED TEST SUMMARY/,/^=====/p' "$log"
    for mem in $(find tests/phpt -name '*.mem' -size +0); do echo "== $mem"; head -60 "$mem"; done
    echo "not ok valgrind-phpt: $bad of $total failed or leaked"
    exit 1
fi
