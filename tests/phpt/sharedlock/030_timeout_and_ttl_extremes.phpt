--TEST--
SharedLock: timeout and TTL extremes: NaN and negative are a ValueError; huge TTLs never expire at once; INF/1e9/PHP_INT_MAX/2^63 timeouts wait
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
sl_configure();
$name = sl_name();
foreach ([[NAN, 30], [-1, 30], [0, NAN], [0, -1], [0, -INF]] as [$timeout, $ttl]) {
    try { SharedLock::lock($name, $timeout, $ttl); echo "accepted\n"; } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
}
try { SharedLock::assertTTL($name, NAN); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
// A huge TTL is clamped, never wrapped into an expired lock: a contender does not take it over.
foreach (['PHP_INT_MAX' => PHP_INT_MAX, '1e19' => 1e19, 'INF' => INF, '2^63' => 2 ** 63] as $label => $ttl) {
    $h = SharedLock::lock($name, 0, $ttl);
    [$code, $out] = nl_run(sl_configure_code() . '
        try { ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0.3, 10); echo "taken"; }
        catch (ItsMieger\MySqlSharedLocks\Exception\SharedLockTimeoutException $e) { echo "still held"; }');
    echo "ttl $label: $out; ";
    try { SharedLock::assertTTL($name, PHP_INT_MAX); } catch (Exception $e) { echo get_class($e), "\n"; }
    $h->release();
}
// Unlimited timeouts wait for the holder instead of failing.
foreach (['INF' => INF, '1e9' => 1e9, 'PHP_INT_MAX' => PHP_INT_MAX, '2^63' => 2 ** 63] as $label => $timeout) {
    $holder = nl_spawn(sl_configure_code() . '
        ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 30);
        echo "held\n"; usleep(300000);', [], $pipes);
    nl_read_line($pipes[1]);
    $t = microtime(true);
    $h = SharedLock::lock($name, $timeout, 30);
    echo "timeout $label: ", microtime(true) - $t >= 0.1 ? "waited for the holder" : "did not wait", "\n";
    $h->release();
    proc_close($holder);
}
?>
--EXPECTF--
ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #2 ($timeout) must be a number of seconds >= 0
ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #2 ($timeout) must be a number of seconds >= 0
ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #3 ($ttl) must be a number of seconds >= 0
ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #3 ($ttl) must be a number of seconds >= 0
ItsMieger\MySqlSharedLocks\SharedLock::lock(): Argument #3 ($ttl) must be a number of seconds >= 0
ItsMieger\MySqlSharedLocks\SharedLock::assertTTL(): Argument #2 ($minRemainingTTL) must be a number of seconds, not NAN
ttl PHP_INT_MAX: still held; ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException
ttl 1e19: still held; ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException
ttl INF: still held; ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException
ttl 2^63: still held; ItsMieger\MySqlSharedLocks\Exception\SharedLockRemainingTTLException
timeout INF: waited for the holder
timeout 1e9: waited for the holder
timeout PHP_INT_MAX: waited for the holder
timeout 2^63: waited for the holder
