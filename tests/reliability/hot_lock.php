<?php
// A hot lock, bounded (issue 14, SPEC §7/§8): P processes loop on ONE lock for a fixed window:
// acquire with a timeout → read-increment-write a counter file → release. Asserts
//   - no acquire waited longer than its timeout + slack (a lock call that overstays its
//     budget is a hang, whatever it returns), and none timed out (in a loop of short critical
//     sections, a request that waits its whole timeout has been starved);
//   - no lost update: the counter equals the sum of the acquisitions;
//   - none starves: every process got the lock at least --min-count times in the window.
// Prints the per-process counts, the min share (min / mean), the wait percentiles.
//
//   php -d extension=modules/nativelock.so tests/reliability/hot_lock.php --backend=redis \
//       [--procs=16] [--seconds=4] [--timeout=S] [--slack=2] [--min-count=3] [--min-share=0]
//       [--sabotage=none]
// --min-share=X (off by default) also asserts min/mean of the per-process counts ≥ X (SPEC §7
// asks 0.5 at 8 processes); --min-count alone catches starvation, not unfairness.
// --timeout defaults to 5 s (file, mysql) and 15 s for redis: the RedisLock adapter waits with
// FAIL_BLOCK, whose budget is the original's fixed ~15 s.
//
// --overrun=S: process 0 outlives its TTL. Every 1.5 s it keeps the lock S seconds after its
// update (run it with a TTL below S: NATIVELOCK_RELIABILITY_MYSQL_TTL / _REDIS_TTL), so the
// others take it over as the TTL allows; they must neither time out nor starve meanwhile, and
// during at least one of these holds another process must have updated the counter (else no
// take-over was tested). Process 0 is left out of the share and count checks; what its release of a lost
// lock reports (an exception when its session was ended) is not a failure.
//
// It can fail, and --sabotage shows each assertion failing on purpose:
//   --sabotage=hog     process 0 takes the lock and keeps it for the whole window: the others
//                      get it once, after the window, so none reaches --min-count (starvation);
//   --sabotage=nolock  process 0 increments the counter without taking the lock: lost updates;
//   --sabotage=slow    every process holds the lock 50 ms, with a 1 s timeout and no slack:
//                      some acquires must time out or overstay (the wait bound).
declare(strict_types=1);
require __DIR__ . '/lib/driver.inc';

$opt = rel_options(['backend' => 'file', 'procs' => 16, 'seconds' => '4', 'timeout' => '', 'slack' => '2',
    'min-count' => 3, 'min-share' => '0', 'sabotage' => 'none', 'overrun' => '0', 'test' => 'hot-lock']);
$overrun = (float) $opt['overrun'];
$seconds = (float) $opt['seconds'];
$timeout = $opt['timeout'] !== '' ? (float) $opt['timeout'] : ($opt['backend'] === 'redis' ? 15.0 : 5.0);
$slack = (float) $opt['slack'];
$sabotage = $opt['sabotage'];
$holdUs = 0;
if ($sabotage === 'slow') {
    [$timeout, $slack, $holdUs] = [1.0, 0.0, 50000];
} elseif (!in_array($sabotage, ['none', 'hog', 'nolock'], true)) {
    fwrite(STDERR, "--sabotage=none|hog|nolock|slow\n");
    exit(2);
}
$procs = max(2, $opt['procs']);
$started = microtime(true);
$tried = sprintf('%d processes on one lock for %.1f s: acquire (timeout %.1f s) / read-increment-write / release%s%s',
    $procs, $seconds, $timeout, $sabotage === 'none' ? '' : " (sabotage: $sabotage)",
    $overrun > 0 ? sprintf('; process 0 keeps the lock %.1f s past its update every 1.5 s', $overrun) : '');
rel_guard($opt['test'], $opt['backend'], $tried, $started);
$backend = rel_backend_or_report($opt['test'], $opt['backend'], $tried, $started);
$backend->prepare('hot' . getmypid());
$work = sys_get_temp_dir() . '/nl-rel-hot-' . getmypid();
@mkdir($work);
$counter = "$work/counter";
file_put_contents($counter, '0');

$startAt = rel_now() + 0.5 + 0.02 * $procs;   // all forked and set up before the window opens
$endAt = $startAt + $seconds;
$kids = [];
for ($k = 0; $k < $procs; $k++) {
    $pid = pcntl_fork();
    if ($pid === -1) {
        throw new RuntimeException('fork failed');
    }
    if ($pid === 0) {
        $backend->afterFork();
        $stats = ['count' => 0, 'waits' => [], 'timeouts' => 0, 'errors' => [], 'overruns' => 0, 'taken_over' => 0];
        while (rel_now() < $startAt) {
            usleep(500);
        }
        $nextOverrun = $startAt + 0.5;
        while (rel_now() < $endAt) {
            if ($k === 0 && $sabotage === 'nolock') {
                $v = (int) file_get_contents($counter);
                usleep(100);
                file_put_contents($counter, (string) ($v + 1));
                $stats['count']++;
                continue;
            }
            $t0 = rel_now();
            try {
                $held = $backend->acquire('hot', $timeout);
            } catch (Throwable $e) {
                $stats['errors'][] = sprintf('%s: %s (after %.2f s)', get_class($e), $e->getMessage(), rel_now() - $t0);
                $stats['waits'][] = rel_now() - $t0;
                if (count($stats['errors']) > 5) {
                    break;
                }
                continue;
            }
            $stats['waits'][] = rel_now() - $t0;
            if ($held === null) {
                $stats['timeouts']++;
                continue;
            }
            $v = (int) file_get_contents($counter);
            if ($holdUs) {
                usleep($holdUs);
            }
            file_put_contents($counter, (string) ($v + 1));
            $overrunning = $k === 0 && $overrun > 0 && rel_now() >= $nextOverrun;
            if ($k === 0 && $sabotage === 'hog') {
                while (rel_now() < $endAt) {
                    usleep(10000);
                }
            }
            if ($overrunning) {
                // Past the TTL the lock may be taken over, so the update is made before. A
                // counter that moved meanwhile proves that another process took it over.
                usleep((int) ($overrun * 1e6));
                $nextOverrun = rel_now() + 1.5;
                $stats['overruns']++;
                $stats['taken_over'] += (int) file_get_contents($counter) > $v + 1 ? 1 : 0;
                try {
                    $backend->release($held);
                } catch (Throwable $e) {
                    // A session ended by the take-over (SharedLock's KILL): the lock is gone.
                }
                $stats['count']++;
                continue;
            }
            $backend->release($held);
            $stats['count']++;
        }
        file_put_contents("$work/stats-$k.json", json_encode($stats));
        exit(0);
    }
    $kids[$k] = $pid;
}

