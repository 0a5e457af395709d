--TEST--
SharedLock: with nativelock.sharedlock_driver=pdo, configureConnection() opens the package's PDO lazily and getConnection() is the lock session
--INI--
nativelock.sharedlock_driver=pdo
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
var_dump($conn->getAttribute(PDO::ATTR_ERRMODE) === PDO::ERRMODE_EXCEPTION);
$row = sl_row(sl_pdo(), $name);
var_dump($row['connection_id'] == $conn->query('SELECT CONNECTION_ID()')->fetchColumn());
// Statements of the application on getConnection() see the lock's session.
var_dump($conn->query("SELECT IS_USED_LOCK('$name') = CONNECTION_ID()")->fetchColumn() == 1);
$h->release();
var_dump(sl_is_free(sl_pdo(), $name));
?>
--EXPECT--
string(3) "PDO"
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
