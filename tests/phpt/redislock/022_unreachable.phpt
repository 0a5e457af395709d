--TEST--
RedisLock: an unreachable or refusing server gives RedisLockConnectionException naming host:port within the connect timeout
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
ini_set('nativelock.redis_connect_timeout', '0.5');
// Refused.
RedisLock::setRedis('redis://127.0.0.1:1');
try {
    RedisLock::createAndLock('x', 5);
} catch (RedisLockConnectionException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
// Blackholed (non-routable address): at most the connect timeout, or an immediate routing error.
RedisLock::setRedis('redis://10.255.255.1:6379');
$t = microtime(true);
try {
    RedisLock::createAndLock('x', 5);
} catch (RedisLockConnectionException $e) {
    echo str_contains($e->getMessage(), '10.255.255.1:6379') ? "names 10.255.255.1:6379\n" : $e->getMessage() . "\n";
}
var_dump(microtime(true) - $t < 3);
// A server that accepts but never answers: the read timeout applies.
ini_set('nativelock.redis_read_timeout', '0.5');
$srv = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($srv, false), ':'), 1);
RedisLock::setRedis("redis://127.0.0.1:$port");
$t = microtime(true);
try {
    RedisLock::createAndLock('x', 5);
} catch (RedisLockConnectionException $e) {
    echo str_replace(":$port", ':PORT', $e->getMessage()), "\n";
}
$w = microtime(true) - $t;
var_dump($w >= 0.4 && $w < 3);
?>
--EXPECTF--
RedisLockConnectionException: cannot connect to Redis at 127.0.0.1:1: Connection refused
names 10.255.255.1:6379
bool(true)
Redis at 127.0.0.1:PORT: no reply within the read timeout (0.500000 s)
bool(true)
