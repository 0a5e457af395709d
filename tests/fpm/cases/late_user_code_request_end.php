<?php
// Locks taken by user code that PHP runs after nativelock's request shutdown (a session save
// handler's write() or close(), a user stream wrapper closed with
// the resource list) are released when the request ends, with every SharedLock driver; the next
// request of the same worker runs normally (nothing of the last one's state reaches it).
// SharedLock takes no lock through a PDO then: it says so.
require __DIR__ . '/../lib.php';

use ItsMieger\MySqlSharedLocks\SharedLock;

$env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
$uri = 'redis://' . $env('NATIVELOCK_REDIS_HOST', '127.0.0.1') . ':' . (int) $env('NATIVELOCK_REDIS_PORT', '16379');
SharedLock::configureConnection($env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'), $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'),
    $env('NATIVELOCK_MYSQL_USER', 'nativelock'), $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'), 'utf8mb4',
    (int) $env('NATIVELOCK_MYSQL_PORT', '13306'));
RedisLock::setRedis($uri);
$dir = fpm_lockdir() . 'late-locks/';
@mkdir($dir);
Filelock::$lockpath = fpm_lockdir();
$report = fpm_lockdir() . 'late-report';
// Through a PDO SharedLock refuses: that lock could not be released (the PDO is freed first;
// a persistent one would keep it).
$refused = 'shared: ItsMieger\\MySqlSharedLocks\\Exception\\SharedLockAcquireException: no lock through a PDO '
    . "after request end released the request's locks (nothing could release it); the native driver can";

foreach (['write', 'close', 'stream'] as $via) {
    foreach (['native', 'pdo', 'persistent'] as $driver) {
        $expected = $driver === 'native' ? 'shared,file,redis,native-redis,native-file' : "$refused,file,redis,native-redis,native-file";
        $pids = [];
        $held = [];
        $reports = [];
        for ($i = 0; $i < 3; $i++) {
            $name = "fpm-late-$via-$driver-$i-" . getmypid();
            @unlink($report);
            $pids[] = trim(fpm_get('late_user_code_locks.php',
                ['via' => $via, 'name' => $name, 'driver' => $driver, 'uri' => $uri, 'dir' => $dir, 'report' => $report]));
            $reports[] = (string) @file_get_contents($report);
            // Free for another client at once: taken with no wait (SharedLock: 1 s, its least).
            $still = [];
            try {
                SharedLock::lock($name, 1, 5)->release();
            } catch (Exception $e) {
                $still[] = 'shared';
            }
            $file = new Filelock($name);
            $file->lock(0.0) === LOCKFILE_SUCCESS ? $file->unlock() : $still[] = 'file';
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
            "$via/$driver: one worker served every request, none failed (" . implode(' ', $pids) . ')');
        fpm_check(array_unique($reports) === [$expected],
            "$via/$driver: the late code took every lock (" . implode(' | ', array_unique($reports)) . ')');
        fpm_check($held === [], "$via/$driver: every lock it took is free after its request" . ($held ? ': ' . implode('; ', $held) : ''));
        $next = trim(fpm_get('late_user_code_locks.php', ['via' => 'check']));
        fpm_check($next === 'RedisLock not configured', "$via/$driver: its setRedis() did not reach the next request ($next)");
    }
}
