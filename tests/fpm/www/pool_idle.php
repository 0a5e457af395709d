<?php
// Sets nativelock.pool_idle_timeout for this request and, with use=1, takes and releases a
// RedisLock and a SharedLock (native driver). Prints: pid, and with use=1 the connection id of
// the SharedLock session.
use ItsMieger\MySqlSharedLocks\SharedLock;

ini_set('nativelock.pool_idle_timeout', $_GET['idle']);
$session = 0;
if (!empty($_GET['use'])) {
    $env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
    RedisLock::setRedis($_GET['uri']);
    RedisLock::createAndLock($_GET['name'], 10)->release();
    SharedLock::configureConnection($env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'),
        $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'), $env('NATIVELOCK_MYSQL_USER', 'nativelock'),
        $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'), 'utf8mb4', (int) $env('NATIVELOCK_MYSQL_PORT', '13306'));
    $lock = SharedLock::lock($_GET['name'], 2, 60);
    $st = SharedLock::getConnection()->prepare('SELECT connection_id FROM shared_locks WHERE name = ?');
    $st->execute([$_GET['name']]);
    $session = (int) $st->fetchColumn();
    $lock->release();
}
echo getmypid(), ' ', $session, "\n";
