#!/usr/bin/env bash
# One command for a fresh Debian 12 machine: installs the packages, builds and installs the
# extension (enabled for the CLI and php-fpm), then runs a demo of all three classes against
# redis-server and mariadbd that it starts itself on loopback (and stops afterwards).
# Run it as root (a minimal Debian 12 has no sudo); CI runs it too (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh --clean
make install >/dev/null
ext_dir=$(php -r 'echo ini_get("extension_dir");')
echo "installed $ext_dir/nativelock.so"
if command -v phpenmod >/dev/null; then
    printf '; priority=30\nextension=nativelock\n' >/etc/php/8.2/mods-available/nativelock.ini
    phpenmod -v 8.2 nativelock
    echo "enabled in /etc/php/8.2/mods-available/nativelock.ini (phpenmod)"
fi
# Not `| head`: under pipefail, head closing the pipe early made php exit 255 (SIGPIPE).
info=$(php --ri nativelock)
printf '%s\n' "$info" | sed -n 1,8p
exec scripts/demo.sh
