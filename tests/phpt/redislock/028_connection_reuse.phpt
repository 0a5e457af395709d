--TEST--
RedisLock: one pooled connection serves every lock of a process; the FAIL_BLOCK subscriber connection is not left behind
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
$r = nl_redis();
$name = nl_lock_name('reuse');
RedisLock::createAndLock($name . '-warm', 10)->release();
$before = nl_redis_clients($r);
var_dump($before);
for ($i = 0; $i < 200; $i++) {
    $l = RedisLock::createAndLock("$name-$i", 10);
    $l->isAcquired();
    $l->release();
}
$held = RedisLock::createAndLock($name, 10);
try { RedisLock::create($name, 10, RedisLock::FAIL_BLOCK)->lock(0.2); } catch (RedisLockFailException $e) {}
$held->release();
usleep(100000);
var_dump(nl_redis_clients($r) - $before);
// The same server under another spelling (tcp://) shares the pool entry.
RedisLock::setRedis('tcp://' . nl_redis_host() . ':' . nl_redis_port());
RedisLock::createAndLock($name, 10)->release();
var_dump(nl_redis_clients($r) - $before);
?>
--EXPECT--
int(1)
int(0)
int(0)
