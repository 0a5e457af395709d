--TEST--
Fencing, Redis: Kleppmann's scenario: A (RedisLock, 1 s TTL) is frozen past its TTL, B takes the lock with a greater token and writes; A's late write with its token is refused by the resource
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
nativelock.fencing=1
--FILE--
<?php
require __DIR__ . '/fencing.inc';
$name = nl_lock_name('kleppmann');
fx_kleppmann('
    RedisLock::setRedis(nl_redis_uri());
    $lock = RedisLock::createAndLock(' . var_export($name, true) . ', 1);
    $token = $lock->getFencingToken();
', function () use ($name) {
    RedisLock::setRedis(nl_redis_uri());
    $t = microtime(true);
    $b = RedisLock::create($name, 30, RedisLock::FAIL_BLOCK);
    $b->lock(30.0);   // A's key expires while A is frozen
    echo "B waited for A's TTL: ", var_export(microtime(true) - $t > 0.3, true), "\n";
    return [$b->getFencingToken(), fn() => $b->release()];
});
fx_cleanup('redis', $name, '');
?>
--EXPECT--
A holds, token >= 1: true; A frozen
B waited for A's TTL: true
B holds, tB > tA: true
B writes, rows changed: 1
A resumes and writes with tA, rows changed: 0
resource: value B, fence is tB: true
