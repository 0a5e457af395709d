#!/usr/bin/env bash
# Regenerates ext/php/*_arginfo.h from stubs/*.stub.php with the gen_stub.php that phpize
# copies into build/, offline: Debian's php-parser stands in for the tarball it would download.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/gen_stub.php ] || phpize >/dev/null
parser_version=$(grep -o 'version = "[0-9.]*"' build/gen_stub.php | head -1 | cut -d'"' -f2)
mkdir -p "build/PHP-Parser-$parser_version/lib"
ln -sfn /usr/share/php/PhpParser "build/PHP-Parser-$parser_version/lib/PhpParser"
for stub in stubs/*.stub.php; do
    name=$(basename "$stub" .stub.php)
    php build/gen_stub.php -f "$stub" >/dev/null
    mv "stubs/${name}_arginfo.h" "ext/php/${name}_arginfo.h"
    echo "ext/php/${name}_arginfo.h"
done
