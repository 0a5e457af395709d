--TEST--
Filelock: a signal handler that throws ends lock() with that exception; the lock is not taken and the object still works
--EXTENSIONS--
nativelock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
$dir = nl_lockdir();
Filelock::$lockpath = $dir;
$holder = nl_file_hold_in_child($dir, 'storm-throw', 1.5);
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () { throw new RuntimeException('stop waiting'); });
$lock = new Filelock('storm-throw');
$me = getmypid();
$sender = pcntl_fork();
if ($sender === 0) { usleep(200000); posix_kill($me, SIGUSR1); exit(0); }
$t = microtime(true);
try {
    $lock->lock();
    echo "lock() returned\n";
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$waited = microtime(true) - $t;
echo $waited < 1.4 ? "ended by the handler\n" : "ended after $waited s\n";
pcntl_waitpid($sender, $st);
pcntl_waitpid($holder, $st);
var_dump($lock->try_lock());
$lock->unlock();
?>
--EXPECT--
RuntimeException: stop waiting
ended by the handler
int(1)
