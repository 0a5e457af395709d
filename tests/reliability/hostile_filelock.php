<?php
// Hostile input specific to Filelock: wrong argument types, negative/NaN/huge timeouts, a
// $lockpath that is a file, a symlink, unwritable, missing, vanishing or carrying a NUL byte,
// and things planted at the lock-file path (symlinks, a FIFO, a directory).
// Every case must get the documented outcome (ValueError/TypeError/-2/-1/success), no symlink
// may be followed and no file may appear outside $lockpath.
// No strict_types on purpose: the wrong-type cases must meet PHP's ordinary coercion.
require __DIR__ . '/lib/driver.inc';

$opt = rel_options(['test' => 'hostile-filelock']);
$started = microtime(true);
$tried = 'wrong types, bad timeouts, hostile $lockpath values (file, symlinks, /proc/, missing, vanishing, NUL), symlinks/FIFO/directory planted at the lock path';
rel_guard($opt['test'], 'file', $tried, $started);
$backend = rel_backend_or_report($opt['test'], 'file', $tried, $started);
$backend->prepare('hostile');
$locks = $backend->directory();          // $lockpath
$sandbox = dirname($locks) . '/';        // its parent: nothing may appear here uninvited
$victim = $sandbox . 'victim';
file_put_contents($victim, 'precious');
$invited = ['locks', 'victim'];

/** What a call did: the exception class, or the value it returned. */
function outcome(callable $call): string
{
    try {
        $r = @$call();  // @: null-to-string deprecations are part of the cases
        return is_string($r) ? $r : json_encode($r);
    } catch (Throwable $e) {
        return get_class($e);
    }
}

$results = [];
function check(string $label, string $expected, callable $call): void
{
    global $results;
    $results[] = [$label, $expected, outcome($call)];
}

/** Forks a holder of $name in $dir that releases after $holdMs; returns once it holds. */
function hold_elsewhere(string $dir, string $name, int $holdMs, ?callable $whileHolding = null): int
{
    $ready = "$dir.ready-" . bin2hex(random_bytes(4));
    $pid = pcntl_fork();
    if ($pid === 0) {
        Filelock::$lockpath = $dir;
        $l = new Filelock($name);
        $l->try_lock() === 1 or exit(9);
        touch($ready);
        usleep($holdMs * 1000);
        $whileHolding ? $whileHolding($l) : $l->unlock();
        exit(0);
    }
    while (!file_exists($ready)) {
        usleep(200);
    }
    unlink($ready);
    return $pid;
}

function lock_with(string $lockpath, string $name = 'x'): Filelock
{
    Filelock::$lockpath = $lockpath;
    return new Filelock($name);
}

// --- argument types ----------------------------------------------------------------------
Filelock::$lockpath = $locks;
check('name: array', 'TypeError', fn() => new Filelock([]));
check('name: object without __toString', 'TypeError', fn() => new Filelock(new stdClass()));
check('name: resource', 'TypeError', fn() => new Filelock(STDIN));
check('name: null (coerced to "", deprecated)', 'ValueError', fn() => new Filelock(null));
check('name: missing', 'ArgumentCountError', fn() => new Filelock());
check('name: int 42 (coerced)', '1', function () { $l = new Filelock(42); $r = $l->try_lock(); $l->unlock(); return $r; });
check('name: Stringable', '1', function () {
    $l = new Filelock(new class { public function __toString(): string { return 'stringable'; } });
    $r = $l->try_lock(); $l->unlock(); return $r;
});
check('try_lock(): extra argument', 'ArgumentCountError', fn() => (new Filelock('x'))->try_lock(1));
check('bake_data() override throws', 'DomainException,no files', function () use ($locks) {
    $l = new class('thrower') extends Filelock { public function bake_data() { throw new DomainException('no'); } };
    $r = outcome(fn() => $l->try_lock());
    return $r . (array_diff(scandir($locks), ['.', '..']) ? ',files left' : ',no files');
});

// --- timeouts, lock free ------------------------------------------------------------------
foreach (['-1' => -1, '-0.001' => -0.001, 'NAN' => NAN, '-INF' => -INF] as $label => $t) {
    check("lock($label)", 'ValueError', fn() => (new Filelock('t'))->lock($t));
}
check("lock('abc')", 'TypeError', fn() => (new Filelock('t'))->lock('abc'));
check('lock([])', 'TypeError', fn() => (new Filelock('t'))->lock([]));
foreach (['INF' => INF, "'0.5'" => '0.5', 'PHP_INT_MAX' => PHP_INT_MAX, '1e308' => 1e308, '0' => 0] as $label => $t) {
    check("lock($label), lock free", '1', function () use ($t) { $l = new Filelock('t'); $r = $l->lock($t); $l->unlock(); return $r; });
}

