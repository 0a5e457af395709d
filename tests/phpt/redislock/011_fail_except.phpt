--TEST--
RedisLock: FAIL_EXCEPT throws RedisLockFailException('Could not get lock "NAME"') at once
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
$name = nl_lock_name('except');
$held = RedisLock::createAndLock($name, 10);
$t = microtime(true);
try {
    RedisLock::createAndLock($name, 10);
} catch (RedisLockFailException $e) {
    echo get_class($e), ': ', str_replace($name, 'NAME', $e->getMessage()), "\n";
}
var_dump(microtime(true) - $t < 1.0);
// Same object locking twice: the key exists (ours), so it fails like the original.
try {
    $held->lock();
} catch (RedisLockFailException $e) {
    echo str_replace($name, 'NAME', $e->getMessage()), "\n";
}
$held->release();
var_dump(RedisLock::createAndLock($name, 10) instanceof RedisLock);
?>
--EXPECT--
RedisLockFailException: Could not get lock "NAME"
bool(true)
Could not get lock "NAME"
bool(true)
