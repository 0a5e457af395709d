--TEST--
SharedLock: configureConnection() drops the previous session's locks, as the package does by dropping its PDO
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
sl_configure();
var_dump(sl_is_free($pdo, $name));
try {
    $h->release();
} catch (E\SharedLockReleaseException $e) {
    echo get_class($e), "\n";
}
var_dump(SharedLock::releaseAllHeldLocks());
$a = SharedLock::lock(sl_name(), 0, 60);
$b = SharedLock::lock(sl_name(), 0, 60);
var_dump(SharedLock::releaseAllHeldLocks());
?>
--EXPECT--
bool(true)
ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException
int(0)
int(2)
