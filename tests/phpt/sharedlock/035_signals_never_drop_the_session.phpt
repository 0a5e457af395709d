--TEST--
SharedLock: a signal storm during statements never drops the native session (which would silently release every lock it holds)
--DESCRIPTION--
The session's idle check polled its socket and took any non-zero answer, an EINTR included, for
a closed connection: it disconnected, and with it went every GET_LOCK the session held. Found
as the crash-recovery test's flake (its rival is stopped with SIGUSR1).
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
pcntl_async_signals(true);
$signals = 0;
pcntl_signal(SIGUSR1, function () use (&$signals) { $signals++; });
sl_configure();
$held = sl_name();
$cycled = sl_name();
$h = SharedLock::lock($held, 0, 600);
$me = getmypid();
$storm = pcntl_fork();
if ($storm === 0) { while (posix_kill($me, SIGUSR1)) usleep(200); exit(0); }
$failures = 0;
for ($i = 0; $i < 1500; $i++) {
    try {
        SharedLock::lock($cycled, 1, 30)->release();
        SharedLock::assertTTL($held, 0);
    } catch (Throwable $e) {
        $failures++;
    }
}
nl_stop_child($storm);
$side = sl_pdo();
echo $signals > 100 ? "signals arrived\n" : "only $signals signals\n";
var_dump($failures, (bool) $side->query('SELECT IS_USED_LOCK(' . $side->quote($held) . ')')->fetchColumn());
$h->release();
?>
--EXPECT--
signals arrived
int(0)
bool(true)
