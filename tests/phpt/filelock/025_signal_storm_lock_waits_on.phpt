--TEST--
Filelock: lock() without a timeout runs pcntl signal handlers while it waits and returns only once it holds the lock
--EXTENSIONS--
nativelock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$holder = nl_file_hold_in_child($dir, 'storm', 1.0);
$signals = 0;
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use (&$signals) { $signals++; });
$storm = nl_signal_storm();
$lock = new Filelock('storm');
$t = microtime(true);
$status = $lock->lock();
$waited = microtime(true) - $t;
nl_stop_child($storm);
pcntl_waitpid($holder, $st);
var_dump($status);
echo $waited >= 0.5 ? "waited for the holder\n" : "returned after $waited s\n";
echo $signals >= 5 ? "handlers ran during the wait\n" : "handlers ran $signals times\n";
$lock->unlock();
?>
--EXPECT--
int(1)
waited for the holder
handlers ran during the wait
