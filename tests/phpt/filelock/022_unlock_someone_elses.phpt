--TEST--
Filelock: unlock() of a lock now owned by someone else leaves it; unlock(true) forces
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$mine = new Filelock('taken-over');
var_dump($mine->try_lock());
// Someone force-removes our lock and another process takes it.
unlink($dir . 'taken_over.lock');
$child = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('taken-over');
    echo \$l->try_lock(), \"\\n\"; fgets(STDIN);", [], $pipes);
echo 'other: ', nl_read_line($pipes[1]), "\n";
$mine->unlock();                                  // not ours any more: left alone
var_dump(file_exists($dir . 'taken_over.lock'));
$bystander = new Filelock('taken-over');
$bystander->unlock();                             // never held: no-op
var_dump(file_exists($dir . 'taken_over.lock'));
$bystander->unlock(true);                         // forced, like the original
var_dump(file_exists($dir . 'taken_over.lock'));
fwrite($pipes[0], "bye\n");
proc_close($child);
?>
--EXPECT--
int(1)
other: 1
bool(true)
bool(true)
bool(false)
