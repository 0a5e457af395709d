--TEST--
RedisLock: a signal handler that throws ends the wait (FAIL_BLOCK and lock(INF)) with its exception; the lock is not taken
--EXTENSIONS--
nativelock
igbinary
redis
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('storm-throw');
$holder = nl_redis_hold_in_child($name, 20.0);
pcntl_async_signals(true);
$signals = 0;
$armed = false;  // only inside the call: a slow machine may see signals before the try block
pcntl_signal(SIGALRM, function () use (&$signals, &$armed) {
    if ($armed && ++$signals === 3) {
        throw new RuntimeException('stop waiting');
    }
});
foreach (['FAIL_BLOCK' => fn () => RedisLock::createAndLock($name, 30, RedisLock::FAIL_BLOCK),
          'lock(INF)' => fn () => RedisLock::create($name, 30)->lock(INF)] as $what => $call) {
    $signals = 0;
    $storm = nl_signal_storm();
    $t = microtime(true);
    try {
        $armed = true;
        $call();
        $armed = false;
        echo "$what: returned\n";
    } catch (RuntimeException $e) {
        $armed = false;
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
    $waited = microtime(true) - $t;
    nl_stop_child($storm);
    echo $waited < 5 ? "ended promptly\n" : "waited $waited s\n";
}
var_dump(RedisLock::releaseAllCurrentlyHeldLocks());
nl_stop_child($holder);
nl_redis()->del('redislock:' . $name);
?>
--EXPECT--
FAIL_BLOCK: RuntimeException: stop waiting
ended promptly
lock(INF): RuntimeException: stop waiting
ended promptly
NULL
