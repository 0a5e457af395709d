--TEST--
SharedLock (sharedlock_driver=pdo): a signal handler that runs inside a PDO call keeps waiting when it returns; its exception or exit() ends lock() as it was, and no lock is left behind
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
function hold_for(string $name, float $seconds) {
    $p = nl_spawn(sl_configure_code() . '
        ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 30);
        echo "held\n"; usleep(' . (int) ($seconds * 1e6) . ');', [], $pipes);
    nl_read_line($pipes[1]);
    return $p;
}
// Each case runs in its own process: the PDO driver, a contended lock, a SIGUSR1 storm whose
// handler does what the case says.
$cases = [
    'returns' => '$n++;',
    // Armed only once lock() waits: a signal that lands before the try block would end the
    // script with an uncaught exception and leave the storm child running.
    'throws'  => 'global $armed; if ($armed) throw new DomainException("from the handler");',
    // The storm child is stopped first: it holds our stdout open, and the test reads to EOF.
    'exits'   => 'global $armed, $storm; if (!$armed) return; nl_stop_child($storm);
                  echo "handler: exit\n"; exit(7);',
];
foreach ($cases as $label => $handler) {
    $holder = hold_for($name, 1.0);
    [$code, $out, $err] = nl_run('require ' . var_export(__DIR__ . '/sharedlock.inc', true) . ';
        use ItsMieger\MySqlSharedLocks\SharedLock;
        ini_set("nativelock.sharedlock_driver", "pdo"); sl_configure();
        $name = ' . var_export($name, true) . ';
        pcntl_async_signals(true);
        $n = 0;
        pcntl_signal(SIGUSR1, function () use (&$n) { ' . $handler . ' });
        register_shutdown_function(function () use ($name) {
            // Whatever ended lock(), this process holds neither GET_LOCK nor the row.
            $st = SharedLock::getConnection()->prepare("SELECT IFNULL(IS_USED_LOCK(?), 0) = CONNECTION_ID()
                OR EXISTS (SELECT 1 FROM shared_locks WHERE name = ? AND connection_id = CONNECTION_ID())");
            $st->execute([$name, $name]);
            echo "at shutdown: ", $st->fetchColumn() ? "held by us" : "not ours", "\n";
        });
        $armed = false;
        $storm = nl_signal_storm(SIGUSR1);
        // Whatever happens, the storm child does not outlive this process.
        register_shutdown_function(function () use ($storm) { @posix_kill($storm, SIGKILL); });
        $t = microtime(true);
        try {
            $armed = true;
            $h = SharedLock::lock($name, 10, 30);
            $armed = false;
            nl_stop_child($storm);
            echo "locked after the holder: ", microtime(true) - $t >= 0.5 ? "yes" : "no",
                ", handlers ran: ", $n >= 3 ? "yes" : "no", "\n";
            $h->release();
        } catch (Throwable $e) {
            $armed = false;
            nl_stop_child($storm);
            echo get_class($e), ": ", $e->getMessage(), ", previous: ",
                $e->getPrevious() ? get_class($e->getPrevious()) : "none", "\n";
        }');
    proc_close($holder);
    echo "-- $label (exit code $code)\n", $out, trim($err) === '' ? '' : "stderr: $err\n";
}
?>
--EXPECT--
-- returns (exit code 0)
locked after the holder: yes, handlers ran: yes
at shutdown: not ours
-- throws (exit code 0)
DomainException: from the handler, previous: none
at shutdown: not ours
-- exits (exit code 7)
handler: exit
at shutdown: not ours
