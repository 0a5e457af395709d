--TEST--
RedisLock: the server dying mid-wait gives RedisLockConnectionException naming host:port at once; after a restart the next call reconnects
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
// A private server (redis.sh on another port and run dir), so that killing it does not
// disturb tests running in parallel.
$port = nl_redis_port() + 1000;
$env = ['NATIVELOCK_REDIS_PORT' => (string) $port, 'NATIVELOCK_TEST_RUNDIR' => sys_get_temp_dir() . '/nl-redis-kill-' . getmypid()];
$server = function (string $action) use ($env) {
    $cmd = '';
    foreach ($env as $k => $v) $cmd .= "$k=" . escapeshellarg($v) . ' ';
    exec($cmd . escapeshellarg(dirname(__DIR__, 2) . '/servers/redis.sh') . " $action 2>&1", $out, $code);
    if ($code) echo "redis.sh $action: ", implode("\n", $out), "\n";
};
$server('start');
RedisLock::setRedis('redis://' . nl_redis_host() . ":$port");
$name = nl_lock_name('kill');
$held = RedisLock::createAndLock($name, 60);
// Kill the server half a second into the wait.
$killer = nl_spawn('usleep(500000); exec(' . var_export(implode(' ', array_map(fn($k, $v) => "$k=" . escapeshellarg($v), array_keys($env), $env)) . ' ' . escapeshellarg(dirname(__DIR__, 2) . '/servers/redis.sh') . ' kill', true) . ');', [], $kp);
$t = microtime(true);
try {
    RedisLock::createAndLock($name, 60, RedisLock::FAIL_BLOCK);
    echo "got the lock?\n";
} catch (RedisLockConnectionException $e) {
    echo get_class($e), ' names host:port: ', var_export(str_contains($e->getMessage(), nl_redis_host() . ":$port"), true), "\n";
}
$w = microtime(true) - $t;
var_dump($w < 5);
proc_close($killer);
// Down: a clear exception within the connect timeout.
try {
    RedisLock::createAndLock($name, 60);
} catch (RedisLockConnectionException $e) {
    echo preg_replace('/:\d+:/', ':PORT:', $e->getMessage()), "\n";
}
// Back up: the next call reconnects.
$server('start');
$lock = RedisLock::createAndLock($name, 60);
var_dump($lock->isAcquired());
$lock->release();
$held->release();   // its key died with the server; nothing to do, no error
$server('stop');
?>
--EXPECT--
RedisLockConnectionException names host:port: true
bool(true)
cannot connect to Redis at 127.0.0.1:PORT: Connection refused
bool(true)
