<?php
// Many processes blocked on ONE lock (issue 14, bounded resources): the parent holds the lock,
// forks P children that each wait for it (RedisLock FAIL_BLOCK / SharedLock lock(name, T)),
// read-increment-write a counter file, release and exit; then the parent releases. Asserts
//   - every process gets the lock in turn: no error, no timeout, no lost update;
//   - while all P wait, the server's connection count stays <= 2 per process above the
//     baseline (RedisLock: command + pooled wake-up connection; SharedLock: one session);
//   - once they are done, the count falls back to the baseline;
//   - a process's memory does not grow with the queue: each child's peak memory stays within
//     --memory-slack of the lightest child's.
//
//   php -d extension=modules/nativelock.so tests/reliability/load_test.php --backend=redis \
//       [--procs=200] [--timeout=60]
declare(strict_types=1);
require __DIR__ . '/lib/driver.inc';

$opt = rel_options(['backend' => 'redis', 'procs' => 200, 'timeout' => '60', 'memory-slack' => '2097152',
    'test' => 'load']);
$procs = max(2, (int) $opt['procs']);
$timeout = (float) $opt['timeout'];
$started = microtime(true);
$tried = sprintf('%d processes blocked on one lock: each waits, read-increment-writes, releases; server connections and memory while they wait and after', $procs);
rel_guard($opt['test'], $opt['backend'], $tried, $started);
$backend = rel_backend_or_report($opt['test'], $opt['backend'], $tried, $started);
if (!$backend instanceof ServerBackend) {
    rel_report($opt['test'], $opt['backend'], $tried, 0, [], $started, [], 'this backend has no server');
    exit(1);
}
$backend->prepare('load' . getmypid());
$work = sys_get_temp_dir() . '/nl-rel-load-' . getmypid();
@mkdir($work);
$counter = "$work/counter";
file_put_contents($counter, '0');

/** Clients the server has open now (including our own probe connection). */
function server_connections(string $backend): int
{
    if ($backend === 'redis') {
        $r = new Redis();
        $r->connect(getenv('NATIVELOCK_REDIS_HOST') ?: '127.0.0.1', (int) (getenv('NATIVELOCK_REDIS_PORT') ?: 16379));
        $n = (int) $r->info('clients')['connected_clients'];
        $r->close();
        return $n;
    }
    $pdo = new PDO(sprintf('mysql:host=%s;port=%d', getenv('NATIVELOCK_MYSQL_HOST') ?: '127.0.0.1',
        (int) (getenv('NATIVELOCK_MYSQL_PORT') ?: 13306)), getenv('NATIVELOCK_MYSQL_USER') ?: 'nativelock',
        getenv('NATIVELOCK_MYSQL_PASSWORD') ?: 'nativelock');
    return (int) $pdo->query("SHOW STATUS LIKE 'Threads_connected'")->fetch(PDO::FETCH_NUM)[1];
}

/** Polls until $fn() is true or $seconds pass; returns the last value of $fn(). */
function wait_until(callable $fn, float $seconds): bool
{
    $deadline = rel_now() + $seconds;
    do {
        if ($fn()) {
            return true;
        }
        usleep(50000);
    } while (rel_now() < $deadline);
    return (bool) $fn();
}

$failures = [];
$held = $backend->acquire('load', 5.0) ?? throw new RuntimeException('the load lock is taken');
// Measured with our own connection open: what the children add is what counts.
$baseline = server_connections($opt['backend']);
$kids = [];
for ($k = 0; $k < $procs; $k++) {
    $pid = pcntl_fork();
    if ($pid === -1) {
        $failures[] = "fork $k failed";
        break;
    }
    if ($pid === 0) {
        $backend->afterFork();
        $result = ['ok' => false, 'error' => null, 'wait' => 0.0, 'memory' => 0];
        touch("$work/waiting-$k");
        $t0 = rel_now();
        try {
            $lock = $backend->acquire('load', $timeout);
            $result['wait'] = rel_now() - $t0;
            if ($lock === null) {
                $result['error'] = sprintf('timed out after %.1f s', $result['wait']);
            } else {
                $result['at'] = rel_now();
                $v = (int) file_get_contents($counter);
                file_put_contents($counter, (string) ($v + 1));
                $result['written'] = rel_now();
                $backend->release($lock);
                $result['released'] = rel_now();
                $result['ok'] = true;
            }
        } catch (Throwable $e) {
            $result['error'] = get_class($e) . ': ' . $e->getMessage();
        }
        $result['memory'] = memory_get_peak_usage();
        file_put_contents("$work/result-$k.json", json_encode($result));
        exit(0);
    }
    $kids[$k] = $pid;
}

