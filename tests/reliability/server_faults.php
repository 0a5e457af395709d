<?php
// Server faults (RedisLock, SharedLock): the server is stopped, killed (SIGKILL) and restarted
// while a lock is held and while a waiter waits. Every call made meanwhile must answer with the
// backend's documented exception within its configured timeouts (no hang: a call still running
// after budget + 5 s ends this process by SIGALRM, which run.sh reports; no crash), and the
// next call after the server is back must succeed in the same process (reconnect).
//   php server_faults.php --backend=redis|mysql --rounds=3
declare(strict_types=1);
require __DIR__ . '/lib/driver.inc';

$opt = rel_options(['backend' => 'redis', 'rounds' => 3, 'test' => 'server-faults']);
$started = microtime(true);
$tried = "{$opt['rounds']} rounds x (stop while held, SIGKILL while a waiter waits, SIGSTOP-frozen while held, restart while held): calls during the outage and the first call after it";
rel_guard($opt['test'], $opt['backend'], $tried, $started);
$backend = rel_backend_or_report($opt['test'], $opt['backend'], $tried, $started);
if (!$backend instanceof ServerBackend) {
    rel_report($opt['test'], $opt['backend'], $tried, 0, [], $started, [], 'this backend has no server');
    exit(1);
}
// Short timeouts, so that a frozen server is noticed quickly (the budget follows them). Set
// before prepare(): connection parameters are taken when the backend is configured.
foreach (['redis_connect_timeout', 'redis_read_timeout', 'mysql_connect_timeout', 'mysql_read_timeout'] as $ini) {
    ini_set("nativelock.$ini", '1');
}
$backend->prepare('faults');
$script = dirname(__DIR__) . '/servers/' . $backend->serverScript() . '.sh';
$budget = $backend->callBudget();
$pidfile = getenv('NATIVELOCK_TEST_RUNDIR') . '/' . $backend->serverScript() . '/' . ['redis' => 'redis.pid', 'mariadb' => 'mysqld.pid'][$backend->serverScript()];
$failures = [];
$calls = 0;
$slowest = 0.0;

function server(string $script, string $action): void
{
    exec(escapeshellarg($script) . " $action 2>&1", $out, $rc);
    if ($rc !== 0 && $action !== 'kill') {
        throw new RuntimeException("$script $action failed: " . implode(' ', $out));
    }
}

/**
 * Whether every thread of $pid has stopped. kill() only queues SIGSTOP: a server thread busy on
 * the other core can still answer a statement before it stops, so calls wait for this.
 */
function stopped(int $pid): bool
{
    $deadline = microtime(true) + 5;
    do {
        $all = true;
        foreach (glob("/proc/$pid/task/*/stat") ?: [] as $stat) {
            // "pid (comm) state …": the state follows the last ')'.
            $line = (string) @file_get_contents($stat);
            $state = substr($line, (int) strrpos($line, ')') + 2, 1);
            if ($state !== 'T' && $state !== 't') {
                $all = false;
                break;
            }
        }
        if ($all) {
            return true;
        }
        usleep(1000);
    } while (microtime(true) < $deadline);
    return false;
}

/**
 * One call while the server is down (expect the documented exception) or back (expect success),
 * timed; a hang is ended by SIGALRM.
 */
function call(string $what, callable $fn, bool $serverUp): void
{
    global $backend, $budget, $failures, $calls, $slowest;
    $calls++;
    pcntl_alarm((int) ceil($budget) + 5);
    $t0 = microtime(true);
    try {
        $fn();
        $outcome = null;
    } catch (Throwable $e) {
        $outcome = $e;
    }
    $elapsed = microtime(true) - $t0;
    pcntl_alarm(0);
    $slowest = max($slowest, $elapsed);
    $expected = $backend->expectedException();
    if ($serverUp && $outcome !== null) {
        $failures[] = "$what: server is back, but " . get_class($outcome) . ': ' . $outcome->getMessage();
    } elseif (!$serverUp && $outcome === null) {
        $failures[] = "$what: succeeded although the server is down";
    } elseif (!$serverUp && !$outcome instanceof $expected) {
        $failures[] = "$what: " . get_class($outcome) . ' (' . $outcome->getMessage() . "), expected $expected";
    }
    if ($elapsed > $budget) {
        $failures[] = sprintf('%s: took %.2f s, budget %.2f s', $what, $elapsed, $budget);
    }
}

