<?php
// Locks taken by a user session save handler's write(), which PHP calls at request end, are
// released when the request ends, with every driver; the next request of the same worker
// runs normally (the PDO driver's state of the last one is gone with it).
require __DIR__ . '/../lib.php';

$env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
$uri = 'redis://' . $env('NATIVELOCK_REDIS_HOST', '127.0.0.1') . ':' . (int) $env('NATIVELOCK_REDIS_PORT', '16379');
$mysqlHost = $env('NATIVELOCK_MYSQL_HOST', '127.0.0.1');
$mysqlPort = (int) $env('NATIVELOCK_MYSQL_PORT', '13306');
try {
    $admin = new PDO("mysql:host=$mysqlHost;port=$mysqlPort;dbname=" . $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'),
        $env('NATIVELOCK_MYSQL_USER', 'nativelock'), $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'),
        [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
} catch (PDOException $e) {
    fpm_check(false, 'mariadbd reachable: ' . $e->getMessage());
    return;
}
$sharedFree = function (string $name) use ($admin): bool {
    $st = $admin->prepare('SELECT IS_FREE_LOCK(?) = 1 AND NOT EXISTS (SELECT 1 FROM shared_locks WHERE name = ?)');
    $st->execute([$name, $name]);
    return (bool) $st->fetchColumn();
};
$dir = fpm_lockdir() . 'native-session/';
@mkdir($dir);
$report = fpm_lockdir() . 'session-report';
$expected = 'shared,file,redis,native-redis,native-file';

foreach (['native', 'pdo'] as $driver) {
    $pids = [];
    $held = [];
    $reports = [];
    for ($i = 0; $i < 3; $i++) {
        $name = "fpm-session-$driver-$i-" . getmypid();
        @unlink($report);
        $pids[] = trim(fpm_get('session_write_locks.php',
            ['name' => $name, 'driver' => $driver, 'uri' => $uri, 'dir' => $dir, 'report' => $report]));
        $reports[] = (string) @file_get_contents($report);
        $still = [];
        if (!$sharedFree($name)) {
            $still[] = 'shared';
        }
        if (file_exists(fpm_lockdir() . str_replace('-', '_', $name) . '.lock')) {
            $still[] = 'file';
        }
        RedisLock::setRedis($uri);
        $redis = RedisLock::createAndLock($name, 5, RedisLock::FAIL_RETURN);
        $redis ? $redis->release() : $still[] = 'redis';
        $native = new Nativelock\Lock(new Nativelock\RedisBackend($uri), $name . '-native');
        $native->acquire(5) ? $native->release() : $still[] = 'native-redis';
        $nativeFile = new Nativelock\Lock(new Nativelock\FileBackend($dir), $name . '-native');
        $nativeFile->acquire(5) ? $nativeFile->release() : $still[] = 'native-file';
        if ($still) {
            $held[] = "$i: " . implode(',', $still);
        }
    }
    fpm_check(count(array_unique($pids)) === 1 && ctype_digit($pids[0]),
        "$driver: one worker served every request, none failed (" . implode(' ', $pids) . ')');
    fpm_check(array_unique($reports) === [$expected],
        "$driver: write() took every lock (" . implode(' | ', array_unique($reports)) . ')');
    fpm_check($held === [], "$driver: every lock write() took is free after its request" . ($held ? ': ' . implode('; ', $held) : ''));
}
