--TEST--
RedisLock: FAIL_RETURN returns false (createAndLock() and lock())
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
$name = nl_lock_name('return');
$held = RedisLock::createAndLock($name, 10, RedisLock::FAIL_RETURN);
var_dump($held instanceof RedisLock);
var_dump(RedisLock::createAndLock($name, 10, RedisLock::FAIL_RETURN));
$l = RedisLock::create($name, 10, RedisLock::FAIL_RETURN);
var_dump($l->lock());
// With an explicit wait budget, FAIL_RETURN waits and then returns false.
$t = microtime(true);
var_dump($l->lock(0.3));
$w = microtime(true) - $t;
var_dump($w >= 0.29 && $w < 3);
$held->release();
var_dump($l->lock());
$l->release();
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
