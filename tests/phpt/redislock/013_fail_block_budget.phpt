--TEST--
RedisLock: FAIL_BLOCK gives up after the original's ~15 s with 'after 5 tries.'; lock($maxWait) overrides the budget
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
$name = nl_lock_name('block');
$held = RedisLock::createAndLock($name, 60);
$t = microtime(true);
try {
    RedisLock::createAndLock($name, 10, RedisLock::FAIL_BLOCK);
} catch (RedisLockFailException $e) {
    echo str_replace($name, 'NAME', $e->getMessage()), "\n";
}
$w = microtime(true) - $t;
echo $w >= 14.9 && $w < 20 ? "waited about 15 s\n" : "waited $w s\n";
$t = microtime(true);
try {
    RedisLock::create($name, 10, RedisLock::FAIL_BLOCK)->lock(0.5);
} catch (RedisLockFailException $e) {
    echo str_replace($name, 'NAME', $e->getMessage()), "\n";
}
$w = microtime(true) - $t;
echo $w >= 0.49 && $w < 3 ? "waited about 0.5 s\n" : "waited $w s\n";
try {
    RedisLock::create($name, 10, RedisLock::FAIL_BLOCK)->lock(-1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
$held->release();
?>
--EXPECT--
Could not get lock "NAME" after 5 tries.
waited about 15 s
Could not get lock "NAME" after 5 tries.
waited about 0.5 s
RedisLock::lock(): Argument #1 ($maxWait) must be null or a number of seconds >= 0
