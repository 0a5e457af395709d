--TEST--
RedisLock::setRedis(): malformed URIs and unsupported values are rejected with the accepted forms named
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
foreach (['', 'localhost:6379', 'http://x', 'redis://', 'redis://h:99999', 'rediss://h:6379', "redis://h\0x", 'unix://rel'] as $uri) {
    try {
        RedisLock::setRedis($uri);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo 'ValueError: ', str_contains($e->getMessage(), 'redis://[user:pass@]host[:port][/db]') ? 'names forms' : $e->getMessage(),
            str_contains($e->getMessage(), 'TLS') ? ' (TLS)' : '', "\n";
    }
}
foreach ([42, 1.5, null, true, [], new stdClass(), new ArrayObject()] as $v) {
    try {
        RedisLock::setRedis($v);
        echo "accepted\n";
    } catch (TypeError $e) {
        echo preg_replace('/.*must be of type (\S+) .*?, (\S+) given$/', 'TypeError: $1 / $2', $e->getMessage()), "\n";
    }
}
// A phpredis object that is not connected says so.
try {
    RedisLock::setRedis(new Redis());
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
// After failures nothing is configured.
try {
    RedisLock::createAndLock('x', 5);
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
ValueError: names forms
ValueError: names forms
ValueError: names forms
ValueError: names forms
ValueError: names forms
ValueError: names forms (TLS)
ValueError: names forms
ValueError: names forms
TypeError: Credis_Client|Redis|Predis\Client|string / int
TypeError: Credis_Client|Redis|Predis\Client|string / float
TypeError: Credis_Client|Redis|Predis\Client|string / null
TypeError: Credis_Client|Redis|Predis\Client|string / bool
TypeError: Credis_Client|Redis|Predis\Client|string / array
TypeError: Credis_Client|Redis|Predis\Client|string / stdClass
TypeError: Credis_Client|Redis|Predis\Client|string / ArrayObject
RedisLock::setRedis(): the \Redis object is not connected (call connect() first, or pass a redis:// URI)
Exception: You must call setRedis() before using redis locks
