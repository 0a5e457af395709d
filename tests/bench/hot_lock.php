<?php
// The hot-lock scenario of issue 14 / SPEC §7: nginx → php-fpm (24 static workers) ← wrk -c24;
// every request takes ONE shared lock, read-increment-writes a counter file, releases, answers.
// Per backend: req/s, p50/p90/p99/max, errors, no lost update, FIFO ideal (workers /
// throughput), p99 / ideal, and the targets "p99 ≤ 3× ideal", "p99 < Symfony RedisStore's".
//
// Run by tests/bench/run.sh (--only=hot, and in the full run), which builds the module, starts
// redis-server and mariadbd and sets the environment. By hand, with the servers up:
//   NATIVELOCK_MODULE=$PWD/modules/nativelock.so php -d extension=$PWD/modules/nativelock.so \
//       tests/bench/hot_lock.php --out=DIR [--quick] [--seconds=8] [--repeats=1]
//       [--backends=redislock,sharedlock,filelock,sf-redis] [--results=DIR/results.json]
// Writes DIR/hot.json and DIR/hot-lock.md; with --results, also adds scenarios.hot to that
// results.json (report.php renders it into results.md).
require __DIR__ . '/lib/hot_stack.php';
require __DIR__ . '/lib/hot_report.php';

$opt = ['out' => null, 'seconds' => 8.0, 'repeats' => 1, 'warmup' => 2.0, 'workers' => 24, 'clients' => 24,
    'backends' => 'redislock,sharedlock,filelock,sf-redis', 'results' => null];
foreach (array_slice($argv, 1) as $a) {
    if ($a === '--quick') {
        $opt['seconds'] = 3.0;
        $opt['warmup'] = 1.0;
    } elseif (preg_match('/^--([a-z]+)=(.*)$/', $a, $m) && array_key_exists($m[1], $opt)) {
        $opt[$m[1]] = $m[2];
    } else {
        fwrite(STDERR, "usage: hot_lock.php --out=DIR [--quick] [--seconds=S] [--repeats=N] [--warmup=S] [--workers=N] "
            . "[--clients=N] [--backends=a,b] [--results=results.json]\n");
        exit(2);
    }
}
if ($opt['out'] === null) {
    fwrite(STDERR, "--out=DIR is required\n");
    exit(2);
}
@mkdir($opt['out'], 0777, true);
$workers = (int) $opt['workers'];
$clients = (int) $opt['clients'];
$seconds = (float) $opt['seconds'];
$repeats = max(1, (int) $opt['repeats']);

$all = nlb_backends();
$ids = [];
$rows = [];
foreach (explode(',', $opt['backends']) as $id) {
    if (!isset($all[$id])) {
        fwrite(STDERR, "unknown backend $id\n");
        exit(2);
    }
    $b = $all[$id];
    $rows[$id] = ['label' => $b->label, 'kind' => $b->kind, 'runs' => []];
    if (($why = $b->unavailable()) !== null) {
        $rows[$id]['error'] = "not available: $why";
        nlb_hot_say("hot: $id not available: $why");
        continue;
    }
    $ids[] = $id;
}

$dir = sys_get_temp_dir() . '/nativelock-hot-' . getmypid();
$httpPort = (int) nlb_env('NATIVELOCK_BENCH_HTTP_PORT', '19581');
$fpmPort = (int) nlb_env('NATIVELOCK_BENCH_HOT_FPM_PORT', '19582');
$stack = nlb_hot_start($dir, $workers, $httpPort, $fpmPort);
try {
    for ($r = 0; $r < $repeats; $r++) {
        foreach ($ids as $id) {
            nlb_hot_say("hot: $id, run " . ($r + 1) . "/$repeats: {$opt['warmup']} s warm-up, {$seconds} s at -c$clients");
            nlb_hot_reset($stack);
            nlb_hot_wrk($stack, $id, $clients, (float) $opt['warmup']);   // opcache, pooled connections
            usleep(300000);
            nlb_hot_reset($stack);
            try {
                $w = nlb_hot_wrk($stack, $id, $clients, $seconds);
            } catch (Throwable $e) {
                $rows[$id]['runs'][] = ['error' => $e->getMessage()];
                continue;
            }
            nlb_hot_settle($stack);   // requests in flight when wrk stopped finish and log
            [$reqs, $counter] = nlb_hot_requests($stack);
            $rows[$id]['runs'][] = nlb_hot_analyse($w, $reqs, $counter, $workers);
        }
    }
} finally {
    nlb_hot_stop($stack);
    shell_exec('rm -rf ' . escapeshellarg($dir));
}

