--TEST--
SharedLock: lock() runs pcntl signal handlers while it waits and keeps waiting; a handler that throws ends it with that exception
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
sl_configure();
$name = sl_name();
function hold_for(string $name, float $seconds) {
    $p = nl_spawn(sl_configure_code() . '
        ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 30);
        echo "held\n"; usleep(' . (int) ($seconds * 1e6) . ');', [], $pipes);
    nl_read_line($pipes[1]);
    return $p;
}
pcntl_async_signals(true);
$signals = 0;
pcntl_signal(SIGALRM, function () use (&$signals) { $signals++; });
foreach (['no limit' => INF, 'with a deadline' => 10] as $label => $timeout) {
    $holder = hold_for($name, 1.0);
    $storm = nl_signal_storm();
    $signals = 0;
    $t = microtime(true);
    $h = SharedLock::lock($name, $timeout, 30);
    $waited = microtime(true) - $t;
    nl_stop_child($storm);
    echo "$label: ", $waited >= 0.5 ? 'waited for the holder' : "returned after $waited s",
        $signals >= 5 ? ', handlers ran' : ", handlers ran $signals times", "\n";
    $h->release();
    proc_close($holder);
}
$holder = hold_for($name, 1.5);
pcntl_signal(SIGUSR1, function () { throw new RuntimeException('stop waiting'); });
$me = getmypid();
$sender = pcntl_fork();
if ($sender === 0) { usleep(200000); posix_kill($me, SIGUSR1); exit(0); }
$t = microtime(true);
try {
    SharedLock::lock($name, 10, 30);
    echo "lock() returned\n";
} catch (RuntimeException $e) {
    echo get_class($e), ': ', $e->getMessage(), microtime(true) - $t < 1.4 ? ', at once' : ', late', "\n";
}
pcntl_waitpid($sender, $st);
proc_close($holder);
$h = SharedLock::lock($name, 5, 30);  // the session still works
echo "locked again\n";
$h->release();
?>
--EXPECT--
no limit: waited for the holder, handlers ran
with a deadline: waited for the holder, handlers ran
RuntimeException: stop waiting, at once
locked again
