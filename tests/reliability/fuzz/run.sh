#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) over the core's
# naming and record code and runs each for a bounded time from the checked-in seed corpus.
# Writes build/test-results/reliability/fuzz-<target>.json; exits non-zero on any finding.
#   tests/reliability/fuzz/run.sh [seconds per target, default 30]
set -uo pipefail
cd "$(dirname "$0")/../../.."
root=$(pwd)
seconds="${1:-30}"
out="$root/build/fuzz"
results="${NATIVELOCK_RELIABILITY_RESULTS:-$root/build/test-results/reliability}"
mkdir -p "$out/artifacts" "$results"
cxx=$(command -v clang++ || command -v clang++-14 || true)
# record.cpp writes this process's own record (encode_own): identity and random tokens.
sources="ext/core/file/name.cpp ext/core/file/record.cpp ext/core/common/error.cpp ext/core/common/process.cpp ext/core/common/random.cpp"

write_result() { # target result runs seconds failure tried
    printf '{"test": "fuzz-%s", "backend": "core", "tried": "%s", "runs": %s, "result": "%s", "failures": [%s], "failure_count": %s, "measured": {"seconds_fuzzed": %s}, "skipped": null, "seconds": %s, "variant": "%s"}\n' \
        "$1" "$6" "$3" "$2" "${5:+\"$5\"}" "$([ -n "$5" ] && echo 1 || echo 0)" "$4" "$4" "${NATIVELOCK_RELIABILITY_VARIANT:-ci}" >"$results/fuzz-$1.json"
}

status=0
for target in name record; do
    case $target in
        name) tried="libFuzzer on map_name/lock_file_path/temp_file_path (ASan+UBSan)" ;;
        record) tried="libFuzzer on decode() of arbitrary bytes and encode/decode round trips (ASan+UBSan)" ;;
    esac
    if [ -z "$cxx" ]; then
        write_result "$target" failed 0 0 "clang++ not installed (scripts/deps.sh)" "$tried"
        echo "not ok fuzz-$target: clang++ missing"; status=1; continue
    fi
    if ! $cxx -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -Iext/core $sources "tests/reliability/fuzz/${target}_fuzzer.cpp" -o "$out/${target}_fuzzer" 2>"$out/${target}_build.log"; then
        tail -20 "$out/${target}_build.log"
        write_result "$target" failed 0 0 "the fuzzer did not build" "$tried"
        echo "not ok fuzz-$target: build failed"; status=1; continue
    fi
    # A scratch corpus: libFuzzer adds what it finds to the first directory, the checked-in
    # seeds stay as they are.
    rm -rf "$out/corpus-$target" && cp -r "tests/reliability/fuzz/corpus/$target" "$out/corpus-$target"
    start=$(date +%s)
    "$out/${target}_fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="$out/artifacts/${target}-" "$out/corpus-$target" >"$out/${target}.log" 2>&1
    rc=$?
    elapsed=$(( $(date +%s) - start ))
    runs=$(grep -oE 'Done [0-9]+ runs' "$out/${target}.log" | grep -oE '[0-9]+' | tail -1)
    if [ "$rc" = 0 ] && [ -n "$runs" ]; then
        write_result "$target" passed "$runs" "$elapsed" "" "$tried"
        echo "ok fuzz-$target: $runs runs in ${elapsed}s"
    else
        finding=$(grep -m1 -E 'ERROR: (AddressSanitizer|libFuzzer)|runtime error' "$out/${target}.log" | tr -d '"\\' | cut -c1-200)
        tail -40 "$out/${target}.log"
        write_result "$target" failed "${runs:-0}" "$elapsed" "${finding:-fuzzer exited with $rc}; input in build/fuzz/artifacts" "$tried"
        echo "not ok fuzz-$target: ${finding:-exit $rc}"
        status=1
    fi
done
exit $status
