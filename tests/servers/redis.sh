#!/usr/bin/env bash
# start | stop | restart | kill: a throwaway redis-server on loopback for the tests.
set -euo pipefail
. "$(dirname "$0")/env.sh"
dir="$NATIVELOCK_TEST_RUNDIR/redis"
pidfile="$dir/redis.pid"

is_up() { redis-cli -h "$NATIVELOCK_REDIS_HOST" -p "$NATIVELOCK_REDIS_PORT" ping 2>/dev/null | grep -q PONG; }

start() {
    mkdir -p "$dir"
    if is_up; then return 0; fi
    redis-server --bind 127.0.0.1 --port "$NATIVELOCK_REDIS_PORT" --dir "$dir" \
        --daemonize yes --pidfile "$pidfile" --logfile "$dir/redis.log" \
        --save '' --appendonly no --protected-mode yes --maxclients 2000
    for _ in $(seq 100); do is_up && return 0; sleep 0.05; done
    echo "redis-server did not start, see $dir/redis.log" >&2
    return 1
}

stop() {
    if [ -f "$pidfile" ]; then
        kill "$(cat "$pidfile")" 2>/dev/null || true
        for _ in $(seq 100); do is_up || break; sleep 0.05; done
        rm -f "$pidfile"
    fi
}

case "${1:-start}" in
    start) start ;;
    stop) stop ;;
    restart) stop; start ;;
    up) is_up ;;
    kill) [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null; rm -f "$pidfile"; sleep 0.1 ;;
    *) echo "usage: $0 start|stop|restart|kill|up" >&2; exit 2 ;;
esac
