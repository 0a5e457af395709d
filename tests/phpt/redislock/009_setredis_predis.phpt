--TEST--
RedisLock::setRedis(): a single-node Predis\Client; aggregate connections are rejected
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
require __DIR__ . '/../../lib/predis_client.inc';
$name = nl_lock_name('predis');
RedisLock::setRedis(new Predis\Client(['host' => nl_redis_host(), 'port' => nl_redis_port(), 'database' => 4, 'timeout' => 1.0]));
$lock = RedisLock::createAndLock($name, 10);
var_dump(nl_redis(4)->exists('redislock:' . $name));
$lock->release();
var_dump(nl_redis(4)->exists('redislock:' . $name));
try {
    RedisLock::setRedis(new Predis\Client([], ['cluster' => true]));
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
int(1)
int(0)
RedisLock::setRedis(): only a single-node Predis\Client is supported (getConnection()->getParameters() is not available)
