<?php
// The trace behind issue 14's hot-lock tail (measurement only, the extension is not changed):
// a short run of the hot-lock scenario (lib/hot_stack.php) per backend while the lock traffic
// is recorded from outside, then every hand-off reconstructed in the server's order:
//   RedisLock   redis-cli MONITOR: every SET NX (with the request's token), every release
//               script, every SUBSCRIBE; who holds the key is replayed exactly from the order.
//   SharedLock  MariaDB's general query log (log_output = TABLE, µs timestamps): per session,
//               INSERT attempts, server-side GET_LOCK waits (wake-ups), the releasing DELETE.
//   Filelock    strace -ttt of every php-fpm worker: link() attempts with their result, the
//               releasing unlink().
// For each hand-off: how many requests were waiting, how many attempts the release set off,
// and who won (a waiter, the longest waiter, or a newcomer that won with its first attempt:
// barging). For each request: attempts, wait, and how many hand-offs it lost while waiting, to
// newcomers / younger waiters / older waiters. The tracers slow the servers: the evidence is
// the order of events, not the absolute times.
//
//   php -d extension=modules/nativelock.so tests/bench/hot_trace.php --out=DIR [--seconds=3]
//       [--backends=redislock,sharedlock,filelock] [--raw=DIR]
// (servers up and environment set as for hot_lock.php). Writes DIR/hot-lock-trace-evidence.md
// and DIR/hot-trace.json.
require __DIR__ . '/lib/hot_stack.php';

$opt = ['out' => null, 'seconds' => 3.0, 'backends' => 'redislock,sharedlock,filelock', 'workers' => 24, 'clients' => 24, 'raw' => null];
foreach (array_slice($argv, 1) as $a) {
    if (preg_match('/^--([a-z]+)=(.*)$/', $a, $m) && array_key_exists($m[1], $opt)) {
        $opt[$m[1]] = $m[2];
    } else {
        fwrite(STDERR, "usage: hot_trace.php --out=DIR [--seconds=S] [--backends=a,b]\n");
        exit(2);
    }
}
if ($opt['out'] === null) {
    fwrite(STDERR, "--out=DIR is required\n");
    exit(2);
}
@mkdir($opt['out'], 0777, true);

$dir = sys_get_temp_dir() . '/nativelock-hottrace-' . getmypid();
$stack = nlb_hot_start($dir, (int) $opt['workers'], (int) nlb_env('NATIVELOCK_BENCH_HTTP_PORT', '19581'),
    (int) nlb_env('NATIVELOCK_BENCH_HOT_FPM_PORT', '19582'));
$traces = [];
try {
    foreach (explode(',', $opt['backends']) as $id) {
        $b = nlb_backends()[$id] ?? null;
        if ($b === null || ($why = $b->unavailable()) !== null) {
            nlb_hot_say("trace: $id not available: " . ($why ?? 'unknown backend'));
            continue;
        }
        nlb_hot_say("trace: $id, {$opt['seconds']} s");
        nlb_hot_reset($stack);
        nlb_hot_wrk($stack, $id, (int) $opt['clients'], 1.0);   // warm-up: pooled connections
        usleep(300000);
        nlb_hot_reset($stack);
        $fn = 'trace_' . $id;
        $events = $fn($stack, fn() => nlb_hot_wrk($stack, $id, (int) $opt['clients'], (float) $opt['seconds']), $wrk);
        [$reqs] = nlb_hot_requests($stack);
        $traces[$id] = ['label' => $b->label, 'wrk' => $wrk] + analyse($events, $reqs);
    }
} finally {
    nlb_hot_stop($stack);
    shell_exec('rm -rf ' . escapeshellarg($dir));
}

// ------------------------------------------------------------------ tracers

