--TEST--
SharedLock: a row whose lock_acquired was reset by hand is cleaned only after its TTL
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
$pdo->prepare('INSERT INTO shared_locks (name, connection_id, created, ttl, lock_acquired) VALUES (?, 999999999, unix_timestamp(), 2, 0)')->execute([$name]);
try {
    SharedLock::lock($name, 0, 60);
} catch (E\SharedLockTimeoutException $e) {
    echo get_class($e), "\n";
}
$t = microtime(true);
$h = SharedLock::lock($name, 15, 60);
$waited = microtime(true) - $t;
var_dump($waited > 1.0, $waited < 8.0);
$h->release();
?>
--EXPECT--
ItsMieger\MySqlSharedLocks\Exception\SharedLockTimeoutException
bool(true)
bool(true)
