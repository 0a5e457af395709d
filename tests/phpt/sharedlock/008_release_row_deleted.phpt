--TEST--
SharedLock: release() after the row was deleted by hand throws SharedLockReleaseException (and frees GET_LOCK)
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
$pdo->prepare('DELETE FROM shared_locks WHERE name = ?')->execute([$name]);
try {
    $h->release();
} catch (E\SharedLockReleaseException $e) {
    echo get_class($e), ': ', $e->getMessage() === 'Releasing lock "' . $name . '" failed' ? 'message ok' : $e->getMessage(), "\n";
}
var_dump(sl_is_free($pdo, $name));
?>
--EXPECT--
ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException: message ok
bool(true)
