--TEST--
SharedLock: a holder hung past its TTL has its session killed and the waiter gets the lock (the package's promise)
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
$child = nl_spawn(sl_configure_code() . '
$h = ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 1);
echo "locked\n";
sleep(30);', [], $pipes);
echo nl_read_line($pipes[1]), "\n";
$t = microtime(true);
$h = SharedLock::lock($name, 20, 60);
$took = microtime(true) - $t;
var_dump($took < 6);
$row = sl_row(sl_pdo(), $name);
var_dump($row['used'] == $row['connection_id']);
$h->assertTTL(30);
$h->release();
proc_terminate($child, SIGKILL);
proc_close($child);
?>
--EXPECT--
locked
bool(true)
bool(true)
