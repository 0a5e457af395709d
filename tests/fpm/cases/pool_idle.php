<?php
// nativelock.pool_idle_timeout at request end, in the one php-fpm worker: its pooled Redis
// connection and native SharedLock session stay for the next request while they are used within
// the timeout, and close at the end of the first request after they stood unused past it (also
// a request that does not use them); with 0, at the end of the request that used them.
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
$name = 'fpm-pool-idle-' . getmypid();
$request = function (string $idle, bool $use) use ($host, $port, $name): array {
    $out = trim(strtok(fpm_get('pool_idle.php', ['idle' => $idle, 'use' => $use ? 1 : 0, 'name' => $name,
        'uri' => "redis://$host:$port"]), "\n"));
    return array_map('intval', array_pad(explode(' ', $out), 2, '0'));
};
// What the servers list of the worker: its Redis connections and whether its session is there.
// A socket closed at request end is noticed on the server's next turn: a state that should
// change is given a generous moment.
$serverSide = function (int $pid, int $session, ?string $expected = null) use ($redis, $admin): string {
    for ($until = microtime(true) + 5;;) {
        $clients = count(array_filter($redis->client('list'), fn($c) => ($c['name'] ?? '') === "nativelock-$pid"));
        $st = $admin->prepare('SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?');
        $st->execute([$session]);
        $state = "redis $clients, session " . ($st->fetchColumn() ? 'open' : 'closed');
        if ($expected === null || $state === $expected || microtime(true) > $until) return $state;
        usleep(20000);
    }
};

[$pid, $session] = $request('60', true);
$state = $serverSide($pid, $session);
fpm_check($state === 'redis 1, session open', "pool_idle_timeout=60: the connections a request used stay pooled after it ($state)");
usleep(1_500_000);
$request('60', false);
$state = $serverSide($pid, $session);
fpm_check($state === 'redis 1, session open', "pool_idle_timeout=60: still pooled after a request that did not use them, 1.5 s later ($state)");
usleep(1_500_000);
[$again, ] = $request('1', false);
$state = $serverSide($pid, $session, 'redis 0, session closed');
fpm_check($again === $pid && $state === 'redis 0, session closed', "pool_idle_timeout=1: closed at the end of a request after standing unused 3 s ($state)");

[$pid, $session] = $request('0', true);
$state = $serverSide($pid, $session, 'redis 0, session closed');
fpm_check($session > 0 && $state === 'redis 0, session closed', "pool_idle_timeout=0: closed at the end of the request that used them ($state)");
