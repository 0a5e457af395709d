--TEST--
SharedLock: lock() writes the package's row and holds GET_LOCK; release() removes both
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
use ItsMieger\MySqlSharedLocks\SharedLockHandle;
sl_configure();
$pdo = sl_pdo();
$name = sl_name();
$h = SharedLock::lock($name, 5, 10);
var_dump($h instanceof SharedLockHandle);
$row = sl_row($pdo, $name);
var_dump((string) $row["lock_acquired"], (string) $row["ttl"], $row['used'] == $row['connection_id'], abs($row['created'] - time()) <= 2);
var_dump($h->assertTTL(5) === $h);
var_dump($h->release() === $h);
var_dump(sl_is_free($pdo, $name));
// Again, and through the static API.
SharedLock::lock($name, 0, 10);
SharedLock::assertTTL($name);
SharedLock::unlock($name);
var_dump(sl_is_free($pdo, $name));
?>
--EXPECT--
bool(true)
string(1) "1"
string(2) "10"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
