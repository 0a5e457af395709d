--TEST--
RedisLock: using locks before setRedis() throws the original's plain Exception
--EXTENSIONS--
nativelock
--FILE--
<?php
$lock = RedisLock::create('x', 10);   // create() does not need Redis, as in the original
var_dump(get_class($lock));
foreach ([fn() => $lock->lock(), fn() => $lock->release(), fn() => RedisLock::releaseAllCurrentlyHeldLocks(),
          fn() => RedisLock::createAndLock('x', 10)] as $f) {
    try {
        $f();
        echo "no exception\n";
    } catch (Exception $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
string(9) "RedisLock"
Exception: You must call setRedis() before using redis locks
Exception: You must call setRedis() before using redis locks
Exception: You must call setRedis() before using redis locks
Exception: You must call setRedis() before using redis locks
