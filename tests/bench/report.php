<?php
// Renders the results of bench.php (+ the Google Benchmark JSON of nativelock_core_bench) as
// Markdown, and the chart data + gnuplot script.
//   php report.php RESULTS.json CORE.json|- OUT_DIR
// Writes OUT_DIR/results.md, OUT_DIR/cycle.dat, OUT_DIR/handoff.dat, OUT_DIR/chart.gp.
[$self, $in, $coreJson, $outDir] = $argv + [null, null, '-', null];
if ($outDir === null) {
    fwrite(STDERR, "usage: report.php RESULTS.json CORE.json|- OUT_DIR\n");
    exit(2);
}
$j = json_decode(file_get_contents($in), true);
$B = $j['backends'];
$S = $j['scenarios'];
$m = $j['machine'];
$md = [];
$targets = [];   // [target, measured, met (bool|null)]

$f = fn($x, $d = 2) => is_numeric($x) && !is_nan((float) $x) ? number_format((float) $x, $d, '.', '') : 'n/a';
$spread = fn(array $s, $d = 2) => $s['n'] ? sprintf('%s [%s..%s]', $f($s['p50'], $d), $f($s['min'], $d), $f($s['max'], $d)) : 'n/a';
$na = fn(string $id) => $B[$id]['unavailable'] ?? null;

$md[] = sprintf('Run of %s (%s level), %s, %d cores, %s, kernel %s; PHP %s, redis-server %s, MariaDB %s, '
    . 'php-symfony-lock %s; lock files on %s. Load average at start %s, at end %s (the machine was shared: '
    . 'absolute figures are noisy, ratios are taken within this one interleaved run).',
    $j['date'], $j['level'], $m['os'], $m['cores'], $m['cpu'], $m['kernel'], $m['php'], $m['redis'],
    str_replace('Ver ', '', $m['mariadb']), $m['symfony_lock'], $m['lockdir_fs'],
    implode('/', array_map(fn($x) => $f($x, 2), $m['load'])), implode('/', array_map(fn($x) => $f($x, 2), $m['load_end'] ?? [])));
$md[] = '';

// ------------------------------------------------------------------ cycle
$cycleDat = [];
if (isset($S['cycle'])) {
    $c = $S['cycle'];
    $rows = $c['rows'];
    $floorOf = ['file' => 'file-floor', 'redis' => 'hiredis-floor', 'mysql' => 'libmariadb-floor'];
    $targetOf = ['filelock' => 1.3, 'redislock' => 1.15, 'sharedlock' => 1.6];
    $md[] = '### Uncontended acquire + release';
    $md[] = '';
    $md[] = sprintf('Create the lock object, acquire (non-blocking), release, in a loop in one process. µs per cycle: '
        . 'median of %d interleaved runs [min..max of the runs]; each run is the mean over the stated cycles. '
        . 'Ratio to the C floor: median [min..max] over the rounds of (this run / the C floor\'s run in the same round). '
        . 'Placement: %s.', $c['repeats'], $c['placement'] ?? 'unpinned');
    $md[] = '';
    $md[] = '| backend | implementation | cycles × runs | µs/cycle median [min..max] | × C floor (paired) | target |';
    $md[] = '|---|---|---|---|---|---|';
    foreach (['file', 'redis', 'mysql'] as $g) {
        $floor = (float) ($rows[$floorOf[$g]]['stats']['p50'] ?? 0);
        $ids = array_merge(array_keys(array_filter($rows, fn($r) => $r['group'] === $g)),
            array_keys(array_filter($B, fn($b, $id) => $b['group'] === $g && $b['unavailable'] !== null, ARRAY_FILTER_USE_BOTH)));
        foreach ($ids as $id) {
            if (!isset($rows[$id])) {
                $md[] = sprintf('| %s | %s | | **not available**: %s | | %s |', $g, $B[$id]['label'], $B[$id]['unavailable'],
                    isset($targetOf[$id]) ? '≤ ' . $targetOf[$id] . '× — not measured' : '');
                if (isset($targetOf[$id])) {
                    $targets[] = ["{$B[$id]['label']} cycle ≤ {$targetOf[$id]}× C floor", 'not available', null];
                }
                continue;
            }
            $r = $rows[$id];
            $ratio = isset($r['ratio']) && $r['ratio']['n'] ? $r['ratio']['p50'] : ($floor > 0 && $r['stats']['n'] ? $r['stats']['p50'] / $floor : NAN);
            $ratioText = isset($r['ratio']) && $r['ratio']['n'] > 1 ? sprintf('%s× [%s..%s]', $f($ratio), $f($r['ratio']['min']), $f($r['ratio']['max'])) : $f($ratio) . '×';
            $t = '';
            if (isset($targetOf[$id])) {
                $ok = !is_nan($ratio) && $ratio <= $targetOf[$id];
                $t = sprintf('≤ %.2f× %s', $targetOf[$id], $ok ? 'met' : '**missed**');
                $targets[] = ["{$B[$id]['label']} cycle ≤ {$targetOf[$id]}× C floor", sprintf('%.2f×', $ratio), $ok];
            }
            $label = $r['kind'] === 'ours' ? "**{$r['label']}**" : $r['label'];
            $md[] = sprintf('| %s | %s | %d × %d | %s%s | %s | %s |', $g, $label, $r['cycles'] ?? 0, $r['stats']['n'],
                $spread($r['stats']), isset($r['error']) ? ' (error: ' . $r['error'] . ')' : '', $ratioText, $t);
            if ($r['stats']['n']) $cycleDat[] = [$g, $r['label'], $r['stats']['p50'], $r['stats']['min'], $r['stats']['max'], $r['kind']];
        }
    }
    $md[] = '';
}

