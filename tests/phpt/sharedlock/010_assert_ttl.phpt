--TEST--
SharedLock: assertTTL() passes, and fails for not enough TTL, a deleted row and a killed session
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
$pdo = sl_pdo();
$show = function (callable $f) {
    try {
        $f();
        echo "ok\n";
    } catch (E\SharedLockRemainingTTLException $e) {
        echo get_class($e), ' ttl=', $e->getTTL(), "\n";
    }
};
$name = sl_name();
$h = SharedLock::lock($name, 0, 30);
$show(fn() => $h->assertTTL(10));
$show(fn() => $h->assertTTL());
$show(fn() => $h->assertTTL(40));
$show(fn() => SharedLock::assertTTL($name, 29));
$pdo->prepare('DELETE FROM shared_locks WHERE name = ?')->execute([$name]);
$show(fn() => $h->assertTTL(1));
try { $h->release(); } catch (E\SharedLockReleaseException $e) {}

$name = sl_name();
$h = SharedLock::lock($name, 0, 30);
$pdo->exec('KILL ' . (int) sl_row($pdo, $name)['connection_id']);
usleep(100000);
$show(fn() => $h->assertTTL(1));
try {
    SharedLock::assertTTL($name, 1);
} catch (E\SharedLockRemainingTTLException $e) {
    echo $e->getMessage() === 'Lock "' . $name . '" is not to live for 1 seconds anymore' ? "message ok\n" : $e->getMessage();
}
?>
--EXPECT--
ok
ok
ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException ttl=40
ok
ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException ttl=1
ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException ttl=1
message ok
