--TEST--
Filelock: a lock still held when the script ends normally is released (auto_release)
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
// The lock object stays referenced from a global until the very end of the request.
[$code, $out] = nl_run("Filelock::\$lockpath = '$dir'; \$GLOBALS['l'] = new Filelock('end');
    echo \$GLOBALS['l']->try_lock(), ' ', json_encode(file_exists('{$dir}end.lock'));");
echo "child: $out, exit $code\n";
var_dump(file_exists($dir . 'end.lock'));
?>
--EXPECT--
child: 1 true, exit 0
bool(false)
