<?php
// The worker's pooled Redis connection is checked before reuse: when the server closed it
// between requests (CLIENT KILL here; a restart or idle timeout in real life), the next
// request transparently opens a new one instead of failing.
require __DIR__ . '/../lib.php';

$host = getenv('NATIVELOCK_REDIS_HOST') ?: '127.0.0.1';
$port = (int) (getenv('NATIVELOCK_REDIS_PORT') ?: 16379);
$uri = "redis://$host:$port";
$redis = new Redis();
$redis->connect($host, $port, 2.0);
$name = 'fpm-redislock-reconnect-' . getmypid();

$ids = function (int $pid) use ($redis): array {
    return array_values(array_map(fn($c) => $c['id'], array_filter($redis->client('list'),
        fn($c) => ($c['name'] ?? '') === "nativelock-$pid")));
};
$out = trim(fpm_get('redislock_hold.php', ['uri' => $uri, 'name' => $name]));
[$pid, $got] = explode(' ', $out);
$before = $ids((int) $pid);
$killed = 0;
foreach ($before as $id) {
    $killed += (int) $redis->rawCommand('CLIENT', 'KILL', 'ID', (string) $id);
}
usleep(50000);
$results = [];
for ($i = 0; $i < 5; $i++) {
    $results[] = trim(fpm_get('redislock_hold.php', ['uri' => $uri, 'name' => $name]));
}
$after = $ids((int) $pid);
fpm_check($got === '1' && $killed === 1, "RedisLock: first request held the lock on one pooled connection (killed $killed)");
fpm_check($results === array_fill(0, 5, "$pid 1"), 'RedisLock: requests after the server closed the connection still work: ' . implode(', ', $results));
fpm_check(count($after) === 1 && $after !== $before, 'RedisLock: a new pooled connection replaced the closed one');
