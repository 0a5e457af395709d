#!/usr/bin/env bash
# The benchmark, one command: builds the extension, the C floors and the Google Benchmark
# binary, starts its own redis-server and mariadbd on private ports, runs every scenario for
# every backend in one interleaved run (tests/bench/bench.php), runs the core micro-benchmarks,
# stops the servers, and writes results.md + chart.svg.
#
#   tests/bench/run.sh            full run (~6 min); writes tests/bench/results/ and the README's
#                                 benchmarks section
#   tests/bench/run.sh --quick    shorter counts, writes to /tmp/nativelock-bench-quick/ only
#   tests/bench/run.sh --smoke    seconds: file backends only, no servers, no php-fpm; checks
#                                 that the harness works
#   --only=cycle,handoff,contention,fpm,hot,bridge,fencing,auto_renew,memory,core   a subset;  --out=DIR   another output dir
#   (hot: issue 14's hot lock, nginx -> php-fpm x 24 <- wrk -c24, tests/bench/hot_lock.php;
#   needs nginx and wrk: apt-get install -y nginx-light wrk; bridge: the framework bridge against
#   the stock Symfony/Laravel stores, tests/bench/bridge.php, written to bridge.txt; fencing: the
#   uncontended cycle with nativelock.fencing off and on, tests/bench/fencing.php, fencing.txt;
#   auto_renew: the same with nativelock.auto_renew off and on, auto_renew.txt)
#
# The uncontended cycle runs with fixed CPU placement, NATIVELOCK_BENCH_PLACEMENT=split (default:
# bench and C floors on CPU 0, servers on CPU 1), same (all on CPU 0) or none: unpinned, the
# ratio to the C floor follows where the kernel happens to put each process (see bench.php).
#
# Ports (override with NATIVELOCK_BENCH_REDIS_PORT / _MYSQL_PORT / _FPM_PORT) are not the test
# suite's, so a benchmark never touches the servers of a test run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

level=full
only=""
out=""
for arg in "$@"; do
    case "$arg" in
        --quick) level=quick ;;
        --smoke) level=smoke ;;
        --only=*) only="${arg#--only=}" ;;
        --out=*) out="${arg#--out=}" ;;
        *) echo "usage: $0 [--quick|--smoke] [--only=a,b] [--out=DIR]" >&2; exit 2 ;;
    esac
done
if [ -z "$out" ]; then
    if [ "$level" = full ] && [ -z "$only" ]; then out="$root/tests/bench/results"; else out="/tmp/nativelock-bench-$level"; fi
fi
if [ "$level" = smoke ] && [ -z "$only" ]; then only="cycle,handoff,contention,memory"; fi
want() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

work=$(mktemp -d /tmp/nativelock-bench.XXXXXX)
export NATIVELOCK_TEST_RUNDIR="$work/servers"
export NATIVELOCK_REDIS_HOST=127.0.0.1 NATIVELOCK_MYSQL_HOST=127.0.0.1
export NATIVELOCK_REDIS_PORT="${NATIVELOCK_BENCH_REDIS_PORT:-16479}"
export NATIVELOCK_MYSQL_PORT="${NATIVELOCK_BENCH_MYSQL_PORT:-13379}"
export NATIVELOCK_BENCH_FPM_PORT="${NATIVELOCK_BENCH_FPM_PORT:-19479}"
export NATIVELOCK_BENCH_HTTP_PORT="${NATIVELOCK_BENCH_HTTP_PORT:-19581}"
export NATIVELOCK_BENCH_HOT_FPM_PORT="${NATIVELOCK_BENCH_HOT_FPM_PORT:-19582}"
unset NATIVELOCK_MYSQL_SOCKET
. tests/servers/env.sh
export NATIVELOCK_BENCH_LOCKDIR="$work/locks/" NATIVELOCK_BENCH_FLOORDIR="$work/floors"
mkdir -p "$NATIVELOCK_BENCH_LOCKDIR" "$NATIVELOCK_BENCH_FLOORDIR" "$out"

started=()
cleanup() {
    for s in "${started[@]}"; do tests/servers/"$s".sh stop >/dev/null 2>&1 || true; done
    rm -rf "$work"
}
trap cleanup EXIT

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

log "building the extension, the C floors and nativelock_core_bench"
scripts/build.sh >&2
export NATIVELOCK_MODULE="$root/modules/nativelock.so"
cc -O2 -o "$NATIVELOCK_BENCH_FLOORDIR/file_floor" tests/bench/floor/file_floor.c
cc -O2 -o "$NATIVELOCK_BENCH_FLOORDIR/redis_floor" tests/bench/floor/redis_floor.c $(pkg-config --cflags --libs hiredis)
cc -O2 -o "$NATIVELOCK_BENCH_FLOORDIR/mysql_floor" tests/bench/floor/mysql_floor.c \
    $(pkg-config --cflags --libs libmariadb 2>/dev/null || pkg-config --cflags --libs mysqlclient)
