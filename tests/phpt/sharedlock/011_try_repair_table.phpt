--TEST--
SharedLock: tryRepairTable() succeeds on a healthy table and throws TableRepairException when it cannot repair
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
var_dump(SharedLock::tryRepairTable());
$p = sl_params();
sl_pdo()->exec('CREATE DATABASE IF NOT EXISTS nativelock_norepair');
SharedLock::configureConnection($p['host'], 'nativelock_norepair', $p['user'], $p['password'], 'utf8mb4', $p['port']);
try {
    SharedLock::tryRepairTable();
} catch (E\TableRepairException $e) {
    echo get_class($e), "\n";
    var_dump(str_starts_with($e->getMessage(), 'Table shared_locks seams to be corrupted. Repair failed with status'));
}
?>
--EXPECT--
NULL
ItsMieger\MySqlSharedLocks\Exception\TableRepairException
bool(true)
