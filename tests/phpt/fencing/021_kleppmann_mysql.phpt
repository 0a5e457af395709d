--TEST--
Fencing, MySQL: Kleppmann's scenario: A (SharedLock, 1 s TTL) is frozen past its TTL, B takes the lock over (KILLing A's session) with a greater token and writes; A's late write is refused
--EXTENSIONS--
igbinary
redis
pdo
mysqlnd
pdo_mysql
posix
nativelock
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
nativelock.fencing=1
--FILE--
<?php
require __DIR__ . '/fencing.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
$name = sl_name('kleppmann');
fx_kleppmann('
    sl_configure();
    $handle = ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 1);
    $token = $handle->getFencingToken();
', function () use ($name) {
    sl_configure();
    $t = microtime(true);
    $h = SharedLock::lock($name, 30, 60);   // past A's TTL: taken over
    echo "B waited for A's TTL: ", var_export(microtime(true) - $t > 0.3, true), "\n";
    return [$h->getFencingToken(), fn() => $h->release()];
});
fx_cleanup('mysql', $name, '');
?>
--EXPECT--
A holds, token >= 1: true; A frozen
B waited for A's TTL: true
B holds, tB > tA: true
B writes, rows changed: 1
A resumes and writes with tA, rows changed: 0
resource: value B, fence is tB: true