// Every child waits (its marker written, then some time to be queued in the server).
$all = wait_until(fn() => count(glob("$work/waiting-*")) >= count($kids), 60.0);
if (!$all) {
    $failures[] = sprintf('only %d of %d processes started waiting within 60 s', count(glob("$work/waiting-*")), count($kids));
}
usleep(1500000);
$during = server_connections($opt['backend']);
$perProcess = ($during - $baseline) / max(1, count($kids));
if ($during - $baseline > 2 * count($kids) + 2) {
    $failures[] = sprintf('%d connections while %d processes wait (baseline %d): more than 2 per process', $during, count($kids), $baseline);
}

$releasedAt = rel_now();
$backend->release($held);
foreach ($kids as $k => $pid) {
    [$code, $signal] = rel_wait($pid);
    if ($code !== 0) {
        $failures[] = "process $k exited with " . ($signal !== null ? "signal $signal" : "code $code");
    }
}
$drained = rel_now() - $releasedAt;

$ok = 0;
$acquiredAt = [];
$waits = [];
$memory = [];
foreach ($kids as $k => $pid) {
    $r = json_decode((string) @file_get_contents("$work/result-$k.json"), true);
    if (!is_array($r)) {
        $failures[] = "process $k left no result";
        continue;
    }
    if ($r['ok']) {
        $ok++;
    } else {
        $failures[] = "process $k: {$r['error']}";
    }
    $waits[] = $r['wait'];
    $memory[] = $r['memory'];
    if (isset($r['at'])) {
        $acquiredAt[] = [$r['at'], $r['released'], $r['written']];
    }
}
$final = (int) file_get_contents($counter);
if ($final !== $ok) {
    $failures[] = sprintf('lost update: counter %d, acquisitions %d', $final, $ok);
}
if ($memory && max($memory) - min($memory) > (int) $opt['memory-slack']) {
    $failures[] = sprintf('peak memory differs by %d bytes between processes (%d..%d): grows with the queue?',
        max($memory) - min($memory), min($memory), max($memory));
}
// Back to the baseline once every process is gone (the servers notice closed sockets at once;
// give them a moment).
$after = 0;
wait_until(function () use (&$after, $baseline, $opt) {
    $after = server_connections($opt['backend']);
    return $after <= $baseline;
}, 10.0);
if ($after > $baseline) {
    $failures[] = sprintf('%d connections 10 s after the last process ended (baseline %d)', $after, $baseline);
}
sort($waits);
// Hand-off: from one holder's release to the next one's acquisition.
sort($acquiredAt);
$gaps = [];
for ($i = 1; $i < count($acquiredAt); $i++) {
    $gaps[] = $acquiredAt[$i][0] - $acquiredAt[$i - 1][1];
}
sort($gaps);
$handoffP50 = $gaps ? $gaps[intdiv(count($gaps), 2)] : 0.0;
$holds = array_map(fn($a) => $a[1] - $a[0], $acquiredAt);
sort($holds);
$io = array_map(fn($a) => $a[2] - $a[0], $acquiredAt);
sort($io);
printf("# hand-off release -> next holder: p50 %.2f ms, max %.2f ms; hold (acquired -> released) p50 %.2f ms (counter file %.2f ms)\n",
    $handoffP50 * 1e3, ($gaps ? end($gaps) : 0) * 1e3, ($holds ? $holds[intdiv(count($holds), 2)] : 0) * 1e3,
    ($io ? $io[intdiv(count($io), 2)] : 0) * 1e3);
printf("# %s: %d of %d processes got the lock in %.2f s after the release; connections: baseline %d, while waiting %d (%.2f per process), after %d; peak memory per process %.1f..%.1f KiB\n",
    $opt['backend'], $ok, count($kids), $drained, $baseline, $during, $perProcess, $after,
    ($memory ? min($memory) : 0) / 1024, ($memory ? max($memory) : 0) / 1024);
shell_exec('rm -rf ' . escapeshellarg($work));
$backend->cleanup();
rel_report($opt['test'], $opt['backend'], $tried, count($kids), $failures, $started, [
    'processes' => count($kids), 'acquired' => $ok, 'drain_seconds' => round($drained, 3),
    'handoff_p50_ms' => round($handoffP50 * 1e3, 3),
    'connections_baseline' => $baseline, 'connections_waiting' => $during,
    'connections_per_process' => round($perProcess, 2), 'connections_after' => $after,
    'peak_memory_min' => $memory ? min($memory) : 0, 'peak_memory_max' => $memory ? max($memory) : 0,
]);
exit($failures ? 1 : 0);
