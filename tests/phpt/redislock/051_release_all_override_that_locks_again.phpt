--TEST--
RedisLock: an overriding release() that takes its lock again inside releaseAllCurrentlyHeldLocks() leaves it held and tracked once: released at request end, and the object is freed as soon as the script drops it afterwards
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
$name = nl_lock_name('relock');
class RelockingLock extends RedisLock
{
    public bool $relock = true;
    public function release()
    {
        parent::release();
        if ($this->relock) {
            $this->relock = false;
            $this->lock();
        }
    }
    public function __destruct()
    {
        echo "destroyed\n";
    }
}
$lock = RelockingLock::createAndLock($name, 10);
RedisLock::releaseAllCurrentlyHeldLocks();
var_dump($lock->isAcquired(), nl_redis()->exists("redislock:$name"));
$lock->release();
var_dump(nl_redis()->exists("redislock:$name"));
$ref = WeakReference::create($lock);
unset($lock);
var_dump($ref->get() === null);
echo "end\n";
?>
--EXPECT--
bool(true)
int(1)
int(0)
destroyed
bool(true)
end
