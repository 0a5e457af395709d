--TEST--
RedisLock: a child forked by a signal handler during lock() does not go on waiting with the parent's token: its lock() fails without a lock, and the parent's wait goes on and acquires
--EXTENSIONS--
nativelock
igbinary
redis
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
RedisLock::setRedis(nl_redis_uri());
$name = nl_lock_name('fork-wait-child');
$holder = nl_redis_hold_in_child($name, 2.5);
$parent = getmypid();
$out = sys_get_temp_dir() . '/nl-044-' . $parent;
$child = 0;
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use (&$child) {
    if ($child) return;
    $pid = pcntl_fork();
    if ($pid > 0) {
        $child = $pid;
    }
    // The child returns from the handler into the parent's wait.
});
pcntl_alarm(1);  // once, well before the holder lets go
$lock = RedisLock::create($name, 30, RedisLock::FAIL_BLOCK);
try {
    $got = $lock->lock();
    $what = 'lock() returned ' . var_export($got, true) . ', acquired: ' . var_export($lock->isAcquired(), true);
} catch (RedisLockFailException $e) {
    $what = get_class($e) . ', acquired: ' . var_export($lock->isAcquired(), true);
}
if (getmypid() !== $parent) {
    file_put_contents($out, "child: $what\n");
    exit(0);
}
pcntl_waitpid($child, $status);
pcntl_waitpid($holder, $status);
echo $child ? "forked during the wait\n" : "no fork\n";
echo file_get_contents($out);
echo "parent: $what\n";
$lock->release();
unlink($out);
?>
--EXPECT--
forked during the wait
child: RedisLockFailException, acquired: false
parent: lock() returned true, acquired: true
