--TEST--
Filelock: a lock held when an uncaught exception ends the script is released
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
[$code, $out, $err] = nl_run("Filelock::\$lockpath = '$dir'; \$l = new Filelock('exc');
    echo \$l->try_lock(); throw new RuntimeException('boom');");
echo "child: ", strtok($out, "\n"), ", exit $code, ", str_contains($out . $err, 'Uncaught RuntimeException: boom') ? 'uncaught' : 'no trace', "\n";
var_dump(file_exists($dir . 'exc.lock'));
?>
--EXPECT--
child: 1, exit 255, uncaught
bool(false)