// ------------------------------------------------------------------ handoff
$handoffDat = [];
if (isset($S['handoff'])) {
    $md[] = '### Hand-off latency';
    $md[] = '';
    $md[] = 'A holder in another process releases while this process is blocked acquiring the same lock; time from '
        . 'just before the release call (holder, CLOCK_MONOTONIC) to the waiter owning it (waiter, same clock). '
        . 'Symfony stores without native blocking wait through `Lock::acquire(true)`\'s retry (sleep 100 ± 10 ms). '
        . 'Milliseconds over the stated rounds.';
    $md[] = '';
    $md[] = '| backend | implementation | waits by | rounds | p50 | p90 | p99 | min | max | p50 ≤ 1 ms |';
    $md[] = '|---|---|---|---|---|---|---|---|---|---|';
    foreach ($B as $id => $b) {
        if ($b['kind'] === 'floor') {
            continue;
        }
        if (!isset($S['handoff']['rows'][$id])) {
            if ($b['unavailable'] !== null) {
                $md[] = sprintf('| %s | %s | %s | | **not available**: %s | | | | | |', $b['group'], $b['label'], $b['waits'], $b['unavailable']);
                if ($b['kind'] === 'ours') {
                    $targets[] = ["{$b['label']} hand-off p50 ≤ 1 ms", 'not available', null];
                }
            }
            continue;
        }
        $r = $S['handoff']['rows'][$id];
        $s = $r['stats'];
        $ok = $s['n'] > 0 && $s['p50'] <= 1.0 && !isset($r['error']);
        if ($b['kind'] === 'ours') {
            $targets[] = ["{$b['label']} hand-off p50 ≤ 1 ms", $f($s['p50'], 3) . ' ms', $ok];
            if ($id === 'filelock') {
                $targets[] = ["{$b['label']} hand-off p50 ≤ 0.2 ms (issue 14)", $f($s['p50'], 3) . ' ms',
                    $s['n'] > 0 && $s['p50'] <= 0.2 && !isset($r['error'])];
            }
        }
        $label = $b['kind'] === 'ours' ? "**{$b['label']}**" : $b['label'];
        $md[] = sprintf('| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s%s |', $b['group'], $label, $b['waits'], $s['n'],
            $f($s['p50'], 3), $f($s['p90'], 3), $f($s['p99'], 3), $f($s['min'], 3), $f($s['max'], 3),
            $ok ? 'yes' : 'no', isset($r['error']) ? ' (error: ' . substr($r['error'], 0, 120) . ')' : '');
        if ($s['n']) {
            $handoffDat[] = [$b['group'], $b['label'], $s['p50'], $s['p90'], $s['p99'], $b['kind']];
        }
    }
    $md[] = '';
}

