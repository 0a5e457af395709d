--TEST--
RedisLock: lock($maxWait) under a signal storm waits its whole budget (signals neither end nor restart it)
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
$name = nl_lock_name('storm-maxwait');
$holder = nl_redis_hold_in_child($name, 8.0);
$signals = 0;
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use (&$signals) { $signals++; });
$storm = nl_signal_storm();
$t = microtime(true);
$got = RedisLock::create($name, 30, RedisLock::FAIL_RETURN)->lock(2.0);
$waited = microtime(true) - $t;
nl_stop_child($storm);
var_dump($got);
echo $waited >= 1.95 && $waited < 6 ? "waited the budget\n" : "waited $waited s\n";
echo $signals >= 5 ? "handlers ran during the wait\n" : "handlers ran $signals times\n";
nl_stop_child($holder);
nl_redis()->del('redislock:' . $name);
?>
--EXPECT--
bool(false)
waited the budget
handlers ran during the wait
