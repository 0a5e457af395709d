--TEST--
SharedLockHandle::setAutoRenew(true) on a lock whose TTL rounds to 0 s or less throws instead of silently renewing nothing
--DESCRIPTION--
The table keeps whole seconds: lock($name, 0, 0.4) is a row with ttl 0, expired as it is taken.
Until 2026-12-08 setAutoRenew(true) returned as if the lock were kept alive. A TTL that rounds
to 1 s is renewed.
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
foreach ([0.4, 0, 0.6] as $ttl) {
    $h = SharedLock::lock(sl_name(), 0, $ttl);
    try {
        $h->setAutoRenew(true);
        echo "ttl $ttl: renewed\n";
    } catch (E\SharedLockException $e) {
        echo "ttl $ttl: ", (new ReflectionClass($e))->getShortName(), ': ', $e->getMessage(), "\n";
    }
    try {
        $h->release();
    } catch (E\SharedLockReleaseException $e) {
    }
}
?>
--EXPECT--
ttl 0.4: SharedLockException: Auto-renewal needs a TTL of at least 1 second (the table keeps whole seconds; this lock's rounds to 0 or less)
ttl 0: SharedLockException: Auto-renewal needs a TTL of at least 1 second (the table keeps whole seconds; this lock's rounds to 0 or less)
ttl 0.6: renewed
