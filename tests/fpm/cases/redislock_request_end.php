<?php
// Over 100 requests to one php-fpm worker, a RedisLock taken in a request is free after it,
// however the request ended; the worker keeps ONE pooled connection to Redis for all of them
// (same CLIENT ID throughout, CLIENT LIST count flat).
require __DIR__ . '/../lib.php';

$host = getenv('NATIVELOCK_REDIS_HOST') ?: '127.0.0.1';
$port = (int) (getenv('NATIVELOCK_REDIS_PORT') ?: 16379);
$uri = "redis://$host:$port";
$redis = new Redis();
$redis->connect($host, $port, 2.0);
$name = 'fpm-redislock-' . getmypid() . '-' . bin2hex(random_bytes(3));

$workerConnections = function (int $pid) use ($redis): array {
    $ids = [];
    foreach ($redis->client('list') as $c) {
        if (($c['name'] ?? '') === "nativelock-$pid") {
            $ids[] = $c['id'];
        }
    }
    return $ids;
};

$ends = ['normal', 'exit', 'exception', 'fatal', 'global', 'unstored'];
$pids = [];
$notAcquired = [];
$leaked = [];
$ids = [];
$counts = [];
for ($i = 0; $i < 120; $i++) {
    $end = $ends[$i % count($ends)];
    $out = trim(strtok(fpm_get('redislock_hold.php', ['uri' => $uri, 'name' => $name, 'end' => $end]), "\n"));
    [$pid, $result] = array_pad(explode(' ', $out), 2, '');
    $pids[$pid] = true;
    if ($result !== '1') {
        $notAcquired[] = "$i/$end:'$out'";
    }
    if ($redis->exists("redislock:$name", "redislock:$name-unstored")) {
        $leaked[] = "$i/$end";
        $redis->del("redislock:$name", "redislock:$name-unstored");
    }
    $now = $workerConnections((int) $pid);
    $counts[] = count($now);
    foreach ($now as $id) {
        $ids[$id] = true;
    }
}
fpm_check(count($pids) === 1, 'RedisLock: one worker served all 120 requests (' . count($pids) . ' pids)');
fpm_check($notAcquired === [], 'RedisLock: every request acquired the lock' . ($notAcquired ? ': ' . implode(', ', array_slice($notAcquired, 0, 5)) : ''));
fpm_check($leaked === [], 'RedisLock: lock free after every request (normal, exit, exception, fatal, global, unstored)' . ($leaked ? ': leaked after ' . implode(', ', array_slice($leaked, 0, 10)) : ''));
fpm_check(max($counts) === 1 && min($counts) === 1, 'RedisLock: the worker holds exactly one connection after every request (counts ' . min($counts) . '..' . max($counts) . ')');
fpm_check(count($ids) === 1, 'RedisLock: the same pooled connection (CLIENT ID) served all requests (' . count($ids) . ' ids)');
