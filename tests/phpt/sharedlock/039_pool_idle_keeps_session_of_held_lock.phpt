--TEST--
SharedLock: the request's native session, which holds a lock, is not closed however long it stands unused, while an idle session beside it is
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
ini_set('nativelock.pool_idle_timeout', '2');
$p = sl_params();
$pdo = sl_pdo();
$pooled = function (): string {
    ob_start();
    (new ReflectionExtension('nativelock'))->info();
    preg_match('/SharedLock pooled native sessions => (.*)/', ob_get_clean(), $m);
    return $m[1] ?? '?';
};
$configure = fn (string $charset) =>
    SharedLock::configureConnection($p['host'], $p['db'], $p['user'], $p['password'], $charset, $p['port']);
// The server-side id of the configured session, read from the row of a lock taken on it.
$lockOnSession = function () use ($pdo): array {
    $name = sl_name();
    $h = SharedLock::lock($name, 0, 60);
    return [$h, $name, (int) sl_row($pdo, $name)['connection_id']];
};
$alive = function (array $sessions, ?array $expected = null) use ($pdo): array {
    for ($until = microtime(true) + 5;;) {
        $ids = $pdo->query('SELECT ID FROM information_schema.PROCESSLIST')->fetchAll(PDO::FETCH_COLUMN);
        $listed = array_keys(array_filter($sessions, fn ($id) => in_array($id, $ids)));
        if ($expected === null || $listed === $expected || microtime(true) > $until) return $listed;
        usleep(10000);
    }
};

$configure('latin1');
[$h, , $latin1] = $lockOnSession();
$h->release();
$configure('utf8mb4');
[$held, $name, $utf8mb4] = $lockOnSession();
$sessions = ['latin1' => $latin1, 'utf8mb4' => $utf8mb4];
// Both sessions stand unused for 5 s, past the idle timeout; the utf8mb4 one holds the lock.
usleep(5_000_000);
$held->assertTTL(30);   // the pool is swept here
echo implode(' ', $alive($sessions, ['utf8mb4'])), "\n";
var_dump(sl_row($pdo, $name)['connection_id'] == $sessions['utf8mb4']);
$held->release();
var_dump(sl_is_free($pdo, $name));
echo $pooled(), "\n";
?>
--EXPECT--
utf8mb4
bool(true)
bool(true)
1 open, 2 opened in this process, 1 closed idle (idle timeout 2 s)
