--TEST--
RedisLock: a forked child that locks with an inherited object uses a token of its own, so the parent's isAcquired()/refresh()/release() never take the child's lock for theirs
--EXTENSIONS--
nativelock
igbinary
redis
pcntl
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('fork-token');
$lock = RedisLock::createAndLock($name, 1);
$parentToken = nl_redis()->get('redislock:' . $name);
$pid = pcntl_fork();
if ($pid === 0) {
    usleep(1300000);  // the parent's TTL passes
    $got = $lock->lock();
    $value = (new ReflectionProperty('RedisLock', 'value'))->getValue($lock);
    echo "child: lock() ", var_export($got, true), ", own token: ",
        var_export($value !== $parentToken && nl_redis()->get('redislock:' . $name) === $value, true), "\n";
    usleep(600000);
    exit(0);
}
usleep(1600000);
echo "parent: isAcquired() ", var_export($lock->isAcquired(), true), "\n";
try {
    $lock->release();
} catch (Exception $e) {
    echo get_class($e), "\n";
}
echo "child's key still there after the parent's release: ",
    var_export(nl_redis()->exists('redislock:' . $name) === 1, true), "\n";
pcntl_waitpid($pid, $status);
?>
--EXPECT--
child: lock() true, own token: true
parent: isAcquired() false
child's key still there after the parent's release: true
