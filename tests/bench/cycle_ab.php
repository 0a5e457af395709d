<?php
// Interleaved A/B of Filelock's uncontended cycle (a new object, lock() or try_lock(), unlock())
// between builds of the module, beside the C floor (tests/bench/floor/file_floor.c): every
// round runs each module and the floor once, back to back, so that a noisy machine moves them
// alike; prints each run, the medians and the median ratio to the floor of the same round.
//   php tests/bench/cycle_ab.php --call=lock --cycles=5000 --rounds=10 \
//       --module=a=/tmp/old.so --module=b=modules/nativelock.so
// --call=lock is what most code calls (it looks at the host's queue first); --call=try_lock is
// bench.php's "cycle" (no queue).
require __DIR__ . '/lib/backends.php';

[$opt, $modules] = nlb_ab_args($argv, ['call' => 'lock', 'cycles' => 5000, 'rounds' => 10]);
if (!in_array($opt['call'], ['lock', 'try_lock'], true)) {
    fwrite(STDERR, "--call must be lock or try_lock\n");
    exit(2);
}
$dir = rtrim(nlb_lockdir(), '/');
$cycles = max(1, (int) $opt['cycles']);
$floor = sys_get_temp_dir() . '/nativelock-file-floor';
exec('cc -O2 -o ' . escapeshellarg($floor) . ' ' . escapeshellarg(__DIR__ . '/floor/file_floor.c'), $o, $rc);
if ($rc !== 0) {
    fwrite(STDERR, "cannot build the C floor\n");
    exit(1);
}

// One child per run: a warm-up of 200 cycles, then the timed ones; prints µs per cycle.
$child = <<<'PHP'
[$dir, $call, $n] = [$argv[1], $argv[2], (int) $argv[3]];
Filelock::$lockpath = $dir . '/';
$one = function () use ($call) {
    $l = new Filelock('cycle-ab');
    $got = $call === 'lock' ? $l->lock(10.0) : $l->try_lock();
    if ($got !== LOCKFILE_SUCCESS) {
        fwrite(STDERR, "uncontended $call failed\n");
        exit(1);
    }
    $l->unlock();
};
for ($i = 0; $i < 200; $i++) {
    $one();
}
$t = hrtime(true);
for ($i = 0; $i < $n; $i++) {
    $one();
}
printf("%.3f\n", (hrtime(true) - $t) / 1e3 / $n);
PHP;

$runs = [];
$ratios = [];
for ($r = 1; $r <= (int) $opt['rounds']; $r++) {
    $line = [];
    foreach ($modules as $label => $path) {
        putenv('NATIVELOCK_MODULE=' . $path);
        $argv = array_merge(nlb_php_argv(), ['-r', $child, '--', $dir, $opt['call'], (string) $cycles]);
        $v = trim((string) shell_exec(implode(' ', array_map('escapeshellarg', $argv))));
        if (!is_numeric($v)) {
            fwrite(STDERR, "$label: $v\n");
            exit(1);
        }
        $runs[$label][] = (float) $v;
        $line[$label] = (float) $v;
    }
    $f = (float) trim((string) shell_exec(escapeshellarg($floor) . ' ' . escapeshellarg($dir) . ' ' . $cycles));
    $runs['C floor'][] = $f;
    foreach ($line as $label => $v) {
        $ratios[$label][] = $v / $f;
    }
    printf("round %2d  %s  C floor %.2f us\n", $r,
        implode('  ', array_map(fn($l, $v) => sprintf('%s %.2f us', $l, $v), array_keys($line), $line)), $f);
}
echo "\nmedians over {$opt['rounds']} rounds of $cycles cycles ({$opt['call']}):\n";
foreach ($runs as $label => $xs) {
    $ratio = isset($ratios[$label]) ? sprintf('  %.2fx the floor (paired)', nlb_median($ratios[$label])) : '';
    printf("  %-10s %7.2f us%s\n", $label, nlb_median($xs), $ratio);
}
