--TEST--
Auto-renewal: refresh() moves the lease to the new TTL (a shorter one is kept alive, a longer one is not cut back), for RedisLock and the native API on Redis and MySQL
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
posix
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.auto_renew=1
--FILE--
<?php
require __DIR__ . '/lease.inc';

/**
 * Takes the lock with a 30 s TTL, refreshes it to 3 s and holds it 4.5 s (the old lease would
 * have renewed first at 10 s: the key would be gone), then refreshes it to 60 s (a renewal
 * with the 3 s TTL would cut it back).
 */
function probe(string $kind, callable $refresh, callable $remaining, callable $held, callable $release): void
{
    echo "$kind: refresh(3): ", var_export($refresh(3), true), "\n";
    usleep(4500000);
    $left = $remaining();
    echo "  after 4.5 s: held ", var_export($held(), true), ", within the new TTL ",
        var_export($left > 0 && $left <= 3, true), "\n";
    echo "  refresh(60): ", var_export($refresh(60), true), "\n";
    usleep(1500000);
    echo "  after 1.5 s: not cut back ", var_export($remaining() > 30, true), "\n";
    echo "  release: ", var_export($release(), true), "\n";
}

RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('refresh-lease');
$lock = RedisLock::create($name, 30, RedisLock::FAIL_RETURN);
$lock->lock();
probe('RedisLock', fn($t) => $lock->refresh($t),
    fn() => nl_redis()->pttl('redislock:' . $name) / 1000, fn() => $lock->isAcquired(),
    function () use ($lock) { $lock->release(); return true; });

foreach (['redis', 'mysql'] as $backend) {
    $native = new Nativelock\Lock(nv_backend($backend), nl_lock_name("refresh-lease-$backend"));
    $native->acquire(30);
    probe("Nativelock\\Lock on $backend", fn($t) => $native->refresh($t),
        fn() => $native->getRemainingLifetime(), fn() => $native->isHeld(),
        fn() => $native->release());
}
?>
--EXPECT--
RedisLock: refresh(3): true
  after 4.5 s: held true, within the new TTL true
  refresh(60): true
  after 1.5 s: not cut back true
  release: true
Nativelock\Lock on redis: refresh(3): true
  after 4.5 s: held true, within the new TTL true
  refresh(60): true
  after 1.5 s: not cut back true
  release: true
Nativelock\Lock on mysql: refresh(3): true
  after 4.5 s: held true, within the new TTL true
  refresh(60): true
  after 1.5 s: not cut back true
  release: true
