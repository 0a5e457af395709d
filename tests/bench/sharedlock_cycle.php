<?php
// SharedLock benchmark, one run, side by side:
//  - µs per uncontended lock+release: native driver, PDO driver (setConnection), and the floor
//    of raw GET_LOCK + RELEASE_LOCK through PDO prepared statements;
//  - hand-off p50/p90 (holder releases → waiter blocked in lock() in another process owns it)
//    for the extension and, if NATIVELOCK_PACKAGE_SRC points at the package's src/ directory
//    (its-mieger/mysql-shared-locks, not shipped here), for the package's own PHP code.
// Run: php -d extension=modules/nativelock.so tests/bench/sharedlock_cycle.php [cycles] [handoffs]
// Connection parameters: NATIVELOCK_MYSQL_* (tests/servers/env.sh); start tests/servers/mariadb.sh.

$env = fn(string $n, string $d) => getenv($n) === false ? $d : getenv($n);
$P = [
    'host' => $env('NATIVELOCK_MYSQL_HOST', '127.0.0.1'),
    'port' => (int) $env('NATIVELOCK_MYSQL_PORT', '13306'),
    'user' => $env('NATIVELOCK_MYSQL_USER', 'nativelock'),
    'password' => $env('NATIVELOCK_MYSQL_PASSWORD', 'nativelock'),
    'db' => $env('NATIVELOCK_MYSQL_DATABASE', 'nativelock_test'),
];
$newPdo = fn() => new PDO("mysql:host={$P['host']};port={$P['port']};dbname={$P['db']}", $P['user'], $P['password'],
    [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_EMULATE_PREPARES => false]);

function load_impl(string $impl): void
{
    if ($impl === 'package') {
        if (extension_loaded('nativelock')) {
            throw new RuntimeException('the package must run without the extension');
        }
        $src = rtrim(getenv('NATIVELOCK_PACKAGE_SRC'), '/') . '/ItsMieger/MySqlSharedLocks/';
        foreach (['SharedLockException', 'SharedLockAcquireException', 'SharedLockTimeoutException',
                  'SharedLockReleaseException', 'SharedLockRemainingTTLException', 'TableRepairException'] as $c) {
            require_once $src . "Exception/$c.php";
        }
        require_once $src . 'SharedLock.php';
        require_once $src . 'SharedLockHandle.php';
    }
}

function configure(array $P, string $impl): void
{
    load_impl($impl);
    \ItsMieger\MySqlSharedLocks\SharedLock::configureConnection($P['host'], $P['db'], $P['user'], $P['password'], 'utf8mb4', $P['port']);
}

$mode = isset($argv[1]) && !is_numeric($argv[1]) ? $argv[1] : 'main';

if ($mode === 'waiter') {
    // Blocked in lock() while the holder holds; reports the monotonic time it got the lock.
    [, , $impl, $name, $rounds] = $argv;
    configure($P, $impl);
    for ($i = 0; $i < (int) $rounds; $i++) {
        fgets(STDIN); // holder has the lock
        $h = \ItsMieger\MySqlSharedLocks\SharedLock::lock($name, 30, 30);
        $t = hrtime(true);
        $h->release();
        echo $t, "\n";
    }
    exit(0);
}

if ($mode === 'handoff') {
    [, , $impl, $rounds] = $argv;
    configure($P, $impl);
    $name = 'bench-handoff-' . $impl . '-' . getmypid();
    $cmd = escapeshellarg(PHP_BINARY) . ($impl === 'extension' ? ' -d extension=' . escapeshellarg(getenv('NATIVELOCK_MODULE')) : '')
        . ' ' . escapeshellarg(__FILE__) . ' waiter ' . $impl . ' ' . escapeshellarg($name) . ' ' . (int) $rounds;
    $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    $samples = [];
    for ($i = 0; $i < (int) $rounds; $i++) {
        $h = \ItsMieger\MySqlSharedLocks\SharedLock::lock($name, 30, 30);
        fwrite($pipes[0], "go\n");
        usleep(30000); // the waiter is now blocked in lock()
        $t = hrtime(true);
        $h->release();
        $got = (int) trim(fgets($pipes[1]));
        $samples[] = ($got - $t) / 1e6;
        usleep(5000); // let the waiter release before taking it again
    }
    fclose($pipes[0]);
    proc_close($proc);
    sort($samples);
    $p = fn($q) => $samples[(int) floor($q * (count($samples) - 1))];
    printf("%.3f %.3f %.3f\n", $p(0.5), $p(0.9), $p(1.0));
    exit(0);
}

