--TEST--
Filelock: lock($timeout) gives up with LOCKFILE_ERROR_ALREADY_LOCKED after about $timeout seconds
--EXTENSIONS--
nativelock
--FILE--
<?php
require __DIR__ . '/../../lib/nativelock_test.inc';
Filelock::$lockpath = nl_lockdir();
$holder = new Filelock('timeout');
var_dump($holder->try_lock());
$waiter = new Filelock('timeout');
$t = microtime(true);
var_dump($waiter->lock(0.3));
$elapsed = microtime(true) - $t;
var_dump($elapsed >= 0.29 && $elapsed < 3.0);
var_dump($waiter->lock(0));          // one attempt
try {
    $waiter->lock(-1);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    $waiter->lock(NAN);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$holder->unlock();
var_dump($waiter->lock(0.3));
?>
--EXPECT--
int(1)
int(-1)
bool(true)
int(-1)
ValueError: Filelock::lock(): Argument #1 ($timeout) must be null or a number of seconds >= 0
ValueError: Filelock::lock(): Argument #1 ($timeout) must be null or a number of seconds >= 0
int(1)
