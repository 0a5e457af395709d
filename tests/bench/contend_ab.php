<?php
// Interleaved A/B of the time-boxed contention scenario (bench.php's "contention", one level):
// every round runs each module's Filelock/RedisLock/SharedLock and the peers once, back to
// back, so that a noisy machine moves them alike; prints each run and the medians.
//   php tests/bench/contend_ab.php --backend=filelock --procs=8 --seconds=2 --rounds=5 \
//       --module=a=/tmp/old.so --module=b=modules/nativelock.so --peers=orig-filelock,sf-flock
// (servers as for bench.php; peers run with the first module loaded, which they do not use).
require __DIR__ . '/lib/backends.php';

[$opt, $modules] = nlb_ab_args($argv, ['backend' => 'filelock', 'procs' => 8, 'seconds' => 2.0, 'rounds' => 5, 'peers' => '']);
$peers = array_filter(explode(',', $opt['peers']));

function run_contention(string $module, string $id, int $procs, float $seconds): array
{
    putenv('NATIVELOCK_MODULE=' . $module);
    $counter = tempnam(sys_get_temp_dir(), 'nlbcounter');
    file_put_contents($counter, '0');
    $start = microtime(true) + 0.4 + 0.08 * $procs;
    $children = [];
    for ($k = 0; $k < $procs; $k++) {
        $cmd = array_merge(nlb_php_argv(), [__DIR__ . '/lib/worker.php', 'contend', $id, "ab-$id",
            $counter, sprintf('%.6f', $start), (string) $seconds]);
        $children[] = [proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes), $pipes];
    }
    $counts = [];
    foreach ($children as [$proc, $pipes]) {
        fclose($pipes[0]);
        $out = json_decode(trim((string) stream_get_contents($pipes[1])), true);
        fclose($pipes[1]);
        fclose($pipes[2]);
        proc_close($proc);
        $counts[] = is_array($out) ? $out['count'] : 0;
    }
    $final = (int) file_get_contents($counter);
    unlink($counter);
    $total = array_sum($counts);
    return ['per_sec' => $total / $seconds, 'min_share' => $total ? min($counts) / ($total / $procs) : 0,
        'lost' => $total - $final];
}

$runs = [];
$first = reset($modules);
for ($r = 1; $r <= (int) $opt['rounds']; $r++) {
    $plan = [];
    foreach ($modules as $label => $path) {
        $plan["{$opt['backend']}@$label"] = [$path, $opt['backend']];
    }
    foreach ($peers as $peer) {
        $plan[$peer] = [$first, $peer];
    }
    foreach ($plan as $name => [$path, $id]) {
        $res = run_contention($path, $id, (int) $opt['procs'], (float) $opt['seconds']);
        $runs[$name][] = $res['per_sec'];
        printf("round %d %-28s %7.0f/s  min share %.2f  lost %d\n", $r, $name, $res['per_sec'], $res['min_share'], $res['lost']);
    }
}
echo "\nmedians over {$opt['rounds']} rounds, {$opt['procs']} processes, {$opt['seconds']} s each:\n";
foreach ($runs as $name => $xs) {
    printf("  %-28s %7.0f/s\n", $name, nlb_median($xs));
}