for ($round = 0; $round < $opt['rounds']; $round++) {
    server($script, 'start');
    // 1. Stopped while a lock is held: release and new attempts fail cleanly, then recover.
    $held = $backend->tryAcquire("held-$round") ?? throw new RuntimeException('lock taken');
    server($script, 'stop');
    call("round $round, stopped: release()", fn() => $backend->release($held), false);
    call("round $round, stopped: try", fn() => $backend->tryAcquire("other-$round"), false);
    server($script, 'start');
    call("round $round, back after stop: try", function () use ($backend, $round) {
        $l = $backend->tryAcquire("after-stop-$round") ?? throw new RuntimeException('taken');
        $backend->release($l);
    }, true);

    // 2. Killed while a waiter (a child process) waits: the waiter's call fails cleanly.
    $holder = $backend->tryAcquire("wait-$round") ?? throw new RuntimeException('lock taken');
    $result = sys_get_temp_dir() . "/nl-rel-faults-" . getmypid();
    $pid = pcntl_fork();
    if ($pid === 0) {
        $backend->afterFork();
        $t0 = microtime(true);
        try {
            $r = $backend->acquire("wait-$round", 60.0);
            $outcome = $r === null ? 'timeout' : 'acquired';
        } catch (Throwable $e) {
            $outcome = get_class($e) . ': ' . $e->getMessage();
            $expected = $backend->expectedException();
            $outcome = $e instanceof $expected ? "expected $outcome" : $outcome;
        }
        file_put_contents($result, json_encode([$outcome, microtime(true) - $t0]));
        exit(0);
    }
    usleep(300000);  // the waiter is waiting now
    $killedAt = microtime(true);
    server($script, 'kill');
    $deadline = microtime(true) + $budget + 5;
    while (pcntl_waitpid($pid, $status, WNOHANG) === 0 && microtime(true) < $deadline) {
        usleep(10000);
    }
    if (!file_exists($result)) {
        posix_kill($pid, SIGKILL);
        pcntl_waitpid($pid, $status);
        $failures[] = "round $round, killed: the waiter neither answered nor ended within " . ($budget + 5) . ' s (hang or crash)';
    } else {
        [$outcome, $took] = json_decode(file_get_contents($result), true);
        unlink($result);
        $calls++;
        if (!str_starts_with($outcome, 'expected ')) {
            $failures[] = "round $round, killed: the waiter got '$outcome'";
        } elseif (microtime(true) - $killedAt > $budget + 1) {
            $failures[] = "round $round, killed: the waiter answered after more than the budget";
        }
    }
    call("round $round, killed: release() of the held lock", fn() => $backend->release($holder), false);
    server($script, 'start');
    call("round $round, back after kill: try", function () use ($backend, $round) {
        $l = $backend->tryAcquire("after-kill-$round") ?? throw new RuntimeException('taken');
        $backend->release($l);
    }, true);

    // 3. Frozen (SIGSTOP: the socket stays open, nothing answers) while held: the read
    // timeout must end the call, then SIGCONT and the process carries on.
    $held = $backend->tryAcquire("frozen-$round") ?? throw new RuntimeException('lock taken');
    $serverPid = (int) @file_get_contents($pidfile);
    if ($serverPid <= 0 || !posix_kill($serverPid, SIGSTOP) || !stopped($serverPid)) {
        $failures[] = "round $round: cannot freeze the server (pid file $pidfile)";
    } else {
        call("round $round, frozen: release()", fn() => $backend->release($held), false);
        call("round $round, frozen: try", fn() => $backend->tryAcquire("frozen-other-$round"), false);
        posix_kill($serverPid, SIGCONT);
        call("round $round, thawed: try", function () use ($backend, $round) {
            $l = $backend->tryAcquire("after-freeze-$round") ?? throw new RuntimeException('taken');
            $backend->release($l);
        }, true);
    }

    // 4. Restarted while held: the next acquire of that very name succeeds within the bound.
    $held = $backend->tryAcquire("restart-$round") ?? throw new RuntimeException('lock taken');
    server($script, 'restart');
    try {
        $backend->release($held);  // may fail (new server, new session): either is fine
    } catch (Throwable $e) {
    }
    call("round $round, after restart: acquire the same name", function () use ($backend, $round) {
        $l = $backend->acquire("restart-$round", $backend->recoveryBound()) ?? throw new RuntimeException('still taken');
        $backend->release($l);
    }, true);
}
server($script, 'start');
$backend->cleanup();
rel_report($opt['test'], $opt['backend'], $tried, $calls, $failures, $started,
    ['slowest_call_s' => round($slowest, 3), 'budget_s' => $budget]);
exit($failures ? 1 : 0);
