--TEST--
RedisLock: FAIL_BLOCK (createAndLock) runs pcntl signal handlers while it waits and keeps waiting until the holder releases
--EXTENSIONS--
nativelock
igbinary
redis
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('storm-block');
$holder = nl_redis_hold_in_child($name, 1.0);
$signals = 0;
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use (&$signals) { $signals++; });
$storm = nl_signal_storm();
$t = microtime(true);
$lock = RedisLock::createAndLock($name, 30, RedisLock::FAIL_BLOCK);
$waited = microtime(true) - $t;
nl_stop_child($storm);
pcntl_waitpid($holder, $status);
var_dump($lock instanceof RedisLock, $lock->isAcquired());
echo $waited >= 0.5 && $waited < 10 ? "waited for the holder\n" : "waited $waited s\n";
echo $signals >= 5 ? "handlers ran during the wait\n" : "handlers ran $signals times\n";
$lock->release();
?>
--EXPECT--
bool(true)
bool(true)
waited for the holder
handlers ran during the wait
