#!/bin/bash
# CPU time, context switches and system calls per acquisition of the 8-process contention loop
# (bench.php's "contention": lock, read-increment-write a counter file, unlock), for one backend
# of tests/bench/lib/backends.php. A long and a short window are measured and subtracted, so
# that PHP's start-up and the workers' wait for the common start drop out.
#   tests/bench/contend_cpu.sh filelock [SECONDS] [PROCS]
#   tests/bench/contend_cpu.sh sf-flock
# Uses modules/nativelock.so (or $NATIVELOCK_MODULE) and `perf stat` (linux-perf).
set -euo pipefail
id=${1:?backend id, e.g. filelock or sf-flock}
seconds=${2:-3}
procs=${3:-8}
here=$(cd "$(dirname "$0")" && pwd)
module=${NATIVELOCK_MODULE:-$here/../../modules/nativelock.so}
work=$(mktemp -d /tmp/nl-contend-cpu.XXXXXX)
trap 'rm -rf "$work"' EXIT

# One window: prints "acquisitions task-clock-ms context-switches syscalls".
window() {
    local secs=$1 counter=$work/counter
    echo 0 > "$counter"
    cat > "$work/run.sh" <<RUN
#!/bin/bash
start=\$(php -r 'printf("%.6f", microtime(true) + 1.0);')
for k in \$(seq $procs); do
    php -d extension=$module $here/lib/worker.php contend $id cpu-$id $counter \$start $secs > $work/out.\$k &
done
wait
RUN
    perf stat -x, -o "$work/stat" -e task-clock,context-switches,raw_syscalls:sys_enter \
        -- bash "$work/run.sh"
    local n
    n=$(cat "$work"/out.* | php -r '$t = 0; while ($l = fgets(STDIN)) { $t += json_decode($l, true)["count"]; } echo $t;')
    awk -F, -v n="$n" '$3 == "task-clock" { t = $1 } $3 == "context-switches" { c = $1 }
        $3 == "raw_syscalls:sys_enter" { s = $1 } END { print n, t, c, s }' "$work/stat"
}

read -r n1 t1 c1 s1 < <(window 0.1)
read -r n2 t2 c2 s2 < <(window "$seconds")
awk -v id="$id" -v procs="$procs" -v secs="$seconds" -v n1="$n1" -v t1="$t1" -v c1="$c1" \
    -v s1="$s1" -v n2="$n2" -v t2="$t2" -v c2="$c2" -v s2="$s2" 'BEGIN {
    n = n2 - n1
    if (n <= 0) { print id ": no acquisitions"; exit 1 }
    printf "%s, %d processes, %s s: %.0f acquisitions/s; per acquisition: %.0f us CPU, %.1f context switches, %.1f system calls\n",
        id, procs, secs, n2 / secs, (t2 - t1) * 1000 / n, (c2 - c1) / n, (s2 - s1) / n
}'
