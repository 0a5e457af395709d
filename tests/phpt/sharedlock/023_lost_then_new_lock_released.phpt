--TEST--
SharedLock: after a lock died with its killed session, a lock taken on the re-opened session is still released at request end
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
$a = sl_name();
$b = sl_name();
[$rc, $out, $err] = nl_run(sl_configure_code() . '
use ItsMieger\MySqlSharedLocks\SharedLock;
$pdo = sl_pdo();
SharedLock::lock(' . var_export($a, true) . ', 0, 600);
$pdo->exec("KILL " . (int) sl_row($pdo, ' . var_export($a, true) . ')["connection_id"]);
usleep(100000);
SharedLock::lock(' . var_export($b, true) . ', 0, 600);  // re-opened session
echo "held\n";');
echo $out, $err;
var_dump(sl_is_free(sl_pdo(), $b));
?>
--EXPECT--
held
bool(true)
