--TEST--
RedisLock: integer timeouts the server rejects (0, negative, huge) give RedisLockFailException with the server's reason at lock()
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--INI--
pcre.jit=0
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('ttl');
foreach ([0, -5, PHP_INT_MAX] as $ttl) {
    $lock = RedisLock::create($name, $ttl);   // accepted, like the original's constructor
    try {
        $lock->lock();
        echo "locked?\n";
    } catch (RedisLockFailException $e) {
        echo get_class($e), ': ', preg_replace('/at \S+ /', 'at HOST:PORT ', $e->getMessage()), "\n";
    }
}
var_dump(nl_redis()->exists('redislock:' . $name));
?>
--EXPECT--
RedisLockFailException: Redis at HOST:PORT rejected SET NX EX: ERR invalid expire time in 'set' command
RedisLockFailException: Redis at HOST:PORT rejected SET NX EX: ERR invalid expire time in 'set' command
RedisLockFailException: Redis at HOST:PORT rejected SET NX EX: ERR invalid expire time in 'set' command
int(0)
