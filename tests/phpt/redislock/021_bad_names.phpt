--TEST--
RedisLock: empty, huge and binary lock names work and stay distinct; odd name types convert like the original's string concatenation
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
$r = nl_redis();
$prefix = nl_lock_name('names');
foreach (['' => 'empty', str_repeat('x', 1 << 20) => 'huge 1 MiB', "$prefix\0nul\xff\n" => 'binary'] as $name => $what) {
    $lock = RedisLock::createAndLock($name, 10);
    $exists = $r->exists('redislock:' . $name);
    $other = RedisLock::createAndLock($name, 10, RedisLock::FAIL_RETURN);
    $lock->release();
    printf("%s: held %d, excluded %s, released %d\n", $what, $exists, var_export($other === false, true), $r->exists('redislock:' . $name));
}
// The NUL-containing name did not collide with its prefix.
$a = RedisLock::createAndLock("$prefix\0a", 10);
$b = RedisLock::createAndLock("$prefix\0b", 10);
var_dump($a->isAcquired() && $b->isAcquired());
RedisLock::releaseAllCurrentlyHeldLocks();
// Integers are names too (the original concatenates).
$n = RedisLock::createAndLock(12345, 10);
var_dump($r->exists('redislock:12345'));
$n->release();
try {
    RedisLock::create([], 10);
} catch (Throwable $e) {
    echo get_class($e), "\n";
}
?>
--EXPECTF--
empty: held 1, excluded true, released 0
huge 1 MiB: held 1, excluded true, released 0
binary: held 1, excluded true, released 0
bool(true)
int(1)

Warning: Array to string conversion in %s on line %d
