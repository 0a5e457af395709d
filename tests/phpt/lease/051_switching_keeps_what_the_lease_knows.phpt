--TEST--
Auto-renewal: setAutoRenew(false) on a lock its renewal found lost keeps it lost; setAutoRenew(true) on a lock held for a while renews it from a fresh TTL (RedisLock, native API on Redis)
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
--FILE--
<?php
require __DIR__ . '/lease.inc';

function wait_until(callable $condition): bool
{
    $deadline = microtime(true) + 5;
    while (!$condition() && microtime(true) < $deadline) usleep(20000);
    return $condition();
}

RedisLock::setRedis(nl_redis_uri());

// Lost, then switched off: still lost. The key is taken by "someone else" until the renewal
// finds it, then given back our value, so that a round trip alone would say "held".
$name = nl_lock_name('lost-then-off');
$lock = RedisLock::create($name, 1, RedisLock::FAIL_RETURN)->setAutoRenew(true);
$lock->lock();
$ours = nl_redis()->get('redislock:' . $name);
nl_redis()->set('redislock:' . $name, 'someone else', ['EX' => 50]);
echo 'RedisLock: renewal found it taken: ', var_export(wait_until(fn() => !$lock->isAutoRenewed()), true), "\n";
$lock->setAutoRenew(false);
nl_redis()->set('redislock:' . $name, $ours, ['EX' => 50]);
echo '  after setAutoRenew(false): isAcquired ', var_export($lock->isAcquired(), true), "\n";
try {
    $lock->release();
    echo "  release: no exception\n";
} catch (RedisLockFailException $e) {
    echo '  release: ', $e->getMessage() === "Lock \"$name\" was lost while held: its auto-renewal found the key expired or taken by another holder" ? 'says lost' : $e->getMessage(), "\n";
}

$native = (new Nativelock\Lock(nv_backend('redis'), nl_lock_name('lost-then-off-native')))->setAutoRenew(true);
$native->acquire(1);
$ours = nl_redis()->get($native->getKey());
nl_redis()->set($native->getKey(), 'someone else', ['EX' => 50]);
echo 'Nativelock\Lock: renewal found it taken: ', var_export(wait_until(fn() => !$native->isAutoRenewed()), true), "\n";
$native->setAutoRenew(false);
nl_redis()->set($native->getKey(), $ours, ['EX' => 50]);
echo '  after setAutoRenew(false): isAcquired ', var_export($native->isAcquired(), true), "\n";
echo '  release: ', var_export($native->release(), true), "\n";
echo '  our key given back: ', var_export(nl_redis()->get($native->getKey()) === false, true), "\n";

// Switched on 4.5 s into a 6 s TTL: the lease starts from a TTL set now, not from the old one
// (whose first renewal, at 6.5 s, would come after the key expired).
$name = nl_lock_name('late-on');
$lock = RedisLock::create($name, 6, RedisLock::FAIL_RETURN);
$lock->lock();
$native = new Nativelock\Lock(nv_backend('redis'), nl_lock_name('late-on-native'));
$native->acquire(6);
usleep(4500000);
$lock->setAutoRenew(true);
$native->setAutoRenew(true);
usleep(3000000);
echo 'late switch-on, 7.5 s into a 6 s TTL: RedisLock held ', var_export($lock->isAcquired(), true),
    ', Nativelock\Lock held ', var_export($native->isHeld() && $native->isAutoRenewed(), true), "\n";
$lock->release();
echo 'released: ', var_export($native->release(), true), "\n";
?>
--EXPECT--
RedisLock: renewal found it taken: true
  after setAutoRenew(false): isAcquired false
  release: says lost
Nativelock\Lock: renewal found it taken: true
  after setAutoRenew(false): isAcquired false
  release: false
  our key given back: true
late switch-on, 7.5 s into a 6 s TTL: RedisLock held true, Nativelock\Lock held true
released: true
