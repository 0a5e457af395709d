--TEST--
RedisLock: a signal handler that runs the constructor again during a FAIL_BLOCK wait makes the wait go on for the new name, as the original's next try would; the old name's queue place is given up
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
$first = nl_lock_name('reconstruct-first');
$second = nl_lock_name('reconstruct-second');
$holder = nl_redis_hold_in_child($first, 3.0);
$lock = new RedisLock($first, 30, RedisLock::FAIL_BLOCK);
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use ($lock, $second) { $lock->__construct($second, 30, RedisLock::FAIL_BLOCK); });
pcntl_alarm(1);
$t = microtime(true);
var_dump($lock->lock());
$waited = microtime(true) - $t;
echo $waited < 2.5 ? "did not wait for the first name's holder\n" : "waited $waited s\n";
$redis = nl_redis();
$value = (new ReflectionProperty(RedisLock::class, 'value'))->getValue($lock);
var_dump($redis->get('redislock:' . $second) === $value);
var_dump($redis->get('redislock:' . $first) !== $value);
$lock->release();
var_dump($redis->exists('redislock:' . $second));
pcntl_waitpid($holder, $status);
// The first name is free once its holder is done: no place of ours stood in its queue.
$again = RedisLock::createAndLock($first, 30, RedisLock::FAIL_RETURN);
var_dump($again instanceof RedisLock);
$again->release();
?>
--EXPECT--
bool(true)
did not wait for the first name's holder
bool(true)
bool(true)
int(0)
bool(true)
