--TEST--
Filelock: a lock held when a memory_limit fatal error ends the script is released
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
[$code, $out, $err] = nl_run("Filelock::\$lockpath = '$dir'; \$l = new Filelock('oom');
    echo \$l->try_lock(), \"\\n\"; ini_set('memory_limit', '8M'); \$a = []; while (true) \$a[] = str_repeat('x', 4096);");
echo "child: ", strtok($out, "\n"), ", exit $code, ", str_contains($out . $err, 'Allowed memory size') ? 'fatal' : 'no fatal', "\n";
var_dump(file_exists($dir . 'oom.lock'));
?>
--EXPECT--
child: 1, exit 255, fatal
bool(false)
