--TEST--
RedisLock: the server dying mid-wait gives RedisLockConnectionException naming host:port at once; after a restart the next call reconnects
--CONFLICTS--
all
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
// A private server (tests/servers/redis.sh on another port and run dir), so that killing it
// does not disturb tests running in parallel.
$port = nl_redis_port() + 1000;
$env = 'NATIVELOCK_REDIS_PORT=' . $port . ' NATIVELOCK_TEST_RUNDIR=' . escapeshellarg(nl_env('NATIVELOCK_TEST_RUNDIR', sys_get_temp_dir()) . '/redis-kill-test');
$script = escapeshellarg(dirname(__DIR__, 2) . '/servers/redis.sh');
$server = function (string $action) use ($env, $script) {
    exec("$env $script $action 2>&1", $out, $code);
    if ($code) echo "redis.sh $action: ", implode("\n", $out), "\n";
};
$server('start');
register_shutdown_function(fn() => $server('stop'));
RedisLock::setRedis('redis://' . nl_redis_host() . ":$port");
$name = nl_lock_name('kill');
$held = RedisLock::createAndLock($name, 60);
// Kill the server once our waiter has subscribed (it is then blocked in the wait).
$killer = nl_spawn(nl_redis_prelude() . '
    $r = new Redis();
    $r->connect(nl_redis_host(), ' . $port . ');
    for ($i = 0; $i < 6000; $i++) {
        foreach ($r->client("list") as $c) {
            if (($c["cmd"] ?? "") === "subscribe") {
                usleep(100000);
                echo hrtime(true), "\n";
                exec(' . var_export("$env $script kill", true) . ');
                exit(0);
            }
        }
        usleep(10000);
    }
    echo "0\n";
', [], $kp);
try {
    // A long budget: under valgrind (run-tests -m traces every child) the killer is slow.
    RedisLock::create($name, 60, RedisLock::FAIL_BLOCK)->lock(90.0);
    echo "got the lock?\n";
} catch (RedisLockConnectionException $e) {
    $thrown = hrtime(true);
    echo get_class($e), ' names host:port: ', var_export(str_contains($e->getMessage(), nl_redis_host() . ":$port"), true), "\n";
}
$killed = (int) nl_read_line($kp[1], 90);
proc_close($killer);
// The kill is noticed at once (EOF on the subscription), far within the read timeout.
var_dump($killed > 0 && ($thrown - $killed) / 1e9 < 5);
// Down: a clear exception at once (connection refused).
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
$held->release();   // its key died with the server: nothing to delete, no error
?>
--EXPECT--
RedisLockConnectionException names host:port: true
bool(true)
cannot connect to Redis at 127.0.0.1:PORT: Connection refused
bool(true)
