--TEST--
SharedLock: a holder that dies (SIGKILL, no release) is cleaned up by a waiter with a timeout
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
[$code] = nl_run(sl_configure_code() . '
ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 600);
posix_kill(getmypid(), SIGKILL);');
var_dump($code !== 0);
usleep(200000);
var_dump((string) sl_row(sl_pdo(), $name)['lock_acquired']);
$t = microtime(true);
$h = SharedLock::lock($name, 10, 60);
var_dump(microtime(true) - $t < 5);
$h->release();
?>
--EXPECT--
bool(true)
string(1) "1"
bool(true)
