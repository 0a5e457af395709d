#!/usr/bin/env bash
# Builds modules/nativelock.so in place (phpize, configure, make). Pass --clean to start over.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--clean" ] || [ ! -f Makefile ] || [ config.m4 -nt Makefile ]; then
    [ -f Makefile ] && make distclean >/dev/null 2>&1 || true
    phpize >/dev/null
    ./configure --enable-nativelock ${NATIVELOCK_CONFIGURE_FLAGS:-} >/dev/null
fi
make -j"$(nproc)" >/dev/null
echo "built $(pwd)/modules/nativelock.so"