$failures = [];
foreach ($kids as $k => $pid) {
    [$code, $signal] = rel_wait($pid);
    if ($code !== 0) {
        $failures[] = "process $k exited with " . ($signal !== null ? "signal $signal" : "code $code");
    }
}
$counts = [];
$waits = [];
$timeouts = 0;
$overruns = 0;
$takenOver = 0;
foreach ($kids as $k => $pid) {
    $s = json_decode((string) @file_get_contents("$work/stats-$k.json"), true);
    if (!is_array($s)) {
        $failures[] = "process $k left no statistics";
        $counts[$k] = 0;
        continue;
    }
    $counts[$k] = $s['count'];
    array_push($waits, ...$s['waits']);
    $timeouts += $s['timeouts'];
    $overruns += $s['overruns'];
    $takenOver += $s['taken_over'];
    foreach ($s['errors'] as $e) {
        $failures[] = "process $k: $e";
    }
}
$final = (int) file_get_contents($counter);
$total = array_sum($counts);
sort($waits);
$pct = fn(float $p) => $waits ? $waits[min(count($waits) - 1, (int) floor($p * (count($waits) - 1) + 0.5))] : 0.0;
$maxWait = $waits ? end($waits) : 0.0;
// With --overrun, process 0 holds most of the time by design: the others' shares are judged.
$judged = $counts;
if ($overrun > 0) {
    unset($judged[0]);
}
$mean = $judged ? array_sum($judged) / count($judged) : 0.0;
$minShare = $mean > 0 ? min($judged) / $mean : 0.0;

if ($final !== $total) {
    $failures[] = sprintf('lost update: counter %d, acquisitions %d (%d lost)', $final, $total, $total - $final);
}
if ($maxWait > $timeout + $slack) {
    $over = count(array_filter($waits, fn($w) => $w > $timeout + $slack));
    $failures[] = sprintf('%d acquire(s) waited longer than the timeout %.1f s + slack %.1f s; the longest %.2f s', $over, $timeout, $slack, $maxWait);
}
if ($overrun > 0 && $takenOver === 0) {
    $failures[] = sprintf('process 0 outlived its TTL %d time(s) and nobody took the lock over meanwhile: no take-over was tested (TTL below %.1f s?)', $overruns, $overrun);
}
if ($timeouts > 0) {
    $failures[] = sprintf('%d acquire(s) timed out after %.1f s: starved requests', $timeouts, $timeout);
}
$starved = array_filter($judged, fn($c) => $c < $opt['min-count']);
if ($starved) {
    $failures[] = sprintf('%d process(es) got the lock fewer than %d times: %s', count($starved), $opt['min-count'],
        implode(', ', array_map(fn($k, $c) => "#$k: $c", array_keys($starved), $starved)));
}
if ((float) $opt['min-share'] > 0 && $minShare < (float) $opt['min-share']) {
    $failures[] = sprintf('min share %.2f < %.2f: the least served process got %d of a mean %.1f', $minShare, (float) $opt['min-share'], $judged ? min($judged) : 0, $mean);
}
printf("# %s: %d acquisitions (%.0f/s), counter %d; per process min %d / mean %.1f / max %d (min share %.2f); "
    . "wait p50 %.1f ms, p99 %.1f ms, max %.1f ms; timeouts %d\n", $opt['backend'], $total, $total / max($seconds, 1e-9),
    $final, $judged ? min($judged) : 0, $mean, $judged ? max($judged) : 0, $minShare, $pct(0.5) * 1e3, $pct(0.99) * 1e3, $maxWait * 1e3, $timeouts);
printf("# counts: %s%s\n", implode(' ', $counts), $overrun > 0 ? "; process 0 outlived its TTL $overruns time(s), taken over $takenOver time(s)" : '');
shell_exec('rm -rf ' . escapeshellarg($work));
$backend->cleanup();
rel_report($opt['test'], $opt['backend'], $tried, $total, $failures, $started, [
    'acquisitions' => $total, 'per_second' => round($total / max($seconds, 1e-9), 1), 'min_share' => round($minShare, 3),
    'min_count' => $judged ? min($judged) : 0, 'max_count' => $judged ? max($judged) : 0, 'wait_p50_ms' => round($pct(0.5) * 1e3, 2),
    'wait_p99_ms' => round($pct(0.99) * 1e3, 2), 'wait_max_ms' => round($maxWait * 1e3, 2), 'timeouts' => $timeouts,
    'sabotage' => $sabotage, 'overrun_s' => $overrun, 'overruns' => $overruns, 'taken_over' => $takenOver,
]);
exit($failures ? 1 : 0);
