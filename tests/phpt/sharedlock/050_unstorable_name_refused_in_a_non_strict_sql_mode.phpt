--TEST--
SharedLock: a name the lock table's character set cannot hold is refused before anything is taken, also in a non-strict sql_mode
--DESCRIPTION--
A strict sql_mode refuses the row's INSERT; a non-strict one stored the name mangled ('??') with
a warning, lock() returned a handle, and every later statement about the row failed (illegal mix
of collations): the lock could not be released, not even at request end, and held GET_LOCK for
the life of the session (until 2026-12-08). Now the name is asked about first. The application's
PDO carries the sql_mode; a name the table can hold (latin1: 'é') still works.
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
use ItsMieger\MySqlSharedLocks\Exception as E;
$p = sl_params();
$side = sl_pdo();
$side->exec('SET NAMES utf8mb4');
foreach (["''", "'STRICT_ALL_TABLES'"] as $mode) {
    echo "-- sql_mode $mode\n";
    $app = new PDO("mysql:host={$p['host']};port={$p['port']};dbname={$p['db']};charset=utf8mb4",
        $p['user'], $p['password'], [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $app->exec("SET SESSION sql_mode = $mode");
    SharedLock::setConnection($app);
    $tag = getmypid() . '-' . bin2hex(random_bytes(3));
    $name = "t-日本-$tag";
    try {
        SharedLock::lock($name, 0, 60);
        echo "lock: returned a handle\n";
    } catch (E\SharedLockAcquireException $e) {
        // Through a PDO the cause is PDO's own exception: the server's error 1267.
        $why = $e->getPrevious() ? $e->getPrevious()->getMessage() : $e->getMessage();
        echo "lock: SharedLockAcquireException (", str_contains($why, '1267') ? 'error 1267' : $why, ")\n";
    }
    echo "GET_LOCK: ", $side->query('SELECT IS_USED_LOCK(' . $side->quote($name) . ')')->fetchColumn() ? 'held' : 'free', "\n";
    echo "rows: ", $side->query("SELECT COUNT(*) FROM shared_locks WHERE name LIKE '%$tag'")->fetchColumn(), "\n";
    $h = SharedLock::lock("t-é-$tag", 0, 60);
    $h->release();
    echo "a latin1 name: locked and released\n";
}
echo "-- the native driver\n";
ini_set('nativelock.sharedlock_driver', 'native');
sl_configure();
$name = 't-日本-' . getmypid();
try {
    SharedLock::lock($name, 0, 60);
    echo "lock: returned a handle\n";
} catch (E\SharedLockAcquireException $e) {
    $why = $e->getPrevious() ? $e->getPrevious()->getMessage() : $e->getMessage();
    echo "lock: SharedLockAcquireException (",
        str_contains($why, "cannot be stored in the lock table's character set") ? 'says why' : $why, ")\n";
}
echo "GET_LOCK: ", $side->query('SELECT IS_USED_LOCK(' . $side->quote($name) . ')')->fetchColumn() ? 'held' : 'free', "\n";
?>
--EXPECT--
-- sql_mode ''
lock: SharedLockAcquireException (error 1267)
GET_LOCK: free
rows: 0
a latin1 name: locked and released
-- sql_mode 'STRICT_ALL_TABLES'
lock: SharedLockAcquireException (error 1267)
GET_LOCK: free
rows: 0
a latin1 name: locked and released
-- the native driver
lock: SharedLockAcquireException (says why)
GET_LOCK: free
