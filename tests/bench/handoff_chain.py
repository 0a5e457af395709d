#!/usr/bin/env python3
"""Splits RedisLock's hand-off chain under contention into its parts, from a system-wide
`perf trace` of contend_ab.php (see tests/bench/results/contention-profile.md):

    perf trace -a -o /tmp/pt.txt -e sendto,read,poll,openat,write,writev,epoll_wait -- \
        php tests/bench/contend_ab.php --backend=redislock --procs=2 --seconds=0.5 --rounds=1
    python3 tests/bench/handoff_chain.py /tmp/pt.txt

Per hand-off: the holder's release is sent; redis-server answers it and writes the grant to
another client, the waiter's subscriber (a pub/sub message); the waiter's poll() returns; the
waiter works (the counter file) and sends its own release. Prints the medians in ms (tracing
slows every system call: compare the parts, not the totals with an untraced run).
"""
import bisect
import re
import statistics
import sys

LINE = re.compile(r"\s*([\d.]+) \(\s*([\d.]*)\s*(?:ms)?\): (\S+)/(\d+)\s+(.*)")
FD = re.compile(r"fd: (\d+)")


def main(path):
    events = []
    for line in open(path, errors="replace"):
        m = LINE.match(line)
        if m:
            events.append((float(m.group(1)), float(m.group(2) or 0), m.group(3), m.group(4),
                           m.group(5)))
    events.sort(key=lambda e: e[0])
    sends, wakes, grants = [], [], []  # grants: (written at, holder's send)
    last_read_fd, last_read_at, replied = None, None, False
    for start, duration, comm, pid, call in events:
        if comm.startswith("php"):
            if call.startswith("sendto") and "[continued]" not in call:
                sends.append((start, pid))
            elif "[continued]: poll())" in call and "= 1" in call:
                wakes.append((start + duration, pid))
        elif comm == "redis-server":
            fd = FD.search(call)
            fd = fd and fd.group(1)
            if call.startswith("read") and "[continued]" not in call:
                last_read_fd, last_read_at, replied = fd, start, False
            elif call.startswith(("write", "writev")) and last_read_fd is not None:
                if fd == last_read_fd:
                    replied = True
                elif replied:
                    # A reply to the caller, then a write to another client: a release that
                    # published a grant to a waiter's subscriber.
                    i = bisect.bisect_right(sends, (last_read_at, "~")) - 1
                    if i >= 0:
                        grants.append((start, sends[i]))
                    last_read_fd = None
    wakes.sort()
    to_grant, to_wake, to_next = [], [], []
    for n, (granted, (sent, holder)) in enumerate(grants):
        k = bisect.bisect_left(wakes, (granted, ""))
        woken = next((w for w in wakes[k:k + 8] if w[1] != holder), None)
        if woken is None or woken[0] - granted > 1.0 or granted - sent > 1.0:
            continue
        nxt = next((g[1] for g in grants[n + 1:n + 4] if g[1][1] == woken[1]), None)
        if nxt is None or nxt[0] < woken[0]:
            continue
        to_grant.append(granted - sent)
        to_wake.append(woken[0] - granted)
        to_next.append(nxt[0] - woken[0])
    if not to_grant:
        sys.exit("no hand-off found in " + path)
    med = statistics.median
    print(f"{len(to_grant)} hand-offs (medians, ms): release sent -> grant written "
          f"{med(to_grant):.3f}; grant written -> waiter awake {med(to_wake):.3f}; "
          f"waiter awake -> its release sent {med(to_next):.3f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: handoff_chain.py PERF_TRACE_OUTPUT")
    main(sys.argv[1])
