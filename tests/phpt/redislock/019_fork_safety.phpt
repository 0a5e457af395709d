--TEST--
RedisLock: in a forked child nothing releases the parent's locks (release(), exit, request end), and the child uses its own connection
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
if (!function_exists('pcntl_fork')) die("pcntl missing\n");
RedisLock::setRedis(nl_redis_uri());
$r = nl_redis();
$name = nl_lock_name('fork');
$parent = RedisLock::createAndLock($name, 30);
$pid = pcntl_fork();
if ($pid === 0) {
    // Child: the inherited lock is not ours to release.
    $parent->release();
    RedisLock::releaseAllCurrentlyHeldLocks();
    $own = RedisLock::createAndLock($name . '-child', 30);   // a fresh connection of its own
    $own->release();
    exit(0);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
var_dump($r->exists('redislock:' . $name), $parent->isAcquired());
// The parent's pooled connection still works after the child exited.
$again = RedisLock::createAndLock($name . '-2', 30);
var_dump($again->isAcquired());
$again->release();
$parent->release();
var_dump($r->exists('redislock:' . $name));
?>
--EXPECT--
int(0)
int(1)
bool(true)
bool(true)
int(0)
