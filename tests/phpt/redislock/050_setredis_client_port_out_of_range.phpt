--TEST--
RedisLock::setRedis(): a client object whose port is past 65535 is refused (ValueError), instead of its locks silently going to the default port's server
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
foreach ([70000, 65536, PHP_INT_MAX] as $port) {
    try {
        RedisLock::setRedis(new Predis\Client(['host' => nl_redis_host(), 'port' => $port]));
        echo "accepted $port\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
// Still usable with a valid client afterwards.
RedisLock::setRedis(new Predis\Client(['host' => nl_redis_host(), 'port' => nl_redis_port()]));
RedisLock::createAndLock(nl_lock_name('port'), 10)->release();
echo "ok\n";
?>
--EXPECTF--
RedisLock::setRedis(): the client's port 70000 is out of range (1-65535)
RedisLock::setRedis(): the client's port 65536 is out of range (1-65535)
RedisLock::setRedis(): the client's port %d is out of range (1-65535)
ok
