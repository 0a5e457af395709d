--TEST--
SharedLock: with the native driver getConnection() returns a PDO of its own (a different session than the lock's)
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
$name = sl_name();
$h = SharedLock::lock($name, 0, 60);
$conn = SharedLock::getConnection();
var_dump(get_class($conn), $conn === SharedLock::getConnection());
$row = sl_row(sl_pdo(), $name);
var_dump($row['connection_id'] != $conn->query('SELECT CONNECTION_ID()')->fetchColumn());
$h->release();
?>
--EXPECT--
string(3) "PDO"
bool(true)
bool(true)
