--TEST--
Fencing, MySQL: tokens from shared_locks_fences on both SharedLock drivers and Nativelock\MysqlBackend, one counter per name; the PDO driver leaves the application's LAST_INSERT_ID() alone; a missing counter table fails the acquisition and leaves the lock free
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.fencing=1
--FILE--
<?php
require __DIR__ . '/fencing.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
$pdo = sl_pdo();
$name = sl_name('fence');
$counter = function () use ($pdo, $name) {
    $st = $pdo->prepare('SELECT fence FROM shared_locks_fences WHERE name = ?');
    $st->execute([$name]);
    return $st->fetchColumn();
};

sl_configure();   // native driver
$t = [];
for ($i = 0; $i < 2; $i++) {
    $h = SharedLock::lock($name, 5, 10);
    $t[] = $h->getFencingToken();
    $h->release();
}
echo 'native driver: ', implode(' ', $t), ', counter ', $counter(), "\n";

// PDO driver (the application's session): the same counter, LAST_INSERT_ID() untouched.
$app = sl_pdo();
$app->exec('CREATE TEMPORARY TABLE fx_app (id int AUTO_INCREMENT PRIMARY KEY, v int)');
$app->exec('INSERT INTO fx_app (v) VALUES (1), (2)');
$app->exec('INSERT INTO fx_app (v) VALUES (3)');
$before = $app->query('SELECT LAST_INSERT_ID()')->fetchColumn();
SharedLock::setConnection($app);
$h = SharedLock::lock($name, 5, 10);
echo 'pdo driver: ', $h->getFencingToken(), ', counter ', $counter(), "\n";
echo 'LAST_INSERT_ID() kept: ', var_export($app->query('SELECT LAST_INSERT_ID()')->fetchColumn() === $before, true), "\n";
// Another handle object for the held name tells the same token.
echo 'new handle: ', (new ItsMieger\MySqlSharedLocks\SharedLockHandle($name))->getFencingToken(), "\n";
$h->release();

// Nativelock\MysqlBackend on the same name: the same counter.
$lock = new Nativelock\Lock(nv_backend('mysql'), $name);
$lock->acquire(10);
echo 'native API: ', $lock->getFencingToken(), "\n";
$lock->release();
$lock->acquire(10, 5.0);
echo 'native API, waiting path: ', $lock->getFencingToken(), "\n";
$lock->release();

// A lock table without its counter table: the acquisition fails, nothing stays held.
$table = 'fx_locks_' . getmypid();
$pdo->exec("CREATE TABLE $table LIKE shared_locks");
$p = sl_params();
$other = new Nativelock\Lock(new Nativelock\MysqlBackend("mysql:host={$p['host']};port={$p['port']};dbname={$p['db']}", $p['user'], $p['password'], $table), $name);
try {
    $other->acquire(10);
} catch (Nativelock\LockException $e) {
    echo get_class($e), ': ', preg_replace('/unusable \(.*\)$/s', 'unusable (…)', $e->getMessage()), "\n";
}
var_dump($other->isAcquired());
echo 'GET_LOCK free: ', $pdo->query('SELECT IS_FREE_LOCK(' . $pdo->quote($name) . ')')->fetchColumn(), "\n";
echo 'no row left: ', $pdo->query("SELECT COUNT(*) FROM $table")->fetchColumn(), "\n";
$pdo->exec("CREATE TABLE {$table}_fences LIKE shared_locks_fences");
var_dump($other->acquire(10));
echo 'own counter table: ', $other->getFencingToken(), "\n";
$other->release();
$pdo->exec("DROP TABLE $table, {$table}_fences");
fx_cleanup('mysql', $name, '');
?>
--EXPECTF--
native driver: 1 2, counter 2
pdo driver: 3, counter 3
LAST_INSERT_ID() kept: true
new handle: 3
native API: 4
native API, waiting path: 5
Nativelock\LockException: Nativelock\Lock::acquire(): Fencing counter table fx_locks_%d_fences is missing or unusable (…)
bool(false)
GET_LOCK free: 1
no row left: 0
bool(true)
own counter table: 1
