--TEST--
RedisLock: create() does not keep locks alive; a held lock stays held (and alive) until released, like the original; releaseAllCurrentlyHeldLocks() releases every one
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
$name = nl_lock_name('retain');
// Unheld locks are freed as soon as the program drops them (the original keeps them all).
$refs = [];
for ($i = 0; $i < 1000; $i++) {
    $refs[] = WeakReference::create(RedisLock::create("$name-$i", 10));
}
var_dump(count(array_filter($refs, fn($w) => $w->get() !== null)));
$before = memory_get_usage();
for ($i = 0; $i < 20000; $i++) {
    RedisLock::create("$name-$i", 10);
}
var_dump(memory_get_usage() - $before < 100000);
// Locks taken and dropped stay held, as with the original's static array.
$weak = WeakReference::create(RedisLock::createAndLock("$name-a", 10));
RedisLock::createAndLock("$name-b", 10);
$kept = RedisLock::createAndLock("$name-c", 10);
var_dump($weak->get() !== null, $r->exists("redislock:$name-a", "redislock:$name-b", "redislock:$name-c"));
// Released ones are not retained.
$tmp = RedisLock::createAndLock("$name-d", 10);
$weakD = WeakReference::create($tmp);
$tmp->release();
unset($tmp);
var_dump($weakD->get());
RedisLock::releaseAllCurrentlyHeldLocks();
var_dump($r->exists("redislock:$name-a", "redislock:$name-b", "redislock:$name-c"), $weak->get(), $kept->isAcquired());
// Releasing again is harmless.
$kept->release();
RedisLock::releaseAllCurrentlyHeldLocks();
echo "done\n";
?>
--EXPECT--
int(0)
bool(true)
bool(true)
int(3)
NULL
int(0)
NULL
bool(false)
done
