--TEST--
RedisLock: one pooled connection serves every lock of a process; FAIL_BLOCK waits share one pooled subscriber connection
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
// Blocked waits: the first opens the subscriber connection, the next ones reuse it.
for ($i = 0; $i < 5; $i++) {
    $held = RedisLock::createAndLock($name, 10);
    try { RedisLock::create($name, 10, RedisLock::FAIL_BLOCK)->lock(0.1); } catch (RedisLockFailException $e) {}
    $held->release();
}
usleep(100000);
var_dump(nl_redis_clients($r) - $before);
// The same server under another spelling (tcp://) shares the pool entry.
RedisLock::setRedis('tcp://' . nl_redis_host() . ':' . nl_redis_port());
RedisLock::createAndLock($name, 10)->release();
var_dump(nl_redis_clients($r) - $before);
?>
--EXPECT--
int(1)
int(1)
int(1)