/** One run's figures from wrk's result and the workers' request logs. */
function nlb_hot_analyse(array $w, array $reqs, int $counter, int $workers): array
{
    $ok = array_values(array_filter($reqs, fn($q) => $q['status'] === 'ok'));
    $values = array_column($ok, 'value');
    $dups = count($values) - count(array_unique($values));
    $hold = array_map(fn($q) => ($q['rel'] - $q['acq']) / 1e6, $ok);
    $wait = array_map(fn($q) => ($q['acq'] - $q['t0']) / 1e6, $ok);
    $e = $w['errors'];
    $rps = $w['rps'];
    return [
        'rps' => $rps,
        'requests' => $w['requests'],
        'latency_us' => $w['latency_us'],
        'errors' => $e,
        'errors_total' => $e['connect'] + $e['read'] + $e['write'] + $e['status'] + $e['timeout'],
        'logged' => count($reqs),
        'logged_ok' => count($ok),
        'failures' => array_slice(array_values(array_unique(array_column(array_filter($reqs, fn($q) => $q['status'] !== 'ok'), 'status'))), 0, 5),
        'counter' => $counter,
        'duplicates' => $dups,
        // Requests in flight when wrk stopped still finish and log: compare with the logs.
        'counter_ok' => $counter === count($ok) && $dups === 0,
        'ideal_ms' => $rps > 0 ? $workers / $rps * 1000 : NAN,
        'hold_mean_ms' => $hold ? array_sum($hold) / count($hold) : NAN,
        'wait_ms' => nlb_stats($wait),
        'overtaken' => nlb_stats(nlb_hot_overtaken($ok)),
    ];
}

/**
 * For each request (in order of acquisition): how many requests that started later acquired
 * the lock before it. 0 for all under FIFO hand-off. Fenwick tree over the start-time ranks.
 */
function nlb_hot_overtaken(array $ok): array
{
    $t0 = array_column($ok, 't0');
    $sorted = $t0;
    sort($sorted);
    $rank = array_flip($sorted);   // equal t0: one rank, counted as not later
    $n = count($sorted);
    $tree = array_fill(0, $n + 1, 0);
    $out = [];
    foreach ($t0 as $i => $t) {
        $k = $rank[$t] + 1;
        $notLater = 0;
        for ($j = $k; $j > 0; $j -= $j & -$j) {
            $notLater += $tree[$j];
        }
        $out[] = $i - $notLater;   // earlier acquisitions that started later
        for ($j = $k; $j <= $n; $j += $j & -$j) {
            $tree[$j]++;
        }
    }
    return $out;
}

// Several runs: keep the run with the median p99 (report all p99s).
foreach ($rows as $id => &$row) {
    $runs = array_values(array_filter($row['runs'], fn($x) => !isset($x['error'])));
    if (!$runs) {
        $row['error'] ??= $row['runs'][0]['error'] ?? 'no run';
        continue;
    }
    usort($runs, fn($a, $b) => $a['latency_us']['p99'] <=> $b['latency_us']['p99']);
    $row = array_merge($row, $runs[intdiv(count($runs), 2)]);
    $row['p99_runs_ms'] = array_map(fn($x) => $x['latency_us']['p99'] / 1000, $runs);
    $row['counter_ok'] = array_reduce($runs, fn($c, $x) => $c && $x['counter_ok'], true);
}
unset($row);

$hot = ['date' => gmdate('Y-m-d H:i') . ' UTC', 'load' => sys_getloadavg(), 'workers' => $workers, 'clients' => $clients,
    'seconds' => $seconds, 'warmup' => (float) $opt['warmup'], 'repeats' => $repeats, 'rows' => $rows];
file_put_contents($opt['out'] . '/hot.json', json_encode($hot, JSON_PRETTY_PRINT | JSON_PARTIAL_OUTPUT_ON_ERROR));
[$md, $targets] = nlb_hot_markdown($hot);
$md[] = '| target | measured | met |';
$md[] = '|---|---|---|';
foreach ($targets as [$t, $v, $okT]) {
    $md[] = sprintf('| %s | %s | %s |', $t, $v, $okT === null ? 'not measured' : ($okT ? 'yes' : '**no**'));
}
$md[] = '';
$md[] = sprintf('Run of %s, load average at the end %s.', $hot['date'], implode('/', array_map(fn($x) => sprintf('%.2f', $x), $hot['load'])));
file_put_contents($opt['out'] . '/hot-lock.md', implode("\n", $md) . "\n");
if ($opt['results'] !== null && is_file($opt['results'])) {
    $res = json_decode(file_get_contents($opt['results']), true);
    $res['scenarios']['hot'] = $hot;
    file_put_contents($opt['results'], json_encode($res, JSON_PRETTY_PRINT | JSON_PARTIAL_OUTPUT_ON_ERROR));
}
echo implode("\n", $md), "\n";
$bad = array_filter($rows, fn($r) => !isset($r['error']) && !$r['counter_ok']);
exit($bad ? 1 : 0);
