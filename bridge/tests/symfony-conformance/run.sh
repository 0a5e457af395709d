#!/usr/bin/env bash
# Runs Symfony 5.4's own Lock store conformance suite (AbstractStoreTestCase and the Blocking,
# Expiring, SharedLock and Unserializable traits) against the bridge's three stores.
#
# Symfony's test files are NOT part of this repository: they are read from a local checkout of
# symfony/symfony (SYMFONY_REPO, default /work/.mirror/symfony+symfony/repo, a bare or normal
# git repository) with `git show 5.4:<path>` into a temporary directory at run time. Only our
# small test classes (*ConformanceTest.php) are committed.
#
#   bridge/tests/symfony-conformance/run.sh              # all three stores
#   bridge/tests/symfony-conformance/run.sh Redis        # one store
#   bridge/tests/symfony-conformance/run.sh --available  # exit 0 if the checkout is there
#
# Needs the test servers (tests/servers/{redis,mariadb}.sh) and the built module
# (NATIVELOCK_MODULE, default modules/nativelock.so). Prints counts per store and per trait, and
# ends with "N passed, N failed".
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
repo="${SYMFONY_REPO:-/work/.mirror/symfony+symfony/repo}"
ref="${SYMFONY_REF:-5.4}"
src=src/Symfony/Component/Lock/Tests/Store
files="AbstractStoreTestCase BlockingStoreTestTrait ExpiringStoreTestTrait SharedLockStoreTestTrait UnserializableTestTrait"

available() { git -C "$repo" rev-parse --verify -q "$ref^{commit}" >/dev/null 2>&1; }
if [ "${1:-}" = "--available" ]; then available; exit; fi
if ! available; then
    echo "no symfony/symfony checkout with ref $ref at $repo (set SYMFONY_REPO)"
    echo "0 passed, 1 failed"
    exit 1
fi

. "$root/tests/servers/env.sh"
module="${NATIVELOCK_MODULE:-$root/modules/nativelock.so}"
tmp=$(mktemp -d /tmp/nativelock-sf-conformance.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for f in $files; do
    git -C "$repo" show "$ref:$src/$f.php" >"$tmp/$f.php" || { echo "cannot read $src/$f.php at $ref"; echo "0 passed, 1 failed"; exit 1; }
done
echo "Symfony $ref ($(git -C "$repo" rev-parse --short "$ref")): $files"

stores="${1:-Redis Filelock Mysql MysqlPdo}"
passed=0
failed=0
for store in $stores; do
    junit="$tmp/$store.xml"
    NATIVELOCK_SF_TESTS="$tmp" php -d extension="$module" /usr/bin/phpunit --bootstrap "$here/bootstrap.php" \
        --log-junit "$junit" "$here/${store}StoreConformanceTest.php" >"$tmp/$store.log" 2>&1
    if [ ! -f "$junit" ]; then
        echo "== ${store}Store: phpunit did not run"; tail -30 "$tmp/$store.log"
        failed=$((failed + 1)); continue
    fi
    # Counts per trait: a test method belongs to the file (of the five) that declares it.
    php -r '
        [$junit, $dir, $store] = [$argv[1], $argv[2], $argv[3]];
        $owner = [];
        foreach (glob("$dir/*.php") as $file) {
            preg_match_all("/function (test\\w+)/", file_get_contents($file), $m);
            foreach ($m[1] as $t) { $owner[$t] = basename($file, ".php"); }
        }
        $by = []; $p = $f = 0; $bad = [];
        foreach (simplexml_load_file($junit)->xpath("//testcase") as $tc) {
            $name = preg_replace("/ with data set.*/", "", (string) $tc["name"]);
            $trait = $owner[$name] ?? "own";
            $ok = !isset($tc->failure) && !isset($tc->error) && !isset($tc->skipped);
            $by[$trait] ??= [0, 0];
            $by[$trait][$ok ? 0 : 1]++;
            if ($ok) { $p++; } else { $f++; $bad[] = "   not ok $trait::$name"; }
        }
        ksort($by);
        $parts = [];
        foreach ($by as $trait => $c) { $parts[] = sprintf("%s %d/%d", $trait, $c[0], $c[0] + $c[1]); }
        printf("== %sStore: %d passed, %d failed (%s)\n", $store, $p, $f, implode(", ", $parts));
        foreach ($bad as $line) { echo $line, "\n"; }
        echo "COUNTS $p $f\n";
    ' "$junit" "$tmp" "$store" >"$tmp/$store.counts"
    grep -v '^COUNTS' "$tmp/$store.counts"
    read -r _ p f < <(grep '^COUNTS' "$tmp/$store.counts")
    [ "${f:-1}" != 0 ] && grep -E "^[0-9]+\) |Failed|Exception" -A3 "$tmp/$store.log" | head -60
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-1}))
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
