--TEST--
RedisLock: releaseAllCurrentlyHeldLocks() calls an overriding release(), like the original's $lock->release()
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
$name = nl_lock_name('override');
class LoggingLock extends RedisLock
{
    public function release()
    {
        echo 'release ', substr($this->name, -1), "\n";
        parent::release();
    }
}
$a = LoggingLock::createAndLock("$name-a", 10);
LoggingLock::createAndLock("$name-b", 10);
$plain = RedisLock::createAndLock("$name-c", 10);
RedisLock::releaseAllCurrentlyHeldLocks();
var_dump($a->isAcquired(), $plain->isAcquired(), nl_redis()->exists("redislock:$name-a", "redislock:$name-b", "redislock:$name-c"));
?>
--EXPECT--
release b
release a
bool(false)
bool(false)
int(0)
