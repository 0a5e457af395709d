--TEST--
RedisLock: a FAIL_BLOCK wait keeps its pooled connections however long it lasts, also when a signal handler's own lock sweeps the pool meanwhile
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
ini_set('nativelock.pool_idle_timeout', '1');
$r = nl_redis();
$name = nl_lock_name('idle-wait');
$info = function (string $row): string {
    ob_start();
    (new ReflectionExtension('nativelock'))->info();
    preg_match('/' . preg_quote($row, '/') . ' => (.*)/', ob_get_clean(), $m);
    return $m[1] ?? '?';
};
$databases = function () use ($r): string {
    $dbs = [];
    foreach ($r->client('list') as $c) {
        if (($c['name'] ?? '') === 'nativelock-' . getmypid()) $dbs[] = 'db' . $c['db'];
    }
    sort($dbs);
    return implode(' ', $dbs) ?: 'none';
};

RedisLock::setRedis(nl_redis_uri());
$holder = nl_redis_hold_in_child($name, 7);
$duringWait = '';
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use ($name, $databases, &$duringWait) {
    // 3 s into the wait, three times the idle timeout: a lock on another pool entry sweeps the
    // pool. The wait's command connection was last fetched from the pool when it began.
    RedisLock::setRedis(nl_redis_uri(1));
    RedisLock::createAndLock($name . '-other', 10)->release();
    RedisLock::setRedis(nl_redis_uri());
    $duringWait = $databases();
});
pcntl_alarm(3);
$lock = RedisLock::createAndLock($name, 30, RedisLock::FAIL_BLOCK);
pcntl_waitpid($holder, $status);
echo "during the wait: $duringWait (command and subscriber on db0, the handler's on db1)\n";
// Nothing of the wait was closed or reopened.
echo $info('RedisLock pooled connections'), "\n";
echo $info('RedisLock wake-up (subscriber) connections'), "\n";
// The next use of the pool closes the handler's connection, unused since the handler ran.
var_dump($lock->isAcquired());
echo $info('RedisLock pooled connections'), "\n";
$lock->release();
?>
--EXPECT--
during the wait: db0 db0 db1 (command and subscriber on db0, the handler's on db1)
2 open, 2 opened in this process, 0 closed idle (idle timeout 1 s)
1 open, 1 opened in this process, 0 closed idle (idle timeout 1 s)
bool(true)
1 open, 2 opened in this process, 1 closed idle (idle timeout 1 s)
