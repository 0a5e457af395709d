--TEST--
Filelock: a lock held by a process running the original PHP class excludes the extension
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
$lib = var_export(realpath(__DIR__ . '/../../lib/original_filelock.inc'), true);
// The child runs WITHOUT the extension: plain userland code, as before the migration.
$child = nl_spawn("require $lib; OriginalFilelock::\$lockpath = '$dir';
    \$l = new OriginalFilelock('shared job'); echo \$l->try_lock(), \"\\n\";
    fgets(STDIN); \$l->unlock(); echo \"released\\n\"; fgets(STDIN);", [], $pipes, false);
echo 'original: ', nl_read_line($pipes[1]), "\n";
Filelock::$lockpath = $dir;
$lock = new Filelock('shared job');
var_dump($lock->is_locked(), $lock->try_lock());
var_dump($lock->lock(0.2));
fwrite($pipes[0], "release\n");
echo nl_read_line($pipes[1]), "\n";
var_dump($lock->try_lock());
fwrite($pipes[0], "bye\n");
proc_close($child);
$lock->unlock();
?>
--EXPECT--
original: 1
bool(true)
int(-1)
int(-1)
released
int(1)
