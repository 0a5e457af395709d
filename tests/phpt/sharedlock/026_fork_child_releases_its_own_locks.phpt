--TEST--
SharedLock: a forked child's own locks are released at the child's end; the parent's stay held
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
pcntl
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
sl_configure();
$parent = sl_name();
$child = sl_name();
SharedLock::lock($parent, 0, 600);
$pid = pcntl_fork();
if ($pid === 0) {
    SharedLock::lock($child, 0, 600);
    exit(0);  // request end in the child
}
pcntl_waitpid($pid, $status);
$pdo = sl_pdo();
var_dump(pcntl_wexitstatus($status), sl_is_free($pdo, $child), sl_is_free($pdo, $parent));
SharedLock::unlock($parent);
var_dump(sl_is_free($pdo, $parent));
?>
--EXPECT--
int(0)
bool(true)
bool(false)
bool(true)
