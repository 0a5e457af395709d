--TEST--
Filelock: with nativelock.auto_release=0 a lock outlives the request, like the original; the setting counts as it is at request end (as for RedisLock)
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
[$code, $out] = nl_run("ini_set('nativelock.auto_release', '0'); Filelock::\$lockpath = '$dir';
    function take() { \$l = new Filelock('kept'); return \$l->try_lock(); } echo take();");
echo "child: $out\n";
var_dump(file_exists($dir . 'kept.lock'));
// Taken while on, turned off before the request ends: kept.
[$code, $out] = nl_run("Filelock::\$lockpath = '$dir'; \$l = new Filelock('keptlate'); echo \$l->try_lock();
    ini_set('nativelock.auto_release', '0');");
echo "child: $out\n";
var_dump(file_exists($dir . 'keptlate.lock'));
?>
--EXPECT--
child: 1
bool(true)
child: 1
bool(true)
