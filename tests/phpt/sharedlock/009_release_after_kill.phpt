--TEST--
SharedLock: release() after KILL of the lock session throws SharedLockReleaseException; the next lock reconnects
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
sl_configure();
$pdo = sl_pdo();
$name = sl_name();
$h = SharedLock::lock($name, 0, 60);
$pdo->exec('KILL ' . (int) sl_row($pdo, $name)['connection_id']);
usleep(100000);
try {
    $h->release();
} catch (E\SharedLockReleaseException $e) {
    echo get_class($e), "\n";
}
// The dead session's row is cleaned by the next contender.
$h = SharedLock::lock($name, 2, 60);
echo "relocked\n";
$h->release();
var_dump(sl_is_free($pdo, $name));
?>
--EXPECT--
ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException
relocked
bool(true)
