#!/usr/bin/env bash
# The php-fpm harness: starts php-fpm on loopback with ONE worker (so every request reuses the
# same process, its module globals and its pooled connections) and the built nativelock module,
# serving tests/fpm/www/; then runs every tests/fpm/cases/*.php with the CLI. Cases print
# "ok - …" / "not ok - …" lines; the last line here is "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
. tests/servers/env.sh
module="${NATIVELOCK_MODULE:-$root/modules/nativelock.so}"
fpm_bin=$(command -v php-fpm8.2 || command -v php-fpm || echo /usr/sbin/php-fpm8.2)
port="${NATIVELOCK_FPM_PORT:-19000}"
dir=$(mktemp -d /tmp/nativelock-fpm.XXXXXX)

# The fpm SAPI's own ini files, minus any that would load an installed nativelock.
mkdir -p "$dir/conf.d"
for ini in /etc/php/8.2/fpm/conf.d/*.ini; do
    [ -e "$ini" ] || continue
    grep -qs nativelock "$ini" || ln -s "$ini" "$dir/conf.d/"
done

user_lines=""
run_as_root=""
if [ "$(id -u)" = 0 ]; then
    user_lines=$'user = root\ngroup = root'
    run_as_root="-R"
fi
cat >"$dir/php-fpm.conf" <<CONF
[global]
pid = $dir/fpm.pid
error_log = $dir/fpm.log
daemonize = no

[test]
$user_lines
listen = 127.0.0.1:$port
pm = static
pm.max_children = 1
pm.max_requests = 0
catch_workers_output = yes
clear_env = no
php_admin_value[error_log] = $dir/php-errors.log
php_admin_flag[log_errors] = on
php_admin_flag[display_errors] = off
CONF

PHP_INI_SCAN_DIR="$dir/conf.d" "$fpm_bin" $run_as_root -y "$dir/php-fpm.conf" \
    -d extension="$module" -d "nativelock.lockpath=$dir/" >"$dir/fpm.stdout" 2>&1 &
fpm_pid=$!
cleanup() {
    kill "$fpm_pid" 2>/dev/null
    wait "$fpm_pid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 100); do
    (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break
    sleep 0.05
done

export NATIVELOCK_FPM_PORT="$port" NATIVELOCK_FPM_WWW="$root/tests/fpm/www" NATIVELOCK_FPM_DIR="$dir"
passed=0
failed=0
for case in tests/fpm/cases/*.php; do
    [ -e "$case" ] || continue
    echo "# $case"
    out=$(php -d extension="$module" "$case" 2>&1)
    status=$?
    echo "$out"
    passed=$((passed + $(grep -c '^ok ' <<<"$out")))
    failed=$((failed + $(grep -c '^not ok ' <<<"$out")))
    if [ "$status" != 0 ] || ! grep -qE '^(ok|not ok) ' <<<"$out"; then
        echo "not ok - $case exited with $status or reported nothing"
        failed=$((failed + 1))
    fi
done
if [ "$failed" != 0 ]; then
    echo "# php-fpm log:"
    tail -30 "$dir/fpm.log" "$dir/php-errors.log" 2>/dev/null
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
