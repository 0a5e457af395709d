--TEST--
Filelock: a holder killed with SIGKILL is broken by the next try_lock (and is_locked() says free)
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
$child = nl_spawn("Filelock::\$lockpath = '$dir'; \$l = new Filelock('crash');
    echo \$l->try_lock(), ' ', getmypid(), \"\\n\"; sleep(60);", [], $pipes);
[$r, $pid] = explode(' ', nl_read_line($pipes[1]));
echo "child got: $r\n";
Filelock::$lockpath = $dir;
$lock = new Filelock('crash');
var_dump($lock->try_lock());          // alive: refused
proc_terminate($child, 9);            // SIGKILL
proc_close($child);                   // reaped
var_dump(file_exists($dir . 'crash.lock'));  // the dead owner's file is still there
var_dump($lock->is_locked());         // but provably dead
var_dump($lock->try_lock());          // broken and taken
var_dump(unserialize(file_get_contents($dir . 'crash.lock'))['mypid'] === getmypid());
?>
--EXPECT--
child got: 1
int(-1)
bool(true)
bool(false)
int(1)
bool(true)