// --- timeouts, lock held by another process that releases after 300 ms --------------------
foreach (['1e300' => 1e300, 'PHP_INT_MAX' => PHP_INT_MAX, '1e9' => 1e9, 'INF' => INF, 'null' => null] as $label => $t) {
    check("lock($label) waits for a release 300 ms later", '1 after release', function () use ($locks, $t) {
        $holder = hold_elsewhere($locks, 'held', 300);
        $l = new Filelock('held');
        $t0 = microtime(true);
        $r = $l->lock($t);
        $waited = microtime(true) - $t0;
        rel_wait($holder);
        $l->unlock();
        return $r . ($waited >= 0.2 ? ' after release' : sprintf(' after %.0f ms, before the release', $waited * 1000));
    });
}
foreach (['0' => 0, '1e-9' => 1e-9, '0.2' => 0.2] as $label => $t) {
    check("lock($label) on a lock held for 1 s", '-1 in time', function () use ($locks, $t) {
        $holder = hold_elsewhere($locks, 'held', 1000);
        $t0 = microtime(true);
        $r = (new Filelock('held'))->lock($t);
        $waited = microtime(true) - $t0;
        posix_kill($holder, SIGKILL);
        rel_wait($holder);
        @unlink("{$GLOBALS['locks']}held.lock");
        return $r . ($waited >= $t && $waited < $t + 0.25 ? ' in time' : sprintf(' after %.0f ms', $waited * 1000));
    });
}

// --- hostile $lockpath ---------------------------------------------------------------------
file_put_contents($sandbox . 'afile', 'x');
mkdir($sandbox . 'target');
symlink($sandbox . 'target', $sandbox . 'dirlink');
symlink($sandbox . 'afile', $sandbox . 'filelink');
symlink($sandbox . 'nowhere', $sandbox . 'dangling');
array_push($invited, 'afile', 'target', 'dirlink', 'filelink', 'dangling');
$both = fn(Filelock $l) => $l->try_lock() . ' ' . $l->lock(0.1);
check('$lockpath: a regular file', '-2 -2', fn() => $both(lock_with($sandbox . 'afile/')));
check('$lockpath: symlink to a file', '-2 -2', fn() => $both(lock_with($sandbox . 'filelink/')));
check('$lockpath: dangling symlink', '-2 -2', fn() => $both(lock_with($sandbox . 'dangling/')));
check('$lockpath: missing directory', '-2 -2', fn() => $both(lock_with($sandbox . 'missing/')));
check('$lockpath: /proc/ (refuses new files, even to root)', '-2 -2', fn() => $both(lock_with('/proc/')));
check('$lockpath: symlink to a directory (the directory is $lockpath)', '1 in target', function () use ($sandbox) {
    $l = lock_with($sandbox . 'dirlink/');
    $r = $l->try_lock() . (is_file($sandbox . 'target/x.lock') ? ' in target' : ' elsewhere');
    $l->unlock();
    return $r;
});
check('$lockpath: object without __toString', 'TypeError', fn() => lock_with(new stdClass()));
check('$lockpath with a NUL byte ("…/victim\0")', 'ValueError,victim intact', function () use ($victim) {
    $r = outcome(function () use ($victim) {
        $l = lock_with($victim . "\0");
        return $l->try_lock() . ' ' . json_encode($l->is_locked()) . ' ' . $l->unlock(true);
    });
    return $r . (@file_get_contents($victim) === 'precious' ? ',victim intact' : ',VICTIM DESTROYED');
});
check('$lockpath vanished after construction', '-2 -2 null', function () use ($sandbox) {
    mkdir($sandbox . 'vanish');
    $l = lock_with($sandbox . 'vanish/');
    rmdir($sandbox . 'vanish');
    return $l->try_lock() . ' ' . $l->lock(0.1) . ' ' . json_encode($l->unlock());
});
check('$lockpath vanished: lock() without timeout returns, no hang', '-2', function () use ($sandbox) {
    $l = lock_with($sandbox . 'vanish2/');
    $pid = pcntl_fork();
    if ($pid === 0) {
        pcntl_alarm(5);  // a hang ends in SIGALRM
        exit($l->lock() === -2 ? 0 : 1);
    }
    [$code, $signal] = rel_wait($pid);
    return $signal !== null ? "hung (signal $signal)" : ($code === 0 ? '-2' : 'other result');
});
check('$lockpath vanished while held: unlock()', 'null', function () use ($sandbox) {
    mkdir($sandbox . 'vanish3');
    $l = lock_with($sandbox . 'vanish3/');
    $l->try_lock();
    unlink($sandbox . 'vanish3/x.lock');
    rmdir($sandbox . 'vanish3');
    return json_encode($l->unlock());
});
check('$lockpath renamed away while a waiter waits: -2 quickly, no spinning', '-2 quickly', function () use ($sandbox) {
    mkdir($sandbox . 'moving');
    $holder = hold_elsewhere($sandbox . 'moving/', 'x', 200, function () use ($sandbox) {
        rename($sandbox . 'moving', $sandbox . 'moved');
    });
    $cpu0 = getrusage();
    $t0 = microtime(true);
    $r = lock_with($sandbox . 'moving/')->lock(3.0);
    $waited = microtime(true) - $t0;
    $cpu1 = getrusage();
    rel_wait($holder);
    array_map('unlink', glob($sandbox . 'moved/*'));
    rmdir($sandbox . 'moved');
    $cpu = ($cpu1['ru_utime.tv_sec'] + $cpu1['ru_stime.tv_sec'] - $cpu0['ru_utime.tv_sec'] - $cpu0['ru_stime.tv_sec'])
        + ($cpu1['ru_utime.tv_usec'] + $cpu1['ru_stime.tv_usec'] - $cpu0['ru_utime.tv_usec'] - $cpu0['ru_stime.tv_usec']) / 1e6;
    return $r . ($waited < 1.0 && $cpu < 0.2 ? ' quickly' : sprintf(' after %.0f ms, %.0f ms CPU', $waited * 1000, $cpu * 1000));
});
check('$lockpath replaced (renamed away, recreated): the next hand-off is still woken at once', 'woken', function () use ($sandbox) {
    $dir = $sandbox . 'replaced/';
    $stamp = $sandbox . 'released-at';
    mkdir($dir);
    lock_with($dir)->lock(0.1);                    // this process now watches the directory
    rename($sandbox . 'replaced', $sandbox . 'replaced-old');
    mkdir($dir);
    // The holder notes when it released and stays alive: only the inotify event (not its
    // death) can wake the waiter. 600 ms falls between the fallback poll's attempts
    // (50, 150, 350, 750 ms), so a missed event costs ~150 ms.
    $holder = hold_elsewhere($dir, 'x', 600, function (Filelock $l) use ($stamp) {
        $l->unlock();
        file_put_contents($stamp, (string) hrtime(true));
        usleep(500000);
    });
    $l = lock_with($dir);
    $r = $l->lock(5.0);
    $acquiredAt = hrtime(true);
    $l->unlock();
    rel_wait($holder);
    $latency = ($acquiredAt - (int) file_get_contents($stamp)) / 1e6;
    unlink($stamp);
    foreach (['replaced', 'replaced-old'] as $d) {
        array_map('unlink', glob("$sandbox$d/*"));
        rmdir("$sandbox$d");
    }
    return $r === 1 && $latency < 30 ? 'woken' : sprintf('%d, %.0f ms after the release (missed it)', $r, $latency);
});

