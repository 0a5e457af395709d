--TEST--
SharedLock: an explicit release lets a process blocked in lock() in well before its timeout
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
sl_configure();
$name = sl_name();
$h = SharedLock::lock($name, 0, 60);
$child = nl_spawn(sl_configure_code() . '
use ItsMieger\MySqlSharedLocks\SharedLock;
echo "waiting\n";
$t = microtime(true);
$h = SharedLock::lock(' . var_export($name, true) . ', 20, 60);
printf("got %.3f\n", microtime(true) - $t);
$h->release();
', [], $pipes);
echo nl_read_line($pipes[1]), "\n";
usleep(500000);
$released = microtime(true);
$h->release();
$line = nl_read_line($pipes[1], 20);
$latency = microtime(true) - $released;
echo substr($line, 0, 3), "\n";
var_dump($latency < 5.0);
proc_close($child);
?>
--EXPECT--
waiting
got
bool(true)
