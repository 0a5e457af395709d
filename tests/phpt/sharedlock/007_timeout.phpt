--TEST--
SharedLock: lock() on a held lock throws SharedLockTimeoutException after about the timeout
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
$h = ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 600);
echo "locked\n"; fgets(STDIN);', [], $pipes);
echo nl_read_line($pipes[1]), "\n";
$t = microtime(true);
try {
    SharedLock::lock($name, 1, 60);
} catch (E\SharedLockTimeoutException $e) {
    $took = microtime(true) - $t;
    echo $e->getMessage(), "\n";
    var_dump($e->getLockName() === $name, $e->getTimeout(), $took >= 0.9, $took < 4);
}
$t = microtime(true);
try {
    SharedLock::lock($name, 0, 60);
} catch (E\SharedLockTimeoutException $e) {
    var_dump(microtime(true) - $t < 1);
}
fwrite($pipes[0], "\n");
proc_close($child);
?>
--EXPECTF--
locked
Acquiring lock "t-%s" timed out after 1 seconds
bool(true)
int(1)
bool(true)
bool(true)
bool(true)