// --- things planted at the lock path ------------------------------------------------------
Filelock::$lockpath = $locks;
check('symlink to a file planted at the lock path', '-1 -1 true,victim intact', function () use ($locks, $victim) {
    symlink($victim, $locks . 'planted.lock');
    $l = new Filelock('planted');
    $r = $l->try_lock() . ' ' . $l->lock(0.05) . ' ' . json_encode($l->is_locked());
    $l->unlock(true);
    return $r . (file_get_contents($victim) === 'precious' && is_file($victim) && !file_exists($locks . 'planted.lock') ? ',victim intact' : ',victim touched');
});
check('dangling symlink planted at the lock path', '-1,target not created', function () use ($locks, $sandbox) {
    symlink($sandbox . 'created-through-link', $locks . 'dangling.lock');
    $r = (new Filelock('dangling'))->try_lock();
    unlink($locks . 'dangling.lock');
    return $r . (file_exists($sandbox . 'created-through-link') ? ',target created' : ',target not created');
});
check('FIFO planted at the lock path (no hang)', '-1 -1 true quickly', function () use ($locks) {
    posix_mkfifo($locks . 'fifo.lock', 0600);
    $t0 = microtime(true);
    $l = new Filelock('fifo');
    $r = $l->try_lock() . ' ' . $l->lock(0.1) . ' ' . json_encode($l->is_locked());
    unlink($locks . 'fifo.lock');
    return $r . (microtime(true) - $t0 < 0.5 ? ' quickly' : ' slowly');
});
check('directory planted at the lock path', '-1 true', function () use ($locks) {
    mkdir($locks . 'dir.lock');
    $l = new Filelock('dir');
    $r = $l->try_lock() . ' ' . json_encode($l->is_locked());
    rmdir($locks . 'dir.lock');
    return $r;
});

// Symlinks planted at the temp-file path need a predictable temp name: covered by the core
// test tests/reliability/core/planted_temp_path_test.cpp (run by tests/reliability/run.sh).

// --- verdict -------------------------------------------------------------------------------
$failures = [];
foreach ($results as [$label, $expected, $actual]) {
    if ($expected !== $actual) {
        $failures[] = "$label: expected '$expected', got '$actual'";
    }
}
foreach (array_diff(scandir($sandbox), ['.', '..'], $invited) as $stray) {
    $failures[] = "file outside \$lockpath: $stray";
}
if (file_get_contents($victim) !== 'precious') {
    $failures[] = 'the victim file was modified';
}
$left = array_diff(scandir($locks), ['.', '..']);
@array_map('unlink', array_map(fn($f) => $sandbox . $f, ['afile', 'dirlink', 'filelink', 'dangling', 'victim']));
@array_map('unlink', glob($sandbox . 'target/*'));
@rmdir($sandbox . 'target');
$backend->cleanup();
rel_report($opt['test'], 'file', $tried, count($results), $failures, $started,
    ['cases' => array_map(fn($r) => "$r[0] => $r[2]", $results)]);
exit($failures ? 1 : 0);
