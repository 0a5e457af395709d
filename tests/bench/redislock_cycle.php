<?php
// RedisLock benchmark, in one run:
//  1. µs per uncontended createAndLock()+release() cycle: the extension, next to the floor of
//     two raw round trips through phpredis (SET NX EX + DEL) and the original gist (Credis_Client
//     stand-in over phpredis, SET NX EX + EVAL);
//  2. FAIL_BLOCK hand-off (holder in another process releases → blocked waiter owns it), for the
//     extension and the original gist.
// usage: php -d extension=modules/nativelock.so tests/bench/redislock_cycle.php [--quick]
// Needs the test redis-server (tests/servers/redis.sh start; NATIVELOCK_REDIS_HOST/PORT).
require __DIR__ . '/../lib/redislock_test.inc';
require __DIR__ . '/../lib/credis_client.inc';
require __DIR__ . '/../lib/original_redislock.inc';

if (!getenv('NATIVELOCK_MODULE')) {
    putenv('NATIVELOCK_MODULE=' . realpath(__DIR__ . '/../../modules/nativelock.so'));
}
$quick = in_array('--quick', $argv, true);
$cycles = $quick ? 2000 : 20000;
$repeats = $quick ? 3 : 5;
$handoffRounds = $quick ? 30 : 200;
$originalRounds = $quick ? 3 : 5;   // each costs ~1 s: the original sleeps 1 s before its 2nd try

function stats(array $xs): array
{
    sort($xs);
    $n = count($xs);
    $pct = fn($p) => $xs[min($n - 1, (int) floor($p * ($n - 1) + 0.5))];
    return ['min' => $xs[0], 'p50' => $pct(0.5), 'p90' => $pct(0.9), 'max' => $xs[$n - 1], 'n' => $n];
}

$name = 'bench-' . getmypid();
RedisLock::setRedis(nl_redis_uri());
NlOriginal\RedisLock::setRedis(new Credis_Client(nl_redis_host(), nl_redis_port()));
$raw = nl_redis();

$bench = [
    'raw' => function (int $n) use ($raw, $name) {
        $key = "redislock:$name";
        $t = hrtime(true);
        for ($i = 0; $i < $n; $i++) {
            if ($raw->set($key, 'v', ['NX', 'EX' => 20]) !== true) throw new RuntimeException('raw SET failed');
            $raw->del($key);
        }
        return (hrtime(true) - $t) / 1e3 / $n;
    },
    'ext' => function (int $n) use ($name) {
        $t = hrtime(true);
        for ($i = 0; $i < $n; $i++) {
            RedisLock::createAndLock($name, 20)->release();
        }
        return (hrtime(true) - $t) / 1e3 / $n;
    },
    'orig' => function (int $n) use ($name) {
        $t = hrtime(true);
        for ($i = 0; $i < $n; $i++) {
            NlOriginal\RedisLock::createAndLock($name, 20)->release();
        }
        return (hrtime(true) - $t) / 1e3 / $n;
    },
];
foreach ($bench as $f) $f(200);   // warm up connections and script caches
$runs = ['raw' => [], 'ext' => [], 'orig' => []];
for ($r = 0; $r < $repeats; $r++) {
    foreach ($bench as $k => $f) {   // interleaved, so drift affects all alike
        $runs[$k][] = $f($cycles);
    }
}
$cycle = array_map('stats', $runs);

// --- hand-off ---
function handoff(bool $original, int $rounds, string $name): array
{
    $lib = var_export(realpath(__DIR__ . '/../lib'), true);
    $class = $original ? '\NlOriginal\RedisLock' : 'RedisLock';
    $child = nl_spawn("require $lib . '/redislock_test.inc'; require $lib . '/credis_client.inc'; require $lib . '/original_redislock.inc';
        RedisLock::setRedis(nl_redis_uri());
        \\NlOriginal\\RedisLock::setRedis(new Credis_Client(nl_redis_host(), nl_redis_port()));
        while (fgets(STDIN) !== false) {
            \$l = $class::createAndLock('$name-handoff', 30, $class::FAIL_BLOCK);
            echo \"held\\n\";
            usleep(20000);                     // the waiter is blocked in lock() by now
            \$t = hrtime(true); \$l->release(); echo \$t, \"\\n\";
        }", [], $pipes);
    $samples = [];
    for ($i = 0; $i < $rounds; $i++) {
        fwrite($pipes[0], "go\n");
        nl_read_line($pipes[1], 30);
        $lock = $original ? \NlOriginal\RedisLock::createAndLock("$name-handoff", 30, \NlOriginal\RedisLock::FAIL_BLOCK)
                          : RedisLock::createAndLock("$name-handoff", 30, RedisLock::FAIL_BLOCK);
        $got = hrtime(true);
        $released = (int) nl_read_line($pipes[1], 30);
        $samples[] = ($got - $released) / 1e6;
        $lock->release();
    }
    fclose($pipes[0]);
    fclose($pipes[1]);
    fclose($pipes[2]);
    proc_close($child);
    return stats($samples);
}
$handoff = ['ext' => handoff(false, $handoffRounds, $name), 'orig' => handoff(true, $originalRounds, $name)];

printf("RedisLock benchmark (%s, redis %s at %s:%d, %d cycles x %d repeats, medians)\n\n", php_uname('n'),
    $raw->info('server')['redis_version'], nl_redis_host(), nl_redis_port(), $cycles, $repeats);
echo "| uncontended acquire+release | p50 µs/cycle | min | max | ratio to raw |\n|---|---|---|---|---|\n";
foreach (['raw' => 'raw phpredis SET NX EX + DEL (floor)', 'ext' => 'extension createAndLock()+release()', 'orig' => 'original gist (Credis stand-in on phpredis)'] as $k => $label) {
    printf("| %s | %.1f | %.1f | %.1f | %.2fx |\n", $label, $cycle[$k]['p50'], $cycle[$k]['min'], $cycle[$k]['max'], $cycle[$k]['p50'] / $cycle['raw']['p50']);
}
echo "\n| FAIL_BLOCK hand-off (other process) | p50 ms | p90 ms | min | max | rounds |\n|---|---|---|---|---|---|\n";
foreach (['ext' => 'extension (PUBLISH wake-up)', 'orig' => 'original gist (sleep 1,2,4,8 s)'] as $k => $label) {
    $s = $handoff[$k];
    printf("| %s | %.3f | %.3f | %.3f | %.3f | %d |\n", $label, $s['p50'], $s['p90'], $s['min'], $s['max'], $s['n']);
}
