--TEST--
RedisLock: the pooled connection of a held lock is not closed however long it stands unused; once the lock is released it idles like any other
--EXTENSIONS--
nativelock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../../lib/redislock_test.inc'; nl_skip_unless_redis(); ?>
--FILE--
<?php
require __DIR__ . '/../../lib/redislock_test.inc';
ini_set('nativelock.pool_idle_timeout', '2');
$r = nl_redis();
$name = nl_lock_name('idle-held');
$pooled = function (): string {
    ob_start();
    (new ReflectionExtension('nativelock'))->info();
    preg_match('/RedisLock pooled connections => (.*)/', ob_get_clean(), $m);
    return $m[1] ?? '?';
};
$databases = function (string $settledAt = '') use ($r): string {
    // The server notices a closed socket on its next turn: give it a generous moment.
    for ($until = microtime(true) + 5;;) {
        $dbs = [];
        foreach ($r->client('list') as $c) {
            if (($c['name'] ?? '') === 'nativelock-' . getmypid()) $dbs[] = 'db' . $c['db'];
        }
        sort($dbs);
        $now = implode(' ', $dbs) ?: 'none';
        if ($now === $settledAt || $settledAt === '' || microtime(true) > $until) return $now;
        usleep(10000);
    }
};

RedisLock::setRedis(nl_redis_uri());
$held = RedisLock::createAndLock($name . '-held', 60);   // held on db0
RedisLock::setRedis(nl_redis_uri(1));
RedisLock::createAndLock($name, 10)->release();
// db0 stands unused for 5 s, but a lock is held on it.
usleep(5_000_000);
RedisLock::createAndLock($name, 10)->release();   // the pool is swept here
echo $databases(), "\n";
echo $pooled(), "\n";
var_dump($held->isAcquired());
$held->release();   // on the same connection: nothing was reopened
echo $pooled(), "\n";
// Released: now it idles past the timeout and goes at the next use of the pool.
usleep(5_000_000);
RedisLock::createAndLock($name, 10)->release();
echo $databases('db1'), "\n";
echo $pooled(), "\n";
?>
--EXPECT--
db0 db1
2 open, 2 opened in this process, 0 closed idle (idle timeout 2 s)
bool(true)
2 open, 2 opened in this process, 0 closed idle (idle timeout 2 s)
db1
1 open, 2 opened in this process, 1 closed idle (idle timeout 2 s)
