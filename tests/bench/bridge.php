<?php
// The bridge against the stock classes, in one run (issue 11):
//  1. µs per uncontended acquire+release cycle through Symfony's LockFactory (stock RedisStore vs
//     the bridge's RedisStore; FlockStore vs FilelockStore; the bridge's MysqlStore) and through
//     Laravel's lock (stock PhpRedisLock vs the bridge's NativeLock, get()+release());
//  2. hand-off: a holder in another process releases, a blocked waiter (LockFactory
//     acquire(true) / Laravel block()) owns it — p50/p90 in ms.
// Target: the bridge's cycle <= 0.8x the stock store's, hand-off p50 <= 1 ms.
// usage: php -d extension=modules/nativelock.so tests/bench/bridge.php [--quick]
// Needs the test servers (tests/servers/{redis,mariadb}.sh; NATIVELOCK_REDIS_*/NATIVELOCK_MYSQL_*).
require __DIR__.'/../../bridge/tests/bootstrap.php';

use Symfony\Component\Lock\LockFactory;

$quick = in_array('--quick', $argv, true);
$cycles = $quick ? 500 : 5000;
$rounds = $quick ? 10 : 40;
$env = fn (string $n, string $d) => getenv($n) ?: $d;
$redisHost = $env('NATIVELOCK_REDIS_HOST', '127.0.0.1');
$redisPort = (int) $env('NATIVELOCK_REDIS_PORT', '16379');
$redisDsn = "redis://$redisHost:$redisPort";
$mysqlDsn = sprintf('mysql:host=%s;port=%d;dbname=%s', $env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'), (int) $env('NATIVELOCK_MYSQL_PORT', '13306'), $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'));
$mysqlUser = $env('NATIVELOCK_MYSQL_USER', 'nativelock');
$mysqlPass = $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock');
$lockDir = sys_get_temp_dir().'/nativelock-bench-bridge';
@mkdir($lockDir);

// Each subject: PHP code (for this process and for the hand-off child) that defines
// $take(bool $wait) and $drop(); the same text runs in both, with $name, $redisHost... in scope.
$subjects = [
    'symfony redis: stock RedisStore' => '$r = new Redis(); $r->connect($redisHost, $redisPort); $f = new Symfony\Component\Lock\LockFactory(new Symfony\Component\Lock\Store\RedisStore($r));',
    'symfony redis: bridge RedisStore' => '$r = new Redis(); $r->connect($redisHost, $redisPort); $f = new Symfony\Component\Lock\LockFactory(new Nativelock\Bridge\Symfony\RedisStore($r));',
    'symfony file: stock FlockStore' => '$f = new Symfony\Component\Lock\LockFactory(new Symfony\Component\Lock\Store\FlockStore($lockDir));',
    'symfony file: bridge FilelockStore' => '$f = new Symfony\Component\Lock\LockFactory(new Nativelock\Bridge\Symfony\FilelockStore($lockDir));',
    'symfony mysql: stock PdoStore' => '$p = new PDO($mysqlDsn, $mysqlUser, $mysqlPass, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]); $st = new Symfony\Component\Lock\Store\PdoStore($p, [\'db_table\' => \'nativelock_bench_lock_keys\']); try { $st->createTable(); } catch (PDOException $e) {} $f = new Symfony\Component\Lock\LockFactory($st);',
    'symfony mysql: bridge MysqlStore' => '$f = new Symfony\Component\Lock\LockFactory(new Nativelock\Bridge\Symfony\MysqlStore($mysqlDsn, $mysqlUser, $mysqlPass));',
    'symfony mysql: bridge MysqlStore on a PDO' => '$f = new Symfony\Component\Lock\LockFactory(new Nativelock\Bridge\Symfony\MysqlStore(new PDO($mysqlDsn, $mysqlUser, $mysqlPass, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION])));',
    'laravel redis: stock PhpRedisLock' => '$r = new Redis(); $r->connect($redisHost, $redisPort); $c = new Illuminate\Redis\Connections\PhpRedisConnection($r); $mk = fn () => new Illuminate\Cache\PhpRedisLock($c, "laravel:".$name, 30);',
    'laravel redis: bridge NativeLock' => '$s = new Nativelock\Bridge\Laravel\NativeLockStore(new Nativelock\RedisBackend($redisDsn), null, "laravel:"); $mk = fn () => $s->lock($name, 30);',
];
$common = <<<'PHP'
    if (isset($f)) {
        $take = function (bool $wait) use ($f, $name) { $l = $f->createLock($name, 30); if (!$l->acquire($wait)) { throw new RuntimeException('busy'); } return $l; };
        $drop = fn ($l) => $l->release();
    } else {
        $take = function (bool $wait) use ($mk) { $l = $mk(); if ($wait) { $l->block(30); } elseif (!$l->get()) { throw new RuntimeException('busy'); } return $l; };
        $drop = fn ($l) => $l->release();
    }
    PHP;

function stats(array $xs): array
{
    sort($xs);
    $n = count($xs);
    $pct = fn ($p) => $xs[min($n - 1, (int) floor($p * ($n - 1) + 0.5))];

    return ['p50' => $pct(0.5), 'p90' => $pct(0.9), 'n' => $n];
}

$vars = compact('redisHost', 'redisPort', 'redisDsn', 'mysqlDsn', 'mysqlUser', 'mysqlPass', 'lockDir');

