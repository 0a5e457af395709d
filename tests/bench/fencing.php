<?php
// Cost of fencing tokens (nativelock.fencing) or of auto-renewal (--setting=auto_renew, the
// renewer thread's start and stop around each lock): µs per uncontended acquire+release cycle
// of every class, with the setting off and on, interleaved (off, on, off, on, …) so that drift
// affects both alike; medians of the repeats, and the ratio on/off.
//
// usage (test servers running, tests/servers/{redis,mariadb}.sh start; env of tests/servers/env.sh):
//   php -d extension=modules/nativelock.so tests/bench/fencing.php [--quick] [--lockdir=DIR]
//       [--setting=fencing|auto_renew]
// The lock directory defaults to a fresh one under sys_get_temp_dir(); pass one on the
// filesystem you care about (the file counter fsyncs twice per acquisition).
require __DIR__ . '/../phpt/fencing/fencing.inc';

use ItsMieger\MySqlSharedLocks\SharedLock;

$quick = in_array('--quick', $argv, true);
$cycles = $quick ? 500 : 3000;
$repeats = $quick ? 3 : 7;
$lockdir = null;
$setting = 'fencing';
foreach ($argv as $a) {
    if (str_starts_with($a, '--lockdir=')) $lockdir = rtrim(substr($a, 10), '/') . '/';
    if (str_starts_with($a, '--setting=')) $setting = substr($a, 10);
}
if (!in_array($setting, ['fencing', 'auto_renew'], true)) {
    fwrite(STDERR, "--setting must be fencing or auto_renew\n");
    exit(2);
}
$lockdir ??= nl_lockdir();
if (!is_dir($lockdir)) mkdir($lockdir, 0777, true);
$name = 'bench_fencing_' . getmypid();

RedisLock::setRedis(nl_redis_uri());
$p = sl_params();
$dsn = "mysql:host={$p['host']};port={$p['port']};dbname={$p['db']}";
$appPdo = new PDO($dsn, $p['user'], $p['password']);

$cases = [
    'RedisLock' => function (int $n) use ($name) {
        for ($i = 0; $i < $n; $i++) RedisLock::createAndLock($name, 20)->release();
    },
    'SharedLock (native driver)' => function (int $n) use ($name) {
        sl_configure();
        for ($i = 0; $i < $n; $i++) SharedLock::lock($name, 0, 20)->release();
    },
    'SharedLock (PDO driver)' => function (int $n) use ($name, $appPdo) {
        SharedLock::setConnection($appPdo);
        for ($i = 0; $i < $n; $i++) SharedLock::lock($name, 0, 20)->release();
    },
    'Filelock' => function (int $n) use ($name, $lockdir) {
        Filelock::$lockpath = $lockdir;
        $f = new Filelock($name);
        for ($i = 0; $i < $n; $i++) {
            $f->try_lock();
            $f->unlock();
        }
    },
];
foreach (['redis', 'mysql', 'file'] as $kind) {
    $backend = $kind === 'file' ? new Nativelock\FileBackend($lockdir) : nv_backend($kind);
    $cases["Nativelock\\Lock ($kind)"] = function (int $n) use ($backend, $name) {
        $lock = new Nativelock\Lock($backend, "native_$name");
        for ($i = 0; $i < $n; $i++) {
            $lock->acquire(20);
            $lock->release();
        }
    };
}

$rows = [];
foreach ($cases as $label => $run) {
    foreach (['0', '1'] as $mode) {   // warm-up: connections, prepared statements, script caches
        ini_set("nativelock.$setting", $mode);
        $run(100);
    }
    $samples = ['0' => [], '1' => []];
    for ($r = 0; $r < $repeats; $r++) {
        foreach (['0', '1'] as $mode) {
            ini_set("nativelock.$setting", $mode);
            $t = hrtime(true);
            $run($cycles);
            $samples[$mode][] = (hrtime(true) - $t) / 1e3 / $cycles;
        }
    }
    $median = function (array $xs) { sort($xs); return $xs[intdiv(count($xs), 2)]; };
    $rows[$label] = [$median($samples['0']), $median($samples['1'])];
}
ini_set("nativelock.$setting", '0');
fx_cleanup('redis', $name, '');
fx_cleanup('mysql', $name, '');
nl_redis()->del("nativelock:fence:native_$name");
sl_pdo()->prepare('DELETE FROM shared_locks_fences WHERE name = ?')->execute(["native_$name"]);

$fs = trim((string) shell_exec('stat -f -c %T ' . escapeshellarg($lockdir)));
printf("%s cost (%s, %d cycles x %d repeats, medians; lock directory %s on %s)\n\n",
    $setting === 'fencing' ? 'Fencing' : 'Auto-renewal', php_uname('n'), $cycles, $repeats, $lockdir, $fs ?: '?');
echo "| uncontended acquire+release | $setting off µs | $setting on µs | extra µs | on/off |\n|---|---|---|---|---|\n";
foreach ($rows as $label => [$off, $on]) {
    printf("| %s | %.1f | %.1f | %+.1f | %.2fx |\n", $label, $off, $on, $on - $off, $on / $off);
}
