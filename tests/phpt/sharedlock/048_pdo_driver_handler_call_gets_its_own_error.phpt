--TEST--
SharedLock (sharedlock_driver=pdo): a signal handler's own SharedLock call inside a wait gets its own error, not the error the wait's statement stashed; the wait still gets the lock
--DESCRIPTION--
On the PDO driver pcntl handlers run inside PDO's calls. A waiting lock() keeps the PDOException
of its last failed statement (its slice's expected error) for the exception it may throw. A
handler's setConnection() is refused while a statement runs on the connection; that refusal,
not the wait's PDOException, is what the handler must see, and the wait goes on.
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
$holder = nl_spawn(sl_configure_code() . '
    ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 30);
    echo "held\n"; usleep(1500000);', [], $pipes);
nl_read_line($pipes[1]);
[$code, $out, $err] = nl_run('require ' . var_export(__DIR__ . '/sharedlock.inc', true) . ';
    use ItsMieger\MySqlSharedLocks\SharedLock;
    ini_set("nativelock.sharedlock_driver", "pdo"); sl_configure();
    pcntl_async_signals(true);
    $seen = [];
    pcntl_signal(SIGUSR1, function () use (&$seen) {
        try {
            SharedLock::setConnection(sl_pdo());
            $seen["switched"] = true;
        } catch (Throwable $e) {
            $seen[get_class($e) . ": " . $e->getMessage()] = true;
        }
    });
    $storm = nl_signal_storm(SIGUSR1);
    register_shutdown_function(function () use ($storm) { @posix_kill($storm, SIGKILL); });
    try {
        $h = SharedLock::lock(' . var_export($name, true) . ', 10, 30);
        nl_stop_child($storm);
        echo "locked\n";
        $h->release();
    } catch (Throwable $e) {
        nl_stop_child($storm);
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
    // A handler that runs between two statements may switch; those inside one are refused.
    unset($seen["switched"]);
    ksort($seen);
    echo implode("\n", array_keys($seen)), "\n";');
proc_close($holder);
echo "exit code $code\n", $out, trim($err) === '' ? '' : "stderr: $err\n";
?>
--EXPECT--
exit code 0
locked
RuntimeException: the connection cannot be switched by code that runs inside a SharedLock statement on it (a PDO subclass, a signal handler)
