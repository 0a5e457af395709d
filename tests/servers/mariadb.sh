#!/usr/bin/env bash
# start | stop | restart | kill: a throwaway mariadbd in a temporary datadir on loopback, with
# the test database, a user allowed to KILL other sessions, the shared_locks table and its
# fencing counter table shared_locks_fences.
set -euo pipefail
. "$(dirname "$0")/env.sh"
dir="$NATIVELOCK_TEST_RUNDIR/mariadb"
datadir="$dir/data"
pidfile="$dir/mysqld.pid"

client() { mariadb --no-defaults -uroot --socket="$NATIVELOCK_MYSQL_SOCKET" "$@"; }
is_up() { mariadb-admin --no-defaults -uroot --socket="$NATIVELOCK_MYSQL_SOCKET" ping >/dev/null 2>&1; }

start() {
    mkdir -p "$dir"
    if is_up; then return 0; fi
    if [ ! -d "$datadir/mysql" ]; then
        mariadb-install-db --no-defaults --datadir="$datadir" --user="$(id -un)" \
            --auth-root-authentication-method=socket --skip-test-db >"$dir/install.log" 2>&1
    fi
    mariadbd --no-defaults --datadir="$datadir" --socket="$NATIVELOCK_MYSQL_SOCKET" \
        --port="$NATIVELOCK_MYSQL_PORT" --bind-address=127.0.0.1 --pid-file="$pidfile" \
        --user="$(id -un)" --skip-name-resolve --max-connections=1000 \
        --innodb-buffer-pool-size=32M --skip-log-bin --log-error="$dir/error.log" \
        >>"$dir/stdout.log" 2>&1 &
    for _ in $(seq 300); do is_up && break; sleep 0.1; done
    if ! is_up; then
        echo "mariadbd did not start, see $dir/error.log" >&2
        return 1
    fi
    # Idempotent, so that a datadir left by an interrupted start is completed.
    client <<SQL
CREATE DATABASE IF NOT EXISTS \`$NATIVELOCK_MYSQL_DATABASE\`;
CREATE USER IF NOT EXISTS '$NATIVELOCK_MYSQL_USER'@'127.0.0.1' IDENTIFIED BY '$NATIVELOCK_MYSQL_PASSWORD';
CREATE USER IF NOT EXISTS '$NATIVELOCK_MYSQL_USER'@'localhost' IDENTIFIED BY '$NATIVELOCK_MYSQL_PASSWORD';
GRANT ALL PRIVILEGES ON *.* TO '$NATIVELOCK_MYSQL_USER'@'127.0.0.1';
GRANT ALL PRIVILEGES ON *.* TO '$NATIVELOCK_MYSQL_USER'@'localhost';
CREATE TABLE IF NOT EXISTS \`$NATIVELOCK_MYSQL_DATABASE\`.\`shared_locks\` (
  \`name\` varchar(64) NOT NULL,
  \`connection_id\` bigint(20) NOT NULL,
  \`created\` bigint(20) NOT NULL,
  \`ttl\` bigint(20) NOT NULL,
  \`lock_acquired\` tinyint(1) NOT NULL,
  UNIQUE KEY \`shared_locks_ix1\` (\`name\`)
) ENGINE=MyISAM DEFAULT CHARSET=latin1;
CREATE TABLE IF NOT EXISTS \`$NATIVELOCK_MYSQL_DATABASE\`.\`shared_locks_fences\` (
  \`name\` varchar(64) NOT NULL PRIMARY KEY,
  \`fence\` bigint unsigned NOT NULL
) ENGINE=MyISAM DEFAULT CHARSET=latin1;
SQL
}

stop() {
    if [ -f "$pidfile" ]; then
        local pid
        pid=$(cat "$pidfile")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
}

case "${1:-start}" in
    start) start ;;
    stop) stop ;;
    restart) stop; start ;;
    up) is_up ;;
    kill) [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null; sleep 0.2 ;;
    *) echo "usage: $0 start|stop|restart|kill|up" >&2; exit 2 ;;
esac
