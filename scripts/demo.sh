#!/usr/bin/env bash
# A demo of Filelock, RedisLock and SharedLock across processes, against servers started here.
set -euo pipefail
cd "$(dirname "$0")/.."
# Ports of their own, so the demo never collides with a test run.
export NATIVELOCK_TEST_RUNDIR="${NATIVELOCK_DEMO_RUNDIR:-/tmp/nativelock-demo-servers}"
export NATIVELOCK_REDIS_PORT="${NATIVELOCK_DEMO_REDIS_PORT:-16479}"
export NATIVELOCK_MYSQL_PORT="${NATIVELOCK_DEMO_MYSQL_PORT:-13406}"
export NATIVELOCK_MYSQL_SOCKET="$NATIVELOCK_TEST_RUNDIR/mariadb/mysqld.sock"
. tests/servers/env.sh
php_cmd=(php)
if ! php -m | grep -qx nativelock; then
    # Not installed (yet): use the module built in this tree, in the demo's children too.
    export NATIVELOCK_MODULE="$(pwd)/modules/nativelock.so"
    php_cmd=(php -d "extension=$NATIVELOCK_MODULE")
fi

tests/servers/redis.sh start
tests/servers/mariadb.sh start
trap 'tests/servers/redis.sh stop; tests/servers/mariadb.sh stop' EXIT

for demo in scripts/demo/[0-9]*.php; do
    echo
    echo "### $(basename "$demo" .php)"
    "${php_cmd[@]}" "$demo"
done
echo
echo "demo finished"
