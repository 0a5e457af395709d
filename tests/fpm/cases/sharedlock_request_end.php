<?php
// Over 100 requests to the one php-fpm worker, a SharedLock taken in a request is free after it
// however the request ended; the native session is reused (same connection id, the server's
// connection count stays flat); the PDO drivers release before their PDO goes away.
require __DIR__ . '/../lib.php';

$env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
$port = (int) $env('NATIVELOCK_MYSQL_PORT', '13306');
$host = $env('NATIVELOCK_MYSQL_HOST', '127.0.0.1');
try {
    $admin = new PDO("mysql:host=$host;port=$port;dbname=" . $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'),
        $env('NATIVELOCK_MYSQL_USER', 'nativelock'), $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'),
        [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
} catch (PDOException $e) {
    fpm_check(false, 'mariadbd reachable at ' . $host . ':' . $port . ': ' . $e->getMessage());
    return;
}
$threads = fn() => (int) $admin->query("SHOW GLOBAL STATUS LIKE 'Threads_connected'")->fetch(PDO::FETCH_NUM)[1];
$isFree = function (string $name) use ($admin): bool {
    $st = $admin->prepare('SELECT IS_FREE_LOCK(?) = 1 AND NOT EXISTS (SELECT 1 FROM shared_locks WHERE name = ?)');
    $st->execute([$name, $name]);
    return (bool) $st->fetchColumn();
};

$ends = ['normal', 'exit', 'exception', 'fatal', 'global'];
foreach (['native' => 100, 'pdo' => 25, 'set' => 25] as $driver => $count) {
    $name = 'fpm-sl-' . $driver . '-' . getmypid();
    $pids = [];
    $sessions = [];
    $notAcquired = [];
    $leaked = [];
    $threadCounts = [];
    for ($i = 0; $i < $count; $i++) {
        $end = $ends[$i % count($ends)];
        $out = trim(strtok(fpm_get('sharedlock_hold.php', ['name' => $name, 'end' => $end, 'driver' => $driver]), "\n"));
        [$pid, $result, $session] = array_pad(explode(' ', $out), 3, '');
        $pids[$pid] = true;
        $sessions[$session] = true;
        if ($result !== '1') {
            $notAcquired[] = "$i/$end:'$out'";
        }
        if (!$isFree($name)) {
            $leaked[] = "$i/$end";
            $admin->prepare('DELETE FROM shared_locks WHERE name = ?')->execute([$name]);
        }
        $threadCounts[] = $threads();
    }
    fpm_check(count($pids) === 1, "$driver: one worker served all $count requests (" . count($pids) . ' pids)');
    fpm_check($notAcquired === [], "$driver: every request acquired the lock" . ($notAcquired ? ': ' . implode(', ', array_slice($notAcquired, 0, 3)) : ''));
    fpm_check($leaked === [], "$driver: lock free after every request (normal, exit, exception, fatal, global)" . ($leaked ? ': leaked after ' . implode(', ', array_slice($leaked, 0, 10)) : ''));
    if ($driver === 'native') {
        fpm_check(count($sessions) === 1, "native: one pooled session served all $count requests (" . count($sessions) . ' connection ids)');
        $spread = max($threadCounts) - min($threadCounts);
        fpm_check($spread <= 1, "native: server connection count flat over $count requests (min " . min($threadCounts) . ', max ' . max($threadCounts) . ')');
    }
}
