--TEST--
RedisLock: refresh(), getRemainingLifetime() and isAcquired() ask the server
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
$name = nl_lock_name('extra');
$lock = RedisLock::create($name, 10);
var_dump($lock->isAcquired(), $lock->getRemainingLifetime(), $lock->refresh());
$lock->lock();
var_dump($lock->isAcquired());
$left = $lock->getRemainingLifetime();
var_dump(is_float($left) && $left > 9 && $left <= 10);
var_dump($lock->refresh(100));
var_dump($r->ttl('redislock:' . $name));
var_dump($lock->refresh());   // back to the lock's own timeout
var_dump($r->ttl('redislock:' . $name));
try {
    $lock->refresh(0);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
// Someone else's value under the key: not ours any more, and refresh() leaves it alone.
$r->set('redislock:' . $name, 'someone else', ['EX' => 50]);
var_dump($lock->isAcquired(), $lock->getRemainingLifetime(), $lock->refresh(500), $r->ttl('redislock:' . $name));
$r->del('redislock:' . $name);
var_dump($lock->isAcquired(), $lock->getRemainingLifetime());
$lock->release();
?>
--EXPECT--
bool(false)
NULL
bool(false)
bool(true)
bool(true)
bool(true)
int(100)
bool(true)
int(10)
RedisLock::refresh(): Argument #1 ($ttl) must be null or a number of seconds >= 1
bool(false)
NULL
bool(false)
int(50)
bool(false)
NULL
