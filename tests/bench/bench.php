<?php
// The benchmark driver: runs every scenario for every backend of lib/backends.php in one run
// and writes results JSON (rendered by report.php). Started by tests/bench/run.sh, which builds
// everything, starts the servers and sets the environment; run it directly only with that
// environment in place.
//   php -d extension=modules/nativelock.so tests/bench/bench.php OUT.json [--quick|--smoke]
//       [--only=cycle,handoff,contention,fpm,memory]
require __DIR__ . '/lib/backends.php';
require __DIR__ . '/lib/fcgi.php';
require __DIR__ . '/lib/fpm_pool.php';

$out = $argv[1] ?? null;
if ($out === null || $out[0] === '-') {
    fwrite(STDERR, "usage: bench.php OUT.json [--quick|--smoke] [--only=a,b]\n");
    exit(2);
}
$opts = array_slice($argv, 2);
$level = in_array('--smoke', $opts, true) ? 'smoke' : (in_array('--quick', $opts, true) ? 'quick' : 'full');
$only = null;
foreach ($opts as $o) {
    if (str_starts_with($o, '--only=')) {
        $only = explode(',', substr($o, 7));
    }
}
$want = fn(string $s) => $only === null || in_array($s, $only, true);
$pick = fn(array $byLevel) => $byLevel[$level];

$floorDir = nlb_env('NATIVELOCK_BENCH_FLOORDIR');   // compiled C floors (run.sh)
$backends = nlb_backends();
$available = [];
$results = ['level' => $level, 'date' => gmdate('Y-m-d H:i') . ' UTC', 'machine' => machine(),
    'backends' => [], 'scenarios' => []];
foreach ($backends as $id => $b) {
    $why = $b->unavailable();
    $results['backends'][$id] = ['label' => $b->label, 'group' => $b->group, 'kind' => $b->kind,
        'waits' => $b->waits, 'unavailable' => $why];
    if ($why === null) {
        try {
            $b->setUp();
            $available[$id] = $b;
        } catch (Throwable $e) {
            $results['backends'][$id]['unavailable'] = 'set-up failed: ' . $e->getMessage();
        }
    }
    if ($results['backends'][$id]['unavailable'] !== null) {
        say("$id: not available: " . $results['backends'][$id]['unavailable']);
    }
}

function say(string $s): void
{
    fwrite(STDERR, '[' . date('H:i:s') . "] $s\n");
}

function machine(): array
{
    $cpu = trim((string) shell_exec("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"));
    $dir = nlb_lockdir();
    return ['cpu' => $cpu, 'cores' => (int) shell_exec('nproc'), 'kernel' => php_uname('r'),
        'os' => trim((string) shell_exec('. /etc/os-release && echo "$PRETTY_NAME"')),
        'php' => PHP_VERSION, 'lockdir_fs' => trim((string) shell_exec('df -T ' . escapeshellarg($dir) . " | awk 'NR==2{print \$2}'")),
        'redis' => trim((string) shell_exec('redis-server --version | grep -o "v=[0-9.]*"')),
        'mariadb' => trim((string) shell_exec('mariadbd --version 2>/dev/null | grep -o "Ver [^ ]*"')),
        'symfony_lock' => trim((string) shell_exec("dpkg-query -W -f='\${Version}' php-symfony-lock 2>/dev/null")),
        'load' => sys_getloadavg()];
}

function save(): void
{
    global $results, $out;
    file_put_contents($out, json_encode($results, JSON_PRETTY_PRINT | JSON_PARTIAL_OUTPUT_ON_ERROR));
}

