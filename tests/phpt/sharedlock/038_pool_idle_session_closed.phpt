--TEST--
SharedLock: a pooled native session unused for nativelock.pool_idle_timeout is closed at the next use of the pool (seen in the server's process list and in php --ri)
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
// Configures a session by its charset (another pool entry each) and returns its server-side id.
$sessionFor = function (string $charset) use ($p, $pdo): int {
    SharedLock::configureConnection($p['host'], $p['db'], $p['user'], $p['password'], $charset, $p['port']);
    $name = sl_name();
    $h = SharedLock::lock($name, 0, 60);
    $id = (int) sl_row($pdo, $name)['connection_id'];
    $h->release();
    return $id;
};
// Which of the sessions the server still lists; the server notices a QUIT on its next turn,
// so a list that should shrink is given a generous moment.
$alive = function (array $sessions, ?array $expected = null) use ($pdo): array {
    for ($until = microtime(true) + 5;;) {
        $ids = $pdo->query('SELECT ID FROM information_schema.PROCESSLIST')->fetchAll(PDO::FETCH_COLUMN);
        $listed = array_keys(array_filter($sessions, fn ($id) => in_array($id, $ids)));
        if ($expected === null || $listed === $expected || microtime(true) > $until) return $listed;
        usleep(10000);
    }
};

$sessions = ['utf8mb4' => $sessionFor('utf8mb4'), 'latin1' => $sessionFor('latin1')];
echo implode(' ', $alive($sessions)), "\n";
// The utf8mb4 session stands unused for 6 s, three times the idle timeout; then the latin1
// session (the configured one) runs a lock.
usleep(6_000_000);
SharedLock::lock(sl_name(), 0, 60)->release();
echo implode(' ', $alive($sessions, ['latin1'])), "\n";
echo $pooled(), "\n";
?>
--EXPECT--
utf8mb4 latin1
latin1
1 open, 2 opened in this process, 1 closed idle (idle timeout 2 s)
