--TEST--
Filelock: try_lock() returns LOCKFILE_ERROR_ALREADY_LOCKED at once while another process holds it
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
$child = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('busy');
    echo \$l->try_lock(), \"\\n\"; fgets(STDIN);", [], $pipes);
echo 'child: ', nl_read_line($pipes[1]), "\n";
Filelock::$lockpath = $dir;
$lock = new Filelock('busy');
$t = microtime(true);
var_dump($lock->try_lock() === LOCKFILE_ERROR_ALREADY_LOCKED, $lock->is_locked());
var_dump(microtime(true) - $t < 1.0);
// A failed attempt leaves no temp file behind.
var_dump(array_values(array_diff(scandir($dir), ['.', '..'])));
fwrite($pipes[0], "bye\n");
proc_close($child);
?>
--EXPECT--
child: 1
bool(true)
bool(true)
bool(true)
array(1) {
  [0]=>
  string(9) "busy.lock"
}