// ------------------------------------------------------------------ contention
if (isset($S['contention'])) {
    // Issue 14's table (8 processes): RedisLock 2,309/s and SharedLock 1,945/s beside Symfony
    // FlockStore's ~5,000/s.
    $issue14At8 = ['redislock' => 2309, 'sharedlock' => 1945];
    $issue14FlockAt8 = 5000;
    $md[] = '### Contention';
    $md[] = '';
    $md[] = sprintf('P processes contend for one lock for %s s (a fixed window, so that per-process shares show starvation): '
        . 'blocking acquire → read a counter file, increment, write it back (deliberately non-atomic) → release. '
        . '"final" is the counter afterwards and must equal the sum of the acquisitions; "min share" is the least '
        . 'successful process\'s acquisitions over the mean (SPEC §7: ≥ 0.5 at 8 processes; Filelock\'s throughput '
        . 'at 8 also ≥ the original\'s and ≥ 0.8× Symfony FlockStore\'s).', $f($S['contention']['seconds'], 1));
    $md[] = '';
    $md[] = '| implementation | P | acquisitions/s | total | final | lost | per process min..max | min share | longest wait ms |';
    $md[] = '|---|---|---|---|---|---|---|---|---|';
    foreach ($B as $id => $b) {
        if ($b['kind'] === 'floor' && !isset($S['contention']['rows'][$id])) {
            continue;
        }
        if (!isset($S['contention']['rows'][$id])) {
            if ($b['unavailable'] !== null) {
                $md[] = sprintf('| %s | | **not available** | | | | | | |', $b['label']);
                if ($b['kind'] === 'ours') {
                    $targets[] = ["{$b['label']}: no lost update, min share ≥ 0.5 at 8", 'not available', null];
                }
            }
            continue;
        }
        foreach ($S['contention']['rows'][$id] as $p => $r) {
            $label = $b['kind'] === 'ours' ? "**{$b['label']}**" : $b['label'];
            $md[] = sprintf('| %s | %d | %s | %d | %d | %d | %d..%d | %s | %s |%s', $label, $p, $f($r['per_sec'], 0), $r['total'], $r['final'],
                $r['lost'], $r['min'], $r['max'], $f($r['min_share']), $f($r['max_wait_ms'], 1),
                $r['errors'] ? ' errors: ' . substr(implode('; ', $r['errors']), 0, 150) : '');
        }
        if ($b['kind'] === 'ours') {
            $rows = $S['contention']['rows'][$id];
            $lost = array_sum(array_map(fn($r) => abs($r['lost']), $rows));
            $errs = array_sum(array_map(fn($r) => count($r['errors']), $rows));
            $targets[] = ["{$b['label']}: zero lost updates (2/4/8 procs)", "$lost lost" . ($errs ? ", $errs worker errors" : ''), $lost === 0 && $errs === 0];
            $top = $rows[max(array_keys($rows))];
            $targets[] = ["{$b['label']}: min share ≥ 0.5 of the mean at {$top['procs']} procs", $f($top['min_share']), $top['min_share'] >= 0.5];
            if ($id === 'filelock') {
                $at = fn(string $peer) => $S['contention']['rows'][$peer][$top['procs']]['per_sec'] ?? null;
                foreach ([['orig-filelock', 1.0], ['sf-flock', 0.8]] as [$peer, $factor]) {
                    $theirs = $at($peer);
                    $what = sprintf('%s: throughput at %d procs ≥ %s%s\'s', $b['label'], $top['procs'], $factor == 1.0 ? "" : "{$factor}× ", $B[$peer]['label'] ?? $peer);
                    $targets[] = $theirs === null ? [$what, 'not measured', null]
                        : [$what, sprintf('%s/s vs %s/s (%.2f×)', $f($top['per_sec'], 0), $f($theirs, 0), $top['per_sec'] / $theirs), $top['per_sec'] >= $factor * $theirs];
                }
            }
            if (isset($issue14At8[$id]) && $top['procs'] == 8) {
                // Issue 14's figure was taken on another host: judged as it stands, and as its share
                // of Symfony FlockStore's throughput in the issue's table against the same share here.
                $anchor = $issue14At8[$id];
                $targets[] = ["{$b['label']}: throughput at 8 procs ≥ issue 14's {$anchor}/s (as measured there)",
                    $f($top['per_sec'], 0) . '/s', $top['per_sec'] >= $anchor];
                $flock = $S['contention']['rows']['sf-flock'][8]['per_sec'] ?? null;
                $share = $anchor / $issue14FlockAt8;
                $what = sprintf('%s: throughput at 8 procs ≥ issue 14\'s share of Symfony FlockStore\'s (%d / ~%d = %.2f×)',
                    $b['label'], $anchor, $issue14FlockAt8, $share);
                $targets[] = $flock === null ? [$what, 'FlockStore not measured', null]
                    : [$what, sprintf('%.2f× (%s/s vs %s/s)', $top['per_sec'] / $flock, $f($top['per_sec'], 0), $f($flock, 0)),
                        $top['per_sec'] / $flock >= $share];
            }
        }
    }
    $md[] = '';
}

