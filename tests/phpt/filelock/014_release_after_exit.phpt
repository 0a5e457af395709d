--TEST--
Filelock: a lock held when the script calls exit() is released
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
[$code, $out] = nl_run("Filelock::\$lockpath = '$dir'; \$l = new Filelock('exit');
    echo \$l->try_lock(); exit(3);");
echo "child: $out, exit $code\n";
var_dump(file_exists($dir . 'exit.lock'));
?>
--EXPECT--
child: 1, exit 3
bool(false)
