--TEST--
Filelock: lock($timeout) under a signal storm waits out its whole timeout (a handler that only sets a flag ends nothing)
--EXTENSIONS--
nativelock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$holder = nl_file_hold_in_child($dir, 'storm-timeout', 3.0);
$stop = false;
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use (&$stop) { $stop = true; });
$storm = nl_signal_storm();
$lock = new Filelock('storm-timeout');
$t = microtime(true);
$status = $lock->lock(1.0);
$waited = microtime(true) - $t;
nl_stop_child($storm);
var_dump($status, $stop);
echo $waited >= 0.95 && $waited < 2.9 ? "waited out the timeout\n" : "returned after $waited s\n";
posix_kill($holder, SIGKILL);
pcntl_waitpid($holder, $st);
?>
--EXPECT--
int(-1)
bool(true)
waited out the timeout
