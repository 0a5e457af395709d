--TEST--
RedisLock: releasing a lock that expired and was taken by another process leaves the other's key alone
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
$name = nl_lock_name('takeover');
$mine = RedisLock::createAndLock($name, 1);
$mineValue = $r->get('redislock:' . $name);
// Another process waits for our lock, gets it when it expires, and holds it.
$child = nl_spawn(nl_redis_prelude() . '
    RedisLock::setRedis(nl_redis_uri());
    $l = RedisLock::createAndLock(' . var_export($name, true) . ', 30, RedisLock::FAIL_BLOCK);
    echo "taken\n";
    fgets(STDIN);
    var_dump($l->isAcquired());
    $l->release();
', [], $pipes);
echo nl_read_line($pipes[1], 20), "\n";
$theirs = $r->get('redislock:' . $name);
var_dump($theirs !== false && $theirs !== $mineValue);
var_dump($mine->isAcquired(), $mine->getRemainingLifetime(), $mine->refresh(30));
$mine->release();
var_dump($r->get('redislock:' . $name) === $theirs);
fwrite($pipes[0], "done\n");
stream_set_blocking($pipes[1], true);
echo stream_get_contents($pipes[1]);
proc_close($child);
var_dump($r->exists('redislock:' . $name));
?>
--EXPECT--
taken
bool(true)
bool(false)
NULL
bool(false)
bool(true)
bool(true)
int(0)
