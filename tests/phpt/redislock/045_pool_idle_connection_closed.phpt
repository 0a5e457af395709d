--TEST--
RedisLock: a pooled connection unused for nativelock.pool_idle_timeout is closed at the next use of the pool (seen from the server and in php --ri)
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
$name = nl_lock_name('idle');
$pooled = function (): string {
    ob_start();
    (new ReflectionExtension('nativelock'))->info();
    preg_match('/RedisLock pooled connections => (.*)/', ob_get_clean(), $m);
    return $m[1] ?? '?';
};
// The databases of this process's connections, as the server lists them.
$databases = function () use ($r): string {
    $dbs = [];
    foreach ($r->client('list') as $c) {
        if (($c['name'] ?? '') === 'nativelock-' . getmypid()) $dbs[] = 'db' . $c['db'];
    }
    sort($dbs);
    return implode(' ', $dbs) ?: 'none';
};

RedisLock::setRedis(nl_redis_uri());
RedisLock::createAndLock($name, 10)->release();
RedisLock::setRedis(nl_redis_uri(1));   // another pool entry
RedisLock::createAndLock($name, 10)->release();
echo $databases(), "\n";
// db0 stands unused for 6 s, three times the idle timeout; then db1 is used again.
usleep(6_000_000);
RedisLock::createAndLock($name, 10)->release();
// The server notices a closed socket on its next turn: give it a generous moment.
for ($until = microtime(true) + 5; $databases() !== 'db1' && microtime(true) < $until;) {
    usleep(10000);
}
echo $databases(), "\n";
echo $pooled(), "\n";
?>
--EXPECT--
db0 db1
db1
1 open, 2 opened in this process, 1 closed idle (idle timeout 2 s)
