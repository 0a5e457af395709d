--TEST--
SharedLock (sharedlock_driver=pdo): a child forked by a signal handler inside one of lock()'s PDO calls is refused SharedLock while that call is on its stack; the parent waits on
--DESCRIPTION--
PHP runs pcntl handlers right after one of our PDO calls returns, before lock() goes on. A
handler that forks gives the child that call on its stack, on the parent's connection. The
child's SharedLock calls must neither free that call's session (it would be used after being
freed when the handler returns) nor send anything on the parent's connection: they are refused
until the handler returns. The parent's wait goes on and gets the lock.
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
$p = nl_spawn(sl_configure_code() . '
    ItsMieger\MySqlSharedLocks\SharedLock::lock(' . var_export($name, true) . ', 0, 30);
    echo "held\n"; usleep(3500000);', [], $pipes);
nl_read_line($pipes[1]);
[$code, $out, $err] = nl_run('require ' . var_export(__DIR__ . '/sharedlock.inc', true) . ';
    use ItsMieger\MySqlSharedLocks\SharedLock;
    ini_set("nativelock.sharedlock_driver", "pdo"); sl_configure();
    $name = ' . var_export($name, true) . ';
    pcntl_async_signals(true);
    $report = tmpfile();
    $forked = false;
    pcntl_signal(SIGALRM, function () use (&$forked, $report) {
        if ($forked) return;
        $forked = true;
        $pid = pcntl_fork();
        if ($pid !== 0) {
            pcntl_waitpid($pid, $status);
            return;
        }
        $lines = [];
        foreach (["getConnection()" => fn() => SharedLock::getConnection(),
                  "lock()" => fn() => SharedLock::lock(sl_name(), 0, 30)] as $call => $f) {
            try {
                $f();
                $lines[] = "child $call: returned";
            } catch (Throwable $e) {
                // (getConnection() reports the interrupted statement\'s own pending error.)
                $lines[] = "child $call: refused";
            }
        }
        fwrite($report, implode("\n", $lines) . "\n");
        posix_kill(getmypid(), SIGKILL);  // ends without running anything more of the parent
    });
    pcntl_alarm(1);  // fires while lock() waits (the holder keeps it 3.5 s)
    $h = SharedLock::lock($name, 10, 30);
    rewind($report);
    echo stream_get_contents($report);
    echo "parent: locked, the handler ", $forked ? "forked" : "did not run", "\n";
    $h->release();
    $st = SharedLock::getConnection()->query("SELECT 1");
    echo "parent: its PDO still works: ", $st->fetchColumn() == 1 ? "yes" : "no", "\n";');
proc_close($p);
echo "exit code $code\n", $out, trim($err) === '' ? '' : "stderr: $err\n";
?>
--EXPECT--
exit code 0
child getConnection(): refused
child lock(): refused
parent: locked, the handler forked
parent: its PDO still works: yes
