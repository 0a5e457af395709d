--TEST--
RedisLock: exit() in a signal handler during a FAIL_BLOCK wait ends the script; shutdown functions run and no lock is left behind
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
$name = nl_lock_name('storm-exit');
$holder = nl_redis_hold_in_child($name, 20.0);
$t = microtime(true);
register_shutdown_function(function () use ($name, $holder, $t) {
    $waited = microtime(true) - $t;
    echo $waited < 5 ? "exited promptly\n" : "waited $waited s\n";
    $r = nl_redis();
    nl_stop_child($holder);
    $r->del('redislock:' . $name);
});
pcntl_async_signals(true);
$storm = null;
pcntl_signal(SIGALRM, function () use (&$storm) {
    // The storm child signals at once, possibly before nl_signal_storm() has returned its pid:
    // act on a later signal, inside the wait.
    if ($storm === null) return;
    // The storm stops first: a signal arriving during shutdown must not run this again.
    pcntl_signal(SIGALRM, SIG_IGN);
    nl_stop_child($storm);
    echo "handler exits\n";
    exit(3);
});
$storm = nl_signal_storm();
RedisLock::createAndLock($name, 30, RedisLock::FAIL_BLOCK);
echo "not reached\n";
?>
--EXPECT--
handler exits
exited promptly
