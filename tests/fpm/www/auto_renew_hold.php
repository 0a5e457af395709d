<?php
require __DIR__ . '/end_request.inc';
// With nativelock.auto_renew on: first reports the renewer thread as this request found it, then
// takes a RedisLock, a SharedLock (native driver) and a Nativelock\Lock on Redis, each with a
// 2 s TTL, stays 3 s (past the TTL), checks they are still held, and ends the request the way
// asked without releasing them.
// Prints: pid, renewer "leases/running" at the start, the three locks' states after 3 s.
use ItsMieger\MySqlSharedLocks\SharedLock;

/** The auto-renewal rows of phpinfo(): [locks renewed now, "running"|"not running"]. */
function renewer_state(): array
{
    ob_start();
    phpinfo(INFO_MODULES);
    $text = strip_tags(ob_get_clean());
    preg_match('/Auto-renewal locks renewed now\s*=?>?\s*(\d+)/', $text, $leases);
    preg_match('/Auto-renewal thread\s*=?>?\s*(running|not running)/', $text, $thread);
    return [(int) ($leases[1] ?? -1), $thread[1] ?? '?'];
}

$env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
// The last request's leases ended with it; its thread may still be closing its connections.
for ($until = microtime(true) + 2; ; usleep(20000)) {
    [$leases, $thread] = renewer_state();
    if (($leases === 0 && $thread === 'not running') || microtime(true) > $until) break;
}
ini_set('nativelock.auto_renew', '1');
$name = $_GET['name'];
RedisLock::setRedis($_GET['uri']);
$redisLock = RedisLock::createAndLock($name, 2, RedisLock::FAIL_RETURN);
SharedLock::configureConnection($env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'), $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'),
    $env('NATIVELOCK_MYSQL_USER', 'nativelock'), $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'), 'utf8mb4',
    (int) $env('NATIVELOCK_MYSQL_PORT', '13306'));
$handle = SharedLock::lock($name, 2, 2);
$native = new Nativelock\Lock(new Nativelock\RedisBackend($_GET['uri']), "native:$name");
$native->acquire(2.0, 2.0);
usleep(3_000_000);
$held = [
    $redisLock && $redisLock->isAcquired() ? 1 : 0,
    (function () use ($handle) {
        try {
            $handle->assertTTL(0);   // whole seconds: 1..2 s left between renewals
            return 1;
        } catch (Exception $e) {
            return 0;
        }
    })(),
    $native->isHeld() ? 1 : 0,
];
[$nowLeases] = renewer_state();
echo getmypid(), " $leases/", str_replace(' ', '-', $thread), ' ', implode('', $held), " $nowLeases\n";
end_request_as_asked($redisLock, [
    'unstored' => function () use ($name) {
        RedisLock::createAndLock("$name-unstored", 2);
    },
]);
