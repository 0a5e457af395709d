--TEST--
RedisLock: lock(INF) (no deadline) with a handler that only sets a stop flag keeps waiting and acquires on release
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
$name = nl_lock_name('storm-flag');
$holder = nl_redis_hold_in_child($name, 1.0);
$stop = false;
pcntl_async_signals(true);
pcntl_signal(SIGTERM, function () use (&$stop) { $stop = true; });
$storm = nl_signal_storm(SIGTERM);
$lock = RedisLock::create($name, 30, RedisLock::FAIL_EXCEPT);
var_dump($lock->lock(INF));
nl_stop_child($storm);
pcntl_waitpid($holder, $status);
var_dump($stop, $lock->isAcquired());
$lock->release();
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
