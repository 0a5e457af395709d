--TEST--
SharedLock (native driver): a name taken again after a lost, never released handle is released by the next release(), which frees it
--DESCRIPTION--
Handles know only their name. After the first lock of a name was lost with its session (here:
KILLed) and never released, the name is taken again on the new session. The next release is
the live lock's: it frees the lock (until 2026-11-27 it judged the old entry, reported the live
lock lost and left it held until its TTL); a second release then reports the lost one.
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
ini_set('nativelock.sharedlock_driver', 'native');
sl_configure();
$side = sl_pdo();
$name = sl_name();
$h1 = SharedLock::lock($name, 0, 600);
$holder = $side->query('SELECT IS_USED_LOCK(' . $side->quote($name) . ')')->fetchColumn();
$side->exec("KILL $holder");
usleep(200000);
try {
    $h1->assertTTL();
    echo "first handle: still held?\n";
} catch (E\SharedLockRemainingTTLException $e) {
    echo "first handle: lost\n";
}
$h2 = SharedLock::lock($name, 5, 600);
echo 'taken again: ', sl_is_free($side, $name) ? 'free?' : 'held', "\n";
try {
    $h2->release();
    echo 'second handle released: ', sl_is_free($side, $name) ? 'free' : 'still held', "\n";
} catch (E\SharedLockReleaseException $e) {
    echo 'second handle: release failed, the lock is ', sl_is_free($side, $name) ? 'free' : 'still held', "\n";
}
try {
    $h1->release();
    echo "first handle released?\n";
} catch (E\SharedLockReleaseException $e) {
    echo "first handle: release reports it lost\n";
}
echo 'afterwards: ', sl_is_free($side, $name) ? 'free' : 'held', "\n";
?>
--EXPECT--
first handle: lost
taken again: held
second handle released: free
first handle: release reports it lost
afterwards: free
