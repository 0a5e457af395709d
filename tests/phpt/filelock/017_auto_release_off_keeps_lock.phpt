--TEST--
Filelock: with nativelock.auto_release=0 a lock outlives the request, like the original
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
?>
--EXPECT--
child: 1
bool(true)