/** With --raw=DIR, the raw trace is kept there (not in the results: megabytes). */
function nlb_trace_keep(string $name, string $data): void
{
    global $opt;
    if ($opt['raw'] !== null) {
        @mkdir($opt['raw'], 0777, true);
        file_put_contents($opt['raw'] . '/' . $name, $data);
    }
}
// Each returns the event list in the server's order: ['t' => seconds, 'who' => request id,
// 'ev' => 'attempt'|'win'|'release'|'wake', 'conn' => connection/worker]; 'win' is an attempt
// that succeeded.

function trace_redislock(array $stack, callable $load, &$wrk): array
{
    $file = $stack['dir'] . '/monitor.log';
    $mon = proc_open(['redis-cli', '-h', nlb_redis_host(), '-p', (string) nlb_redis_port(), 'MONITOR'],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', $file, 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    usleep(300000);
    $wrk = $load();
    nlb_hot_settle($stack);
    proc_terminate($mon);
    proc_close($mon);
    nlb_trace_keep('redislock-monitor.log', (string) file_get_contents($file));
    $key = 'redislock:nlhot';
    $events = [];
    $held = null;
    $stats = ['subscribe' => 0, 'publish' => 0];
    foreach (new SplFileObject($file) as $line) {
        if (!preg_match('/^(\d+\.\d+) \[\d+ ([^\]]+)\] (.*)$/', (string) $line, $m)) {
            continue;
        }
        preg_match_all('/"((?:[^"\\\\]|\\\\.)*)"/', $m[3], $a);
        $args = $a[1];
        $cmd = strtoupper($args[0] ?? '');
        $t = (float) $m[1];
        if ($cmd === 'SUBSCRIBE') {
            $stats['subscribe']++;
        } elseif ($cmd === 'PUBLISH') {
            $stats['publish']++;
        } elseif ($cmd === 'SET' && ($args[1] ?? '') === $key) {
            // The server runs commands in this order: the key is free exactly after a release.
            $win = $held === null;
            if ($win) {
                $held = $args[2];
            }
            $events[] = ['t' => $t, 'who' => $args[2], 'ev' => $win ? 'win' : 'attempt', 'conn' => $m[2]];
        } elseif (($cmd === 'EVALSHA' || $cmd === 'EVAL') && ($args[3] ?? '') === $key && ($args[4] ?? null) === $held) {
            $events[] = ['t' => $t, 'who' => $held, 'ev' => 'release', 'conn' => $m[2]];
            $held = null;
        }
    }
    return ['events' => $events, 'extra' => $stats, 'source' => 'redis-cli MONITOR, ' . count($events) . ' lock events'];
}

function trace_sharedlock(array $stack, callable $load, &$wrk): array
{
    $pdo = nlb_pdo();
    $pdo->exec("SET GLOBAL log_output = 'TABLE'");
    $pdo->exec('TRUNCATE TABLE mysql.general_log');
    $pdo->exec('SET GLOBAL general_log = 1');
    try {
        $wrk = $load();
        nlb_hot_settle($stack);
    } finally {
        $pdo->exec('SET GLOBAL general_log = 0');
    }
    // The CSV table returns rows in the order they were logged.
    $rows = $pdo->query("SELECT UNIX_TIMESTAMP(event_time), thread_id, argument FROM mysql.general_log "
        . "WHERE command_type IN ('Query', 'Execute') AND (argument LIKE '%nlhot%' OR argument LIKE 'KILL%')")->fetchAll(PDO::FETCH_NUM);
    nlb_trace_keep('sharedlock-general-log.tsv', implode('', array_map(fn($r) => implode("\t", $r) . "\n", $rows)));
    $pdo->exec('TRUNCATE TABLE mysql.general_log');
    // Per session: a request runs from its first statement after the session's previous release
    // to its own release (DELETE … connection_id() … RELEASE_LOCK). It holds the lock from its
    // last statement before that DELETE. INSERTs are attempts; GET_LOCK(name, >0) is a server-
    // side wait that ends when the holder (or a woken waiter) releases: a wake-up.
    $events = [];
    $open = [];   // thread => request id
    $seq = 0;
    $last = [];   // thread => index in $events of its last attempt/wake
    $stats = ['statements' => count($rows), 'get_lock_waits' => 0, 'kills' => 0];
    foreach ($rows as [$t, $thread, $sql]) {
        $t = (float) $t;
        $who = $open[$thread] ??= $thread . '#' . ++$seq;
        if (preg_match('/^\s*INSERT/i', $sql) || preg_match('/^\s*UPDATE.*GET_LOCK\([^,]+,\s*0\)/is', $sql)) {
            $events[] = ['t' => $t, 'who' => $who, 'ev' => 'attempt', 'conn' => $thread];
            $last[$thread] = count($events) - 1;
        } elseif (preg_match('/GET_LOCK\([^,]+,\s*[0-9.]*[1-9]/i', $sql) && !preg_match('/^\s*(INSERT|UPDATE)/i', $sql)) {
            $stats['get_lock_waits']++;
            $events[] = ['t' => $t, 'who' => $who, 'ev' => 'wake', 'conn' => $thread];
        } elseif (preg_match('/^\s*DELETE.*connection_id\(\)\s+AND.*RELEASE_LOCK/is', $sql)) {
            if (isset($last[$thread])) {
                $events[$last[$thread]]['ev'] = 'win';
            }
            $events[] = ['t' => $t, 'who' => $who, 'ev' => 'release', 'conn' => $thread];
            unset($open[$thread], $last[$thread]);
        } elseif (preg_match('/^\s*KILL/i', $sql)) {
            $stats['kills']++;
        }
    }
    // Wins were marked after the fact: order by time (stable for equal µs).
    $order = array_keys($events);
    usort($order, fn($a, $b) => [$events[$a]['t'], $a] <=> [$events[$b]['t'], $b]);
    return ['events' => array_map(fn($i) => $events[$i], $order), 'extra' => $stats,
        'source' => 'MariaDB general log (TABLE), ' . count($rows) . ' statements on the lock'];
}

function trace_filelock(array $stack, callable $load, &$wrk): array
{
    $file = $stack['dir'] . '/strace.log';
    $argv = ['strace', '-ttt', '-e', 'trace=link,linkat,unlink,unlinkat', '-o', $file];
    foreach (nlb_fpm_workers($stack['fpm']) as $pid) {
        array_push($argv, '-p', (string) $pid);
    }
    $st = proc_open($argv, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', "$file.err", 'w']], $pipes);
    usleep(800000);   // attached
    $wrk = $load();
    nlb_hot_settle($stack);
    proc_terminate($st, 2);
    proc_close($st);
    nlb_trace_keep('filelock-strace.log', (string) file_get_contents($file));
    $events = [];
    $pending = [];   // pid => unfinished call text
    $lockPath = null;
    $open = [];
    $seq = 0;
    foreach (new SplFileObject($file) as $line) {
        $line = (string) $line;
        if (!preg_match('/^(\d+)\s+(\d+\.\d+) (.*)$/', $line, $m)) {
            continue;
        }
        [, $pid, $t, $rest] = $m;
        if (str_ends_with($rest, '<unfinished ...>')) {
            $pending[$pid] = [$t, substr($rest, 0, -strlen(' <unfinished ...>'))];
            continue;
        }
        if (preg_match('/^<\.\.\. \w+ resumed>(.*)$/', $rest, $r)) {
            if (!isset($pending[$pid])) {
                continue;
            }
            [$t, $head] = $pending[$pid];
            unset($pending[$pid]);
            $rest = $head . $r[1];
        }
        $ok = (bool) preg_match('/\) = 0\s*$/', $rest);
        if (preg_match('/^link(?:at)?\(.*"([^"]+)",\s*(?:AT_FDCWD,\s*)?"([^"]+)"/', $rest, $l)) {
            $lockPath ??= $l[2];
            if ($l[2] !== $lockPath) {
                continue;
            }
            $who = $open[$pid] ??= $pid . '#' . ++$seq;
            $events[] = ['t' => (float) $t, 'who' => $who, 'ev' => $ok ? 'win' : 'attempt', 'conn' => $pid];
        } elseif (preg_match('/^unlink(?:at)?\((?:AT_FDCWD,\s*)?"([^"]+)"/', $rest, $u) && $u[1] === $lockPath && $ok && isset($open[$pid])) {
            $events[] = ['t' => (float) $t, 'who' => $open[$pid], 'ev' => 'release', 'conn' => $pid];
            unset($open[$pid]);
        }
    }
    return ['events' => $events, 'extra' => ['lock_path' => $lockPath],
        'source' => 'strace -ttt of ' . (count($argv) - 6) / 2 . ' php-fpm workers, ' . count($events) . ' lock events'];
}

// ------------------------------------------------------------------ analysis

function analyse(array $trace, array $reqs): array
{
    $events = $trace['events'];
    $req = [];          // who => first, attempts, wakes, win, lost:{newcomer, younger, older}
    $handoffs = [];
    $waiting = [];      // who => first attempt time, requests that tried and have not won
    $lastRelease = null;
    $attemptsSinceRelease = 0;
    $retriesSinceRelease = 0;
    $waitersAtRelease = 0;
    foreach ($events as $e) {
        $w = $e['who'];
        if ($e['ev'] === 'attempt' || $e['ev'] === 'win' || $e['ev'] === 'wake') {
            $req[$w] ??= ['first' => $e['t'], 'attempts' => 0, 'wakes' => 0, 'win' => null,
                'lost' => ['newcomer' => 0, 'younger' => 0, 'older' => 0]];
        }
        if ($e['ev'] === 'wake') {
            $req[$w]['wakes']++;
            continue;
        }
        if ($e['ev'] === 'attempt' || $e['ev'] === 'win') {
            $req[$w]['attempts']++;
            if ($lastRelease !== null) {
                $attemptsSinceRelease++;
                if ($req[$w]['attempts'] > 1) {
                    $retriesSinceRelease++;
                }
            }
        }
        if ($e['ev'] === 'attempt') {
            $waiting[$w] ??= $req[$w]['first'];
            continue;
        }
        if ($e['ev'] === 'win') {
            $req[$w]['win'] = $e['t'];
            $newcomer = $req[$w]['attempts'] === 1;
            $others = $waiting;
            unset($others[$w]);
            $older = 0;
            foreach ($others as $ow => $first) {
                // Everyone still waiting lost this hand-off, to a newcomer or a waiter.
                if ($newcomer) {
                    $req[$ow]['lost']['newcomer']++;
                } elseif ($req[$w]['first'] > $first) {
                    $req[$ow]['lost']['younger']++;
                    $older++;
                } else {
                    $req[$ow]['lost']['older']++;
                }
            }
            if ($lastRelease !== null) {
                $handoffs[] = ['gap_ms' => ($e['t'] - $lastRelease) * 1e3, 'waiters' => $waitersAtRelease,
                    'newcomer' => $newcomer, 'winner_age_ms' => ($e['t'] - $req[$w]['first']) * 1e3,
                    'older_waiting' => $older, 'oldest' => $older === 0 && !$newcomer && $others !== [] ? 1 : 0];
            }
            unset($waiting[$w]);
            continue;
        }
        // release: the attempts it sets off are counted until the next release
        if ($lastRelease !== null && $handoffs) {
            $handoffs[count($handoffs) - 1]['attempts_after'] = $attemptsSinceRelease;
            $handoffs[count($handoffs) - 1]['retries_after'] = $retriesSinceRelease;
        }
        $lastRelease = $e['t'];
        $attemptsSinceRelease = $retriesSinceRelease = 0;
        $waitersAtRelease = count($waiting);
    }
    $done = array_filter($req, fn($r) => $r['win'] !== null);
    foreach ($done as &$r) {
        $r['wait_ms'] = ($r['win'] - $r['first']) * 1e3;
    }
    unset($r);
    uasort($done, fn($a, $b) => $b['wait_ms'] <=> $a['wait_ms']);
    $contested = array_filter($handoffs, fn($h) => $h['waiters'] > 0);
    $count = fn(array $xs, callable $p) => count(array_filter($xs, $p));
    $mean = fn(array $xs) => $xs ? array_sum($xs) / count($xs) : NAN;
    // Attempts vs wait
    $buckets = ['1' => [1, 1], '2' => [2, 2], '3–5' => [3, 5], '6–20' => [6, 20], '21–100' => [21, 100], '> 100' => [101, PHP_INT_MAX]];
    $byAttempts = [];
    foreach ($buckets as $label => [$lo, $hi]) {
        $in = array_filter($done, fn($r) => $r['attempts'] >= $lo && $r['attempts'] <= $hi);
        $waits = array_column($in, 'wait_ms');
        $byAttempts[$label] = ['n' => count($in), 'wait' => nlb_stats($waits), 'mean' => $mean($waits),
            'lost_newcomer' => $mean(array_map(fn($r) => $r['lost']['newcomer'], $in)),
            'lost_younger' => $mean(array_map(fn($r) => $r['lost']['younger'], $in)),
            'wakes' => $mean(array_column($in, 'wakes'))];
    }
    $ok = array_filter($reqs, fn($q) => $q['status'] === 'ok');
    return [
        'source' => $trace['source'],
        'extra' => $trace['extra'],
        'requests' => count($done),
        'php_logged_ok' => count($ok),
        'php_failed' => array_values(array_unique(array_column(array_filter($reqs, fn($q) => $q['status'] !== 'ok'), 'status'))),
        'handoffs' => count($handoffs),
        'contested' => count($contested),
        'barged' => $count($contested, fn($h) => $h['newcomer']),
        'to_oldest' => $count($contested, fn($h) => $h['oldest'] === 1),
        'waiters_mean' => $mean(array_column($contested, 'waiters')),
        'attempts_after_mean' => $mean(array_column(array_filter($contested, fn($h) => isset($h['attempts_after'])), 'attempts_after')),
        'retries_after_mean' => $mean(array_column(array_filter($contested, fn($h) => isset($h['retries_after'])), 'retries_after')),
        'gap_ms' => nlb_stats(array_column($handoffs, 'gap_ms')),
        'wait_ms' => nlb_stats(array_column($done, 'wait_ms')),
        'attempts' => nlb_stats(array_column($done, 'attempts')),
        'by_attempts' => $byAttempts,
        'worst' => array_slice(array_map(fn($w, $r) => ['who' => $w] + $r, array_keys($done), $done), 0, 10),
    ];
}

// ------------------------------------------------------------------ report
$f = fn($x, $d = 1) => is_numeric($x) && is_finite((float) $x) ? number_format((float) $x, $d, '.', '') : 'n/a';
$md = ['# Hot lock trace: evidence (generated by tests/bench/hot_trace.php)', '',
    sprintf('%s UTC, load average %s. php-fpm with %d workers ← wrk -c%d for %s s per backend, the stack of '
        . 'tests/bench/hot_lock.php. The tracer slows the server it watches: read the order of events, not the times.',
        gmdate('Y-m-d H:i'), implode('/', array_map(fn($x) => sprintf('%.2f', $x), sys_getloadavg())), $opt['workers'],
        $opt['clients'], $opt['seconds']), ''];
$md[] = '## Hand-offs';
$md[] = '';
$md[] = 'A hand-off is a release followed by the next successful acquisition. "Contested": someone had already failed an '
    . 'attempt and was still waiting at the release. "Barged": the winner of a contested hand-off won with its very first '
    . 'attempt (a newcomer that had not been waiting). "To the oldest": the waiter that had waited longest won. '
    . '"Attempts after a release": attempts by anyone between that release and the next one (the herd that one release '
    . 'sets off, plus the failing attempts of newcomers); "retries": those by requests that had tried before.';
$md[] = '';
$md[] = '| backend | source | requests traced | hand-offs | contested | waiters at a contested release (mean) | barged | to the oldest waiter | attempts after a release (mean) | of them retries | release → next owner p50 / p99 ms |';
$md[] = '|---|---|---|---|---|---|---|---|---|---|---|';
foreach ($traces as $id => $t) {
    $md[] = sprintf('| %s | %s | %d | %d | %d | %s | %d (%s%%) | %d (%s%%) | %s | %s | %s / %s |', $t['label'], $t['source'],
        $t['requests'], $t['handoffs'], $t['contested'], $f($t['waiters_mean']), $t['barged'],
        $f($t['contested'] ? 100 * $t['barged'] / $t['contested'] : NAN, 0), $t['to_oldest'],
        $f($t['contested'] ? 100 * $t['to_oldest'] / $t['contested'] : NAN, 0), $f($t['attempts_after_mean']),
        $f($t['retries_after_mean']), $f($t['gap_ms']['p50'], 2), $f($t['gap_ms']['p99'], 2));
}
$md[] = '';
foreach ($traces as $id => $t) {
    $md[] = "## {$t['label']}";
    $md[] = '';
    $wl = $t['wrk']['latency_us'];
    $md[] = sprintf('Under the tracer: %s req/s, wrk p50 %s / p99 %s / max %s ms; %d requests logged success in PHP%s. Extra counts: %s.',
        $f($t['wrk']['rps'], 0), $f($wl['p50'] / 1e3), $f($wl['p99'] / 1e3), $f($wl['max'] / 1e3), $t['php_logged_ok'],
        $t['php_failed'] ? '; failures: ' . implode('; ', array_slice($t['php_failed'], 0, 3)) : '',
        json_encode($t['extra'], JSON_UNESCAPED_SLASHES));
    $md[] = '';
    $md[] = sprintf('Wait per request (first attempt → success) p50 %s, p99 %s, max %s ms; attempts per request p50 %s, p99 %s, max %s.',
        $f($t['wait_ms']['p50']), $f($t['wait_ms']['p99']), $f($t['wait_ms']['max']), $t['attempts']['p50'], $t['attempts']['p99'], $t['attempts']['max']);
    $md[] = '';
    $md[] = '| attempts before success | requests | wait p50 ms | wait p99 ms | wait max ms | hand-offs lost to newcomers (mean) | to younger waiters (mean) | server-side wake-ups (mean) |';
    $md[] = '|---|---|---|---|---|---|---|---|';
    foreach ($t['by_attempts'] as $label => $bk) {
        if (!$bk['n']) {
            continue;
        }
        $md[] = sprintf('| %s | %d | %s | %s | %s | %s | %s | %s |', $label, $bk['n'], $f($bk['wait']['p50']), $f($bk['wait']['p99']),
            $f($bk['wait']['max']), $f($bk['lost_newcomer']), $f($bk['lost_younger']), $f($bk['wakes']));
    }
    $md[] = '';
    $md[] = 'The 10 longest waits: each lost every hand-off that happened while it waited; to whom:';
    $md[] = '';
    $md[] = '| request | wait ms | attempts | hand-offs lost | to newcomers (barging) | to waiters that came after it | to waiters that came before it |';
    $md[] = '|---|---|---|---|---|---|---|';
    foreach ($t['worst'] as $r) {
        $lost = array_sum($r['lost']);
        $md[] = sprintf('| %s | %s | %d | %d | %d | %d | %d |', substr((string) $r['who'], 0, 16), $f($r['wait_ms']), $r['attempts'], $lost,
            $r['lost']['newcomer'], $r['lost']['younger'], $r['lost']['older']);
    }
    $md[] = '';
}
file_put_contents($opt['out'] . '/hot-lock-trace-evidence.md', implode("\n", $md) . "\n");
file_put_contents($opt['out'] . '/hot-trace.json', json_encode($traces, JSON_PRETTY_PRINT | JSON_PARTIAL_OUTPUT_ON_ERROR));
echo implode("\n", $md), "\n";
