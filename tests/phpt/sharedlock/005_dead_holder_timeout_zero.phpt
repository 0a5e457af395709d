--TEST--
SharedLock: a holder that died is cleaned up even by lock() with timeout 0
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
nl_run(sl_configure_code() . '
ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 600);
posix_kill(getmypid(), SIGKILL);');
usleep(200000);
var_dump(sl_row(sl_pdo(), $name) !== false);
$h = SharedLock::lock($name, 0, 60);
echo "acquired\n";
$h->release();
?>
--EXPECT--
bool(true)
acquired
