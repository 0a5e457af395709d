--TEST--
Fencing, SharedLock: without the counter table, lock() throws SharedLockAcquireException naming it and gives the lock back (both drivers)
--CONFLICTS--
all
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
$pdo->exec('RENAME TABLE shared_locks_fences TO shared_locks_fences_away');
register_shutdown_function(fn() => sl_pdo()->exec('RENAME TABLE shared_locks_fences_away TO shared_locks_fences'));
$name = sl_name('missing');
foreach (['native', 'pdo'] as $driver) {
    if ($driver === 'native') sl_configure(); else SharedLock::setConnection(sl_pdo());
    try {
        SharedLock::lock($name, 1, 10);
        echo "acquired?\n";
    } catch (ItsMieger\MySqlSharedLocks\Exception\SharedLockAcquireException $e) {
        echo "$driver: ", get_class($e), ': ', preg_replace('/unusable \(.*\)$/s', 'unusable (…)', $e->getMessage()), "\n";
    }
    echo 'free again: ', var_export(sl_is_free($pdo, $name), true), "\n";
    echo 'releaseAllHeldLocks: ', SharedLock::releaseAllHeldLocks(), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/fencing.inc';
try { sl_pdo()->exec('RENAME TABLE shared_locks_fences_away TO shared_locks_fences'); } catch (Throwable $e) {}
?>
--EXPECT--
native: ItsMieger\MySqlSharedLocks\Exception\SharedLockAcquireException: Fencing counter table shared_locks_fences is missing or unusable (…)
free again: true
releaseAllHeldLocks: 0
pdo: ItsMieger\MySqlSharedLocks\Exception\SharedLockAcquireException: Fencing counter table shared_locks_fences is missing or unusable (…)
free again: true
releaseAllHeldLocks: 0