// ------------------------------------------------------------------ contention, rounds at 8
if (isset($S['contention_rounds'])) {
    $cr = $S['contention_rounds'];
    $median = function (array $xs): float {
        sort($xs);
        $n = count($xs);
        return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
    };
    $ids = array_keys($cr['rounds'][0]);
    $md[] = sprintf('#### Filelock and its peers at %d processes, %d interleaved rounds', $cr['procs'], count($cr['rounds']));
    $md[] = '';
    $md[] = sprintf('The same %s s window as above, repeated: each round runs Filelock, the original and FlockStore once, in an order rotated '
        . 'from round to round. Acquisitions/s median [min..max] over the rounds; Filelock\'s ratio to a peer is paired: '
        . 'median [min..max] over the rounds of (Filelock / the peer in the same round). The single windows above are '
        . 'judged as before; these judge the same targets against the drift of a shared machine.', $f($cr['seconds'], 1));
    $md[] = '';
    $md[] = '| implementation | acquisitions/s | min share median [worst] | longest wait ms (max) | lost | Filelock / this (paired) |';
    $md[] = '|---|---|---|---|---|---|';
    $ratios = [];
    foreach ($ids as $id) {
        $per = array_map(fn($round) => $round[$id]['per_sec'], $cr['rounds']);
        $shares = array_map(fn($round) => $round[$id]['min_share'], $cr['rounds']);
        $waits = array_map(fn($round) => $round[$id]['max_wait_ms'], $cr['rounds']);
        $lost = array_sum(array_map(fn($round) => abs($round[$id]['lost']) + count($round[$id]['errors']), $cr['rounds']));
        $pair = '';
        if ($id !== 'filelock' && isset($cr['rounds'][0]['filelock'])) {
            // A round in which the peer did nothing has no ratio (not a NAN that would upset sort()).
            $ratios[$id] = array_values(array_map(fn($round) => $round['filelock']['per_sec'] / $round[$id]['per_sec'],
                array_filter($cr['rounds'], fn($round) => $round[$id]['per_sec'] > 0)));
            if (!$ratios[$id]) {
                unset($ratios[$id]);
                $md[] = sprintf('| %s | | | | | no round with acquisitions |', $B[$id]['label'] ?? $id);
                continue;
            }
            $pair = sprintf('%s× [%s..%s]', $f($median($ratios[$id])), $f(min($ratios[$id])), $f(max($ratios[$id])));
        }
        $label = ($B[$id]['kind'] ?? '') === 'ours' ? "**{$B[$id]['label']}**" : ($B[$id]['label'] ?? $id);
        $md[] = sprintf('| %s | %s [%s..%s] | %s [%s] | %s | %d | %s |', $label, $f($median($per), 0), $f(min($per), 0), $f(max($per), 0),
            $f($median($shares)), $f(min($shares)), $f(max($waits), 1), $lost, $pair);
        if ($id === 'filelock') {
            $targets[] = ["{$B[$id]['label']}: min share ≥ 0.5 at {$cr['procs']} procs in every round", $f(min($shares)), min($shares) >= 0.5];
            $targets[] = ["{$B[$id]['label']}: zero lost updates in the rounds", "$lost lost or failed", $lost === 0];
        }
    }
    foreach ([['orig-filelock', 1.0], ['sf-flock', 0.8]] as [$peer, $factor]) {
        if (!isset($ratios[$peer])) {
            continue;
        }
        $what = sprintf('%s: throughput at %d procs ≥ %s%s\'s (median of %d paired rounds)', $B['filelock']['label'], $cr['procs'],
            $factor == 1.0 ? '' : "{$factor}× ", $B[$peer]['label'] ?? $peer, count($cr['rounds']));
        $targets[] = [$what, sprintf('%s× [%s..%s]', $f($median($ratios[$peer])), $f(min($ratios[$peer])), $f(max($ratios[$peer]))),
            $median($ratios[$peer]) >= $factor];
    }
    $md[] = '';
}

