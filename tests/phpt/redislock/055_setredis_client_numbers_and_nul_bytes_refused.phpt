--TEST--
RedisLock::setRedis(): a client object whose port or database is not a whole number (NAN, INF, 2**64, "abc"), or whose host holds a NUL byte, is refused (ValueError) instead of its locks silently going elsewhere
--DESCRIPTION--
Until 2026-12-08 the values were converted as PHP casts them: NAN and INF became database 0,
2**64 + 16384 port 16384, and "127.0.0.1\0.evil" connected to 127.0.0.1.
--EXTENSIONS--
nativelock
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
require __DIR__ . '/../../lib/predis_client.inc';
$cases = [
    'database NAN' => ['database' => NAN],
    'database INF' => ['database' => INF],
    'database 2**64' => ['database' => 2 ** 64],
    'database 1.5' => ['database' => 1.5],
    'database "abc"' => ['database' => 'abc'],
    'database 2**31' => ['database' => 2 ** 31],
    'port 2**64 + 16384' => ['port' => 2 ** 64 + 16384],
    'port "6379abc"' => ['port' => '6379abc'],
    'host with a NUL byte' => ['host' => "127.0.0.1\0.evil"],
];
foreach ($cases as $what => $settings) {
    try {
        RedisLock::setRedis(new Predis\Client($settings + ['host' => nl_redis_host(), 'port' => nl_redis_port()]));
        echo "$what: accepted\n";
    } catch (ValueError $e) {
        echo "$what: ", $e->getMessage(), "\n";
    }
}
// Whole numbers in a float or a string still work.
RedisLock::setRedis(new Predis\Client(['host' => nl_redis_host(), 'port' => (string) nl_redis_port(), 'database' => 2.0]));
RedisLock::createAndLock(nl_lock_name('numbers'), 10)->release();
echo "ok\n";
?>
--EXPECT--
database NAN: RedisLock::setRedis(): the client's database must be a whole number
database INF: RedisLock::setRedis(): the client's database must be a whole number
database 2**64: RedisLock::setRedis(): the client's database must be a whole number
database 1.5: RedisLock::setRedis(): the client's database must be a whole number
database "abc": RedisLock::setRedis(): the client's database must be a whole number
database 2**31: RedisLock::setRedis(): the database number must be >= 0 and < 2^31
port 2**64 + 16384: RedisLock::setRedis(): the client's port must be a whole number
port "6379abc": RedisLock::setRedis(): the client's port must be a whole number
host with a NUL byte: RedisLock::setRedis(): the client's host or socket path contains a NUL byte
ok