if ($mode === 'cycle-package') {
    configure($P, 'package');
    $name = 'bench-pkg-cycle-' . getmypid();
    $n = (int) $argv[2];
    for ($i = 0; $i < 100; $i++) {
        \ItsMieger\MySqlSharedLocks\SharedLock::lock($name, 0, 10)->release();
    }
    $best = INF;
    for ($r = 0; $r < 3; $r++) {
        $t = hrtime(true);
        for ($i = 0; $i < $n; $i++) {
            \ItsMieger\MySqlSharedLocks\SharedLock::lock($name, 0, 10)->release();
        }
        $best = min($best, (hrtime(true) - $t) / 1e3 / $n);
    }
    printf("%.1f\n", $best);
    exit(0);
}

if ($mode !== 'main') {
    exit(2);
}

if (!extension_loaded('nativelock')) {
    fwrite(STDERR, "run with -d extension=modules/nativelock.so\n");
    exit(1);
}
$cycles = (int) ($argv[1] ?? 3000);
$handoffs = (int) ($argv[2] ?? 41);
use ItsMieger\MySqlSharedLocks\SharedLock;

$bench = function (callable $cycle) use ($cycles): float {
    for ($i = 0; $i < 200; $i++) {
        $cycle();
    }
    $best = INF;
    for ($r = 0; $r < 3; $r++) { // best of 3 runs: the machine is shared
        $t = hrtime(true);
        for ($i = 0; $i < $cycles; $i++) {
            $cycle();
        }
        $best = min($best, (hrtime(true) - $t) / 1e3 / $cycles);
    }
    return $best;
};

$name = 'bench-cycle-' . getmypid();
$raw = $newPdo();
$get = $raw->prepare('SELECT GET_LOCK(?, 0)');
$rel = $raw->prepare('SELECT RELEASE_LOCK(?)');
$floor = $bench(function () use ($get, $rel, $name) {
    $get->execute([$name]);
    $get->fetchColumn();
    $rel->execute([$name]);
    $rel->fetchColumn();
});

SharedLock::configureConnection($P['host'], $P['db'], $P['user'], $P['password'], 'utf8mb4', $P['port']);
$native = $bench(fn() => SharedLock::lock($name, 0, 10)->release());
SharedLock::setConnection($newPdo());
$pdo = $bench(fn() => SharedLock::lock($name, 0, 10)->release());

printf("SharedLock uncontended lock+release (best of 3 x %d cycles, µs/cycle)\n", $cycles);
printf("  raw GET_LOCK+RELEASE_LOCK via PDO   %8.1f  (floor, 2 round trips)\n", $floor);
printf("  extension, native driver            %8.1f  (%.2fx floor, 2 round trips)\n", $native, $native / $floor);
printf("  extension, PDO driver               %8.1f  (%.2fx floor, 2 round trips)\n", $pdo, $pdo / $floor);
if (getenv('NATIVELOCK_PACKAGE_SRC') && is_dir(getenv('NATIVELOCK_PACKAGE_SRC'))) {
    $pkg = (float) shell_exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__FILE__) . ' cycle-package ' . (int) $cycles);
    printf("  package's PHP code                  %8.1f  (%.2fx floor, 12 round trips)\n", $pkg, $pkg / $floor);
}

$module = $env('NATIVELOCK_MODULE', '');
$runHandoff = function (string $impl) use ($handoffs, $module) {
    $cmd = escapeshellarg(PHP_BINARY) . ($impl === 'extension' ? ' -d extension=' . escapeshellarg($module) : '')
        . ' ' . escapeshellarg(__FILE__) . " handoff $impl $handoffs";
    $out = trim((string) shell_exec($cmd));
    return $out ? array_map('floatval', explode(' ', $out)) : null;
};
printf("Hand-off (holder releases → blocked waiter in another process owns it), %d rounds, ms\n", $handoffs);
if ($module && is_file($module)) {
    $r = $runHandoff('extension');
    $r ? printf("  extension (native driver)   p50 %6.3f  p90 %6.3f  max %6.3f\n", ...$r) : print("  extension: failed\n");
} else {
    echo "  extension: set NATIVELOCK_MODULE to the module path\n";
}
if (getenv('NATIVELOCK_PACKAGE_SRC') && is_dir(getenv('NATIVELOCK_PACKAGE_SRC'))) {
    $r = $runHandoff('package');
    $r ? printf("  package's PHP code          p50 %6.3f  p90 %6.3f  max %6.3f\n", ...$r) : print("  package: failed\n");
} else {
    echo "  package: set NATIVELOCK_PACKAGE_SRC to its src/ directory to compare\n";
}