/** [$take, $drop] of a subject, built from its PHP text in a scope of its own. */
function subject(string $setup, string $common, array $vars, string $name): array
{
    extract($vars);
    eval($setup.$common);

    return [$take, $drop];
}

// 1. Uncontended cycle, interleaved: every round runs a batch of each subject in turn, so load
// that comes and goes on the machine hits all of them alike; a subject's figure is its median
// over the rounds, and its ratio the median of the per-round ratios to its stock peer.
$ready = [];
$results = [];
foreach ($subjects as $label => $setup) {
    try {
        $ready[$label] = subject($setup, $common, $vars, 'bench-bridge-'.getmypid().'-'.crc32($label));
        [$take, $drop] = $ready[$label];
        for ($i = 0; $i < 50; ++$i) { $drop($take(false)); }
    } catch (Throwable $e) {
        $results[$label] = ['error' => get_class($e).': '.$e->getMessage()];
    }
}
$batch = max(20, intdiv($cycles, $rounds));
$perRound = [];
for ($round = 0; $round < $rounds; ++$round) {
    foreach ($ready as $label => [$take, $drop]) {
        $t = hrtime(true);
        for ($i = 0; $i < $batch; ++$i) { $drop($take(false)); }
        $perRound[$label][] = (hrtime(true) - $t) / 1e3 / $batch;
    }
}
$median = function (array $xs): float { sort($xs); $n = count($xs); return $n % 2 ? $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2; };
$stockOf = [];
foreach (array_keys($ready) as $label) {
    [$group, $who] = explode(': ', $label, 2);
    if (str_starts_with($who, 'stock')) { $stockOf[$group] = $label; }
}
foreach ($ready as $label => $_) {
    [$group, $who] = explode(': ', $label, 2);
    $ratio = null;
    if (isset($stockOf[$group]) && $stockOf[$group] !== $label) {
        $ratio = $median(array_map(fn ($a, $b) => $a / $b, $perRound[$label], $perRound[$stockOf[$group]]));
    }
    $results[$label] = ['cycle' => $median($perRound[$label]), 'ratio' => $ratio];
}

// 2. Hand-off: the child holds, releases 20 ms later and says when; we wait meanwhile.
foreach ($ready as $label => [$take, $drop]) {
    $setup = $subjects[$label];
    $name = 'bench-bridge-'.getmypid().'-'.crc32($label);
    try {
        $child = '<?php require '.var_export(__DIR__.'/../../bridge/tests/bootstrap.php', true).'; extract(unserialize(base64_decode($argv[1]))); $name = $argv[2];'
            .$setup.$common.' while (($line = fgets(STDIN)) !== false && trim($line) === "hold") { $l = $take(false); echo "held\n"; usleep(20000); $t = microtime(true); $drop($l); echo $t, "\n"; } ';
        $file = tempnam(sys_get_temp_dir(), 'nlbench');
        file_put_contents($file, $child);
        $proc = proc_open([PHP_BINARY, '-d', 'extension='.(getenv('NATIVELOCK_MODULE') ?: __DIR__.'/../../modules/nativelock.so'), $file, base64_encode(serialize($vars)), $name], [['pipe', 'r'], ['pipe', 'w'], STDERR], $pipes);
        $handoff = [];
        for ($i = 0; $i < $rounds; ++$i) {
            fwrite($pipes[0], "hold\n");
            if ('held' !== trim((string) fgets($pipes[1]))) { throw new RuntimeException('the child could not hold the lock'); }
            $l = $take(true);
            $got = microtime(true);
            $released = (float) fgets($pipes[1]);
            $handoff[] = ($got - $released) * 1e3;
            $drop($l);
        }
        fclose($pipes[0]);
        proc_close($proc);
        unlink($file);
        $results[$label]['handoff'] = stats($handoff);
    } catch (Throwable $e) {
        $results[$label] = ['error' => get_class($e).': '.$e->getMessage()];
    }
}

printf("%-36s %12s %10s %14s %14s  %s\n", 'subject', 'cycle µs', 'vs stock', 'hand-off p50', 'hand-off p90', 'targets (cycle <= 0.8x stock, hand-off p50 <= 1 ms)');
$misses = 0;
foreach ($results as $label => $r) {
    [$group, $who] = explode(': ', $label, 2);
    if (isset($r['error'])) {
        printf("%-36s %s\n", $label, $r['error']);
        ++$misses;
        continue;
    }
    $verdict = '';
    if (!str_starts_with($who, 'stock')) {
        $parts = [];
        if (null !== $r['ratio']) { $parts[] = 'cycle '.($r['ratio'] <= 0.8 ? 'met' : 'MISSED'); $misses += $r['ratio'] > 0.8; }
        $parts[] = 'hand-off '.($r['handoff']['p50'] <= 1.0 ? 'met' : 'MISSED');
        $misses += $r['handoff']['p50'] > 1.0;
        $verdict = implode(', ', $parts);
    }
    printf("%-36s %12.1f %10s %11.2f ms %11.2f ms  %s\n", $label, $r['cycle'], null === $r['ratio'] ? '' : sprintf('%.2fx', $r['ratio']), $r['handoff']['p50'], $r['handoff']['p90'], $verdict);
}
printf("(%d interleaved rounds of %d cycles per subject; medians; hand-off over %d rounds)\n", $rounds, $batch, $rounds);
exit($misses ? 1 : 0);
