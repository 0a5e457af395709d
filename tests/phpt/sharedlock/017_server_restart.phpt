--TEST--
SharedLock: the server restarts mid-use: a lock held across it fails to release with SharedLockReleaseException, the next lock reconnects
--CONFLICTS--
all
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
exec(escapeshellarg(__DIR__ . '/../../servers/mariadb.sh') . ' restart 2>&1', $out, $rc);
var_dump($rc);
try {
    $h->release();
} catch (E\SharedLockReleaseException $e) {
    echo get_class($e), "\n";
}
$h = SharedLock::lock($name, 5, 60);
echo "relocked\n";
$h->release();
var_dump(sl_is_free(sl_pdo(), $name));
?>
--EXPECT--
int(0)
ItsMieger\MySqlSharedLocks\Exception\SharedLockReleaseException
relocked
bool(true)
