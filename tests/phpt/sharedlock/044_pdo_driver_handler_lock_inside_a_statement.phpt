--TEST--
SharedLock (sharedlock_driver=pdo): a signal handler's own contended lock(), run inside one of lock()'s PDO calls, does not take that call's result
--DESCRIPTION--
On the PDO driver pcntl handlers run inside PDO's calls: right after a statement's execute()
returns, before its rows are fetched. A handler that waits for a lock of its own runs the same
waiting statement; it must not re-execute the prepared statement whose rows the interrupted
wait has yet to read (the wait then found no row and failed, and its session kept GET_LOCK
without a row). Nested statements are prepared apart.
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
$name = sl_name();
$other = sl_name('other');
function hold_for(string $name, float $seconds) {
    $p = nl_spawn(sl_configure_code() . '
        ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 30);
        echo "held\n"; usleep(' . (int) ($seconds * 1e6) . ');', [], $pipes);
    nl_read_line($pipes[1]);
    return $p;
}
$holder = hold_for($name, 2.0);
$otherHolder = hold_for($other, 4.0);
[$code, $out, $err] = nl_run('require ' . var_export(__DIR__ . '/sharedlock.inc', true) . ';
    use ItsMieger\MySqlSharedLocks\SharedLock;
    ini_set("nativelock.sharedlock_driver", "pdo"); sl_configure();
    $name = ' . var_export($name, true) . ';
    $other = ' . var_export($other, true) . ';
    pcntl_async_signals(true);
    $n = 0;
    pcntl_signal(SIGUSR1, function () use (&$n, $other) {
        try {
            SharedLock::lock($other, 0.02, 30);
            echo "handler: got the other lock?\n";
        } catch (ItsMieger\MySqlSharedLocks\Exception\SharedLockTimeoutException $e) {
            $n++;
        }
    });
    $storm = nl_signal_storm(SIGUSR1);
    register_shutdown_function(function () use ($storm) { @posix_kill($storm, SIGKILL); });
    $t = microtime(true);
    try {
        $h = SharedLock::lock($name, 10, 30);
        nl_stop_child($storm);
        echo "locked after the holder: ", microtime(true) - $t >= 0.5 ? "yes" : "no",
            ", handlers waited: ", $n >= 3 ? "yes" : "no", "\n";
        $h->release();
    } catch (Throwable $e) {
        nl_stop_child($storm);
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    $st = SharedLock::getConnection()->prepare("SELECT IFNULL(IS_USED_LOCK(?), 0) = CONNECTION_ID()");
    $st->execute([$name]);
    echo "afterwards: ", $st->fetchColumn() ? "held by us" : "not ours", "\n";');
proc_close($holder);
proc_close($otherHolder);
echo "exit code $code\n", $out, trim($err) === '' ? '' : "stderr: $err\n";
?>
--EXPECT--
exit code 0
locked after the holder: yes, handlers waited: yes
afterwards: not ours
