--TEST--
RedisLock: numeric extremes of every timeout and TTL ($timeout, lock($maxWait), refresh($ttl)): ValueError, the original's exception or a clamp, never an expired key
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
$name = nl_lock_name('ttl');
$key = 'redislock:' . $name;
$extremes = ['0' => 0, '-5' => -5, 'NAN' => NAN, 'INF' => INF, '-INF' => -INF, '1e9' => 1e9,
             'PHP_INT_MAX' => PHP_INT_MAX, 'PHP_INT_MIN' => PHP_INT_MIN, '2**63' => 2 ** 63, '1000000000' => 1000000000];
$show = fn (Throwable $e) => get_class($e) . ': ' . $e->getMessage();

echo "-- constructor/createAndLock \$timeout (TTL, seconds)\n";
foreach ($extremes as $label => $ttl) {
    try {
        $lock = RedisLock::createAndLock($name, $ttl);
        $pttl = $r->pttl($key);
        echo "$label: locked, server TTL ", $pttl > 999_000_000_000 && $pttl <= 1_000_000_000_000 ? "1e9 s (clamped)" : "$pttl ms", "\n";
        $lock->release();
    } catch (Throwable $e) {
        echo "$label: ", $show($e), "\n";
    }
    var_dump($r->exists($key));
}

echo "-- lock(\$maxWait) on a free lock\n";
foreach ($extremes as $label => $wait) {
    try {
        $lock = RedisLock::create($name, 30);
        $got = $lock->lock($wait);
        echo "$label: ", var_export($got, true), "\n";
        $lock->release();
    } catch (Throwable $e) {
        echo "$label: ", $show($e), "\n";
    }
}
echo "-- lock(\$maxWait) on a held lock, FAIL_RETURN (0 and tiny waits give up, nothing is a past deadline)\n";
$holder = RedisLock::createAndLock($name, 30);
foreach (['0' => 0, '0.2' => 0.2] as $label => $wait) {
    $t = microtime(true);
    $got = RedisLock::create($name, 30, RedisLock::FAIL_RETURN)->lock($wait);
    $w = microtime(true) - $t;
    echo "$label: ", var_export($got, true), $w >= $wait && $w < $wait + 3 ? " after the wait\n" : " after $w s\n";
}

echo "-- refresh(\$ttl)\n";
foreach (['null' => null] + $extremes as $label => $ttl) {
    try {
        $ok = $holder->refresh($ttl);
        $pttl = $r->pttl($key);
        echo "$label: ", var_export($ok, true), ', server TTL ',
            $pttl > 999_000_000_000 && $pttl <= 1_000_000_000_000 ? "1e9 s (clamped)" : ($pttl > 25_000 && $pttl <= 30_000 ? '30 s' : "$pttl ms"), "\n";
    } catch (Throwable $e) {
        echo "$label: ", $show($e), "\n";
    }
}
var_dump($holder->isAcquired());
$holder->release();
?>
--EXPECT--
-- constructor/createAndLock $timeout (TTL, seconds)
0: ValueError: RedisLock::lock(): the lock's $timeout (TTL) must be at least 1 second, 0 given
int(0)
-5: ValueError: RedisLock::lock(): the lock's $timeout (TTL) must be at least 1 second, -5 given
int(0)
NAN: InvalidArgumentException: $timeout must be an integer.
int(0)
INF: InvalidArgumentException: $timeout must be an integer.
int(0)
-INF: InvalidArgumentException: $timeout must be an integer.
int(0)
1e9: InvalidArgumentException: $timeout must be an integer.
int(0)
PHP_INT_MAX: locked, server TTL 1e9 s (clamped)
int(0)
PHP_INT_MIN: ValueError: RedisLock::lock(): the lock's $timeout (TTL) must be at least 1 second, -9223372036854775808 given
int(0)
2**63: InvalidArgumentException: $timeout must be an integer.
int(0)
1000000000: locked, server TTL 1e9 s (clamped)
int(0)
-- lock($maxWait) on a free lock
0: true
-5: ValueError: RedisLock::lock(): Argument #1 ($maxWait) must be null or a number of seconds >= 0
NAN: ValueError: RedisLock::lock(): Argument #1 ($maxWait) must be null or a number of seconds >= 0
INF: true
-INF: ValueError: RedisLock::lock(): Argument #1 ($maxWait) must be null or a number of seconds >= 0
1e9: true
PHP_INT_MAX: true
PHP_INT_MIN: ValueError: RedisLock::lock(): Argument #1 ($maxWait) must be null or a number of seconds >= 0
2**63: true
1000000000: true
-- lock($maxWait) on a held lock, FAIL_RETURN (0 and tiny waits give up, nothing is a past deadline)
0: false after the wait
0.2: false after the wait
-- refresh($ttl)
null: true, server TTL 30 s
0: ValueError: RedisLock::refresh(): Argument #1 ($ttl) must be null or a number of seconds >= 1
-5: ValueError: RedisLock::refresh(): Argument #1 ($ttl) must be null or a number of seconds >= 1
NAN: TypeError: RedisLock::refresh(): Argument #1 ($ttl) must be of type ?int, float given
INF: TypeError: RedisLock::refresh(): Argument #1 ($ttl) must be of type ?int, float given
-INF: TypeError: RedisLock::refresh(): Argument #1 ($ttl) must be of type ?int, float given
1e9: true, server TTL 1e9 s (clamped)
PHP_INT_MAX: true, server TTL 1e9 s (clamped)
PHP_INT_MIN: ValueError: RedisLock::refresh(): Argument #1 ($ttl) must be null or a number of seconds >= 1
2**63: TypeError: RedisLock::refresh(): Argument #1 ($ttl) must be of type ?int, float given
1000000000: true, server TTL 1e9 s (clamped)
bool(true)
