<?php
// SharedLock across two processes: the package's API; a holder that hangs past its TTL has its
// session killed so that the waiter gets the lock, as the package's README promises.
require __DIR__ . '/common.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
use ItsMieger\MySqlSharedLocks\Exception\SharedLockTimeoutException;

$configure = sprintf('ItsMieger\MySqlSharedLocks\SharedLock::configureConnection(%s, %s, %s, %s, "utf8mb4", %d);',
    var_export(getenv('NATIVELOCK_MYSQL_HOST'), true), var_export(getenv('NATIVELOCK_MYSQL_DATABASE'), true),
    var_export(getenv('NATIVELOCK_MYSQL_USER'), true), var_export(getenv('NATIVELOCK_MYSQL_PASSWORD'), true),
    (int) getenv('NATIVELOCK_MYSQL_PORT'));
eval($configure);

$lock = SharedLock::lock('demo-export', 5, 10);   // timeout 5 s, TTL 10 s
echo "parent: lock('demo-export', 5, 10) acquired\n";
$child = demo_child($configure . '
    use ItsMieger\MySqlSharedLocks\SharedLock;
    $t = microtime(true);
    $h = SharedLock::lock("demo-export", 5, 10);
    printf("child:  got it after %.1f ms, woken by the release\n", (microtime(true) - $t) * 1000);
    $h->release();');
usleep(300000);
echo "parent: release() after 300 ms of work\n";
$lock->release();
proc_close($child);

// A holder that hangs past its 1 s TTL: the waiter kills its session and takes the lock.
$hung = demo_child($configure . ' ItsMieger\MySqlSharedLocks\SharedLock::lock("demo-hung", 1, 1); sleep(5);');
usleep(500000);
$t = microtime(true);
$lock = SharedLock::lock('demo-hung', 5, 10);
printf("waiter: a hung holder past its TTL was killed, lock taken after %.1f s\n", microtime(true) - $t);
$lock->release();
proc_terminate($hung);
proc_close($hung);
