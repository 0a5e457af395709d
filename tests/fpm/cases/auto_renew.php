<?php
// nativelock.auto_renew in the one php-fpm worker: locks with a 2 s TTL stay held through a 3 s
// request (renewed by the worker's renewer thread); however the request ends (normal, exit,
// uncaught exception, fatal error, a lock kept in a global, one nobody stores) they are free
// after it, and the next request finds no lease and no thread left running.
require __DIR__ . '/../lib.php';

$env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
$host = $env('NATIVELOCK_REDIS_HOST', '127.0.0.1');
$port = (int) $env('NATIVELOCK_REDIS_PORT', '16379');
$redis = new Redis();
$redis->connect($host, $port, 2.0);
try {
    $admin = new PDO('mysql:host=' . $env('NATIVELOCK_MYSQL_HOST', '127.0.0.1') . ';port=' . $env('NATIVELOCK_MYSQL_PORT', '13306')
        . ';dbname=' . $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'),
        $env('NATIVELOCK_MYSQL_USER', 'nativelock'), $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'),
        [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
} catch (PDOException $e) {
    fpm_check(false, 'mariadbd reachable: ' . $e->getMessage());
    return;
}
$name = 'fpm-auto-renew-' . getmypid();
$ends = ['normal', 'exit', 'exception', 'fatal', 'global', 'unstored'];
$pids = [];
$notHeld = [];
$leftRunning = [];
$leasesDuring = [];
$leaked = [];
foreach ($ends as $i => $end) {
    $out = trim(strtok(fpm_get('auto_renew_hold.php', ['uri' => "redis://$host:$port", 'name' => $name, 'end' => $end]), "\n"));
    [$pid, $before, $held, $during] = array_pad(explode(' ', $out), 4, '');
    $pids[$pid] = true;
    if ($held !== '111') $notHeld[] = "$end:'$out'";
    if ($i > 0 && $before !== '0/not-running') $leftRunning[] = "before $end: $before";
    $leasesDuring[] = $during;
    $st = $admin->prepare('SELECT COUNT(*) FROM shared_locks WHERE name = ?');
    $st->execute([$name]);
    if ($redis->exists("redislock:$name", "native:$name", "redislock:$name-unstored") || $st->fetchColumn() > 0) {
        $leaked[] = $end;
        $redis->del("redislock:$name", "native:$name", "redislock:$name-unstored");
    }
}
fpm_check(count($pids) === 1, 'auto_renew: one worker served all requests (' . count($pids) . ' pids)');
fpm_check($notHeld === [], 'auto_renew: RedisLock, SharedLock and Nativelock\Lock with a 2 s TTL still held after 3 s in every request' . ($notHeld ? ': ' . implode(', ', $notHeld) : ''));
fpm_check(array_unique($leasesDuring) === ['3'], 'auto_renew: the renewer renewed the 3 locks during each request (' . implode(',', $leasesDuring) . ')');
fpm_check($leaked === [], 'auto_renew: every lock free after the request, however it ended' . ($leaked ? ': leaked after ' . implode(', ', $leaked) : ''));
fpm_check($leftRunning === [], 'auto_renew: no lease and no renewer thread left at the start of the next request' . ($leftRunning ? ': ' . implode(', ', $leftRunning) : ''));
