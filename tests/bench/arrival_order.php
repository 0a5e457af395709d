<?php
// Do waiters get a lock in the order they came, when each holds it for a while? One holder and
// W waiters arrive 30 ms apart (process k after k × 30 ms), each holds the lock --hold seconds;
// the order they got it in is compared with the order they came in (pairs out of order).
//   php -d extension=modules/nativelock.so tests/bench/arrival_order.php \
//       --backends=filelock,redislock,sharedlock --waiters=5 --rounds=6 --holds=0.05,0.3
// (servers as for bench.php). Written for a limitation found on 2026-11-27: SharedLock's
// waiters wait in GET_LOCK in 0.2 s slices (so that PHP signal handlers run) and a waiter whose
// slice ends joins the server's line again at its end, so with holds past 0.2 s they are served
// out of order (nobody starves: everyone goes round).
require __DIR__ . '/lib/backends.php';

$opt = ['backends' => 'filelock,redislock,sharedlock', 'waiters' => 5, 'rounds' => 6,
    'holds' => '0.05,0.3'];
foreach (array_slice($argv, 1) as $a) {
    if (!preg_match('/^--(\w+)=(.*)$/', $a, $m) || !array_key_exists($m[1], $opt)) {
        fwrite(STDERR, "unknown argument $a\n");
        exit(2);
    }
    $opt[$m[1]] = $m[2];
}
$waiters = max(1, (int) $opt['waiters']);
$rounds = max(1, (int) $opt['rounds']);
$arrivalGapUs = 30000;

// One round: the order (process numbers) in which the holder and the waiters got the lock.
function one_round(string $id, string $name, int $waiters, float $hold, int $gapUs): array
{
    $log = sys_get_temp_dir() . "/nl-arrival-" . getmypid() . ".log";
    @unlink($log);
    $pids = [];
    for ($k = 0; $k <= $waiters; $k++) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            $code = 0;
            try {
                $backend = nlb_backend($id);
                usleep($k * $gapUs);
                $h = $backend->acquire($name);
                file_put_contents($log, "$k\n", FILE_APPEND | LOCK_EX);
                usleep((int) ($hold * 1e6));
                $backend->release($h);
            } catch (Throwable $e) {
                fwrite(STDERR, "$id, process $k: " . $e->getMessage() . "\n");
                $code = 1;
            }
            exit($code);
        }
        $pids[] = $pid;
    }
    $failed = false;
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
        $failed = $failed || !pcntl_wifexited($status) || pcntl_wexitstatus($status) !== 0;
    }
    $order = is_file($log) ? array_map('intval', file($log, FILE_IGNORE_NEW_LINES)) : [];
    @unlink($log);
    if ($failed || count($order) !== $waiters + 1) {
        throw new RuntimeException("$id: a process failed or never got the lock");
    }
    return $order;
}

printf("%-12s %6s %10s %s\n", 'backend', 'hold s', 'out/pairs', 'orders seen (arrival order is 0..W)');
foreach (array_filter(explode(',', $opt['backends'])) as $id) {
    $why = nlb_backends()[$id]->unavailable() ?? null;
    if ($why !== null) {
        printf("%-12s skipped: %s\n", $id, $why);
        continue;
    }
    foreach (array_map('floatval', explode(',', $opt['holds'])) as $hold) {
        $out = $pairs = 0;
        $seen = [];
        for ($r = 0; $r < $rounds; $r++) {
            $order = one_round($id, "arrival-" . getmypid() . "-$r", $waiters, $hold, $arrivalGapUs);
            $seen[implode('', $order)] = true;
            for ($i = 0; $i < count($order); $i++) {
                for ($j = $i + 1; $j < count($order); $j++) {
                    $pairs++;
                    $out += $order[$i] > $order[$j] ? 1 : 0;
                }
            }
        }
        printf("%-12s %6.2f %10s %s\n", $id, $hold, "$out/$pairs", implode(' ', array_keys($seen)));
    }
}
