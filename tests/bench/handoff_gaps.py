#!/usr/bin/env python3
"""Where a contended lock's time goes, from system-call tracepoints of every process.

For nativelock's Filelock the lock is taken by a successful linkat() and given up by unlink();
for Symfony FlockStore by flock(LOCK_EX) returning 0 and flock(LOCK_UN). (Not for the original
PHP class: it takes the lock with link(), and unlinks a temp file at every attempt.) Splits
each acquisition into the hold (taken -> release call) and the gap before it (the previous
release call -> taken), the gap told apart by who took the lock: another process (a hand-off)
or the releaser itself (a re-take: its next lock() came before anyone else's).

Record while N workers contend (tests/bench/lib/worker.php contend ...), then read:
  perf record -a -e syscalls:sys_enter_unlink -e syscalls:sys_exit_linkat -o F -- sleep 2
  perf record -a -e syscalls:sys_enter_flock -e syscalls:sys_exit_flock -o F -- sleep 2
  tests/bench/handoff_gaps.py F
The trace holds every process's calls: run nothing else that links, unlinks or flocks.
"""
import re
import subprocess
import sys

LOCK_EX, LOCK_UN = 2, 8
LINE = re.compile(r"\s*(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)")


def events(path):
    out = subprocess.run(
        ["perf", "script", "-i", path, "-F", "pid,time,event,trace"],
        capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            yield float(m.group(2)), int(m.group(1)), m.group(3), m.group(4).strip()


def stats(xs):
    if not xs:
        return "n=0"
    xs = sorted(xs)
    n = len(xs)
    pick = lambda p: xs[min(n - 1, int(p * n))] * 1e6
    return "n=%d mean %.0f, p50 %.0f, p90 %.0f, p99 %.0f us" % (
        n, sum(xs) / n * 1e6, pick(0.5), pick(0.9), pick(0.99))


def main(path):
    handoffs, retakes, holds = [], [], []
    released = None  # (time, pid) of the last release call
    holder = None  # (time, pid) of the last take
    flock_cmd = {}
    failed = 0
    for t, pid, event, trace in sorted(events(path)):
        taken = release = False
        if event.endswith("sys_enter_unlink"):
            release = True
        elif event.endswith("sys_exit_linkat"):
            taken = trace.endswith("0x0")
            failed += not taken
        elif event.endswith("sys_enter_flock"):
            cmd = int(re.search(r"cmd: (0x[0-9a-f]+)", trace).group(1), 16)
            flock_cmd[pid] = cmd
            release = bool(cmd & LOCK_UN)
        elif event.endswith("sys_exit_flock"):
            taken = bool(flock_cmd.get(pid, 0) & LOCK_EX) and trace.endswith("0x0")
        if release:
            if holder and holder[1] == pid:
                holds.append(t - holder[0])
            released, holder = (t, pid), None
        elif taken:
            if released:
                (retakes if released[1] == pid else handoffs).append(t - released[0])
            holder, released = (t, pid), None
    print("hold (taken -> release call):", stats(holds))
    print("gap, handed to another process:", stats(handoffs))
    print("gap, re-taken by the releaser:", stats(retakes))
    gaps = handoffs + retakes
    if gaps:
        print("mean gap %.0f us; re-takes %.0f %%; failed linkat %d" % (
            sum(gaps) / len(gaps) * 1e6, 100.0 * len(retakes) / len(gaps), failed))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
