#!/usr/bin/env bash
# Builds modules/nativelock.so in place (phpize, configure, make). Pass --clean to start over.
# configure runs again whenever config.m4 or the set of source files changed (config.m4 globs
# the sources at configure time).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=build/sources.stamp
sources=$( (cat config.m4 Makefile.frag; ls ext/core/*/*.cpp ext/php/*.cpp) | sha1sum | cut -d' ' -f1)
if [ "${1:-}" = "--clean" ] || [ ! -f Makefile ] || [ "$(cat "$stamp" 2>/dev/null)" != "$sources" ]; then
    [ -f Makefile ] && make distclean >/dev/null 2>&1 || true
    phpize >/dev/null 2>&1
    ./configure --enable-nativelock ${NATIVELOCK_CONFIGURE_FLAGS:-} >/dev/null
    echo "$sources" >"$stamp"
fi
make -j"$(nproc)" >/dev/null
echo "built $(pwd)/modules/nativelock.so"
