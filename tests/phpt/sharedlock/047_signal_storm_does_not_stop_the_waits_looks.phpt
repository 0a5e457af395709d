--TEST--
SharedLock: signals more frequent than the wait's looks still let it end a holder past its TTL, or one holding GET_LOCK without a row
--DESCRIPTION--
Each signal ends the server-side wait so that PHP can run its handler, and lock() then waits on
with the same deadline. What the wait has seen (when the row is due to be looked at, since when
GET_LOCK has been held with no row) is kept across those runs: until 2026-12-07 every resumed
wait started its looks afresh, and a signal every 20-50 ms kept both holders below until the
waiter's timeout.
--EXTENSIONS--
pdo
mysqlnd
pdo_mysql
nativelock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/sharedlock.inc';
use ItsMieger\MySqlSharedLocks\SharedLock;
sl_configure();
pcntl_async_signals(true);
$signals = 0;
pcntl_signal(SIGALRM, function () use (&$signals) { $signals++; });
function wait_through_storm(string $label, string $name): void
{
    global $signals;
    $signals = 0;
    $storm = nl_signal_storm();
    $t = microtime(true);
    try {
        $h = SharedLock::lock($name, 10, 30);
        $waited = microtime(true) - $t;
        echo "$label: ", $waited < 6 ? 'taken' : sprintf('taken only after %.1f s', $waited);
        $h->release();
    } catch (Exception $e) {
        printf("%s: %s after %.1f s", $label, get_class($e), microtime(true) - $t);
    }
    nl_stop_child($storm);
    echo $signals >= 10 ? ", handlers ran\n" : ", handlers ran $signals times\n";
}

// A holder that hangs past its TTL of 1 s: KILLed, as the TTL promises.
$name = sl_name('ttl');
$holder = nl_spawn(sl_configure_code() . '
    ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 1);
    echo "held\n"; sleep(30);', [], $pipes);
nl_read_line($pipes[1]);
wait_through_storm('holder past its TTL', $name);
proc_terminate($holder, SIGKILL);
proc_close($holder);

// A session that holds GET_LOCK with no row: KILLed after a second, under the package's rule.
$name = sl_name('rowless');
$raw = sl_pdo();
var_dump((int) $raw->query('SELECT GET_LOCK(' . $raw->quote($name) . ', 0)')->fetchColumn());
wait_through_storm('rowless holder', $name);
?>
--EXPECT--
holder past its TTL: taken, handlers ran
int(1)
rowless holder: taken, handlers ran
