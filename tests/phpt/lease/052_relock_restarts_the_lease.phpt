--TEST--
Auto-renewal: RedisLock::lock() again on an object that holds the key sets the key's TTL anew, and the renewal follows it
--DESCRIPTION--
lock() on an object that holds the key succeeds at once and sets the key's TTL to the object's
timeout. A renewal still on the schedule of an earlier refresh() to a longer TTL would renew
first long after that shorter TTL ran out: until 2026-12-07 the key then expired under its
holder, which still reported itself auto-renewed, and another client could take it.
--EXTENSIONS--
igbinary
redis
posix
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.auto_renew=1
--FILE--
<?php
require __DIR__ . '/lease.inc';
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('relock-lease');
$lock = RedisLock::create($name, 1, RedisLock::FAIL_RETURN);
var_dump($lock->lock(), $lock->refresh(1000));
var_dump($lock->lock(1.0));  // held already: the TTL is 1 s again
$left = nl_redis()->pttl('redislock:' . $name);
echo 'TTL set anew: ', var_export($left > 0 && $left <= 1000, true), "\n";
usleep(2500000);
echo 'after 2.5 s: held ', var_export($lock->isAcquired(), true), ', auto-renewed ',
    var_export($lock->isAutoRenewed(), true), "\n";
$other = RedisLock::create($name, 1, RedisLock::FAIL_RETURN);
echo 'another object: ', var_export($other->lock(), true), "\n";
$lock->release();
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
TTL set anew: true
after 2.5 s: held true, auto-renewed true
another object: false
