<?php
// Mutual exclusion torture: P processes × C cycles of lock → read-increment-write a counter
// file → unlock, each cycle randomly by try-until-success or by a blocking wait, with random
// sleeps inside and outside. Any overlap loses an increment, so the counter must equal P × C;
// an occupancy file additionally catches overlaps as they happen.
//   php mutual_exclusion.php --backend=file --procs=8 --cycles=2000
declare(strict_types=1);
require __DIR__ . '/lib/driver.inc';

$opt = rel_options(['backend' => 'file', 'procs' => 8, 'cycles' => 2000, 'test' => 'mutual-exclusion']);
$started = microtime(true);
$tried = "{$opt['procs']} processes x {$opt['cycles']} cycles of lock/read-increment-write/unlock, random try/blocking mix and sleeps";
rel_guard($opt['test'], $opt['backend'], $tried, $started);
$backend = rel_backend_or_report($opt['test'], $opt['backend'], $tried, $started);
$backend->prepare('mutex');
$work = sys_get_temp_dir() . '/nl-rel-mutex-' . getmypid();
@mkdir($work);
$counter = "$work/counter";
$occupant = "$work/occupant";
file_put_contents($counter, '0');
file_put_contents($occupant, '');

/** One worker's loop; returns its statistics. */
function worker(ReliabilityBackend $backend, int $cycles, string $counter, string $occupant, string $work): void
{
    $backend->afterFork();
    mt_srand(getmypid());
    $stats = ['tries' => 0, 'blocking' => 0, 'try_mode' => 0, 'overlaps' => 0, 'max_wait' => 0.0, 'errors' => []];
    for ($i = 0; $i < $cycles; $i++) {
        $t0 = rel_now();
        try {
            if (mt_rand(0, 99) < 40) {
                $stats['try_mode']++;
                while (($held = $backend->tryAcquire('torture')) === null) {
                    $stats['tries']++;
                    rel_random_sleep(200);
                }
            } else {
                $stats['blocking']++;
                $held = $backend->acquire('torture', 60.0);
                if ($held === null) {
                    $stats['errors'][] = "cycle $i: blocking acquire timed out after 60 s";
                    break;
                }
            }
        } catch (Throwable $e) {
            $stats['errors'][] = "cycle $i: " . get_class($e) . ': ' . $e->getMessage();
            break;
        }
        $stats['max_wait'] = max($stats['max_wait'], rel_now() - $t0);

        // Critical section. The occupancy file names whoever is inside; finding someone else
        // there is an overlap caught in the act.
        $inside = file_get_contents($occupant);
        if ($inside !== '') {
            $stats['overlaps']++;
        }
        file_put_contents($occupant, (string) getmypid());
        $value = (int) file_get_contents($counter);
        if (mt_rand(0, 3) === 0) {
            rel_random_sleep(100);  // widen the window a lost update needs
        }
        file_put_contents($counter, (string) ($value + 1));
        file_put_contents($occupant, '');

        $backend->release($held);
        if (mt_rand(0, 1) === 0) {
            rel_random_sleep(300);
        }
    }
    file_put_contents("$work/stats-" . getmypid(), json_encode($stats));
}

$children = [];
for ($p = 0; $p < $opt['procs']; $p++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        worker($backend, $opt['cycles'], $counter, $occupant, $work);
        exit(0);
    }
    $children[] = $pid;
}

$failures = [];
$measured = ['tries' => 0, 'blocking' => 0, 'try_mode' => 0, 'overlaps' => 0, 'max_wait_ms' => 0.0];
foreach ($children as $pid) {
    [$code, $signal] = rel_wait($pid);
    if ($code !== 0) {
        $failures[] = "worker $pid ended with " . ($signal !== null ? "signal $signal" : "exit code $code");
    }
    $stats = json_decode((string) @file_get_contents("$work/stats-$pid"), true);
    if (!is_array($stats)) {
        $failures[] = "worker $pid left no statistics";
        continue;
    }
    foreach ($stats['errors'] as $error) {
        $failures[] = "worker $pid: $error";
    }
    foreach (['tries', 'blocking', 'try_mode', 'overlaps'] as $k) {
        $measured[$k] += $stats[$k];
    }
    $measured['max_wait_ms'] = max($measured['max_wait_ms'], round($stats['max_wait'] * 1000, 1));
}
$expected = $opt['procs'] * $opt['cycles'];
$final = (int) file_get_contents($counter);
$measured['counter'] = $final;
$measured['expected'] = $expected;
if ($final !== $expected) {
    $failures[] = "counter is $final, expected $expected: " . ($expected - $final) . ' lost updates';
}
if ($measured['overlaps'] > 0) {
    $failures[] = "{$measured['overlaps']} overlaps seen in the occupancy file";
}
array_map('unlink', glob("$work/*"));
rmdir($work);
$backend->cleanup();
rel_report($opt['test'], $opt['backend'], $tried, $expected, $failures, $started, $measured);
exit($failures ? 1 : 0);
