<?php
// Filelock benchmark: uncontended try_lock()+unlock() and cross-process hand-off, for the
// extension and for the original PHP class, next to the C floor, in one run.
// usage: php -d extension=modules/nativelock.so tests/bench/filelock.php [--quick]
// Prints a Markdown table; every figure is the median of the repeated runs, with min/max.
require __DIR__ . '/../lib/nativelock_test.inc';
require __DIR__ . '/../lib/original_filelock.inc';

$quick = in_array('--quick', $argv, true);
$cycles = $quick ? 2000 : 20000;
$repeats = $quick ? 3 : 5;
$handoffRounds = $quick ? 50 : 200;
$originalRounds = $quick ? 20 : 50;   // each costs ~50 ms of sleep-polling on average
$dir = nl_lockdir();

function stats(array $xs): array
{
    sort($xs);
    $n = count($xs);
    $pct = fn($p) => $xs[min($n - 1, (int) floor($p * ($n - 1) + 0.5))];
    return ['min' => $xs[0], 'p50' => $pct(0.5), 'p90' => $pct(0.9), 'p99' => $pct(0.99), 'max' => $xs[$n - 1], 'n' => $n];
}

function cycle_us(callable $make, int $cycles): float
{
    $lock = $make();
    $t = hrtime(true);
    for ($i = 0; $i < $cycles; $i++) {
        if ($lock->try_lock() !== LOCKFILE_SUCCESS) {
            throw new RuntimeException('uncontended try_lock failed');
        }
        $lock->unlock();
    }
    return (hrtime(true) - $t) / 1e3 / $cycles;
}

// --- uncontended cycle ---
$floorBin = sys_get_temp_dir() . '/nativelock-file-floor';
exec('cc -O2 -o ' . escapeshellarg($floorBin) . ' ' . escapeshellarg(__DIR__ . '/floor/file_floor.c'), $o, $rc);
$runs = ['floor' => [], 'ext' => [], 'orig' => []];
for ($r = 0; $r < $repeats; $r++) {
    // Interleaved so that drift of the machine affects all three alike.
    $runs['floor'][] = (float) shell_exec(escapeshellarg($floorBin) . ' ' . escapeshellarg($dir) . " $cycles");
    Filelock::$lockpath = $dir;
    $runs['ext'][] = cycle_us(fn() => new Filelock('bench'), $cycles);
    OriginalFilelock::$lockpath = $dir;
    $runs['orig'][] = cycle_us(fn() => new OriginalFilelock('bench'), $cycles);
}
$cycle = array_map('stats', $runs);

// --- hand-off: holder in a child process releases, we (blocked in lock()) take over ---
function handoff(string $class, string $dir, int $rounds): array
{
    $lib = var_export(realpath(__DIR__ . '/../lib/original_filelock.inc'), true);
    $child = nl_spawn("require $lib; $class::\$lockpath = '$dir'; \$l = new $class('handoff');
        while (fgets(STDIN) !== false) {
            while (\$l->try_lock() !== LOCKFILE_SUCCESS) usleep(100);
            echo \"held\\n\";
            usleep(5000);                      // the waiter is blocked in lock() by now
            \$t = hrtime(true); \$l->unlock(); echo \$t, \"\\n\";
        }", [], $pipes);
    $class::$lockpath = $dir;
    $lock = new $class('handoff');
    $samples = [];
    for ($i = 0; $i < $rounds; $i++) {
        fwrite($pipes[0], "go\n");
        nl_read_line($pipes[1]);
        $lock->lock();
        $got = hrtime(true);
        $lock->unlock();
        $samples[] = ($got - (int) nl_read_line($pipes[1])) / 1e6;
    }
    fclose($pipes[0]);
    proc_close($child);
    return stats($samples);
}
$handoff = [
    'ext' => handoff('Filelock', $dir, $handoffRounds),
    'orig' => handoff('OriginalFilelock', $dir, $originalRounds),
];

$cpu = trim(shell_exec("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2") ?? '');
$fs = trim(shell_exec('df -T ' . escapeshellarg($dir) . " | awk 'NR==2{print \$2}'") ?? '');
printf("Filelock benchmark, %s, %d cores (%s), lock dir on %s, PHP %s\n\n", date('Y-m-d H:i'), (int) shell_exec('nproc'), $cpu, $fs, PHP_VERSION);
printf("Uncontended try_lock()+unlock(): %d cycles x %d runs, µs/cycle (median of runs [min..max])\n\n", $cycles, $repeats);
echo "| implementation | µs/cycle | ratio to C floor |\n|---|---|---|\n";
foreach (['floor' => 'C floor (same syscalls)', 'ext' => 'nativelock Filelock', 'orig' => 'original PHP Filelock'] as $k => $label) {
    printf("| %s | %.2f [%.2f..%.2f] | %.2fx |\n", $label, $cycle[$k]['p50'], $cycle[$k]['min'], $cycle[$k]['max'], $cycle[$k]['p50'] / $cycle['floor']['p50']);
}
echo "\nHand-off (holder in another process releases -> waiter blocked in lock() owns it), ms\n\n";
echo "| implementation | rounds | p50 | p90 | p99 | max |\n|---|---|---|---|---|---|\n";
foreach (['ext' => 'nativelock Filelock', 'orig' => 'original PHP Filelock (100 ms sleep-poll)'] as $k => $label) {
    $s = $handoff[$k];
    printf("| %s | %d | %.3f | %.3f | %.3f | %.3f |\n", $label, $s['n'], $s['p50'], $s['p90'], $s['p99'], $s['max']);
}
