--TEST--
RedisLock: a key() override that runs the constructor again makes lock() ask for the key anew, so the key and the value always belong to one construction; one that always does so gives up after the original's five tries
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
$first = nl_lock_name('key-first');
$second = nl_lock_name('key-second');
class Switching extends RedisLock {
    public static $to;
    public $calls = 0;
    protected function key() {
        $key = parent::key();  // the key of the construction before the one below
        if (++$this->calls < 3) $this->__construct(self::$to, 30, RedisLock::FAIL_BLOCK);
        return $key;
    }
}
Switching::$to = $second;
$lock = new Switching($first, 30, RedisLock::FAIL_BLOCK);
var_dump($lock->lock(), $lock->calls);
$redis = nl_redis();
$value = (new ReflectionProperty(RedisLock::class, 'value'))->getValue($lock);
var_dump($redis->get('redislock:' . $second) === $value, $redis->exists('redislock:' . $first));
$lock->release();
var_dump($redis->exists('redislock:' . $second));
class Always extends RedisLock {
    protected function key() {
        $key = parent::key();
        $this->__construct($this->name, 30, $this->failBehavior);
        return $key;
    }
}
class Once extends RedisLock {
    public $calls = 0;
    protected function key() {
        $key = parent::key();
        if (++$this->calls === 1) $this->__construct($this->name, 30, $this->failBehavior);
        return $key;
    }
}
// Asked again once, a lock() that does not wait still tries.
$once = new Once($first, 30, RedisLock::FAIL_RETURN);
var_dump($once->lock(), $once->calls);
$once->release();
// Asked again as often as the original tries, then given up: also without a deadline.
$t = microtime(true);
var_dump((new Always($first, 30, RedisLock::FAIL_RETURN))->lock());
try {
    (new Always($first, 30, RedisLock::FAIL_BLOCK))->lock(INF);
} catch (RedisLockFailException $e) {
    echo get_class($e), "\n";
}
echo microtime(true) - $t < 5 ? "ended\n" : "too long\n";
?>
--EXPECT--
bool(true)
int(3)
bool(true)
int(0)
int(0)
bool(true)
int(2)
bool(false)
RedisLockFailException
ended
