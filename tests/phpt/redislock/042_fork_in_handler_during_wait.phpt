--TEST--
RedisLock: a child forked by a signal handler during a wait exits without touching the parent's connections (command and subscriber); the parent's wait goes on and acquires
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
$r = nl_redis();
$name = nl_lock_name('fork-wait');
$mine = RedisLock::createAndLock($name . '-mine', 30);   // held across the fork
$holder = nl_redis_hold_in_child($name, 1.5);
$parent = getmypid();
$clientsDuringWait = 0;
$pooled = function (): string {
    ob_start();
    (new ReflectionExtension('nativelock'))->info();
    preg_match('/RedisLock pooled connections => (.*)/', ob_get_clean(), $m);
    return $m[1] ?? '?';
};
$children = [];
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use (&$children, &$clientsDuringWait, $r, $parent) {
    $clientsDuringWait = max($clientsDuringWait, nl_redis_clients($r, $parent));
    if (count($children) >= 3) return;
    $pid = pcntl_fork();
    if ($pid === 0) {
        // The child leaves at once: request end must neither release the parent's locks nor
        // write on the inherited sockets.
        exit(0);
    }
    $children[] = $pid;
});
$storm = nl_signal_storm();
$t = microtime(true);
$lock = RedisLock::createAndLock($name, 30, RedisLock::FAIL_BLOCK);
$waited = microtime(true) - $t;
nl_stop_child($storm);
foreach ($children as $pid) {
    pcntl_waitpid($pid, $status);
}
pcntl_waitpid($holder, $status);
echo count($children), " children forked during the wait\n";
echo $clientsDuringWait, " connections of the parent during the wait (command + subscriber)\n";
var_dump($lock->isAcquired(), $mine->isAcquired());
echo $waited < 10 ? "acquired after the holder\n" : "waited $waited s\n";
echo nl_redis_clients($r, $parent), " connections of the parent after the wait (both pooled)\n";
// Nothing was reopened: no child closed or spoke on the parent's pooled connection.
echo $pooled(), "\n";
$lock->release();
$mine->release();
?>
--EXPECT--
3 children forked during the wait
2 connections of the parent during the wait (command + subscriber)
bool(true)
bool(true)
acquired after the holder
2 connections of the parent after the wait (both pooled)
1 open, 1 opened in this process, 0 closed idle (idle timeout 60 s)
