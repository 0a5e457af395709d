--TEST--
RedisLock: nativelock.pool_idle_timeout=0 closes no pooled connection while the request runs, however long it stands unused (they close at its end)
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
ini_set('nativelock.pool_idle_timeout', '0');
$name = nl_lock_name('idle-zero');
RedisLock::setRedis(nl_redis_uri());
RedisLock::createAndLock($name, 10)->release();
RedisLock::setRedis(nl_redis_uri(1));
RedisLock::createAndLock($name, 10)->release();
usleep(1_500_000);
RedisLock::createAndLock($name, 10)->release();
var_dump(nl_redis_clients(nl_redis()));
ob_start();
(new ReflectionExtension('nativelock'))->info();
preg_match('/RedisLock pooled connections => (.*)/', ob_get_clean(), $m);
echo $m[1], "\n";
?>
--EXPECT--
int(2)
2 open, 2 opened in this process, 0 closed idle (idle timeout 0 s)