// ------------------------------------------------------------------ fpm
if (isset($S['fpm'])) {
    $fp = $S['fpm'];
    $md[] = '### Per-request cost under php-fpm';
    $md[] = '';
    $md[] = sprintf('php-fpm (pm = static, %d workers, opcache on) serving a script that sets the backend up as an application '
        . 'does per request, takes one lock (named after the worker, so uncontended) and releases it; %d keep-alive FastCGI '
        . 'clients for %s s per run, %d runs, interleaved. Requests/s median [min..max]; "none" is the same script without a lock.',
        $fp['workers'], $fp['clients'], $f($fp['seconds'], 1), $fp['repeats']);
    $md[] = '';
    $md[] = '| script | requests/s | µs added per request vs none | errors |';
    $md[] = '|---|---|---|---|';
    $base = $fp['rows']['none']['stats']['p50'] ?? NAN;
    foreach ($fp['rows'] as $id => $r) {
        $label = $id === 'none' ? 'none (no lock)' : ($B[$id]['kind'] === 'ours' ? "**{$B[$id]['label']}**" : $B[$id]['label']);
        $added = $id === 'none' ? '' : $f((1e6 / $r['stats']['p50'] - 1e6 / $base) * $fp['workers'] / min($fp['workers'], $m['cores'] ?: 1), 0);
        $md[] = sprintf('| %s | %s | %s | %d%s |', $label, $spread($r['stats'], 0), $added, $r['errors'],
            isset($r['last_error']) ? ' (' . substr(strip_tags($r['last_error']), 0, 100) . ')' : '');
    }
    foreach ($B as $id => $b) {
        if ($b['unavailable'] !== null && $b['kind'] !== 'floor') {
            $md[] = sprintf('| %s | **not available** | | |', $b['label']);
        }
    }
    $md[] = '';
    $md[] = 'µs added per request: (1/rate − 1/rate_none) × workers / min(workers, cores), i.e. CPU time per request on this machine.';
    $md[] = '';
}

// ------------------------------------------------------------------ hot lock (issue 14)
if (isset($S['hot'])) {
    require_once __DIR__ . '/lib/hot_report.php';
    [$hotMd, $hotTargets] = nlb_hot_markdown($S['hot']);
    array_push($md, ...$hotMd);
    array_push($targets, ...$hotTargets);
}

// ------------------------------------------------------------------ memory
if (isset($S['memory'])) {
    $md[] = '### Memory';
    $md[] = '';
    $md[] = 'One fresh CLI process per row: 1,000 warm-up cycles, then the stated count of cycles with a new lock name each '
        . 'time (`mem<i>`), "cycle" = create + acquire + release, "create" = create the object only (the original '
        . 'RedisLock keeps every created object in a static array). RSS from /proc/self/status, PHP heap from memory_get_usage().';
    $md[] = '';
    $md[] = '| implementation | mode | count | RSS before → after (KiB) | RSS growth | PHP heap growth | µs/cycle |';
    $md[] = '|---|---|---|---|---|---|---|';
    foreach ($S['memory']['rows'] as $r) {
        $b = $B[$r['id']];
        $label = $b['kind'] === 'ours' ? "**{$b['label']}**" : $b['label'];
        if (isset($r['error'])) {
            $md[] = sprintf('| %s | %s | %d | error: %s | | | |', $label, $r['mode'], $r['count'], substr($r['error'], 0, 150));
            continue;
        }
        $md[] = sprintf('| %s | %s | %s | %d → %d | %+d KiB | %+d B | %s |', $label, $r['mode'], number_format($r['count']),
            $r['rss_before_kb'], $r['rss_after_kb'], $r['rss_after_kb'] - $r['rss_before_kb'], $r['php_after'] - $r['php_before'],
            $f($r['seconds'] * 1e6 / $r['count'], 2));
    }
    foreach ($B as $id => $b) {
        if ($b['unavailable'] !== null && $b['kind'] !== 'floor') {
            $md[] = sprintf('| %s | | | **not available** | | | |', $b['label']);
        }
    }
    $md[] = '';
}