core_bench=""
if want core && [ "$level" != smoke ]; then
    if cmake -S . -B build/bench-cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$work/cmake.log" 2>&1 &&
        cmake --build build/bench-cmake -j"$(nproc)" --target nativelock_core_bench >>"$work/cmake.log" 2>&1; then
        core_bench="$root/build/bench-cmake/nativelock_core_bench"
    else
        log "nativelock_core_bench did not build (libbenchmark-dev missing?), see below"; tail -20 "$work/cmake.log" >&2
    fi
fi

# The built module, not an installed copy: hide any system ini that loads nativelock.
scan_dir="$work/conf.d"
mkdir -p "$scan_dir"
for ini in $(php -r 'echo str_replace(",", " ", (string) php_ini_scanned_files());'); do
    grep -qs nativelock "$ini" || ln -sf "$ini" "$scan_dir/"
done
export PHP_INI_SCAN_DIR="$scan_dir"

if [ "$level" != smoke ]; then
    for s in redis mariadb; do
        log "starting $s on its own port"
        tests/servers/"$s".sh start >&2
        started+=("$s")
    done
fi

bench_args=("--$level")
[ "$level" = full ] && bench_args=()
[ -n "$only" ] && bench_args+=("--only=$only")
log "running the scenarios ($level)"
php -d extension="$NATIVELOCK_MODULE" tests/bench/bench.php "$out/results.json" "${bench_args[@]}"

if want hot && [ "$level" != smoke ]; then
    log "hot lock under php-fpm ($level)"
    hot_args=(--out="$out" --results="$out/results.json")
    [ "$level" = quick ] && hot_args+=(--quick)
    php -d extension="$NATIVELOCK_MODULE" tests/bench/hot_lock.php "${hot_args[@]}" >/dev/null ||
        log "hot lock: a lost update or an error, see $out/hot-lock.md"
fi

if want bridge && [ "$level" != smoke ]; then
    log "framework bridge against the stock stores ($level)"
    bridge_args=()
    [ "$level" = quick ] && bridge_args+=(--quick)
    php -d extension="$NATIVELOCK_MODULE" tests/bench/bridge.php "${bridge_args[@]}" >"$out/bridge.txt" ||
        log "bridge: a target missed, see $out/bridge.txt"
fi

if want fencing && [ "$level" != smoke ]; then
    log "fencing tokens: cycle cost off and on ($level)"
    fencing_args=(--lockdir="$work/locks/fencing")
    [ "$level" = quick ] && fencing_args+=(--quick)
    php -d extension="$NATIVELOCK_MODULE" tests/bench/fencing.php "${fencing_args[@]}" >"$out/fencing.txt" ||
        log "fencing: the bench failed, see $out/fencing.txt"
fi

if want auto_renew && [ "$level" != smoke ]; then
    log "auto-renewal: cycle cost off and on ($level)"
    renew_args=(--lockdir="$work/locks/auto_renew" --setting=auto_renew)
    [ "$level" = quick ] && renew_args+=(--quick)
    php -d extension="$NATIVELOCK_MODULE" tests/bench/fencing.php "${renew_args[@]}" >"$out/auto_renew.txt" ||
        log "auto_renew: the bench failed, see $out/auto_renew.txt"
fi

core_json=-
if [ -n "$core_bench" ]; then
    log "core micro-benchmarks"
    reps=5; min_time=0.5
    [ "$level" = quick ] && { reps=3; min_time=0.1; }
    NATIVELOCK_BENCH_LOCKDIR="$work/locks" "$core_bench" --benchmark_repetitions=$reps --benchmark_min_time=$min_time \
        --benchmark_format=json --benchmark_out="$out/core.json" >/dev/null 2>"$work/core.err" || cat "$work/core.err" >&2
    core_json="$out/core.json"
fi

log "writing $out/results.md and $out/chart.svg"
php tests/bench/report.php "$out/results.json" "$core_json" "$out" >/dev/null
if command -v gnuplot >/dev/null; then
    (cd "$out" && gnuplot chart.gp) || log "gnuplot failed"
fi

if [ "$out" = "$root/tests/bench/results" ]; then
    php tests/bench/readme.php README.md "$out/results.md" tests/bench/results/chart.svg
    log "README.md benchmarks section updated"
fi
cat "$out/results.md"
if [ -f "$out/bridge.txt" ]; then cat "$out/bridge.txt"; fi
if [ -f "$out/fencing.txt" ]; then cat "$out/fencing.txt"; fi
if [ -f "$out/auto_renew.txt" ]; then cat "$out/auto_renew.txt"; fi
