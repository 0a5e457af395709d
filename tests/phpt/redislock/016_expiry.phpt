--TEST--
RedisLock: a lock nobody releases expires at its timeout and can then be taken
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('expiry');
// Held by a process that is killed: only the TTL frees it.
$child = nl_spawn(nl_redis_prelude() . '
    RedisLock::setRedis(nl_redis_uri());
    RedisLock::createAndLock(' . var_export($name, true) . ', 3);
    echo "held\n";
    sleep(60);
', [], $pipes);
echo nl_read_line($pipes[1], 60), "\n";
proc_terminate($child, 9);
proc_close($child);
var_dump(RedisLock::createAndLock($name, 5, RedisLock::FAIL_RETURN));
$t = microtime(true);
$lock = RedisLock::createAndLock($name, 5, RedisLock::FAIL_BLOCK);
$w = microtime(true) - $t;
var_dump($lock instanceof RedisLock, $w > 0.2 && $w < 6);
$lock->release();
?>
--EXPECT--
held
bool(false)
bool(true)
bool(true)