// ------------------------------------------------------------------ core micro-benchmarks
if ($coreJson !== '-' && is_file($coreJson)) {
    $cj = json_decode(file_get_contents($coreJson), true);
    $by = [];
    foreach ($cj['benchmarks'] ?? [] as $bm) {
        if (($bm['run_type'] ?? '') === 'iteration') {
            $by[$bm['run_name']][] = $bm;
        }
    }
    $md[] = '### Core micro-benchmarks (Google Benchmark)';
    $md[] = '';
    $md[] = sprintf('`nativelock_core_bench` (ext/core, RelWithDebInfo), %d repetitions each; ns per operation, median [min..max] of '
        . 'the repetitions. `/0` = tmpfs (/dev/shm), `/1` = the lock directory (%s). `BM_SyscallFloor` is the C floor in the same binary.',
        count(reset($by) ?: []), $m['lockdir_fs']);
    $md[] = '';
    $md[] = '| benchmark | ns/op | iterations per repetition |';
    $md[] = '|---|---|---|';
    foreach ($by as $name => $reps) {
        $t = array_map(fn($x) => $x['real_time'] * ['ns' => 1, 'us' => 1e3, 'ms' => 1e6][$x['time_unit']], $reps);
        sort($t);
        $s = ['n' => count($t), 'min' => $t[0], 'p50' => $t[intdiv(count($t), 2)], 'max' => end($t)];
        $md[] = sprintf('| %s | %s | %d |', $name, $spread($s, 0), $reps[0]['iterations']);
    }
    $md[] = '';
}

// ------------------------------------------------------------------ targets
$md[] = '### SPEC §7 targets';
$md[] = '';
$md[] = '| target | measured | met |';
$md[] = '|---|---|---|';
foreach ($targets as [$t, $v, $ok]) {
    $md[] = sprintf('| %s | %s | %s |', $t, $v, $ok === null ? 'not measured' : ($ok ? 'yes' : '**no**'));
}
$md[] = '';

@mkdir($outDir, 0777, true);
file_put_contents("$outDir/results.md", implode("\n", $md));

// ------------------------------------------------------------------ chart
$q = fn(string $s) => '"' . str_replace('"', "'", $s) . '"';
$dat = "# group label p50 min max kind\n";
foreach ($cycleDat as $i => [$g, $l, $p, $mi, $ma, $k]) {
    $dat .= sprintf("%d %s %s %.4f %.4f %.4f %s\n", $i, $g, $q($l), $p, $mi, $ma, $k === 'ours' ? 1 : ($k === 'floor' ? 2 : 3));
}
file_put_contents("$outDir/cycle.dat", $dat);
$dat = "# group label p50 p90 p99 kind\n";
foreach ($handoffDat as $i => [$g, $l, $p50, $p90, $p99, $k]) {
    $dat .= sprintf("%d %s %s %.5f %.5f %.5f %s\n", $i, $g, $q($l), max($p50, 1e-3), max($p90, 1e-3), max($p99, 1e-3), $k === 'ours' ? 1 : 3);
}
file_put_contents("$outDir/handoff.dat", $dat);
$title = "nativelock benchmarks, {$j['date']}, {$m['cores']} cores {$m['cpu']}";
$gp = <<<GP
set terminal svg size 1200,1000 dynamic font "sans,11" background "white"
set termoption noenhanced
set output "chart.svg"
set multiplot layout 2,1 title "$title"
set style fill solid 0.85 border -1
set boxwidth 0.7
set logscale y
set grid ytics
set xtics rotate by -35 left font ",9" nomirror
set key off
set bmargin 12
set rmargin 12
set title "Uncontended acquire + release, µs/cycle (median, whiskers min..max of runs; log scale)"
set ylabel "µs/cycle"
plot "cycle.dat" using 1:4:(\$7==1?0x2a7ab0:(\$7==2?0x888888:0xe0a040)):xtic(3) with boxes lc rgb variable, \
     "" using 1:4:5:6 with yerrorbars lc rgb "black" pt -1
set title "Hand-off latency, ms: box = p50, whisker top = p99 (log scale)"
set ylabel "ms"
plot "handoff.dat" using 1:4:(\$7==1?0x2a7ab0:0xe0a040):xtic(3) with boxes lc rgb variable, \
     "" using 1:4:4:6 with yerrorbars lc rgb "black" pt -1, \
     1 with lines dt 2 lc rgb "red" title "1 ms"
unset multiplot
GP;
file_put_contents("$outDir/chart.gp", $gp);
echo implode("\n", $md), "\n";
