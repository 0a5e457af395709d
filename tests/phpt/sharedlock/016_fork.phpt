--TEST--
SharedLock: a forked child neither releases the parent's locks nor closes its session; it opens its own
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
pcntl
posix
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
$other = sl_name();
$h = SharedLock::lock($name, 0, 60);
$pid = pcntl_fork();
if ($pid === 0) {
    // The child: the parent's lock is not ours.
    try {
        SharedLock::unlock($name);
        $code = 1;
    } catch (E\SharedLockReleaseException $e) {
        $code = 0;
    }
    try {
        SharedLock::lock($name, 0, 60);
        $code |= 2;
    } catch (E\SharedLockTimeoutException $e) {
    }
    SharedLock::lock($other, 0, 60); // held at exit: released by the child's own session
    exit($code);
}
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status));
// The parent's session and lock survived the child's exit.
$h->assertTTL(10);
echo "parent still holds\n";
$h->release();
var_dump(sl_is_free(sl_pdo(), $name), sl_is_free(sl_pdo(), $other));
?>
--EXPECT--
int(0)
parent still holds
bool(true)
bool(true)
