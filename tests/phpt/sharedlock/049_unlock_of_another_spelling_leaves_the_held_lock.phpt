--TEST--
SharedLock: unlock() of a name that differs from a held one only in case or trailing spaces throws and leaves the held lock (row and GET_LOCK) alone
--DESCRIPTION--
The row is found by the table's collation (latin1_swedish_ci: case and trailing spaces do not
count), GET_LOCK by the server's lock names (they do). Until 2026-12-08 unlock('a') of a held 'A'
deleted A's row and released nothing: A's GET_LOCK was left without its row, a waiter took
that for a dead holder and KILLed the session after a second, inside A's TTL, and every other
lock of the session went with it. Both drivers.
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
$side = sl_pdo();
$holds = function (string $name) use ($side): string {
    $row = sl_row($side, $name);
    $used = $side->query('SELECT IS_USED_LOCK(' . $side->quote($name) . ')')->fetchColumn();
    return ($row && $row['name'] === $name ? 'row' : 'no row') . ', ' . ($used ? 'GET_LOCK held' : 'GET_LOCK free');
};
foreach (['native', 'pdo'] as $driver) {
    echo "-- $driver\n";
    if ($driver === 'native') {
        ini_set('nativelock.sharedlock_driver', 'native');
        sl_configure();
    } else {
        SharedLock::setConnection(sl_pdo());
    }
    $name = sl_name('Case');
    $h = SharedLock::lock($name, 0, 600);
    foreach ([strtolower($name), $name . ' '] as $other) {
        try {
            SharedLock::unlock($other);
            echo "unlock of another spelling: returned\n";
        } catch (E\SharedLockReleaseException $e) {
            echo "unlock of another spelling: SharedLockReleaseException\n";
        }
        echo "  held lock: ", $holds($name), "\n";
    }
    $h->assertTTL(60);
    echo "assertTTL: ok\n";
    $h->release();
    echo "released: ", $holds($name), "\n";
}
?>
--EXPECT--
-- native
unlock of another spelling: SharedLockReleaseException
  held lock: row, GET_LOCK held
unlock of another spelling: SharedLockReleaseException
  held lock: row, GET_LOCK held
assertTTL: ok
released: no row, GET_LOCK free
-- pdo
unlock of another spelling: SharedLockReleaseException
  held lock: row, GET_LOCK held
unlock of another spelling: SharedLockReleaseException
  held lock: row, GET_LOCK held
assertTTL: ok
released: no row, GET_LOCK free
