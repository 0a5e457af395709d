#!/usr/bin/env bash
# The extension itself built with AddressSanitizer + UBSan, and the whole phpt suite run against
# it (USE_ZEND_ALLOC=0, so PHP's own objects come from malloc and ASan sees their use after
# free). The build is a copy of the sources under build/asan-ext, so the normal module is left
# alone. Child PHP processes the tests start load the ASan module too (NATIVELOCK_MODULE, the
# runtime preloaded through the inherited LD_PRELOAD). Any sanitizer report from any process
# (ASAN_OPTIONS log_path) fails the step, even in a test that otherwise passed. Leaks are the
# valgrind step's job (detect_leaks=0: LeakSanitizer would report PHP's own allocations).
# Writes build/test-results/reliability/asan-phpt.json.
set -uo pipefail
cd "$(dirname "$0")/../../.."
root=$(pwd)
results="${NATIVELOCK_RELIABILITY_RESULTS:-$root/build/test-results/reliability}"
mkdir -p "$results"
log="$results/asan-phpt.log"
reports="$results/asan-phpt-reports"
rm -rf "$reports" && mkdir -p "$reports"
start=$(date +%s)
build="$root/build/asan-ext"
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g -O1"

total=0; failed=1; failures='"the sanitizer build of the extension failed"'
mkdir -p "$build"
# The sources only: the in-place objects of the normal build must never pass for instrumented
# ones. tar keeps the files' times, so an unchanged source is not rebuilt next time.
tar -C "$root" -cf - --exclude='*.o' --exclude='*.lo' --exclude='*.dep' --exclude='.libs' \
    config.m4 Makefile.frag ext | tar -C "$build" -xf -
if (cd "$build" && { [ -f Makefile ] || { phpize && CXXFLAGS="$flags" CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" ./configure --enable-nativelock; }; } &&
    make -j"$(nproc)") >"$log" 2>&1; then
    export USE_ZEND_ALLOC=0
    export ZEND_DONT_UNLOAD_MODULES=1  # symbolised stacks for findings at shutdown
    # PHP loads extensions with RTLD_DEEPBIND, which the ASan runtime refuses: a preloaded
    # dlopen() that drops the flag (it has to come before the runtime in LD_PRELOAD).
    printf '#define _GNU_SOURCE\n#include <dlfcn.h>\nvoid *dlopen(const char *file, int flags) {\n    static void *(*next)(const char *, int);\n    if (!next) next = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");\n    return next(file, flags & ~RTLD_DEEPBIND);\n}\n' >"$build/no_deepbind.c"
    cc -shared -fPIC -O2 -o "$build/no_deepbind.so" "$build/no_deepbind.c" -ldl
    # Only PHP gets the runtime preloaded (make itself trips ASan): a wrapper as PHP_EXECUTABLE.
    printf '#!/bin/sh\nLD_PRELOAD=%s:%s exec %s "$@"\n' "$build/no_deepbind.so" "$(gcc -print-file-name=libasan.so)" "$(command -v php)" >"$build/php-asan"
    chmod +x "$build/php-asan"
    asan_options="verify_asan_link_order=0:detect_leaks=0:halt_on_error=1:abort_on_error=0:strict_string_checks=1"
    export ASAN_OPTIONS="$asan_options:log_path=$reports/asan"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"
    export NATIVELOCK_MODULE="$build/modules/nativelock.so"
    (cd "$build" && NO_INTERACTION=1 make test PHP_EXECUTABLE="$build/php-asan" TESTS="-q -j$(nproc) --show-diff $root/tests/phpt") >>"$log" 2>&1
    field() { grep -E "^Tests $1 *:" "$log" | head -1 | sed -E 's/^[^:]*: *([0-9]+).*/\1/'; }
    total=$(grep -E '^Number of tests *:' "$log" | head -1 | sed -E 's/^[^:]*: *([0-9]+).*/\1/')
    passed=$(field passed); failed=$(field failed); skipped=$(field skipped)
    failures=$(sed -n '/^FAILED TEST SUMMARY/,/^=====/p' "$log" | grep -E '\[.*tests/' | sed -E 's/"/\x27/g; s/.*/"&"/' | paste -sd, -)
    if [ -z "$total" ]; then
        failures='"run-tests.php did not finish (see asan-phpt.log)"'; total=0; failed=1
    fi
    failed=${failed:-0}
    [ "${CI:-}" = true ] && failed=$(( failed + ${skipped:-0} ))
fi
# The step must be able to fail: the module must be instrumented, and a deliberate use after
# free (through FFI, in a test of its own) must reach the reports.
if [ "$(nm -D "$build/modules/nativelock.so" 2>/dev/null | grep -c __asan_report)" = 0 ]; then
    failures="${failures:+$failures,}\"the module in $build is not instrumented\""
    failed=$((failed + 1))
fi
selfcheck="$results/asan-selfcheck"
rm -rf "$selfcheck" && mkdir -p "$selfcheck/reports" && cp tests/reliability/memory/asan-selfcheck/*.phpt "$selfcheck/"
(cd "$build" && ASAN_OPTIONS="${asan_options:-}:log_path=$selfcheck/reports/asan" NO_INTERACTION=1 \
    make test PHP_EXECUTABLE="$build/php-asan" TESTS="-q $selfcheck") >"$selfcheck/run.log" 2>&1
if ! cat "$selfcheck"/reports/* 2>/dev/null | grep -q 'ERROR: AddressSanitizer: heap-use-after-free'; then
    failures="${failures:+$failures,}\"the deliberate use after free in tests/reliability/memory/asan-selfcheck was not reported\""
    failed=$((failed + 1))
fi
# Any sanitizer report counts.
findings=$(cat "$reports"/* 2>/dev/null | grep -cE 'ERROR: AddressSanitizer|runtime error:')
if [ "$findings" != 0 ]; then
    first=$(cat "$reports"/* | grep -m1 -E 'ERROR: AddressSanitizer|runtime error:' | sed -E 's/"/\x27/g' | cut -c1-200)
    failures="${failures:+$failures,}\"$findings sanitizer report(s), first: $first\""
    failed=$((failed + findings))
fi
elapsed=$(( $(date +%s) - start ))
result=passed; [ "$failed" != 0 ] && result=failed
printf '{"test": "asan-ubsan-phpt", "backend": "all", "tried": "the extension built with -fsanitize=address,undefined, every tests/phpt test against it (children too)", "runs": %s, "result": "%s", "failures": [%s], "failure_count": %s, "measured": {}, "skipped": null, "seconds": %s, "variant": "%s"}\n' \
    "${total:-0}" "$result" "$failures" "$failed" "$elapsed" "${NATIVELOCK_RELIABILITY_VARIANT:-ci}" >"$results/asan-phpt.json"
if [ "$result" = passed ]; then
    echo "ok asan-ubsan-phpt: $total tests clean in ${elapsed}s"
else
    tail -40 "$log"
    for f in "$reports"/*; do [ -f "$f" ] && { echo "== $f"; head -40 "$f"; }; done
    echo "not ok asan-ubsan-phpt: $failed of ${total:-0} failed or reported"
    exit 1
fi