function child(array $args, &$pipes)
{
    $argv = array_merge(nlb_php_argv(), [__DIR__ . '/lib/worker.php'], $args);
    $p = proc_open($argv, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    if (!is_resource($p)) {
        throw new RuntimeException('cannot start worker');
    }
    return $p;
}

/**
 * The cycle phase runs with fixed CPU placement (NATIVELOCK_BENCH_PLACEMENT). On a VM a round
 * trip between two CPUs costs far more than one on a single CPU when the other CPU idles (it has
 * to be woken; hiredis floor measured here: 50 µs on one CPU, 90-290 µs across), and where the
 * kernel puts a fresh floor process and the long-running bench differs from run to run:
 * unpinned, the paired ratios measured placement, not the client.
 *   split (default): the bench and the C floors on CPU 0, the servers on CPU 1: every client
 *                    crosses CPUs alike, and the server's work does not share the client's CPU
 *                    (as with a server on another host);
 *   same:            all on CPU 0: the client's own CPU cost shows most, server work counts too;
 *   none:            unpinned.
 * Contention and hand-off always run unpinned.
 */
function nlb_pin_cycle_phase(): array
{
    $mode = getenv('NATIVELOCK_BENCH_PLACEMENT') ?: 'split';
    $none = ['cpu' => null, 'pids' => [], 'text' => 'unpinned'];
    $cpus = (int) trim((string) shell_exec('nproc'));
    if ($mode === 'none' || trim((string) shell_exec('command -v taskset')) === '') {
        return $none;
    }
    if ($mode === 'split' && $cpus < 2) {
        $mode = 'same';
    }
    $servers = [];
    $run = getenv('NATIVELOCK_TEST_RUNDIR') ?: '';
    foreach (['redis/redis.pid', 'mariadb/mysqld.pid'] as $file) {
        $pid = $run !== '' ? (int) @file_get_contents("$run/$file") : 0;
        if ($pid > 0) {
            $servers[] = $pid;
        }
    }
    $serverCpu = $mode === 'split' ? 1 : 0;
    $plan = [[getmypid(), 0]];
    foreach ($servers as $pid) {
        $plan[] = [$pid, $serverCpu];
    }
    $pinned = ['cpu' => 0, 'pids' => array_column($plan, 0)];
    foreach ($plan as [$pid, $cpu]) {
        // -a: every thread (redis-server's and mariadbd's helpers too).
        exec(sprintf('taskset -a -p -c %d %d 2>&1', $cpu, $pid), $o, $rc);
        if ($rc !== 0) {
            nlb_unpin_cycle_phase($pinned);
            return $none;
        }
    }
    $pinned['text'] = $mode === 'split'
        ? sprintf('split — the bench and the C floors on CPU 0, the %d servers on CPU 1', count($servers))
        : sprintf('same — the bench, the C floors and the %d servers on CPU 0', count($servers));
    return $pinned;
}

function nlb_unpin_cycle_phase(array $placement): void
{
    if ($placement['cpu'] === null) {
        return;
    }
    $all = '0-' . max(0, (int) trim((string) shell_exec('nproc')) - 1);
    foreach ($placement['pids'] as $pid) {
        exec(sprintf('taskset -a -p -c %s %d 2>&1', $all, $pid));
    }
}

// ------------------------------------------------------------------ 1. uncontended cycle
if ($want('cycle')) {
    // Many short interleaved rounds rather than a few long ones: on a shared machine the
    // ratio of two neighbours in one round is far steadier than either absolute figure.
    $repeats = $pick(['smoke' => 1, 'quick' => 7, 'full' => 21]);
    $cycles = ['file' => $pick(['smoke' => 200, 'quick' => 2000, 'full' => 5000]),
        'redis' => $pick(['smoke' => 100, 'quick' => 1000, 'full' => 3000]),
        'mysql' => $pick(['smoke' => 100, 'quick' => 500, 'full' => 2000])];
    $m = nlb_mysql();
    $placement = nlb_pin_cycle_phase();
    $floors = [
        'file-floor' => ['file', 'floor: same syscalls in C', fn($n) => [$floorDir . '/file_floor', rtrim(nlb_lockdir(), '/'), $n]],
        // The floor of the runs before the engine linked by the descriptor: kept to compare.
        'file-floor-proc' => ['file', 'floor of earlier runs: linkat through /proc/self/fd (C)', fn($n) => [$floorDir . '/file_floor', rtrim(nlb_lockdir(), '/'), $n, 'proc']],
        'hiredis-floor' => ['redis', 'floor: SET NX EX + DEL via hiredis (C)', fn($n) => [$floorDir . '/redis_floor', nlb_redis_host(), nlb_redis_port(), $n]],
        'libmariadb-floor' => ['mysql', 'floor: GET_LOCK + RELEASE_LOCK via libmariadb (C)', fn($n) => [$floorDir . '/mysql_floor', $m['host'], $m['port'], $m['user'], $m['pass'], $m['db'], $n]],
    ];
    $rows = [];
    $groups = array_unique(array_map(fn($b) => $b->group, $available));
    foreach ($floors as $id => [$group, $label, $cmd]) {
        if (!in_array($group, $groups, true)) {
            continue;   // no backend of that kind runs (server down, --smoke)
        }
        $rows[$id] = ['label' => $label, 'group' => $group, 'kind' => 'floor', 'c' => true, 'runs' => []];
    }
    foreach ($available as $id => $b) {
        $rows[$id] = ['label' => $b->label, 'group' => $b->group, 'kind' => $b->kind, 'c' => false, 'runs' => []];
    }
    for ($r = 0; $r < $repeats; $r++) {
        say("cycle: round " . ($r + 1) . "/$repeats");
        // Interleaved: every backend once per round, so drift hits all alike.
        foreach ($rows as $id => &$row) {
            $n = $cycles[$row['group']];
            if ($id === 'sf-pdo') {
                $n = min($n, $pick(['smoke' => 20, 'quick' => 100, 'full' => 300]));   // ms per cycle (InnoDB commits)
            }
            if ($row['c']) {
                $argv = $floors[$id][2]($n);
                if ($placement['cpu'] !== null) {
                    $argv = array_merge(['taskset', '-c', (string) $placement['cpu']], $argv);
                }
                $v = trim((string) shell_exec(implode(' ', array_map('escapeshellarg', $argv)) . ' 2>&1'));
                if (!is_numeric($v)) {
                    $row['error'] = $v;
                    continue;
                }
                $row['runs'][] = (float) $v;
            } else {
                try {
                    if ($r === 0) {
                        $available[$id]->cycleUs("cycle-$id", min(200, $n));   // warm-up
                    }
                    $row['runs'][] = $available[$id]->cycleUs("cycle-$id", $n);
                } catch (Throwable $e) {
                    $row['error'] = $e->getMessage();
                }
            }
            $row['cycles'] = $n;
        }
        unset($row);
    }
    $floorOf = ['file' => 'file-floor', 'redis' => 'hiredis-floor', 'mysql' => 'libmariadb-floor'];
    foreach ($rows as $id => &$row) {
        $row['stats'] = nlb_stats($row['runs']);
        // Paired ratio: this backend's run over its C floor's run of the same round.
        $floorRuns = $rows[$floorOf[$row['group']]]['runs'] ?? [];
        $ratios = [];
        foreach ($row['runs'] as $k => $v) {
            if (isset($floorRuns[$k]) && $floorRuns[$k] > 0) {
                $ratios[] = $v / $floorRuns[$k];
            }
        }
        $row['ratio'] = nlb_stats($ratios);
    }
    unset($row);
    nlb_unpin_cycle_phase($placement);
    $results['scenarios']['cycle'] = ['repeats' => $repeats, 'rows' => $rows, 'placement' => $placement['text']];
    save();
}

// ------------------------------------------------------------------ 2. hand-off
if ($want('handoff')) {
    $rounds = $pick(['smoke' => 5, 'quick' => 50, 'full' => 200]);
    $slowRounds = $pick(['smoke' => 2, 'quick' => 10, 'full' => 30]);   // originals: sleep-polling
    $rows = [];
    foreach ($available as $id => $b) {
        if (!$b->blocking || $b->kind === 'floor') {
            continue;
        }
        $n = $b->kind === 'original' ? $slowRounds : $rounds;
        say("handoff: $id, $n rounds");
        $name = "handoff-$id";
        $proc = child(['holder', $id, $name], $pipes);
        $samples = [];
        try {
            for ($i = 0; $i < $n; $i++) {
                fwrite($pipes[0], "go\n");
                nlb_read_line($pipes[1], 30);
                $h = $b->acquire($name);
                $got = hrtime(true);
                $b->release($h);
                $samples[] = ($got - (int) nlb_read_line($pipes[1], 30)) / 1e6;
            }
            $rows[$id] = ['stats' => nlb_stats($samples)];
        } catch (Throwable $e) {
            // The holder may still be looping: stop it before reading what it said.
            proc_terminate($proc);
            stream_set_blocking($pipes[2], false);
            usleep(100000);
            $rows[$id] = ['error' => $e->getMessage() . ' ' . stream_get_contents($pipes[2]), 'stats' => nlb_stats($samples)];
        }
        fclose($pipes[0]);
        proc_close($proc);
    }
    $results['scenarios']['handoff'] = ['rows' => $rows];
    save();
}

// ------------------------------------------------------------------ 3. contention
if ($want('contention')) {
    $seconds = $pick(['smoke' => 0.3, 'quick' => 1.0, 'full' => 2.0]);
    $levels = $level === 'smoke' ? [2] : [2, 4, 8];
    // One time-boxed window: $p workers of backend $id contend for one lock.
    $window = function (string $id, int $p) use ($seconds): array {
        $counter = tempnam(sys_get_temp_dir(), 'nlbcounter');
        file_put_contents($counter, '0');
        $start = microtime(true) + 0.4 + 0.08 * $p;
        $procs = [];
        for ($k = 0; $k < $p; $k++) {
            $procs[] = [child(['contend', $id, "contend-$id", $counter, sprintf('%.6f', $start), (string) $seconds], $pipes), $pipes];
        }
        $counts = [];
        $maxWait = 0;
        $errors = [];
        foreach ($procs as [$proc, $pipes]) {
            fclose($pipes[0]);
            $o = stream_get_contents($pipes[1]);
            $e = stream_get_contents($pipes[2]);
            proc_close($proc);
            $j = json_decode(trim($o), true);
            if (!is_array($j)) {
                $errors[] = trim($o . ' ' . $e);
                $counts[] = 0;
                continue;
            }
            $counts[] = $j['count'];
            $maxWait = max($maxWait, $j['max_wait_ms']);
        }
        $elapsed = microtime(true) - $start;
        $final = (int) file_get_contents($counter);
        unlink($counter);
        $total = array_sum($counts);
        $mean = $total / $p;
        return ['procs' => $p, 'seconds' => $seconds, 'elapsed' => $elapsed, 'total' => $total,
            'final' => $final, 'lost' => $total - $final, 'per_sec' => $total / $elapsed,
            'min' => min($counts), 'max' => max($counts), 'min_share' => $mean > 0 ? min($counts) / $mean : 0,
            'max_wait_ms' => $maxWait, 'counts' => $counts, 'errors' => $errors];
    };
    // Filelock's throughput targets compare one window of each backend, taken a minute apart on
    // a machine whose speed drifts (FlockStore alone has moved 3,300 -> 4,400/s between runs).
    // So the file backends also run interleaved rounds at 8 processes, each round in a rotated
    // order, and the ratios are paired within a round, as the cycle's are to its C floor.
    $roundsAt8 = $pick(['smoke' => 0, 'quick' => 3, 'full' => 5]);
    // They run first: after the server backends' windows the machine was slower for a while
    // (Filelock and the original at 0.39-0.52x their single-window rates, 2026-11-28).
    $paired = array_values(array_filter(['filelock', 'orig-filelock', 'sf-flock'],
        fn($id) => isset($available[$id]) && $available[$id]->blocking && in_array(8, $levels, true)));
    if ($roundsAt8 > 0 && count($paired) > 1) {
        $rounds = [];
        for ($r = 0; $r < $roundsAt8; $r++) {
            $order = array_merge(array_slice($paired, $r % count($paired)), array_slice($paired, 0, $r % count($paired)));
            foreach ($order as $id) {
                say("contention rounds: $id x 8 for {$seconds}s, round " . ($r + 1) . "/$roundsAt8");
                $rounds[$r][$id] = $window($id, 8);
            }
        }
        $results['scenarios']['contention_rounds'] = ['seconds' => $seconds, 'procs' => 8, 'rounds' => $rounds];
        save();
    }

    $rows = [];
    foreach ($available as $id => $b) {
        if (!$b->blocking) {
            continue;
        }
        foreach ($levels as $p) {
            say("contention: $id x $p for {$seconds}s");
            $rows[$id][$p] = $window($id, $p);
        }
    }
    $results['scenarios']['contention'] = ['seconds' => $seconds, 'rows' => $rows];
    save();
}

// ------------------------------------------------------------------ 4. php-fpm per request
if ($want('fpm')) {
    $seconds = $pick(['smoke' => 0.3, 'quick' => 1.0, 'full' => 2.0]);
    $repeats = $pick(['smoke' => 1, 'quick' => 1, 'full' => 3]);
    $workers = 4;
    $clients = 4;
    $port = (int) nlb_env('NATIVELOCK_BENCH_FPM_PORT', '19480');
    $fpm = nlb_fpm_start($port, $workers);
    $rows = [];
    $ids = array_merge(['none'], array_keys(array_filter($available, fn($b) => $b->kind !== 'floor')));
    try {
        for ($r = 0; $r < $repeats; $r++) {
            foreach ($ids as $id) {
                say("fpm: $id, round " . ($r + 1));
                // The script takes the backend from its name: request.php?b=… would need the
                // query string parsed; a symlink per backend is simpler and just as cheap.
                $script = $fpm['dir'] . "/www/$id.php";
                if (!is_file($script)) {
                    @mkdir(dirname($script));
                    file_put_contents($script, "<?php\n\$NLB_ID = " . var_export($id, true) . ";\nrequire "
                        . var_export(__DIR__ . '/lib/fpm_request.php', true) . ";\n");
                }
                fcgi_load('127.0.0.1', $port, $script, 1, 0.2);   // warm-up: opcache, connections
                $res = fcgi_load('127.0.0.1', $port, $script, $clients, $seconds);
                $rows[$id]['runs'][] = $res['requests'] / $res['seconds'];
                $rows[$id]['errors'] = ($rows[$id]['errors'] ?? 0) + $res['errors'];
                if ($res['errors']) {
                    $rows[$id]['last_error'] = $res['last_error'];
                }
            }
        }
    } finally {
        nlb_fpm_stop($fpm);
    }
    foreach ($rows as $id => &$row) {
        $row['stats'] = nlb_stats($row['runs']);
    }
    unset($row);
    $results['scenarios']['fpm'] = ['workers' => $workers, 'clients' => $clients, 'seconds' => $seconds,
        'repeats' => $repeats, 'rows' => $rows];
    save();
}

// ------------------------------------------------------------------ 5. memory
if ($want('memory')) {
    $plans = [];   // [backend, count, mode]
    foreach ($available as $id => $b) {
        if ($b->kind === 'floor') {
            continue;
        }
        $n = match ($b->group) {
            'file' => $pick(['smoke' => 1000, 'quick' => 100000, 'full' => 1000000]),
            'redis' => $pick(['smoke' => 500, 'quick' => 20000, 'full' => 100000]),
            'mysql' => $pick(['smoke' => 500, 'quick' => 10000, 'full' => 50000]),
        };
        if ($b->kind !== 'ours') {
            // Peers and originals are here for comparison only: fewer cycles (PdoStore commits
            // an InnoDB transaction per statement, several ms each on this disk).
            $n = min($n, $b->group === 'file' ? $pick(['smoke' => 1000, 'quick' => 50000, 'full' => 200000])
                : $pick(['smoke' => 200, 'quick' => 2000, 'full' => 10000]));
            if ($b->id === 'sf-pdo') {
                $n = min($n, $pick(['smoke' => 100, 'quick' => 1000, 'full' => 3000]));
            }
        }
        $plans[] = [$id, $n, 'cycle'];
        if ($b->hasCreate()) {
            $plans[] = [$id, $pick(['smoke' => 1000, 'quick' => 200000, 'full' => 1000000]), 'create'];
        }
    }
    $rows = [];
    foreach ($plans as [$id, $n, $mode]) {
        say("memory: $id $mode x $n");
        $proc = child(['memory', $id, (string) $n, $mode], $pipes);
        fclose($pipes[0]);
        $o = stream_get_contents($pipes[1]);
        $e = stream_get_contents($pipes[2]);
        proc_close($proc);
        $j = json_decode(trim($o), true);
        $rows[] = is_array($j) ? ['id' => $id, 'mode' => $mode] + $j : ['id' => $id, 'mode' => $mode, 'count' => $n, 'error' => trim($o . ' ' . $e)];
    }
    $results['scenarios']['memory'] = ['rows' => $rows];
    save();
}

$results['machine']['load_end'] = sys_getloadavg();
save();
say("results written to $out");
